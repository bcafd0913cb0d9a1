package chat

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// ApprovalMode is a session's policy for the tool calls that reach an MCP
// server. Maestro's own search_tools, which reaches none, runs in every
// mode.
type ApprovalMode string

const (
	// ApprovalAsk asks the user for every call, unless the session has
	// granted "Always allow" for the tool, or the tool's server marks it
	// read-only and the user chose to trust that connector's read-only
	// hints (a per-connector setting, off by default). A hint alone
	// grants nothing.
	ApprovalAsk ApprovalMode = "ask"
	// ApprovalAllowAll runs every tool without asking.
	ApprovalAllowAll ApprovalMode = "allow_all"
	// ApprovalDenyAll denies every call, whatever the server claims and
	// whatever the session granted before.
	ApprovalDenyAll ApprovalMode = "deny_all"
)

// MaxTitleLen bounds a session title in runes.
const MaxTitleLen = 200

// Session is one conversation and its live tool overlay.
type Session struct {
	ID           string `json:"id"`
	Title        string `json:"title"`
	Provider     string `json:"provider,omitempty"`
	Model        string `json:"model,omitempty"`
	SystemPrompt string `json:"systemPrompt,omitempty"`

	// EnabledConnectors lists connector ids whose tools this session may use.
	EnabledConnectors []string `json:"enabledConnectors,omitempty"`
	// DisabledTools lists canonical tool names (server.tool) switched off
	// individually inside an enabled connector.
	DisabledTools []string `json:"disabledTools,omitempty"`
	// Grants lists canonical tool names the user chose "Always allow" for.
	Grants   []string     `json:"grants,omitempty"`
	Approval ApprovalMode `json:"approval,omitempty"`
	// ConnectorPolicies overrides, in this chat, the approval policy of a
	// connector (by connector id) that the user set in Settings.
	ConnectorPolicies map[string]ToolPolicy `json:"connectorPolicies,omitempty"`
	// Roots are the folders offered to MCP servers that ask for roots.
	Roots []string `json:"roots,omitempty"`

	// ToolsRevision is bumped by every change to the session's tool overlay.
	ToolsRevision int64 `json:"toolsRevision"`

	// Head is the Seq of the last message of the active branch (0 before
	// the first message): the conversation shown and sent runs from the
	// root to it. Only the store's message methods move it.
	Head uint64 `json:"head,omitempty"`

	// Usage adds up the Usage of every message stored in the session, on
	// every branch, summary nodes included: what the chat has cost. Only
	// the store's message methods change it.
	Usage Usage `json:"usage,omitzero"`

	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// NormalizeTitle trims a user-typed title and checks its length. An empty
// title is invalid: callers decide the default before they get here.
func NormalizeTitle(title string) (string, error) {
	t := strings.Join(strings.Fields(title), " ")
	if t == "" {
		return "", fmt.Errorf("session title is empty: %w", ErrInvalid)
	}
	if n := utf8.RuneCountInString(t); n > MaxTitleLen {
		return "", fmt.Errorf("session title has %d characters, at most %d allowed: %w", n, MaxTitleLen, ErrInvalid)
	}
	return t, nil
}
