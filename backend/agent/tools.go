package agent

import (
	"context"
	"strings"
	"time"

	"maestro/backend/chat"
)

// Tools is the session's live tool set as the agent uses it (implemented by
// the tool registry (backend/tools) and the MCP supervisor).
type Tools interface {
	// Overlay returns the tools to declare to provider for the session's
	// next request. used lists canonical tool names the session's history
	// called, most recent first, for registries that must choose within a
	// provider's tool budget.
	Overlay(ctx context.Context, sessionID, provider string, used []string) (Overlay, error)
	// Call runs one tool call. It never fails: every failure, cancellation
	// included, is a result with Successful false. When ctx is cancelled it
	// cancels the call on the server (notifications/cancelled) and returns
	// promptly. report relays progress and log notifications; it may be
	// called from any goroutine until Call returns, and is ignored after
	// that.
	Call(ctx context.Context, req CallRequest, report func(ToolUpdate)) chat.ToolResult
}

// CallRequest is one approved tool call to run.
type CallRequest struct {
	RunID     string
	SessionID string
	// Provider is the provider of the step that made the call (the
	// built-in search_tools describes tools by this provider's names).
	Provider string
	// Call has the canonical id, the canonical name (server.tool) and the
	// complete arguments.
	Call   chat.ToolCall
	Server string
}

// Overlay is a session's tools as declared to one provider at one
// revision.
type Overlay struct {
	Revision int64
	// Tools are declared in the request, already named and shaped for the
	// provider.
	Tools []chat.Tool
	// Names maps canonical names to exposed names, for every tool the
	// session knows (declared or not), so history renders with them.
	Names map[string]string
	// Resolve maps an exposed name the model called back to its tool. When
	// nil, the declared Tools are searched (and every call of them asks).
	Resolve func(exposed string) (ToolInfo, bool)
}

// ToolInfo is what the agent needs to know about a tool the model called.
// Nothing a server says grants a call by itself: a server's annotations
// are hints from an untrusted party (docs/SECURITY.md).
type ToolInfo struct {
	Canonical string
	Server    string
	// Builtin tools are Maestro's own (search_tools): they never reach a
	// server, so they run without asking whatever the session's policy.
	Builtin bool
	// ReadOnlyHint is the server's readOnlyHint: a claim the user is
	// shown, never checked and never enough on its own.
	ReadOnlyHint bool
	// TrustReadOnly is the user's choice, made per connector, to run the
	// tools its server marks read-only without asking (off by default). It
	// is the read_only Policy of connectors set before policies existed.
	TrustReadOnly bool
	// ConnectorName is the connector's display name (for the audit log).
	ConnectorName string
	// Definition is the tool as its server defines it (the app fills it
	// with tools.DefinitionOf): what a pin records and a changed one is
	// compared with. Its Hints are the annotations. Without a Name, calls
	// are neither pinned nor compared.
	Definition chat.ToolDefinition
	// Policy is the connector's approval policy as the user set it; the
	// session's ConnectorPolicies override it. "" falls back to
	// TrustReadOnly (read_only) or ask.
	Policy chat.ToolPolicy
	// AppOnly marks a tool only its MCP App may call (docs/APPS.md): a
	// model's call of it is answered as an unknown tool.
	AppOnly bool
}

// policy is the connector's policy in sess: the chat's override, else the
// connector's, else def (the approval default).
func (t ToolInfo) policy(sess chat.Session, def chat.ToolPolicy) chat.ToolPolicy {
	if p := sess.ConnectorPolicies[t.Definition.ConnectorID]; p.Valid() && t.Definition.ConnectorID != "" {
		return p
	}
	return ConnectorPolicy(t.Policy, t.TrustReadOnly, def)
}

// ConnectorPolicy is a connector's policy in the chats that do not
// override it: its own, else read_only when it trusts read-only hints (set
// before policies existed), else def (the approval default). The Tools
// panel shows it as what "as the connector" means.
func ConnectorPolicy(own chat.ToolPolicy, trustReadOnly bool, def chat.ToolPolicy) chat.ToolPolicy {
	switch {
	case own.Valid():
		return own
	case trustReadOnly:
		return chat.PolicyReadOnly
	}
	return def
}

// hints are the server's annotations (its claims): the definition's, or,
// for an overlay that gives none, the read-only hint alone.
func (t ToolInfo) hints() chat.ToolHints {
	h := t.Definition.Hints
	if h.ReadOnly == nil && t.ReadOnlyHint {
		ro := true
		h.ReadOnly = &ro
	}
	return h
}

// resolve maps an exposed name to its tool.
func (o Overlay) resolve(exposed string) (ToolInfo, bool) {
	if o.Resolve != nil {
		return o.Resolve(exposed)
	}
	for _, t := range o.Tools {
		if t.Name == exposed {
			return ToolInfo{Canonical: t.Canonical, Server: serverOf(t.Canonical)}, true
		}
	}
	return ToolInfo{}, false
}

func serverOf(canonical string) string {
	server, _, ok := strings.Cut(canonical, ".")
	if !ok {
		return ""
	}
	return server
}

// ToolUpdate is a notification a server sent during a call: progress
// (notifications/progress) or a log line (notifications/message).
type ToolUpdate struct {
	Kind UpdateKind
	// Progress and Total (0 when unknown) for UpdateProgress.
	Progress, Total float64
	// Message is the progress message or the log text.
	Message string
	// Level is the log level for UpdateLog.
	Level string
}

// UpdateKind says what a ToolUpdate carries.
type UpdateKind int

const (
	UpdateProgress UpdateKind = iota
	UpdateLog
)

// Approver asks the user whether a tool call may run. The app implements
// it by showing the approval card and waiting for the answer; it returns
// ctx's error when the run is stopped while it waits.
type Approver interface {
	Approve(ctx context.Context, req ApprovalRequest) (Decision, error)
}

// ApprovalRequest is one call awaiting the user's decision.
type ApprovalRequest struct {
	RunID     string
	SessionID string
	// Call has the canonical id and name and the complete arguments.
	Call   chat.ToolCall
	Server string
	// ReadOnlyHint is set when the server claims the tool only reads: the
	// question says the claim is the server's.
	ReadOnlyHint bool
	// Hints are all the server's annotations, for the question to show as
	// claims; Destructive is set when the tool may destroy (the protocol's
	// reading: not read-only and not said otherwise).
	Hints       chat.ToolHints
	Destructive bool
	// Change is set when the user allowed this tool before and its
	// definition changed since: the question shows the diff.
	Change *chat.DefinitionChange
	// RequestedBy is chat.RequestedByApp when an MCP App's UI asked for
	// the call rather than the model: the question says so.
	RequestedBy string
}

// Decision is the user's answer to an approval request.
type Decision int

const (
	// Deny sends the model an error result saying the user declined.
	Deny Decision = iota
	// AllowOnce runs this call.
	AllowOnce
	// AlwaysAllow runs this call and adds the tool to the session's grants,
	// so later calls of it run without asking.
	AlwaysAllow
	// AlwaysAllowAllChats runs this call and grants the tool in every chat
	// (Trust), so later calls of it run without asking anywhere, until its
	// definition changes.
	AlwaysAllowAllChats
)

func (d Decision) String() string {
	switch d {
	case AllowOnce:
		return "allow_once"
	case AlwaysAllow:
		return "always_allow"
	case AlwaysAllowAllChats:
		return "always_allow_all_chats"
	}
	return "deny"
}

// Trust keeps the user's decisions about tools that outlive a session:
// definitions pinned when the user allowed them, and grants for every chat.
// *tools.Trust satisfies it.
type Trust interface {
	// Standing returns the grant for every chat, and the change since the
	// definition the user allowed (nil when none).
	Standing(ctx context.Context, def chat.ToolDefinition) (chat.ToolStanding, error)
	// Allowed records that the tool runs with the user's leave: its
	// definition is pinned, and with allChats granted in every chat.
	Allowed(ctx context.Context, def chat.ToolDefinition, allChats bool) error
}

// AuditLog records every call that reached approval, with who let it run
// (or refused it) and how it ended. *mcp.AuditLog satisfies it, redacting
// the arguments' secrets.
type AuditLog interface {
	Record(ctx context.Context, rec chat.AuditRecord) error
}

// Store is the part of backend/store the agent uses; *store.Store
// satisfies it.
type Store interface {
	Session(ctx context.Context, id string) (chat.Session, error)
	UpdateSession(ctx context.Context, id string, fn func(*chat.Session) error) (chat.Session, error)
	// ActiveTail returns the session and the end of its active branch,
	// oldest first: the messages from its head back for as long as keep
	// reports true (the first one it refuses is left out), read in one
	// transaction. Only those are decoded.
	ActiveTail(ctx context.Context, sessionID string, keep func(chat.Message) bool) (chat.Session, []chat.Message, error)
	// TailFrom is ActiveTail walked back from the message at seq, which
	// must be on the active branch (a regenerated answer).
	TailFrom(ctx context.Context, sessionID string, seq uint64, keep func(chat.Message) bool) (chat.Session, []chat.Message, error)
	// Message returns one message by Seq; OnActivePath reports whether it
	// is on the active branch (an edit of a message older than the tail
	// the agent holds).
	Message(ctx context.Context, sessionID string, seq uint64) (chat.Message, error)
	OnActivePath(ctx context.Context, sessionID string, seq uint64) (bool, error)
	// AppendMessage adds msg after the session's head (the last message of
	// its active branch) and moves the head to it.
	AppendMessage(ctx context.Context, sessionID string, msg chat.Message) (chat.Message, error)
	// ForkMessage stores msg as a sibling of the message at seq and moves
	// the head to it; the old branch is kept.
	ForkMessage(ctx context.Context, sessionID string, seq uint64, msg chat.Message) (chat.Message, error)
	PutMessage(ctx context.Context, sessionID string, msg chat.Message) error
}

// Clock is the agent's time source: checkpoint spacing, retry waits and
// durations. Tests inject a fake one.
type Clock interface {
	Now() time.Time
	// Sleep waits for d or until ctx ends, returning ctx's error then.
	Sleep(ctx context.Context, d time.Duration) error
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
