package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"unicode/utf8"

	"maestro/backend/chat"
)

// AuditLog is the tool-call audit log (docs/SECURITY.md): one record per
// call that reached approval (chat.AuditRecord: time, chat, connector,
// tool, arguments, who approved and how, outcome, duration), kept per
// connector in the store (the newest store.AuditKeep), viewable and
// exportable as JSON Lines. Secrets never enter it: the arguments and the
// error text are redacted with the rules that keep secrets out of
// connector arguments (argsecrets.go), keys named like secrets have their
// values replaced, and both are size-capped.
//
// It satisfies the agent's AuditLog. Safe for concurrent use: the store
// serialises writes.
type AuditLog struct{ store AuditStore }

// AuditStore keeps audit records; *store.Store satisfies it.
type AuditStore interface {
	AppendAudit(ctx context.Context, connectorID string, v any) error
	Audit(ctx context.Context, connectorID string, fn func(json.RawMessage) error) error
	DeleteAudit(ctx context.Context, connectorID string) error
}

// NewAuditLog returns an audit log over st.
func NewAuditLog(st AuditStore) *AuditLog { return &AuditLog{store: st} }

// Caps of an audit record's free-form parts.
const (
	auditArgsCap  = 16 << 10
	auditErrorCap = 4 << 10
	// redacted stands in for a secret.
	redacted = "[redacted]"
)

// Record redacts rec and appends it to its connector's log.
func (a *AuditLog) Record(ctx context.Context, rec chat.AuditRecord) error {
	rec.Arguments = RedactArguments(rec.Arguments)
	rec.Error = clipText(redactText(rec.Error), auditErrorCap)
	if err := a.store.AppendAudit(ctx, rec.ConnectorID, rec); err != nil {
		return fmt.Errorf("mcp: audit %s: %w", rec.Tool, err)
	}
	return nil
}

// Records returns a connector's records, oldest first.
func (a *AuditLog) Records(ctx context.Context, connectorID string) ([]chat.AuditRecord, error) {
	var out []chat.AuditRecord
	err := a.store.Audit(ctx, connectorID, func(raw json.RawMessage) error {
		var r chat.AuditRecord
		if json.Unmarshal(raw, &r) == nil {
			out = append(out, r)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("mcp: read the audit log: %w", err)
	}
	return out, nil
}

// Export writes a connector's records to w as JSON Lines, oldest first.
func (a *AuditLog) Export(ctx context.Context, connectorID string, w io.Writer) error {
	bw := bufio.NewWriter(w)
	err := a.store.Audit(ctx, connectorID, func(raw json.RawMessage) error {
		var line bytes.Buffer
		if err := json.Compact(&line, raw); err != nil {
			return nil // not ours to export
		}
		line.WriteByte('\n')
		_, err := bw.Write(line.Bytes())
		return err
	})
	if err != nil {
		return fmt.Errorf("mcp: export the audit log: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("mcp: export the audit log: %w", err)
	}
	return nil
}

// Forget removes a connector's log (the connector was removed).
func (a *AuditLog) Forget(ctx context.Context, connectorID string) error {
	return a.store.DeleteAudit(ctx, connectorID)
}

// RedactArguments returns a call's JSON arguments with their secrets
// replaced by "[redacted]": the value of every key named like a secret
// (token, password, api_key, …) and every secret-looking part of a string
// (a bearer credential, a key with a known prefix, a URL's password,
// --token=…). Arguments over 16 KiB are cut to a preview; arguments that
// are not JSON are kept as a redacted string.
func RedactArguments(raw json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		v = redactText(string(raw))
	} else {
		v = redactValue(v, 0)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	if len(out) > auditArgsCap {
		out, _ = json.Marshal(map[string]any{"truncated": len(out), "preview": clipText(string(out), auditArgsCap/4)})
	}
	return out
}

// redactValue walks a decoded JSON value (depth-bounded: the reader keeps
// messages to 128 levels, and what is deeper than 64 here is dropped).
func redactValue(v any, depth int) any {
	if depth > 64 {
		return "[nested too deep]"
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if s, ok := e.(string); ok && s != "" && secretName(k) {
				x[k] = redacted
				continue
			}
			x[k] = redactValue(e, depth+1)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = redactValue(e, depth+1)
		}
		return x
	case string:
		return redactText(x)
	}
	return v
}

// redactText replaces the secret-looking parts of s.
func redactText(s string) string {
	for range 16 { // each pass takes one secret out
		start, end, ok := secretSpan([]string{s}, 0)
		if !ok {
			return s
		}
		s = s[:start] + redacted + s[end:]
	}
	return s
}

// clipText cuts s to about n bytes, on a rune boundary.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…" + fmt.Sprintf(" (%d bytes in all)", len(s))
}
