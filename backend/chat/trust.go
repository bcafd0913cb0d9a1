package chat

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"
)

// Trust vocabulary (docs/SECURITY.md): the approval policy of a connector,
// a tool's definition as the user approved it, what changed since, and the
// audit record of a call.

// ToolPolicy is how a connector's tool calls are approved, in sessions whose
// ApprovalMode asks.
type ToolPolicy string

const (
	// PolicyAsk asks for every call (the default). The server's
	// annotations grant nothing.
	PolicyAsk ToolPolicy = "ask"
	// PolicyReadOnly runs without asking the tools the server marks
	// read-only (readOnlyHint), and asks for the rest: the user chose to
	// believe this server's hints.
	PolicyReadOnly ToolPolicy = "read_only"
	// PolicyAll runs every tool without asking, except those that may
	// destroy (destructiveHint, which the protocol presumes for a tool that
	// is not read-only and does not say otherwise): they ask unless the
	// user allowed that tool.
	PolicyAll ToolPolicy = "all"
)

// Valid reports whether p is one of the policies ("" is not).
func (p ToolPolicy) Valid() bool { return p == PolicyAsk || p == PolicyReadOnly || p == PolicyAll }

// ToolHints are a tool's annotations: the server's claims, never
// guarantees. A nil field is one the server did not state.
type ToolHints struct {
	Title       string `json:"title,omitempty"`
	ReadOnly    *bool  `json:"readOnlyHint,omitempty"`
	Destructive *bool  `json:"destructiveHint,omitempty"`
	Idempotent  *bool  `json:"idempotentHint,omitempty"`
	OpenWorld   *bool  `json:"openWorldHint,omitempty"`
}

// MayDestroy reports whether the tool may destroy, as the protocol reads
// the hints: destructiveHint defaults to true for a tool that is not
// read-only.
func (h ToolHints) MayDestroy() bool {
	if h.ReadOnly != nil && *h.ReadOnly {
		return false
	}
	return h.Destructive == nil || *h.Destructive
}

// IsReadOnly reports the server's readOnlyHint.
func (h ToolHints) IsReadOnly() bool { return h.ReadOnly != nil && *h.ReadOnly }

// ToolDefinition is a tool as its server defines it: what the user approves
// when they allow it, and what a pin records.
type ToolDefinition struct {
	ConnectorID string `json:"connectorId"`
	// Name is the MCP tool name.
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema,omitempty"`
	Hints       ToolHints       `json:"annotations"`
}

// Hash is the definition's fingerprint: SHA-256 over its name,
// description, input schema (keys sorted, so the server's key order does
// not matter) and annotations.
func (d ToolDefinition) Hash() string {
	h := sha256.New()
	for _, part := range [][]byte{[]byte(d.Name), []byte(d.Description), canonicalJSON(d.InputSchema), mustJSON(d.Hints)} {
		var n [8]byte
		for i, l := 0, len(part); i < 8; i, l = i+1, l>>8 {
			n[i] = byte(l)
		}
		h.Write(n[:])
		h.Write(part)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// canonicalJSON re-encodes a JSON value with its object keys sorted; bytes
// that are not JSON are kept as they are.
func canonicalJSON(raw json.RawMessage) []byte {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return raw
	}
	return mustJSON(v)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

// DiffLine is one line of a readable diff: Op is " " (kept), "-"
// (removed) or "+" (added).
type DiffLine struct {
	Op   string `json:"op"`
	Text string `json:"text"`
}

// DefinitionChange is what changed in a tool's definition since the user
// allowed it: the question asks again and shows it.
type DefinitionChange struct {
	ConnectorID string `json:"connectorId"`
	Tool        string `json:"tool"`
	// AllowedAt is when the user allowed the definition now changed.
	AllowedAt time.Time `json:"allowedAt"`
	// Description, Schema (pretty-printed, keys sorted) and Annotations
	// diffs; nil when that part did not change.
	Description []DiffLine `json:"description,omitempty"`
	Schema      []DiffLine `json:"schema,omitempty"`
	Annotations []DiffLine `json:"annotations,omitempty"`
}

// ToolStanding is what the user decided earlier about a tool, beyond the
// session: a grant for every chat, and whether its definition changed since
// they allowed it.
type ToolStanding struct {
	AllChats bool
	Changed  *DefinitionChange
}

// Who let a call run (AuditRecord.ApprovedBy).
const (
	ApprovedByUser   = "user"   // asked, and the user answered
	ApprovedByGrant  = "grant"  // an earlier "always allow"
	ApprovedByPolicy = "policy" // the session's or the connector's policy
)

// How a call was let run or refused (AuditRecord.How).
const (
	HowAllowOnce      = "allow_once"
	HowAlwaysThisChat = "always_this_chat"
	HowAlwaysAllChats = "always_all_chats"
	HowDenied         = "denied"
	HowSessionAllow   = "session_allow_all"
	HowSessionDeny    = "session_deny_all"
	HowReadOnly       = "connector_read_only"
	HowConnectorAll   = "connector_all"
	HowNoApprover     = "no_one_to_ask"
)

// Outcomes of a call (AuditRecord.Outcome).
const (
	OutcomeOK      = "ok"
	OutcomeError   = "error"
	OutcomeDenied  = "denied"
	OutcomeStopped = "stopped"
)

// AuditRecord is one tool call in a connector's audit log. Arguments are
// stored with secrets redacted.
type AuditRecord struct {
	Time        time.Time       `json:"time"`
	SessionID   string          `json:"sessionId"`
	ConnectorID string          `json:"connectorId"`
	Connector   string          `json:"connector"`
	Tool        string          `json:"tool"`
	CallID      string          `json:"callId"`
	Arguments   json.RawMessage `json:"arguments,omitempty"`
	ApprovedBy  string          `json:"approvedBy"`
	How         string          `json:"how"`
	// DefinitionHash is the hash of the definition that ran (or was
	// refused).
	DefinitionHash string `json:"definitionHash,omitempty"`
	Outcome        string `json:"outcome"`
	Error          string `json:"error,omitempty"`
	DurationMS     int64  `json:"durationMs"`
	// RequestedBy is RequestedByApp for a call an MCP App's UI asked for;
	// "" is the model's.
	RequestedBy string `json:"requestedBy,omitempty"`
}
