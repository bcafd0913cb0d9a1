package app

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"unicode"

	"maestro/backend/chat"
	"maestro/backend/mcp"
	"maestro/backend/tools"
)

// Trust you can see (issue 16, docs/SECURITY.md): each connector's approval
// policy, its grants for every chat, its audit log and its MCP tasks, the
// Connectors page's Trust drawer and the chat's job cards.

// EventTaskChanged carries a TaskDTO each time one of a connector's tasks
// changes (the job card in the chat, the connector's task list).
const EventTaskChanged Event = "task:changed"

// TaskDTO is one tool call running as an MCP task (task:changed,
// Connectors.Tasks).
type TaskDTO = mcp.Task

// GrantDTO is an "always allow in every chat" grant.
type GrantDTO = tools.Grant

// AuditRecordDTO is one call in a connector's audit log.
type AuditRecordDTO = chat.AuditRecord

// taskEvents emits task:changed from the supervisor's task goroutines.
type taskEvents struct{ c *Connectors }

func (e taskEvents) TaskChanged(t mcp.Task) { e.c.core.events.emit(EventTaskChanged, t) }

// Tasks lists a connector's tasks, running and the latest ended, newest
// first.
func (c *Connectors) Tasks(id string) ([]TaskDTO, error) {
	run, _, cancel, err := c.ready()
	if err != nil {
		return nil, err
	}
	defer cancel()
	return run.sup.Tasks(id)
}

// CancelTask asks a connector's server to cancel one of its tasks.
func (c *Connectors) CancelTask(id, taskID string) error {
	run, ctx, cancel, err := c.ready()
	if err != nil {
		return err
	}
	defer cancel()
	return run.sup.CancelTask(ctx, id, taskID)
}

// SetApproval sets how a connector's tool calls are approved in every chat
// that does not set its own: ask, read_only or all. The policy is host-side
// state: the running server and its session carry on (mcp.Supervisor.Update).
func (c *Connectors) SetApproval(id string, policy chat.ToolPolicy) (ConnectorDTO, error) {
	if !policy.Valid() {
		return ConnectorDTO{}, chat.E(chat.ErrInvalid, "unknown approval policy %.40q: use ask, read_only or all", policy)
	}
	run, ctx, cancel, err := c.ready()
	if err != nil {
		return ConnectorDTO{}, err
	}
	defer cancel()
	cfg, err := run.sup.Modify(ctx, id, func(cfg *mcp.Connector) error {
		cfg.Approval = policy
		cfg.TrustReadOnlyHints = false // the policy says it now
		return nil
	})
	if err != nil {
		return ConnectorDTO{}, err
	}
	c.remember(cfg)
	return connectorNow(run.sup, id)
}

// SetSessionApproval overrides a connector's approval policy in one chat;
// "" follows the connector's again.
func (c *Connectors) SetSessionApproval(sessionID, connectorID string, policy chat.ToolPolicy) error {
	if policy != "" && !policy.Valid() {
		return chat.E(chat.ErrInvalid, "unknown approval policy %.40q: use ask, read_only or all", policy)
	}
	run, ctx, cancel, err := c.ready()
	if err != nil {
		return err
	}
	defer cancel()
	_, err = run.store.UpdateSession(ctx, sessionID, func(s *chat.Session) error {
		if policy == "" {
			delete(s.ConnectorPolicies, connectorID)
			return nil
		}
		if s.ConnectorPolicies == nil {
			s.ConnectorPolicies = map[string]chat.ToolPolicy{}
		}
		s.ConnectorPolicies[connectorID] = policy
		return nil
	})
	return err
}

// Grants lists the tools of a connector allowed in every chat.
func (c *Connectors) Grants(id string) ([]GrantDTO, error) {
	run, ctx, cancel, err := c.ready()
	if err != nil {
		return nil, err
	}
	defer cancel()
	return tools.NewTrust(run.store).Grants(ctx, id)
}

// RevokeGrant removes a tool's grant for every chat: its next call asks.
func (c *Connectors) RevokeGrant(id, tool string) error {
	run, ctx, cancel, err := c.ready()
	if err != nil {
		return err
	}
	defer cancel()
	return tools.NewTrust(run.store).Revoke(ctx, id, tool)
}

// Audit returns a connector's audit log, oldest first (secrets redacted).
func (c *Connectors) Audit(id string) ([]AuditRecordDTO, error) {
	run, ctx, cancel, err := c.ready()
	if err != nil {
		return nil, err
	}
	defer cancel()
	return mcp.NewAuditLog(run.store).Records(ctx, id)
}

// ExportAudit asks where to save a connector's audit log and writes it
// there as JSON Lines; "" when the user cancelled.
func (c *Connectors) ExportAudit(id string) (string, error) {
	run, ctx, cancel, err := c.ready()
	if err != nil {
		return "", err
	}
	defer cancel()
	cfg, err := run.sup.Connector(id)
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if err := mcp.NewAuditLog(run.store).Export(ctx, id, &buf); err != nil {
		return "", err
	}
	path, err := c.core.dialog(c.core.rt.SaveFileDialog, FileDialog{
		Title: "Export the audit log", DefaultFilename: auditFileName(cfg.DisplayName()),
		Filters: []FileFilter{{DisplayName: "JSON Lines (*.jsonl)", Pattern: "*.jsonl"}},
	})
	if err != nil || path == "" {
		return "", err
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	return path, nil
}

// auditFileName is the suggested file name of a connector's audit log:
// its name with anything but letters and digits turned into dashes.
func auditFileName(name string) string {
	clean := strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return '-'
	}, name)
	return strings.Trim(clean, "-") + "-audit.jsonl"
}
