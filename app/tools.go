package app

import (
	"cmp"
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/mcp"
	"maestro/backend/tools"
)

// AgentTools returns the sessions' MCP tools as the agent uses them, backed
// by a's connectors (EnableConnectors): the overlay comes from the
// session's registry snapshot, calls go to the supervisor. Before startup,
// or without connectors, sessions have no tools. main passes it as
// ChatDeps.Tools.
func AgentTools(a *App) agent.Tools { return agentTools{a: a} }

type agentTools struct{ a *App }

func (t agentTools) current() (*connectorsState, *mcp.Supervisor, *tools.Registry) {
	c := t.a.conns
	if c == nil {
		return nil, nil, nil
	}
	sup, reg := c.current()
	return c, sup, reg
}

// Overlay implements agent.Tools.
func (t agentTools) Overlay(ctx context.Context, sessionID, provider string, used []string) (agent.Overlay, error) {
	_, sup, reg := t.current()
	if reg == nil {
		return agent.Overlay{}, nil
	}
	snap, err := reg.Snapshot(ctx, sessionID)
	if err != nil {
		return agent.Overlay{}, err
	}
	tools, names := snap.Overlay(provider, used)
	return agent.Overlay{
		Revision: snap.Revision,
		Tools:    tools,
		Names:    names,
		Resolve: func(exposed string) (agent.ToolInfo, bool) {
			e, ok := snap.Resolve(provider, exposed)
			if !ok {
				return agent.ToolInfo{}, false
			}
			info := agent.ToolInfo{Canonical: e.Canonical, Server: e.Server, Builtin: e.Builtin, ReadOnlyHint: e.ReadOnlyHint()}
			if sup != nil && !e.Builtin {
				if cfg, err := sup.Connector(e.ConnectorID); err == nil {
					info.TrustReadOnly = cfg.TrustReadOnlyHints
				}
			}
			return info, true
		},
	}, nil
}

// Call implements agent.Tools. The tool is looked up by its canonical name
// in the session's current snapshot, so a tool switched off since the
// request was built is not run. The server's progress notifications and
// log messages go to report.
func (t agentTools) Call(ctx context.Context, req agent.CallRequest, report func(agent.ToolUpdate)) chat.ToolResult {
	c, sup, reg := t.current()
	name := req.Call.Name
	if reg == nil || sup == nil {
		return tools.ErrorResult(req.Call.ID, name, "no MCP connectors are available")
	}
	if name == tools.SearchToolName {
		res, err := reg.SearchTools(ctx, req.SessionID, req.Provider, req.Call.Arguments)
		if err != nil {
			return tools.ErrorResult(req.Call.ID, name, err.Error())
		}
		res.CallID, res.Name = req.Call.ID, name
		return res
	}
	snap, err := reg.Snapshot(ctx, req.SessionID)
	if err != nil {
		return tools.ErrorResult(req.Call.ID, name, err.Error())
	}
	exposed := name
	e, ok := snap.Lookup(name)
	if ok {
		exposed = e.Name(req.Provider)
		done := c.addCall(e.ConnectorID, &liveCall{report: func(u mcpUpdate) {
			report(agent.ToolUpdate{Kind: agent.UpdateLog, Level: u.level, Message: u.text})
		}})
		defer done()
	}
	res := sup.Call(ctx, snap, mcp.CallRequest{
		SessionID: req.SessionID, CallID: req.Call.ID, Provider: req.Provider, Name: exposed,
		Arguments: req.Call.Arguments,
		OnProgress: func(p mcp.Progress) {
			report(agent.ToolUpdate{Kind: agent.UpdateProgress, Progress: p.Progress, Total: p.Total, Message: p.Message})
		},
	})
	if !ok {
		res.Name = name
	}
	return res
}

// SessionTools returns a session's Tools panel: every connector with its
// state, whether it is on in the session, and all its tools (not only the
// enabled ones), with the session's tools revision and folders.
func (a *App) SessionTools(sessionID string) (SessionToolsDTO, error) {
	cn, ctx, cancel, err := a.connectorsReady()
	if err != nil {
		return SessionToolsDTO{}, err
	}
	defer cancel()
	snap, err := cn.reg.Snapshot(ctx, sessionID)
	if err != nil {
		return SessionToolsDTO{}, err
	}
	sess, err := cn.st.Session(ctx, sessionID)
	if err != nil {
		return SessionToolsDTO{}, err
	}
	disabled := map[string]bool{}
	for _, c := range sess.DisabledTools {
		disabled[c] = true
	}
	out := SessionToolsDTO{SessionID: sessionID, Revision: snap.Revision, Roots: nonNil(slices.Clone(sess.Roots)),
		Connectors: []SessionConnectorDTO{}}
	for _, cfg := range cn.sup.Connectors() {
		st, err := cn.sup.Status(cfg.ID)
		if err != nil {
			continue
		}
		dto := SessionConnectorDTO{
			ID: cfg.ID, Name: cfg.DisplayName(), State: string(st.State), Error: st.Error,
			Available: !cfg.Disabled, EnabledInSession: slices.Contains(sess.EnabledConnectors, cfg.ID),
			Tools: []SessionToolDTO{},
		}
		slug, known := cn.reg.Slug(cfg.ID)
		if !known {
			slug = tools.ServerSlug(cfg.DisplayName())
		}
		if tools, err := cn.sup.Tools(cfg.ID); err == nil {
			dto.ToolCount = len(tools)
			for _, t := range tools {
				canonical := slug + "." + t.Name
				dto.Tools = append(dto.Tools, SessionToolDTO{
					Canonical: canonical, Name: t.Name, Title: cmp.Or(t.Title, t.Annotations.Title),
					Description: t.Description, Enabled: !disabled[canonical], ReadOnly: readOnly(t),
				})
			}
		} else {
			// Not running: show what the session last knew of its tools.
			for _, e := range snap.Entries {
				if e.ConnectorID == cfg.ID {
					dto.Tools = append(dto.Tools, SessionToolDTO{
						Canonical: e.Canonical, Name: e.Tool, Title: e.Title, Description: e.Description,
						Enabled: !disabled[e.Canonical], ReadOnly: e.ReadOnlyHint(),
					})
				}
			}
		}
		slices.SortFunc(dto.Tools, func(x, y SessionToolDTO) int { return cmp.Compare(x.Name, y.Name) })
		out.Connectors = append(out.Connectors, dto)
	}
	return out, nil
}

func readOnly(t mcpgo.Tool) bool {
	return t.Annotations.ReadOnlyHint != nil && *t.Annotations.ReadOnlyHint
}

// SetSessionConnector turns a connector's tools on or off in a session and
// returns the session's tools revision. The next request uses the new
// tools (or the running one, after ApplyNow).
func (a *App) SetSessionConnector(sessionID, connectorID string, on bool) (int64, error) {
	cn, ctx, cancel, err := a.connectorsReady()
	if err != nil {
		return 0, err
	}
	defer cancel()
	if on {
		if _, err := cn.sup.Connector(connectorID); err != nil {
			return 0, err
		}
	}
	return cn.reg.SetConnectorEnabled(ctx, sessionID, connectorID, on)
}

// SetSessionTool turns one tool (canonical name server.tool) on or off in a
// session and returns the session's tools revision.
func (a *App) SetSessionTool(sessionID, canonical string, on bool) (int64, error) {
	cn, ctx, cancel, err := a.connectorsReady()
	if err != nil {
		return 0, err
	}
	defer cancel()
	return cn.reg.SetToolEnabled(ctx, sessionID, canonical, on)
}

// SetSessionRoots sets the folders a session offers to MCP servers that use
// roots (servers are told the list changed) and returns them as stored:
// absolute, cleaned, without duplicates.
func (a *App) SetSessionRoots(sessionID string, roots []string) ([]string, error) {
	cn, ctx, cancel, err := a.connectorsReady()
	if err != nil {
		return nil, err
	}
	defer cancel()
	clean := make([]string, 0, len(roots))
	for _, r := range roots {
		r = strings.TrimSpace(r)
		if r == "" {
			continue
		}
		if !filepath.IsAbs(r) {
			return nil, chat.E(chat.ErrInvalid, "%q is not an absolute path", r)
		}
		r = filepath.Clean(r)
		if !slices.Contains(clean, r) {
			clean = append(clean, r)
		}
	}
	if len(clean) > maxRoots {
		return nil, chat.E(chat.ErrInvalid, "a chat can offer at most %d folders", maxRoots)
	}
	if _, err := cn.st.UpdateSession(ctx, sessionID, func(s *chat.Session) error {
		s.Roots = clean
		return nil
	}); err != nil {
		return nil, err
	}
	if err := cn.sup.SetRoots(ctx, sessionID, toRoots(clean)); err != nil {
		if errors.Is(err, chat.ErrInvalid) {
			return nil, err
		}
		// Stored; a server that missed the news asks again on restart.
		a.log.Warn("announce session folders", "session", sessionID, "err", err)
	}
	return clean, nil
}

// newChatConnectors lists the connectors a new chat starts with: those on
// in new chats and not switched off. It waits briefly for the connectors to
// load at start-up; a chat made before that starts with none.
func (a *App) newChatConnectors() []string {
	if a.conns == nil {
		return nil
	}
	select {
	case <-a.conns.loaded:
	case <-time.After(2 * time.Second):
		return nil
	}
	sup, _ := a.conns.current()
	if sup == nil {
		return nil
	}
	var ids []string
	for _, c := range sup.Connectors() {
		if c.NewChats && !c.Disabled {
			ids = append(ids, c.ID)
		}
	}
	return ids
}
