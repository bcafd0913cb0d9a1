package agent

import (
	"encoding/json"
	"maps"
	"strings"

	"maestro/backend/chat"
)

// assembler builds one attempt's assistant message from stream events and
// forwards them to the sink as agent events. Tool calls get their canonical
// id when they start (so the UI card keeps one id) and their canonical name
// from the overlay. It is used by the run's goroutine only.
type assembler struct {
	runID    string
	provider string
	overlay  Overlay
	emit     func(Event)

	parts   []*partBuf
	open    *partBuf // the text or reasoning part deltas extend, if any
	pending map[int]*pendingCall
	calls   []callInfo // per tool call part, in order
	finish  *chat.Finish
	changed bool // since the last snapshot
}

type partBuf struct {
	kind string // "text", "reasoning" or "tool_call"
	text strings.Builder
	pd   chat.ProviderData
	call chat.ToolCall
}

// pendingCall is a tool call whose arguments are still streaming.
type pendingCall struct {
	id   string
	info callInfo
}

// callInfo is what the overlay said about a called tool.
type callInfo struct {
	ToolInfo
	exposed string
	known   bool
}

func newAssembler(runID, provider string, ov Overlay, emit func(Event)) *assembler {
	return &assembler{runID: runID, provider: provider, overlay: ov, emit: emit, pending: map[int]*pendingCall{}}
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
		pc := a.pending[ev.Index]
		if pc == nil {
			pc = a.start(ev.Index, "")
		}
		if ev.Fragment != "" {
			a.emit(ToolCallArgs{RunID: a.runID, CallID: pc.id, Fragment: ev.Fragment})
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

// start mints the canonical id of the call at stream index idx.
func (a *assembler) start(idx int, exposed string) *pendingCall {
	pc := &pendingCall{id: chat.NewID(), info: a.lookup(exposed)}
	a.pending[idx] = pc
	a.emit(ToolCallStarted{RunID: a.runID, CallID: pc.id, Name: pc.info.Canonical, Server: pc.info.Server})
	return pc
}

func (a *assembler) lookup(exposed string) callInfo {
	if exposed == "" {
		return callInfo{}
	}
	ti, ok := a.overlay.resolve(exposed)
	if !ok {
		// Unknown to the overlay: history keeps the name the model used, and
		// the call is answered with an "unknown tool" error.
		ti = ToolInfo{Canonical: exposed}
	}
	return callInfo{ToolInfo: ti, exposed: exposed, known: ok}
}

func (a *assembler) done(ev chat.ToolCallDone) {
	pc := a.pending[ev.Index]
	if pc == nil || pc.info.exposed == "" && ev.Name != "" {
		id := ""
		if pc != nil {
			id = pc.id
		}
		pc = &pendingCall{id: id, info: a.lookup(ev.Name)}
		if id == "" {
			pc.id = chat.NewID()
		}
		a.emit(ToolCallStarted{RunID: a.runID, CallID: pc.id, Name: pc.info.Canonical, Server: pc.info.Server})
	}
	delete(a.pending, ev.Index)
	args := ev.Arguments
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	call := chat.ToolCall{ID: pc.id, Name: pc.info.Canonical, Arguments: args, ProviderData: ev.ProviderData}
	if ev.ID != "" {
		call.ProviderIDs = map[string]string{a.provider: ev.ID}
	}
	p := a.newPart("tool_call")
	p.call = call
	a.open = nil
	a.calls = append(a.calls, pc.info)
	a.changed = true
}

// parts returns the message parts built so far. Calls whose arguments had
// not finished streaming are left out.
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
			out = append(out, chat.ToolCallPart{Call: p.call})
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
