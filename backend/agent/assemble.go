package agent

import (
	"bytes"
	"encoding/json"
	"maps"
	"strings"

	"maestro/backend/chat"
)

// assembler builds one attempt's assistant message from stream events and
// forwards them to the sink as agent events. Tool calls get their canonical
// id when they start (so the UI card keeps one id) and their canonical name
// from the overlay. A call takes its place in the message when it starts,
// so calls keep the order the provider output them even when their
// arguments finish in another order (parallel calls whose deltas
// interleave). It is used by the run's goroutine only.
type assembler struct {
	runID    string
	provider string
	overlay  Overlay
	emit     func(Event)

	parts   []*partBuf
	open    *partBuf // the text or reasoning part deltas extend, if any
	pending map[int]*callBuf
	calls   []callInfo // per complete tool call part, in message order
	finish  *chat.Finish
	changed bool // since the last snapshot
}

type partBuf struct {
	kind string // "text", "reasoning" or "tool_call"
	text strings.Builder
	pd   chat.ProviderData
	call *callBuf // for "tool_call"
}

// callBuf is a tool call part: pending while its arguments stream, then
// done with the complete call.
type callBuf struct {
	id   string
	info callInfo
	done bool
	call chat.ToolCall
}

// callInfo is what the overlay said about a called tool.
type callInfo struct {
	ToolInfo
	exposed string
	known   bool
	// schema is the input schema declared to the model, if the overlay
	// declares the tool (it may resolve tools it does not declare).
	schema json.RawMessage
}

func newAssembler(runID, provider string, ov Overlay, emit func(Event)) *assembler {
	return &assembler{runID: runID, provider: provider, overlay: ov, emit: emit, pending: map[int]*callBuf{}}
}

func (a *assembler) add(ev chat.Event) {
	switch ev := ev.(type) {
	case chat.TextDelta:
		p := a.openPart("text")
		if len(ev.ProviderData) > 0 && len(p.pd) > 0 && p.text.Len() > 0 {
			// Both pieces are signed: keep them as separate parts.
			p = a.newPart("text")
		}
		p.text.WriteString(ev.Text)
		p.pd = mergeData(p.pd, ev.ProviderData)
		a.changed = true
		if ev.Text != "" {
			a.emit(TextDelta{RunID: a.runID, Text: ev.Text})
		}
	case chat.ReasoningDelta:
		a.openPart("reasoning").text.WriteString(ev.Text)
		a.changed = true
		if ev.Text != "" {
			a.emit(ReasoningDelta{RunID: a.runID, Text: ev.Text})
		}
	case chat.ReasoningDone:
		if a.open != nil && a.open.kind == "reasoning" {
			a.open.pd = mergeData(a.open.pd, ev.ProviderData)
		} else if len(ev.ProviderData) > 0 {
			// State without visible thinking (an encrypted item alone).
			a.newPart("reasoning").pd = mergeData(nil, ev.ProviderData)
		}
		a.open = nil
		a.changed = true
	case chat.ToolCallStart:
		a.open = nil
		a.start(ev.Index, ev.Name)
	case chat.ToolCallDelta:
		cb := a.pending[ev.Index]
		if cb == nil {
			cb = a.start(ev.Index, "")
		}
		if ev.Fragment != "" {
			a.emit(ToolCallArgs{RunID: a.runID, CallID: cb.id, Fragment: ev.Fragment})
		}
	case chat.ToolCallDone:
		a.open = nil
		a.done(ev)
	case chat.Finish:
		f := ev
		a.finish = &f
	}
}

// openPart returns the open part of kind, starting one if needed.
func (a *assembler) openPart(kind string) *partBuf {
	if a.open != nil && a.open.kind == kind {
		return a.open
	}
	return a.newPart(kind)
}

func (a *assembler) newPart(kind string) *partBuf {
	p := &partBuf{kind: kind}
	a.parts = append(a.parts, p)
	a.open = p
	return p
}

// start mints the canonical id of the call at stream index idx and gives
// the call its place in the message.
func (a *assembler) start(idx int, exposed string) *callBuf {
	cb := &callBuf{id: chat.NewID(), info: a.lookup(exposed)}
	a.pending[idx] = cb
	a.newPart("tool_call").call = cb
	a.open = nil
	a.emit(ToolCallStarted{RunID: a.runID, CallID: cb.id, Name: cb.info.Canonical, Server: cb.info.Server})
	return cb
}

func (a *assembler) lookup(exposed string) callInfo {
	if exposed == "" {
		return callInfo{}
	}
	ti, ok := a.overlay.resolve(exposed)
	if !ok || ti.AppOnly {
		ok = false
		// Unknown to the overlay, or a tool only its MCP App may call: history
		// keeps the name the model used, and the call is answered with an
		// "unknown tool" error.
		ti = ToolInfo{Canonical: exposed}
	}
	ci := callInfo{ToolInfo: ti, exposed: exposed, known: ok}
	for _, t := range a.overlay.Tools {
		if t.Name == exposed {
			ci.schema = t.InputSchema
			break
		}
	}
	return ci
}

// done completes the call at ev.Index in the place it started (at the end
// if it never started).
func (a *assembler) done(ev chat.ToolCallDone) {
	cb := a.pending[ev.Index]
	delete(a.pending, ev.Index)
	switch {
	case cb == nil:
		cb = a.start(ev.Index, ev.Name)
		delete(a.pending, ev.Index)
	case cb.info.exposed == "" && ev.Name != "":
		// Deltas came before the name: the card learns it now.
		cb.info = a.lookup(ev.Name)
		a.emit(ToolCallStarted{RunID: a.runID, CallID: cb.id, Name: cb.info.Canonical, Server: cb.info.Server})
	}
	args, invalid := callArguments(ev)
	cb.call = chat.ToolCall{ID: cb.id, Name: cb.info.Canonical, Arguments: args, InvalidArguments: invalid,
		ProviderData: ev.ProviderData}
	if ev.ID != "" {
		cb.call.ProviderIDs = map[string]string{a.provider: ev.ID}
	}
	cb.done = true
	a.open = nil
	a.calls = a.calls[:0]
	for _, p := range a.parts {
		if p.call != nil && p.call.done {
			a.calls = append(a.calls, p.call.info)
		}
	}
	a.changed = true
}

// callArguments returns a completed call's arguments as stored: a JSON
// object, or "{}" and the text the model sent when that was not one (an
// adapter says so in RawArguments; anything else that is not an object is
// treated the same, so history always holds valid JSON).
func callArguments(ev chat.ToolCallDone) (json.RawMessage, string) {
	if ev.RawArguments != "" {
		return json.RawMessage("{}"), ev.RawArguments
	}
	args := bytes.TrimSpace(ev.Arguments)
	switch {
	case len(args) == 0:
		return json.RawMessage("{}"), ""
	case args[0] != '{' || !json.Valid(args):
		return json.RawMessage("{}"), string(ev.Arguments)
	}
	return ev.Arguments, ""
}

// message returns the message parts built so far. Calls whose arguments
// had not finished streaming are left out.
func (a *assembler) message() chat.Parts {
	out := make(chat.Parts, 0, len(a.parts))
	for _, p := range a.parts {
		switch p.kind {
		case "text":
			if p.text.Len() > 0 || len(p.pd) > 0 {
				out = append(out, chat.TextPart{Text: p.text.String(), ProviderData: p.pd})
			}
		case "reasoning":
			out = append(out, chat.ReasoningPart{Text: p.text.String(), ProviderData: p.pd})
		case "tool_call":
			if p.call.done {
				out = append(out, chat.ToolCallPart{Call: p.call.call})
			}
		}
	}
	return out
}

func mergeData(dst, src chat.ProviderData) chat.ProviderData {
	if len(src) == 0 {
		return dst
	}
	if dst == nil {
		dst = make(chat.ProviderData, len(src))
	}
	maps.Copy(dst, src)
	return dst
}
