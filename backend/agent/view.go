package agent

import (
	"encoding/json"
	"fmt"
	"slices"
	"unicode/utf8"

	"maestro/backend/chat"
)

// The request view: what the agent sends in place of the stored history.
// It is built from the end of the active branch the run holds (its tail:
// the messages after the latest summary node's Through, that node, and
// what came after it) and changes nothing stored:
//
//   - the latest summary node stands in for everything up to its Through,
//     as one user message at the start;
//   - messages that are not sendable (failed and superseded attempts,
//     summary nodes) are left out;
//   - tool results older than the last few turns go as a short elided
//     form when they are large (the full result stays stored and shown).
//
// Cuts (summary, elision) never separate a tool call from its result: a
// summary's span ends before a user message or before an assistant
// message that follows a tool message, and elision keeps the call and
// replaces only the result's content.

// Elision of old tool results.
const (
	// elideAfterTurns: results of turns older than the last this many are
	// elided. The boundary moves elideStep turns at a time, so the
	// rendered prefix stays byte-identical between moves and providers'
	// prompt caches keep hitting.
	elideAfterTurns = 4
	elideStep       = 4
	// elideOver: only results whose data is larger than this are elided.
	elideOver = 1024
	// elidePreview is how much of an elided result's data the model still
	// sees.
	elidePreview = 240
)

// summaryPrefix introduces the summary in requests.
const summaryPrefix = "[Summary of the earlier part of this conversation, written when it grew too long. The messages it replaces are still stored.]\n\n"

// view is the request view of a tail, kept up to date as the tail grows.
// A run owns it (through its history entry).
type view struct {
	// built is how many messages of the tail it has taken in.
	built int
	// summary is the latest summary node's Seq (0: none) and elided the
	// number of turns whose large results are elided, as of the last
	// (re)build: when either changes, the view is built again.
	summary uint64
	elided  int
	msgs    []chat.Message
	// tokens is the sum of the estimates of msgs.
	tokens int64
	// turns holds the index in msgs of every user message.
	turns []int
	// used is the canonical names of the tools msgs call, least recent
	// first (usedTools reverses it).
	used []string
}

// update brings v up to date with tail: it takes in new messages, and
// rebuilds everything when a summary was added or the elision boundary
// moved.
func (v *view) update(tail []chat.Message) {
	sum, through := latestSummary(tail)
	if sum == nil && v.summary != 0 || sum != nil && sum.Seq != v.summary || v.built > len(tail) {
		v.reset()
	}
	if v.built == 0 && sum != nil {
		v.summary = sum.Seq
		v.add(summaryMessage(*sum))
	}
	for _, m := range tail[v.built:] {
		if through != 0 && m.Seq <= through || !sendable(m) {
			continue
		}
		v.add(m)
	}
	v.built = len(tail)
	if want := elidedTurns(len(v.turns)); want != v.elided {
		v.elide(want)
	}
}

func (v *view) reset() { *v = view{} }

// add appends m to the view, elided when it falls before the boundary.
func (v *view) add(m chat.Message) {
	if m.Role == chat.RoleUser {
		v.turns = append(v.turns, len(v.msgs))
	}
	// Messages before the first user message (a summary's span may end
	// inside a turn) belong to the first turn.
	if m.Role == chat.RoleTool && max(len(v.turns)-1, 0) < v.elided {
		m = elided(m)
	}
	v.msgs = append(v.msgs, m)
	v.tokens += tokensOf(m)
	for _, p := range m.Parts {
		if c, ok := p.(chat.ToolCallPart); ok {
			v.use(c.Call.Name)
		}
	}
}

func (v *view) use(name string) {
	for i, n := range v.used {
		if n == name {
			copy(v.used[i:], v.used[i+1:])
			v.used[len(v.used)-1] = name
			return
		}
	}
	v.used = append(v.used, name)
}

// elide moves the elision boundary to the first n turns, replacing their
// large results. Only the turns between the old and the new boundary
// change; the boundary only moves forward while the tail grows.
func (v *view) elide(n int) {
	start := 0
	if v.elided > 0 && v.elided < len(v.turns) {
		start = v.turns[v.elided]
	}
	end := len(v.msgs)
	if n < len(v.turns) {
		end = v.turns[n]
	}
	// Requests already built share v.msgs: change a copy.
	v.msgs = slices.Clone(v.msgs)
	for i := start; i < end && n > v.elided; i++ {
		if v.msgs[i].Role != chat.RoleTool {
			continue
		}
		e := elided(v.msgs[i])
		v.tokens += tokensOf(e) - tokensOf(v.msgs[i])
		v.msgs[i] = e
	}
	v.elided = n
}

// elidedTurns is how many of turns have their large results elided: all
// but the last elideAfterTurns, rounded down to a multiple of elideStep.
func elidedTurns(turns int) int {
	n := turns - elideAfterTurns
	if n <= 0 {
		return 0
	}
	return n / elideStep * elideStep
}

// staleBefore is the Seq before which a reported usage no longer sizes
// the view: the latest summary node (a reply before it was asked with the
// summarised messages), and the user message whose turn last moved the
// elision boundary (a reply before it was asked with those results in
// full). Both are found from the view alone, so they hold after the tail
// is read again.
func (v *view) staleBefore(tail []chat.Message) uint64 {
	var at uint64
	if s, _ := latestSummary(tail); s != nil {
		at = s.Seq
	}
	if v.elided > 0 {
		if i := v.elided + elideAfterTurns - 1; i < len(v.turns) {
			at = max(at, v.msgs[v.turns[i]].Seq)
		}
	}
	return at
}

// anchored sizes the view from the usage the provider reported for its
// latest reply: that reply's prompt and output, plus the estimates of
// what came after it. ok is false when the latest reply with a usage is
// another model's, or older than staleBefore.
func (v *view) anchored(provider, model string, stale uint64) (tokens int64, ok bool) {
	var after int64
	for i := len(v.msgs) - 1; i >= 0; i-- {
		m := v.msgs[i]
		if m.Role == chat.RoleAssistant && m.Usage != nil && m.Usage.InputTokens > 0 {
			if m.Provider != provider || m.Model != model || m.Seq <= stale {
				return 0, false
			}
			return m.Usage.InputTokens + m.Usage.OutputTokens + after, true
		}
		after += tokensOf(m)
	}
	return 0, false
}

// usedTools lists the canonical names the view calls, most recent first.
func (v *view) usedTools() []string {
	out := make([]string, len(v.used))
	for i, n := range v.used {
		out[len(v.used)-1-i] = n
	}
	return out
}

// latestSummary returns the tail's latest summary node and its Through.
func latestSummary(tail []chat.Message) (*chat.Message, uint64) {
	for i := len(tail) - 1; i >= 0; i-- {
		if m := &tail[i]; m.Role == chat.RoleSummary && m.Summary != nil && m.Status != StatusSuperseded {
			return m, m.Summary.Through
		}
	}
	return nil, 0
}

// summaryMessage is the user message a summary node is sent as. It keeps
// the node's ID and takes its Through as Seq, so the view stays in branch
// order.
func summaryMessage(s chat.Message) chat.Message {
	m := chat.Message{Seq: s.Summary.Through, ID: s.ID, Role: chat.RoleUser, Status: chat.StatusComplete,
		Parts: chat.Parts{chat.TextPart{Text: summaryPrefix + s.Text()}}, CreatedAt: s.CreatedAt}
	m.Tokens = chat.EstimateTokens(m)
	return m
}

// elided returns m with its large results replaced by a short form: the
// call's outcome and the start of its data, with a note that the full
// result was left out and that calling the tool again gets it.
func elided(m chat.Message) chat.Message {
	changed := false
	parts := make(chat.Parts, len(m.Parts))
	for i, p := range m.Parts {
		parts[i] = p
		r, ok := p.(chat.ToolResultPart)
		if !ok || len(r.Result.Data) <= elideOver && len(r.Result.Attachments) == 0 {
			continue
		}
		parts[i] = chat.ToolResultPart{Result: elidedResult(r.Result)}
		changed = true
	}
	if !changed {
		return m
	}
	m.Parts = parts
	m.Tokens = chat.EstimateTokens(m)
	return m
}

func elidedResult(r chat.ToolResult) chat.ToolResult {
	preview := string(r.Data)
	cut := len(preview) > elidePreview
	if cut {
		preview = preview[:elidePreview]
		for !utf8.ValidString(preview) {
			preview = preview[:len(preview)-1]
		}
	}
	note := fmt.Sprintf("This older result (%d bytes", len(r.Data))
	if n := len(r.Attachments); n > 0 {
		note += fmt.Sprintf(", %d attachment(s)", n)
	}
	note += ") was shortened to save context; call the tool again if you need all of it."
	data, _ := json.Marshal(struct { // strings only: cannot fail
		Elided  string `json:"elided"`
		Preview string `json:"preview,omitempty"`
	}{note, preview})
	return chat.ToolResult{CallID: r.CallID, Name: r.Name, Successful: r.Successful, Error: r.Error, Data: data}
}
