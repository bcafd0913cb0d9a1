package app

import (
	"cmp"
	"errors"
	"path/filepath"
	"slices"
	"strings"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/mcp"
	"maestro/backend/tools"
)

// SessionTools returns a session's Tools panel: every connector with its
// state, whether it is on in the session, and all its tools (not only the
// enabled ones), with the session's tools revision and folders.
func (c *Connectors) SessionTools(sessionID string) (SessionToolsDTO, error) {
	run, ctx, cancel, err := c.ready()
	if err != nil {
		return SessionToolsDTO{}, err
	}
	defer cancel()
	snap, err := run.reg.Snapshot(ctx, sessionID)
	if err != nil {
		return SessionToolsDTO{}, err
	}
	sess, err := run.store.Session(ctx, sessionID)
	if err != nil {
		return SessionToolsDTO{}, err
	}
	disabled := map[string]bool{}
	for _, name := range sess.DisabledTools {
		disabled[name] = true
	}
	out := SessionToolsDTO{SessionID: sessionID, Revision: snap.Revision, Roots: nonNil(slices.Clone(sess.Roots)),
		Connectors: []SessionConnectorDTO{}}
	for _, cfg := range run.sup.Connectors() {
		st, err := run.sup.Status(cfg.ID)
		if err != nil {
			continue
		}
		dto := SessionConnectorDTO{
			ID: cfg.ID, Name: cfg.DisplayName(), State: string(st.State), Error: st.Error,
			Available: !cfg.Disabled, EnabledInSession: slices.Contains(sess.EnabledConnectors, cfg.ID),
			Tools:        []SessionToolDTO{},
			Approval:     string(agent.ConnectorPolicy(cfg.Approval, cfg.TrustReadOnlyHints, run.agent.ApprovalDefault())),
			ChatApproval: string(sess.ConnectorPolicies[cfg.ID]), Icons: shownIcons(cfg, st.Icons),
		}
		slug, known := run.reg.Slug(cfg.ID)
		if !known {
			slug = tools.ServerSlug(cfg.DisplayName())
		}
		if list, err := run.sup.Tools(cfg.ID); err == nil {
			dto.ToolCount = len(list)
			for _, t := range list {
				canonical := slug + "." + t.Name
				dto.Tools = append(dto.Tools, SessionToolDTO{
					Canonical: canonical, Name: t.Name, Title: cmp.Or(t.Title, t.Annotations.Title),
					Description: t.Description, Enabled: !disabled[canonical], ReadOnly: readOnly(t),
					Hints: hintsDTO(chat.ToolHints{ReadOnly: t.Annotations.ReadOnlyHint, Destructive: t.Annotations.DestructiveHint,
						Idempotent: t.Annotations.IdempotentHint, OpenWorld: t.Annotations.OpenWorldHint}),
					Icons: shownIcons(cfg, mcp.ToolIcons(t)), AppOnly: mcp.ModelHidden(t),
				})
			}
		} else {
			// Not running: show what the session last knew of its tools.
			for _, e := range snap.Entries {
				if e.ConnectorID == cfg.ID {
					dto.Tools = append(dto.Tools, SessionToolDTO{
						Canonical: e.Canonical, Name: e.Tool, Title: e.Title, Description: e.Description,
						Enabled: !disabled[e.Canonical], ReadOnly: e.ReadOnlyHint(),
						Hints: hintsDTO(tools.DefinitionOf(e).Hints), Icons: shownIcons(cfg, e.Icons), AppOnly: e.AppOnly,
					})
				}
			}
		}
		slices.SortFunc(dto.Tools, func(x, y SessionToolDTO) int { return cmp.Compare(x.Name, y.Name) })
		out.Connectors = append(out.Connectors, dto)
	}
	return out, nil
}

// hintsDTO is a tool's annotations without the title (shown apart), nil
// when the server states none.
func hintsDTO(h chat.ToolHints) *chat.ToolHints {
	h.Title = ""
	if h == (chat.ToolHints{}) {
		return nil
	}
	return &h
}

// SetSessionConnector turns a connector's tools on or off in a session and
// returns the session's tools revision. The next request uses the new
// tools (or the running one, after ApplyNow).
func (c *Connectors) SetSessionConnector(sessionID, connectorID string, on bool) (int64, error) {
	run, ctx, cancel, err := c.ready()
	if err != nil {
		return 0, err
	}
	defer cancel()
	if on {
		if _, err := run.sup.Connector(connectorID); err != nil {
			return 0, err
		}
	}
	rev, err := run.reg.SetConnectorEnabled(ctx, sessionID, connectorID, on)
	if err == nil && !on {
		// The chat no longer sees the connector's resources: stop following them.
		if uerr := run.sup.UnsubscribeSession(ctx, sessionID, connectorID); uerr != nil {
			c.core.log.Warn("unsubscribe a chat's resources", "session", sessionID, "connector", connectorID, "err", uerr)
		}
	}
	return rev, err
}

// SetSessionTool turns one tool (canonical name server.tool) on or off in a
// session and returns the session's tools revision.
func (c *Connectors) SetSessionTool(sessionID, canonical string, on bool) (int64, error) {
	run, ctx, cancel, err := c.ready()
	if err != nil {
		return 0, err
	}
	defer cancel()
	return run.reg.SetToolEnabled(ctx, sessionID, canonical, on)
}

// SetSessionRoots sets the folders a session offers to MCP servers that use
// roots (servers are told the list changed) and returns them as stored:
// absolute, cleaned, without duplicates.
func (c *Connectors) SetSessionRoots(sessionID string, roots []string) ([]string, error) {
	run, ctx, cancel, err := c.ready()
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
	if _, err := run.store.UpdateSession(ctx, sessionID, func(s *chat.Session) error {
		s.Roots = clean
		return nil
	}); err != nil {
		return nil, err
	}
	if err := run.sup.SetRoots(ctx, sessionID, toRoots(clean)); err != nil {
		if errors.Is(err, chat.ErrInvalid) {
			return nil, err
		}
		// Stored; a server that missed the news asks again on restart.
		c.core.log.Warn("announce session folders", "session", sessionID, "err", err)
	}
	return clean, nil
}
