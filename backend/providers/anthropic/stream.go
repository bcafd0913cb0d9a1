package anthropic

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"strings"

	"maestro/backend/chat"
	"maestro/backend/providers"
)

// Block kinds the parser tracks.
const (
	blockText     = "text"
	blockThinking = "thinking"
	blockRedacted = "redacted_thinking"
	blockToolUse  = "tool_use"
	blockOther    = "other" // server tools, citations…: ignored
)

type blockState struct {
	kind      string
	call      int // ordinal among this response's tool calls
	id, name  string
	initial   json.RawMessage
	args      []byte
	thinking  strings.Builder
	signature strings.Builder
	data      string
}

// parser turns SSE events into chat events. It is a state machine over the
// Messages stream grammar; any violation is an error, never a panic.
type parser struct {
	started, finished bool
	responseID        string
	usage             chat.Usage
	stopReason        string
	blocks            map[int]*blockState
	calls             int

	ev  wireEvent
	out []chat.Event
	// dec is reused across events (json.Unmarshal allocates a decoder per
	// call); src feeds it one event's data at a time.
	dec *json.Decoder
	src bytes.Reader
}

func newParser() *parser {
	return &parser{blocks: map[int]*blockState{}}
}

// parseStream yields the chat events of the Messages stream in r. It ends
// with a Finish, or with an error: an error event, a malformed event, a read
// failure, or the end of the stream before message_stop.
func parseStream(r io.Reader) iter.Seq2[chat.Event, error] {
	return func(yield func(chat.Event, error) bool) {
		p := newParser()
		for sse, err := range providers.ReadSSE(r) {
			if err != nil {
				yield(nil, streamError("read stream", err))
				return
			}
			err := p.feed(sse.Event, sse.Data)
			for _, ev := range p.out {
				if !yield(ev, nil) {
					return
				}
			}
			if err != nil {
				yield(nil, err)
				return
			}
			if p.finished {
				return
			}
		}
		yield(nil, streamError("stream ended before message_stop", nil))
	}
}

func streamError(msg string, err error) *chat.ProviderError {
	return &chat.ProviderError{Provider: chat.ProviderAnthropic, Status: 200, Kind: chat.ProviderKindStream, Message: msg, Err: err}
}

func grammarError(format string, args ...any) *chat.ProviderError {
	return streamError(fmt.Sprintf(format, args...), nil)
}

// feed handles one SSE event; the chat events it produced are in p.out
// until the next call.
func (p *parser) feed(name string, data []byte) error {
	p.out = p.out[:0]
	if p.finished {
		return nil
	}
	if len(bytes.TrimSpace(data)) == 0 {
		if name == "" || name == "ping" {
			return nil
		}
		return grammarError("%s event without data", name)
	}
	if err := p.decode(data); err != nil {
		return streamError(fmt.Sprintf("decode %s event", name), err)
	}
	ev := &p.ev
	typ := string(ev.Type)
	if typ == "" {
		typ = name
	}
	switch typ {
	case "ping":
		return nil
	case "error":
		return p.errorEvent(ev.Error)
	case "message_start":
		if p.started {
			return grammarError("second message_start")
		}
		if ev.Message == nil {
			return grammarError("message_start without message")
		}
		p.started = true
		p.responseID = ev.Message.ID
		p.addUsage(ev.Message.Usage)
		return nil
	case "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop":
		if !p.started {
			return grammarError("%s before message_start", typ)
		}
	case "":
		return grammarError("event without a type")
	default:
		return nil // a newer event type: ignored, as the API asks clients to
	}
	switch typ {
	case "content_block_start":
		return p.blockStart(ev)
	case "content_block_delta":
		return p.blockDelta(ev)
	case "content_block_stop":
		return p.blockStop(ev)
	case "message_delta":
		if ev.Delta.StopReason != nil {
			p.stopReason = *ev.Delta.StopReason
		}
		p.addUsage(ev.Usage)
		return nil
	default: // message_stop
		if len(p.blocks) > 0 {
			return grammarError("message_stop with %d content block(s) still open", len(p.blocks))
		}
		p.finished = true
		p.out = append(p.out, chat.Finish{Reason: stopReason(p.stopReason), Usage: canonicalUsage(p.usage), ResponseID: p.responseID})
		return nil
	}
}

// decode reads data, one JSON value, into p.ev, like json.Unmarshal.
func (p *parser) decode(data []byte) error {
	p.ev = wireEvent{Index: noIndex}
	if p.dec == nil {
		p.dec = json.NewDecoder(&p.src)
	}
	p.src.Reset(data)
	base := p.dec.InputOffset()
	err := p.dec.Decode(&p.ev)
	if err == nil {
		if rest := data[min(int(p.dec.InputOffset()-base), len(data)):]; len(bytes.TrimSpace(rest)) > 0 {
			err = errors.New("invalid data after the event's JSON value")
		}
	}
	if err != nil {
		p.dec = nil // a failed decoder keeps its error and its buffer
	}
	return err
}

func (p *parser) errorEvent(e *wireError) error {
	if e == nil {
		return grammarError("error event without error")
	}
	return &chat.ProviderError{Provider: chat.ProviderAnthropic, Status: 200,
		Kind: kindFor(e.Type, e.Message, 200), Code: e.Type, Message: e.Message}
}

// canonicalUsage counts the prompt the way chat.Usage does: Anthropic's
// input_tokens are only the tokens after the last cache breakpoint, and
// the cached ones it read or wrote come on top (docs/providers/anthropic.md,
// "Usage").
func canonicalUsage(u chat.Usage) chat.Usage {
	u.InputTokens += u.CacheReadTokens + u.CacheWriteTokens
	return u
}

// addUsage merges a usage object: later values (message_delta's cumulative
// counts) replace earlier ones field by field.
func (p *parser) addUsage(u *wireUsage) {
	if u == nil {
		return
	}
	set := func(dst *int64, v *int64) {
		if v != nil {
			*dst = *v
		}
	}
	set(&p.usage.InputTokens, u.InputTokens)
	set(&p.usage.OutputTokens, u.OutputTokens)
	set(&p.usage.CacheReadTokens, u.CacheReadInputTokens)
	set(&p.usage.CacheWriteTokens, u.CacheCreationInputTokens)
}

func (p *parser) blockStart(ev *wireEvent) error {
	if ev.Index == noIndex || ev.ContentBlock.Type == "" {
		return grammarError("content_block_start without index or content_block")
	}
	idx, cb := ev.Index, &ev.ContentBlock
	if p.blocks[idx] != nil {
		return grammarError("content block %d started twice", idx)
	}
	st := &blockState{kind: string(cb.Type)}
	switch cb.Type {
	case blockText:
		if cb.Text != "" {
			p.out = append(p.out, chat.TextDelta{Text: cb.Text})
		}
	case blockThinking:
		if cb.Thinking != "" {
			st.thinking.WriteString(cb.Thinking)
			p.out = append(p.out, chat.ReasoningDelta{Text: cb.Thinking})
		}
		st.signature.WriteString(cb.Signature)
	case blockRedacted:
		st.data = cb.Data
	case blockToolUse:
		st.call, st.id, st.name = p.calls, cb.ID, cb.Name
		st.initial = cb.Input // a fresh slice: p.ev is zeroed before each decode
		p.calls++
		p.out = append(p.out, chat.ToolCallStart{Index: st.call, ID: st.id, Name: st.name})
	default:
		st.kind = blockOther
	}
	p.blocks[idx] = st
	return nil
}

func (p *parser) blockDelta(ev *wireEvent) error {
	if ev.Index == noIndex || ev.Delta.Type == "" {
		return grammarError("content_block_delta without index or delta")
	}
	st := p.blocks[ev.Index]
	if st == nil {
		return grammarError("delta for content block %d, which is not open", ev.Index)
	}
	d := &ev.Delta
	want := ""
	switch d.Type {
	case "text_delta":
		want = blockText
	case "thinking_delta", "signature_delta":
		want = blockThinking
	case "input_json_delta":
		want = blockToolUse
	default:
		return nil // citations and newer delta types carry nothing we show
	}
	if st.kind == blockOther {
		return nil
	}
	if st.kind != want {
		return grammarError("%s in a %s block", d.Type, st.kind)
	}
	switch d.Type {
	case "text_delta":
		if d.Text != "" {
			p.out = append(p.out, chat.TextDelta{Text: d.Text})
		}
	case "thinking_delta":
		if d.Thinking != "" {
			st.thinking.WriteString(d.Thinking)
			p.out = append(p.out, chat.ReasoningDelta{Text: d.Thinking})
		}
	case "signature_delta":
		st.signature.WriteString(d.Signature)
	default: // input_json_delta; the first one is often ""
		if d.PartialJSON != "" {
			st.args = append(st.args, d.PartialJSON...)
			p.out = append(p.out, chat.ToolCallDelta{Index: st.call, Fragment: d.PartialJSON})
		}
	}
	return nil
}

func (p *parser) blockStop(ev *wireEvent) error {
	if ev.Index == noIndex {
		return grammarError("content_block_stop without index")
	}
	st := p.blocks[ev.Index]
	if st == nil {
		return grammarError("stop for content block %d, which is not open", ev.Index)
	}
	delete(p.blocks, ev.Index)
	switch st.kind {
	case blockToolUse:
		args, raw := callArguments(st)
		p.out = append(p.out, chat.ToolCallDone{Index: st.call, ID: st.id, Name: st.name, Arguments: args, RawArguments: raw})
	case blockThinking:
		text := st.thinking.String()
		p.out = append(p.out, reasoningDone(thinkingState{Signature: st.signature.String(), Thinking: &text}))
	case blockRedacted:
		p.out = append(p.out, reasoningDone(thinkingState{Type: blockRedacted, Data: st.data}))
	}
	return nil
}

// callArguments is the complete input of a tool_use block: the streamed
// JSON, else the start block's input, else {} (a call with no arguments
// may get only an empty delta). Streamed JSON that is not an object is the
// model's mistake, not a broken stream: it comes back as {} and the text
// (docs/providers/anthropic.md §Broken tool-call arguments).
func callArguments(st *blockState) (json.RawMessage, string) {
	args := bytes.TrimSpace(st.args)
	if len(args) == 0 {
		args = bytes.TrimSpace(st.initial)
	}
	return providers.ToolArguments(args)
}

func reasoningDone(st thinkingState) chat.ReasoningDone {
	raw, _ := json.Marshal(st) // strings only: cannot fail
	return chat.ReasoningDone{ProviderData: chat.ProviderData{chat.ProviderAnthropic: raw}}
}

// stopReason normalises Anthropic's stop_reason.
func stopReason(s string) string {
	switch s {
	case "end_turn":
		return "stop"
	case "tool_use":
		return "tool_calls"
	default: // max_tokens stays; stop_sequence, pause_turn, refusal as-is
		return s
	}
}
