package gemini

import (
	"bytes"
	"encoding/json"
	"io"
	"iter"
	"strings"

	"maestro/backend/chat"
	"maestro/backend/providers"
)

// Finish reasons (google.genai FinishReason) the parser treats specially.
const (
	finishStop                = "STOP"
	finishMaxTokens           = "MAX_TOKENS"
	finishUnexpectedToolCall  = "UNEXPECTED_TOOL_CALL"
	finishMalformedCall       = "MALFORMED_FUNCTION_CALL"
	codeNoFinishReason        = "NO_FINISH_REASON"
	codeMalformedEvent        = "MALFORMED_EVENT"
	defaultUnexpectedToolCall = "the model called a tool that is not declared"
	defaultMalformedCall      = "the model produced a malformed function call"
)

// parseStream turns a streamGenerateContent SSE body (either dialect) into
// chat events. It ends with one Finish, or with an error as its last item:
// a malformed payload, an error object from the server, a stream that ends
// without a finish reason, or a finish reason that means the turn failed.
func parseStream(r io.Reader) iter.Seq2[chat.Event, error] {
	return func(yield func(chat.Event, error) bool) {
		var p streamParser
		for ev, err := range providers.ReadSSE(r) {
			if err != nil {
				yield(nil, &chat.ProviderError{Provider: chat.ProviderGemini, Status: 200,
					Kind: chat.ProviderKindStream, Message: "read stream", Err: err})
				return
			}
			if len(bytes.TrimSpace(ev.Data)) == 0 {
				continue
			}
			ferr := p.feed(ev.Data)
			for _, e := range p.out {
				if !yield(e, nil) {
					return
				}
			}
			p.out = p.out[:0]
			if ferr != nil {
				yield(nil, ferr)
				return
			}
		}
		fin, err := p.end()
		for _, e := range p.out {
			if !yield(e, nil) {
				return
			}
		}
		if err != nil {
			yield(nil, err)
			return
		}
		yield(fin, nil)
	}
}

// streamParser holds what one response has shown so far. out collects the
// events of the payload being fed.
type streamParser struct {
	out []chat.Event

	thinking   bool   // a thought block is open
	thoughtSig string // signature seen on the open thought block
	partial    *partialCall
	nextIndex  int
	calls      int
	sawText    bool // non-empty visible text

	finish, finishMsg string
	blocked           *promptFeedback
	usage             chat.Usage
	responseID        string
}

func streamErr(code, msg string, err error) *chat.ProviderError {
	return &chat.ProviderError{Provider: chat.ProviderGemini, Status: 200, Kind: chat.ProviderKindStream,
		Code: code, Message: msg, Err: err}
}

func geminiData(sig string) chat.ProviderData {
	if sig == "" {
		return nil
	}
	b, _ := json.Marshal(struct {
		ThoughtSignature string `json:"thoughtSignature"`
	}{sig})
	return chat.ProviderData{chat.ProviderGemini: b}
}

func (p *streamParser) emit(e chat.Event) { p.out = append(p.out, e) }

func (p *streamParser) feed(data []byte) error {
	var pl streamPayload
	if err := json.Unmarshal(data, &pl); err != nil {
		return streamErr(codeMalformedEvent, "malformed event", err)
	}
	if pl.Error != nil {
		return fromGoogle(pl.Error.Code, pl.Error, nil, true)
	}
	resp := &pl.generateResponse
	if pl.Response != nil {
		resp = pl.Response
	}
	if p.responseID == "" {
		p.responseID = pl.TraceID
		if p.responseID == "" {
			p.responseID = resp.ResponseID
		}
	}
	if u := resp.UsageMetadata; u != nil {
		// usageMetadata is cumulative, but a chunk carries only the counts
		// known so far: the latest value of each count wins, and a count a
		// chunk leaves out keeps its earlier value (a usage-only last chunk
		// without thoughtsTokenCount does not reset it). promptTokenCount
		// includes the cached tokens, candidatesTokenCount excludes thoughts.
		u.mergeInto(&p.usage)
	}
	if pf := resp.PromptFeedback; pf != nil && pf.BlockReason != "" {
		p.blocked = pf
	}
	if len(resp.Candidates) == 0 {
		return nil
	}
	c := resp.Candidates[0]
	if c.Content != nil {
		for i := range c.Content.Parts {
			if err := p.part(&c.Content.Parts[i]); err != nil {
				return err
			}
		}
	}
	if c.FinishReason != "" {
		p.finish, p.finishMsg = c.FinishReason, c.FinishMessage
	}
	return nil
}

func (p *streamParser) part(pt *respPart) error {
	switch {
	case pt.FunctionCall != nil:
		p.closeThought()
		return p.call(pt)
	case pt.Thought:
		p.closePartial()
		p.thinking = true
		if pt.Text != nil && *pt.Text != "" {
			p.emit(chat.ReasoningDelta{Text: *pt.Text})
		}
		if pt.ThoughtSignature != "" {
			p.thoughtSig = pt.ThoughtSignature
		}
	case pt.Text != nil || pt.ThoughtSignature != "":
		// A bare signature part is kept as an empty signed text part, which
		// is how it is replayed.
		p.closeThought()
		p.closePartial()
		var text string
		if pt.Text != nil {
			text = *pt.Text
		}
		if text != "" {
			p.sawText = true
		}
		if text != "" || pt.ThoughtSignature != "" {
			p.emit(chat.TextDelta{Text: text, ProviderData: geminiData(pt.ThoughtSignature)})
		}
	}
	// Other part kinds (inline data, executable code, …) are not produced
	// for Maestro's requests and are ignored.
	return nil
}

// closeThought ends an open thought block. Its ProviderData carries the
// signature only if one arrived on the thought parts themselves; a
// signature on the following call or text part stays with that part.
func (p *streamParser) closeThought() {
	if !p.thinking {
		return
	}
	p.emit(chat.ReasoningDone{ProviderData: geminiData(p.thoughtSig)})
	p.thinking, p.thoughtSig = false, ""
}

func (p *streamParser) call(pt *respPart) error {
	fc := pt.FunctionCall
	if p.partial != nil && fc.Name == "" {
		p.partial.absorb(fc, pt.ThoughtSignature, p)
		if !fc.WillContinue {
			p.closePartial()
		}
		return nil
	}
	p.closePartial()
	if fc.Name == "" {
		if len(fc.Args) == 0 && len(fc.PartialArgs) == 0 && !fc.WillContinue {
			return nil // a stray end marker
		}
		return streamErr(codeMalformedEvent, "function call without a name", nil)
	}
	idx := p.nextIndex
	p.nextIndex++
	p.calls++
	p.emit(chat.ToolCallStart{Index: idx, ID: fc.ID, Name: fc.Name})
	if fc.WillContinue || len(fc.PartialArgs) > 0 {
		p.partial = &partialCall{index: idx, id: fc.ID, name: fc.Name}
		p.partial.absorb(fc, pt.ThoughtSignature, p)
		if !fc.WillContinue {
			p.closePartial()
		}
		return nil
	}
	// args is a Struct, so anything but an object breaks the wire format;
	// it is still the call the model made, answered with an error result
	// rather than a retry of the request.
	args, raw := providers.ToolArguments(fc.Args)
	fragment := string(args)
	if raw != "" {
		fragment = raw
	}
	p.emit(chat.ToolCallDelta{Index: idx, Fragment: fragment})
	p.emit(chat.ToolCallDone{Index: idx, ID: fc.ID, Name: fc.Name, Arguments: args, RawArguments: raw,
		ProviderData: geminiData(pt.ThoughtSignature)})
	return nil
}

func (p *streamParser) closePartial() {
	pc := p.partial
	if pc == nil {
		return
	}
	p.partial = nil
	args, closing := pc.acc.finish()
	if closing != "" {
		p.emit(chat.ToolCallDelta{Index: pc.index, Fragment: closing})
	}
	p.emit(chat.ToolCallDone{Index: pc.index, ID: pc.id, Name: pc.name, Arguments: args,
		ProviderData: geminiData(pc.sig)})
}

// end closes open blocks and decides how the stream finished.
func (p *streamParser) end() (chat.Event, error) {
	p.closeThought()
	if p.partial != nil && p.finish != "" {
		p.closePartial()
	}
	if p.blocked != nil {
		msg := p.blocked.BlockReasonMessage
		if msg == "" {
			msg = "the prompt was blocked"
		}
		return nil, &chat.ProviderError{Provider: chat.ProviderGemini, Status: 200,
			Kind: chat.ProviderKindInvalidRequest, Code: p.blocked.BlockReason, Message: msg}
	}
	reason := ""
	switch p.finish {
	case "":
		// The service always ends a response with a finish reason; without
		// one the stream was cut (even if calls arrived: more may follow).
		return nil, streamErr(codeNoFinishReason, "stream ended without a finish reason", nil)
	case finishUnexpectedToolCall:
		return nil, streamErr(p.finish, orDefault(p.finishMsg, defaultUnexpectedToolCall), nil)
	case finishMalformedCall:
		return nil, streamErr(p.finish, orDefault(p.finishMsg, defaultMalformedCall), nil)
	case finishStop:
		// STOP with no text and no calls is a legitimate empty answer
		// (common right after tool results), not a failure.
		reason = "stop"
		if p.calls > 0 {
			reason = "tool_calls"
		}
	case finishMaxTokens:
		reason = "max_tokens"
	default:
		// SAFETY, RECITATION, OTHER, BLOCKLIST, …: a failure when nothing
		// usable came back, otherwise the turn ends for that reason.
		if !p.sawText && p.calls == 0 {
			return nil, streamErr(p.finish, orDefault(p.finishMsg, "the response was stopped: "+p.finish), nil)
		}
		reason = strings.ToLower(p.finish)
	}
	// candidatesTokenCount leaves the thoughts out; chat.Usage counts them
	// in the output (docs/providers/gemini.md §Usage).
	u := p.usage
	u.OutputTokens += u.ReasoningTokens
	return chat.Finish{Reason: reason, Usage: u, ResponseID: p.responseID}, nil
}

// mergeInto updates u with the counts this chunk carries; the others keep
// their earlier values.
func (m *usageMetadata) mergeInto(u *chat.Usage) {
	for _, f := range []struct {
		src *int64
		dst *int64
	}{
		{m.PromptTokenCount, &u.InputTokens},
		{m.CandidatesTokenCount, &u.OutputTokens},
		{m.ThoughtsTokenCount, &u.ReasoningTokens},
		{m.CachedContentTokenCount, &u.CacheReadTokens},
	} {
		if f.src != nil {
			*f.dst = *f.src
		}
	}
}

type promptFeedback struct {
	BlockReason        string `json:"blockReason"`
	BlockReasonMessage string `json:"blockReasonMessage"`
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
