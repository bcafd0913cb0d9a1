package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"maestro/backend/chat"
)

// Trust keeps the user's standing decisions about tools that outlive a
// session (docs/SECURITY.md): the definition of each tool as the user
// allowed it (a pin), and "always allow in every chat" grants. A changed
// definition is found by its hash and described by a readable diff, so the
// next call of the tool asks again and shows what changed.
//
// It satisfies the agent's Trust interface; the app fills each tool's
// definition with DefinitionOf. Safe for concurrent use: the store
// serialises writes, and Trust holds no other state.
type Trust struct {
	store TrustStore
	now   func() time.Time
}

// TrustStore keeps trust records; *store.Store satisfies it.
type TrustStore interface {
	TrustRecord(ctx context.Context, kind, key string, v any) error
	PutTrustRecord(ctx context.Context, kind, key string, v any) error
	DeleteTrustRecord(ctx context.Context, kind, key string) error
	TrustRecords(ctx context.Context, kind, prefix string) ([]json.RawMessage, error)
}

// Trust record kinds.
const (
	kindPin   = "pin"
	kindGrant = "grant"
)

// NewTrust returns a Trust over st.
func NewTrust(st TrustStore) *Trust { return &Trust{store: st, now: time.Now} }

// Pin is a tool's definition as the user allowed it.
type Pin struct {
	Definition chat.ToolDefinition `json:"definition"`
	Hash       string              `json:"hash"`
	AllowedAt  time.Time           `json:"allowedAt"`
}

// Grant is an "always allow in every chat" decision for one tool.
type Grant struct {
	ConnectorID string    `json:"connectorId"`
	Tool        string    `json:"tool"`
	GrantedAt   time.Time `json:"grantedAt"`
}

func trustKey(connectorID, tool string) string { return connectorID + "/" + tool }

// DefinitionOf is an entry's definition, as Trust pins it.
func DefinitionOf(e Entry) chat.ToolDefinition {
	d := chat.ToolDefinition{ConnectorID: e.ConnectorID, Name: e.Tool, Description: e.Description, InputSchema: e.InputSchema}
	if a := e.Annotations; a != nil {
		d.Hints = chat.ToolHints{Title: a.Title, ReadOnly: a.ReadOnlyHint, Destructive: a.DestructiveHint,
			Idempotent: a.IdempotentHint, OpenWorld: a.OpenWorldHint}
	}
	return d
}

// Standing returns what the user decided earlier about the tool def
// defines: a grant for every chat, and the change since the definition the
// user allowed (nil when it is the same, or was never allowed).
func (t *Trust) Standing(ctx context.Context, def chat.ToolDefinition) (chat.ToolStanding, error) {
	var out chat.ToolStanding
	key := trustKey(def.ConnectorID, def.Name)
	var pin Pin
	switch err := t.store.TrustRecord(ctx, kindPin, key, &pin); {
	case err == nil:
		if pin.Hash != def.Hash() {
			out.Changed = DiffDefinitions(pin.Definition, def)
			out.Changed.AllowedAt = pin.AllowedAt
		}
	case !errors.Is(err, chat.ErrNotFound):
		return out, fmt.Errorf("tools: read the pin of %s: %w", def.Name, err)
	}
	var g Grant
	switch err := t.store.TrustRecord(ctx, kindGrant, key, &g); {
	case err == nil:
		out.AllChats = true
	case !errors.Is(err, chat.ErrNotFound):
		return out, fmt.Errorf("tools: read the grant of %s: %w", def.Name, err)
	}
	return out, nil
}

// Allowed records that the tool ran with the user's leave: its definition
// is pinned (unless it already is), and with allChats it is granted in
// every chat.
func (t *Trust) Allowed(ctx context.Context, def chat.ToolDefinition, allChats bool) error {
	key := trustKey(def.ConnectorID, def.Name)
	var pin Pin
	err := t.store.TrustRecord(ctx, kindPin, key, &pin)
	if err != nil && !errors.Is(err, chat.ErrNotFound) {
		return fmt.Errorf("tools: read the pin of %s: %w", def.Name, err)
	}
	if hash := def.Hash(); err != nil || pin.Hash != hash {
		if err := t.store.PutTrustRecord(ctx, kindPin, key, Pin{Definition: def, Hash: hash, AllowedAt: t.now().UTC()}); err != nil {
			return fmt.Errorf("tools: pin %s: %w", def.Name, err)
		}
	}
	if allChats {
		if err := t.store.PutTrustRecord(ctx, kindGrant, key, Grant{ConnectorID: def.ConnectorID, Tool: def.Name, GrantedAt: t.now().UTC()}); err != nil {
			return fmt.Errorf("tools: grant %s in every chat: %w", def.Name, err)
		}
	}
	return nil
}

// Grants lists a connector's "always allow in every chat" grants.
func (t *Trust) Grants(ctx context.Context, connectorID string) ([]Grant, error) {
	return records[Grant](ctx, t.store, kindGrant, connectorID)
}

// Pins lists a connector's pinned definitions.
func (t *Trust) Pins(ctx context.Context, connectorID string) ([]Pin, error) {
	return records[Pin](ctx, t.store, kindPin, connectorID)
}

// Revoke removes a tool's grant for every chat.
func (t *Trust) Revoke(ctx context.Context, connectorID, tool string) error {
	if err := t.store.DeleteTrustRecord(ctx, kindGrant, trustKey(connectorID, tool)); err != nil {
		return fmt.Errorf("tools: revoke %s: %w", tool, err)
	}
	return nil
}

// Forget removes a connector's pins and grants (the connector was removed).
func (t *Trust) Forget(ctx context.Context, connectorID string) error {
	var errs []error
	for _, kind := range []string{kindPin, kindGrant} {
		raws, err := t.store.TrustRecords(ctx, kind, connectorID+"/")
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, raw := range raws {
			var r struct {
				Definition struct{ Name string } `json:"definition"`
				Tool       string                `json:"tool"`
			}
			if json.Unmarshal(raw, &r) != nil {
				continue
			}
			name := r.Tool
			if kind == kindPin {
				name = r.Definition.Name
			}
			if err := t.store.DeleteTrustRecord(ctx, kind, trustKey(connectorID, name)); err != nil && !errors.Is(err, chat.ErrNotFound) {
				errs = append(errs, err)
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("tools: forget the trust of %s: %w", connectorID, err)
	}
	return nil
}

func records[T any](ctx context.Context, st TrustStore, kind, connectorID string) ([]T, error) {
	raws, err := st.TrustRecords(ctx, kind, connectorID+"/")
	if err != nil {
		return nil, fmt.Errorf("tools: list %ss of %s: %w", kind, connectorID, err)
	}
	out := make([]T, 0, len(raws))
	for _, raw := range raws {
		var v T
		if err := json.Unmarshal(raw, &v); err == nil {
			out = append(out, v)
		}
	}
	return out, nil
}

// DiffDefinitions describes what changed from old to cur: a line diff of
// the description, of the input schema (pretty-printed, keys sorted) and of
// the annotations, each nil when unchanged.
func DiffDefinitions(old, cur chat.ToolDefinition) *chat.DefinitionChange {
	return &chat.DefinitionChange{
		ConnectorID: cur.ConnectorID,
		Tool:        cur.Name,
		Description: diffIfChanged(lines(old.Description), lines(cur.Description)),
		Schema:      diffIfChanged(prettyLines(old.InputSchema), prettyLines(cur.InputSchema)),
		Annotations: diffIfChanged(prettyLines(mustMarshal(old.Hints)), prettyLines(mustMarshal(cur.Hints))),
	}
}

func mustMarshal(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
}

// prettyLines is a JSON value indented with its keys sorted, as lines.
func prettyLines(raw []byte) []string {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return lines(string(raw))
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return lines(string(raw))
	}
	return lines(string(b))
}

func diffIfChanged(a, b []string) []chat.DiffLine {
	if strings.Join(a, "\n") == strings.Join(b, "\n") {
		return nil
	}
	return lineDiff(a, b)
}

// maxDiffLines bounds each side of a diff: a server can send a description
// of thousands of lines, and the diff is quadratic. Past it, the rest of
// each side is shown removed and added.
const maxDiffLines = 400

// lineDiff is a longest-common-subsequence line diff of a and b.
func lineDiff(a, b []string) []chat.DiffLine {
	var restA, restB []string
	if len(a) > maxDiffLines {
		a, restA = a[:maxDiffLines], a[maxDiffLines:]
	}
	if len(b) > maxDiffLines {
		b, restB = b[:maxDiffLines], b[maxDiffLines:]
	}
	// lcs[i][j] is the LCS length of a[i:] and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []chat.DiffLine
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			out = append(out, chat.DiffLine{Op: " ", Text: a[i]})
			i, j = i+1, j+1
		case lcs[i+1][j] >= lcs[i][j+1]:
			out = append(out, chat.DiffLine{Op: "-", Text: a[i]})
			i++
		default:
			out = append(out, chat.DiffLine{Op: "+", Text: b[j]})
			j++
		}
	}
	for ; i < len(a); i++ {
		out = append(out, chat.DiffLine{Op: "-", Text: a[i]})
	}
	for ; j < len(b); j++ {
		out = append(out, chat.DiffLine{Op: "+", Text: b[j]})
	}
	for _, l := range restA {
		out = append(out, chat.DiffLine{Op: "-", Text: l})
	}
	for _, l := range restB {
		out = append(out, chat.DiffLine{Op: "+", Text: l})
	}
	return out
}
