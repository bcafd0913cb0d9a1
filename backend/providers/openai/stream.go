package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"strings"

	"maestro/backend/chat"
	"maestro/backend/providers"
)

// wireEvent is the union of the SSE payloads parseStream reads (docs/providers/openai.md §Stream events). Only
// the fields used are decoded.
type wireEvent struct {
	deltaFields
	Type     string        `json:"type"`
	Item     *wireItem     `json:"item"`
	Response *wireResponse `json:"response"`
	// An "error" event carries code/message at the top level (API docs) or
	// nested under "error" (recordings); both are read.
	Error   *wireError `json:"error"`
	Code    flexString `json:"code"`
	Message string     `json:"message"`
}

// deltaFields are all a delta event needs.
type deltaFields struct {
	Delta        string `json:"delta"`
	OutputIndex  int    `json:"output_index"`
	SummaryIndex int    `json:"summary_index"`
}

type wireResponse struct {
	ID                string     `json:"id"`
	Status            string     `json:"status"`
	Error             *wireError `json:"error"`
	IncompleteDetails *struct {
		Reason string `json:"reason"`
	} `json:"incomplete_details"`
	Usage *struct {
		InputTokens        int64 `json:"input_tokens"`
		InputTokensDetails *struct {
			CachedTokens int64 `json:"cached_tokens"`
		} `json:"input_tokens_details"`
		OutputTokens        int64 `json:"output_tokens"`
		OutputTokensDetails *struct {
			ReasoningTokens int64 `json:"reasoning_tokens"`
		} `json:"output_tokens_details"`
	} `json:"usage"`
}

// wireItem is an output item. Content and Summary stay raw: they are read
// only for a message or reasoning item that came without deltas, and a
// reasoning item is stored from them as it came.
type wireItem struct {
	Type             string          `json:"type"`
	CallID           string          `json:"call_id"`
	Name             string          `json:"name"`
	Arguments        string          `json:"arguments"`
	Content          json.RawMessage `json:"content"`
	Summary          json.RawMessage `json:"summary"`
	EncryptedContent string          `json:"encrypted_content"`
}

type callState struct {
	index    int
	id, name string
	done     bool
}

// parser holds one stream's state. Items are keyed by output_index, which
// every item event carries (absent means 0, as in Codex's own fixtures).
type parser struct {
	ev         wireEvent
	out        []chat.Event
	calls      map[int]*callState
	callsDone  map[string]bool
	nCalls     int
	textSeen   map[int]bool
	reasonSeen map[int]bool
	responseID string
}

// parseStream yields the chat events of a Responses SSE stream. It ends
// after response.completed (or response.incomplete) with a Finish, or with
// an error: an in-stream failure, a malformed event, or the stream closing
// before its terminal event.
func parseStream(r io.Reader) iter.Seq2[chat.Event, error] {
	return func(yield func(chat.Event, error) bool) {
		var p parser
		for sse, err := range providers.ReadSSE(r) {
			if err != nil {
				yield(nil, streamError("read stream", err))
				return
			}
			done, err := p.handle(sse)
			for _, ev := range p.out {
				if !yield(ev, nil) {
					return
				}
			}
			if err != nil {
				yield(nil, err)
				return
			}
			if done {
				return
			}
		}
		yield(nil, streamError("stream closed before response.completed", nil))
	}
}

func streamError(msg string, err error) *chat.ProviderError {
	return &chat.ProviderError{Provider: chat.ProviderOpenAI, Status: 200, Kind: chat.ProviderKindStream,
		Message: msg, Err: err}
}

// handle decodes one SSE event into p.out; done reports the terminal event.
func (p *parser) handle(sse providers.SSEEvent) (done bool, err error) {
	p.out = p.out[:0]
	data := bytes.TrimSpace(sse.Data)
	if len(data) == 0 || string(data) == "[DONE]" {
		return false, nil
	}
	k, err := p.decode(data, sse.Event)
	if err != nil || k == kindIgnored {
		return false, err
	}
	return p.apply(k)
}

// decode reads one event into p.ev and returns its kind. Most events are
// deltas, so those decode only their three fields, and the events the
// grammar ignores are only checked to be JSON. An event without a type in
// its data takes the SSE event name.
func (p *parser) decode(data []byte, sseEvent string) (eventKind, error) {
	p.ev = wireEvent{}
	typ, fast := peekType(data)
	k := kindOf(typ)
	switch {
	case fast && k == kindIgnored:
		if !json.Valid(data) {
			return k, streamError("decode event", errInvalidJSON)
		}
		return k, nil
	case fast && isDelta(k):
		if err := decodeDelta(data, &p.ev.deltaFields); err != nil {
			return k, streamError("decode event", err)
		}
		return k, nil
	}
	if err := json.Unmarshal(data, &p.ev); err != nil {
		return k, streamError("decode event", err)
	}
	if !fast || k == kindUntyped {
		if p.ev.Type == "" {
			p.ev.Type = sseEvent
		}
		k = kindOf([]byte(p.ev.Type))
	}
	return k, nil
}

func isDelta(k eventKind) bool {
	return k == kindTextDelta || k == kindSummaryPart || k == kindReasoningDelta || k == kindArgsDelta
}

// apply turns the decoded event p.ev of kind k into chat events.
func (p *parser) apply(k eventKind) (done bool, err error) {
	switch k {
	case kindCreated:
		if p.ev.Response != nil && p.ev.Response.ID != "" {
			p.responseID = p.ev.Response.ID
		}
	case kindTextDelta, kindSummaryPart, kindReasoningDelta, kindArgsDelta:
		p.delta(k)
	case kindItemAdded:
		return false, p.itemAdded()
	case kindItemDone:
		return false, p.itemDone()
	case kindCompleted, kindIncomplete:
		return true, p.finish(k == kindIncomplete)
	case kindFailed, kindError:
		return false, p.failure(k)
	case kindUntyped:
		return false, streamError("event without a type", nil)
	}
	return false, nil
}

// delta turns a text, reasoning or arguments delta into its chat event.
func (p *parser) delta(k eventKind) {
	switch k {
	case kindTextDelta:
		if p.ev.Delta != "" {
			mark(&p.textSeen, p.ev.OutputIndex)
			p.out = append(p.out, chat.TextDelta{Text: p.ev.Delta})
		}
	case kindSummaryPart:
		// Separate summary parts the way Codex shows them.
		if p.ev.SummaryIndex > 0 && p.reasonSeen[p.ev.OutputIndex] {
			p.out = append(p.out, chat.ReasoningDelta{Text: "\n\n"})
		}
	case kindReasoningDelta:
		if p.ev.Delta != "" {
			mark(&p.reasonSeen, p.ev.OutputIndex)
			p.out = append(p.out, chat.ReasoningDelta{Text: p.ev.Delta})
		}
	case kindArgsDelta:
		// Display only: the complete arguments come with output_item.done.
		if c := p.calls[p.ev.OutputIndex]; c != nil && !c.done && p.ev.Delta != "" {
			p.out = append(p.out, chat.ToolCallDelta{Index: c.index, Fragment: p.ev.Delta})
		}
	}
}

// failure is the error of a response.failed or error event.
func (p *parser) failure(k eventKind) error {
	if k == kindFailed {
		var we *wireError
		if p.ev.Response != nil {
			we = p.ev.Response.Error
		}
		return streamFailure(we, "response failed")
	}
	we := p.ev.Error
	if we == nil {
		we = &wireError{Code: p.ev.Code, Message: p.ev.Message}
	}
	return streamFailure(we, "error event")
}

func mark(m *map[int]bool, i int) {
	if *m == nil {
		*m = make(map[int]bool)
	}
	(*m)[i] = true
}

func (p *parser) itemAdded() error {
	it := p.ev.Item
	if it == nil || it.Type != "function_call" {
		return nil // Codex skips events without an item; so does the parser
	}
	if p.calls[p.ev.OutputIndex] != nil {
		return streamError(fmt.Sprintf("output %d added twice", p.ev.OutputIndex), nil)
	}
	p.startCall(it)
	return nil
}

func (p *parser) startCall(it *wireItem) *callState {
	if p.calls == nil {
		p.calls = make(map[int]*callState)
	}
	c := &callState{index: p.nCalls, id: it.CallID, name: it.Name}
	p.nCalls++
	p.calls[p.ev.OutputIndex] = c
	p.out = append(p.out, chat.ToolCallStart{Index: c.index, ID: c.id, Name: c.name})
	return c
}

func (p *parser) itemDone() error {
	it := p.ev.Item
	if it == nil {
		return nil
	}
	oi := p.ev.OutputIndex
	switch it.Type {
	case "message":
		if !p.textSeen[oi] {
			// No deltas came for this message (Codex's fixture): the done
			// item is the only copy of its text.
			if text := joinTexts(it.Content, ""); text != "" {
				p.out = append(p.out, chat.TextDelta{Text: text})
			}
		}
	case "reasoning":
		if !p.reasonSeen[oi] {
			if text := joinTexts(it.Summary, "\n\n"); text != "" {
				p.out = append(p.out, chat.ReasoningDelta{Text: text})
			}
		}
		if stored, ok := reasoningData(it.Summary, it.Content, it.EncryptedContent); ok {
			p.out = append(p.out, chat.ReasoningDone{ProviderData: chat.ProviderData{chat.ProviderOpenAI: stored}})
		} else if len(p.out) > 0 || p.reasonSeen[oi] {
			p.out = append(p.out, chat.ReasoningDone{})
		}
	case "function_call":
		return p.callDone(it)
	}
	return nil
}

// joinTexts joins the text (or refusal) of each part of a raw part list.
func joinTexts(raw json.RawMessage, sep string) string {
	var parts []struct {
		Text    string `json:"text"`
		Refusal string `json:"refusal"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &parts) != nil {
		return ""
	}
	texts := make([]string, 0, len(parts))
	for _, p := range parts {
		if t := p.Text + p.Refusal; t != "" {
			texts = append(texts, t)
		}
	}
	return strings.Join(texts, sep)
}

func (p *parser) callDone(it *wireItem) error {
	if it.CallID == "" || it.Name == "" {
		return streamError("function_call without call_id or name", nil)
	}
	if p.callsDone[it.CallID] {
		return streamError("function_call "+it.CallID+" completed twice", nil)
	}
	c := p.calls[p.ev.OutputIndex]
	if c == nil {
		c = p.startCall(it)
	}
	if c.done {
		return streamError(fmt.Sprintf("output %d completed twice", p.ev.OutputIndex), nil)
	}
	c.done = true
	if p.callsDone == nil {
		p.callsDone = make(map[string]bool)
	}
	p.callsDone[it.CallID] = true
	// Arguments that are not a JSON object are the model's mistake: the
	// call is still done, carrying the text (docs/providers/openai.md
	// §Stream events).
	args, raw := providers.ToolArguments([]byte(it.Arguments))
	p.out = append(p.out, chat.ToolCallDone{Index: c.index, ID: it.CallID, Name: it.Name,
		Arguments: args, RawArguments: raw})
	return nil
}

func (p *parser) finish(incomplete bool) error {
	for _, c := range p.calls {
		if !c.done {
			return streamError("function_call "+c.id+" never completed", nil)
		}
	}
	f := chat.Finish{Reason: "stop", ResponseID: p.responseID}
	if p.nCalls > 0 {
		f.Reason = "tool_calls"
	}
	if resp := p.ev.Response; resp != nil {
		if resp.ID != "" {
			f.ResponseID = resp.ID
		}
		if u := resp.Usage; u != nil {
			f.Usage.InputTokens = u.InputTokens
			f.Usage.OutputTokens = u.OutputTokens
			if u.InputTokensDetails != nil {
				f.Usage.CacheReadTokens = u.InputTokensDetails.CachedTokens
			}
			if u.OutputTokensDetails != nil {
				f.Usage.ReasoningTokens = u.OutputTokensDetails.ReasoningTokens
			}
		}
		if incomplete || resp.Status == "incomplete" {
			f.Reason = "incomplete"
			if d := resp.IncompleteDetails; d != nil && d.Reason != "" {
				f.Reason = d.Reason
			}
			if f.Reason == "max_output_tokens" {
				f.Reason = "max_tokens"
			}
		}
	}
	p.out = append(p.out, f)
	return nil
}
