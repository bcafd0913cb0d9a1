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
	"maestro/backend/toolbox"
	"maestro/backend/tools"
)

// AgentTools returns the sessions' MCP tools as the agent uses them: the
// toolbox (backend/toolbox) over a's registry and supervisor, once they
// are built at startup. Before that, or without connectors, sessions have
// no tools. main passes it as ChatDeps.Tools.
func AgentTools(a *App) agent.Tools { return agentTools{a: a} }

type agentTools struct{ a *App }

func (t agentTools) box() *toolbox.Toolbox {
	if t.a.conns == nil {
		return nil
	}
	t.a.conns.mu.Lock()
	defer t.a.conns.mu.Unlock()
	return t.a.conns.box
}

// Overlay implements agent.Tools.
func (t agentTools) Overlay(ctx context.Context, sessionID, provider string, used []string) (agent.Overlay, error) {
	box := t.box()
	if box == nil {
		return agent.Overlay{}, nil
	}
	return box.Overlay(ctx, sessionID, provider, used)
}

// Call implements agent.Tools.
func (t agentTools) Call(ctx context.Context, req agent.CallRequest, report func(agent.ToolUpdate)) chat.ToolResult {
	box := t.box()
	if box == nil {
		return tools.ErrorResult(req.Call.ID, req.Call.Name, "no MCP connectors are available")
	}
	return box.Call(ctx, req, report)
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
