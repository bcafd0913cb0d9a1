package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"maestro/backend/chat"
	"maestro/backend/providers"
)

const (
	roleUser      = "user"
	roleAssistant = "assistant"
)

// missingResultError is the envelope error of a result synthesised for a
// tool_use that has none in history (a stopped turn, a trimmed context):
// the API rejects a tool_use without a tool_result right after it.
const missingResultError = "no result was recorded for this tool call"

// messages renders the history in three passes: convert each canonical
// message (dropping tool results that answer no tool_use of the assistant
// turn right before them), merge consecutive same-role messages (the API
// requires alternation; tool messages become user messages), and make every
// assistant tool_use be answered at the start of the next user message.
func (r *renderer) messages() []message {
	ids := r.callIDs()
	var msgs []message
	open := map[string]bool{}     // tool_use ids of the latest assistant turn
	answered := map[string]bool{} // tool_use ids that already have a result
	foreign := 0
	for i, m := range r.req.Messages {
		switch m.Role {
		case chat.RoleAssistant:
			blocks, calls, skipped := r.assistantBlocks(m)
			foreign += skipped
			if len(blocks) == 0 {
				continue
			}
			if len(msgs) == 0 || msgs[len(msgs)-1].Role != roleAssistant {
				clear(open)
			}
			for _, id := range calls {
				open[id] = true
			}
			msgs = append(msgs, message{Role: roleAssistant, Content: blocks})
		case chat.RoleUser, chat.RoleTool:
			if blocks := r.userBlocks(m, ids, open, answered); len(blocks) > 0 {
				msgs = append(msgs, message{Role: roleUser, Content: blocks})
			}
		default:
			r.warn(fmt.Sprintf("message %d: unknown role %q left out", i, m.Role))
		}
	}
	if foreign > 0 {
		r.warn(fmt.Sprintf("%d reasoning part(s) without anthropic state left out", foreign))
	}
	return r.pairResults(merge(msgs))
}

// callIDs maps each canonical call id in history to its tool_use id.
func (r *renderer) callIDs() map[string]string {
	ids := map[string]string{}
	for _, m := range r.req.Messages {
		if m.Role != chat.RoleAssistant {
			continue
		}
		for _, p := range m.Parts {
			if c, ok := p.(chat.ToolCallPart); ok {
				ids[c.Call.ID] = providers.CallID(chat.ProviderAnthropic, c.Call)
			}
		}
	}
	return ids
}

// assistantBlocks renders an assistant message. It returns the tool_use ids
// it rendered and how many reasoning parts it left out as foreign.
func (r *renderer) assistantBlocks(m chat.Message) (blocks []any, calls []string, foreign int) {
	for _, p := range m.Parts {
		switch p := p.(type) {
		case chat.ReasoningPart:
			b, ok := r.thinking(p)
			if !ok {
				foreign++
				continue
			}
			if b != nil {
				blocks = append(blocks, b)
			}
		case chat.TextPart:
			if p.Text != "" { // the API rejects empty text blocks
				blocks = append(blocks, textBlock{Type: "text", Text: p.Text})
			}
		case chat.ToolCallPart:
			id := providers.CallID(chat.ProviderAnthropic, p.Call)
			name := providers.ToolName(r.req, p.Call.Name)
			blocks = append(blocks, toolUseBlock{Type: "tool_use", ID: id, Name: name, Input: r.arguments(p.Call)})
			calls = append(calls, id)
		default:
			r.warn(fmt.Sprintf("assistant message %s: %s part left out", m.ID, p.PartType()))
		}
	}
	return blocks, calls, foreign
}

// thinking replays a reasoning part this provider produced. ok is false for
// reasoning without anthropic state (another provider's thoughts): those
// are dropped, not sent as text, because the model would take them for
// something it said aloud. A nil block with ok is an unusable own block.
func (r *renderer) thinking(p chat.ReasoningPart) (block any, ok bool) {
	raw := p.ProviderData[chat.ProviderAnthropic]
	if len(raw) == 0 {
		return nil, false
	}
	var st thinkingState
	if err := json.Unmarshal(raw, &st); err != nil {
		r.warn(fmt.Sprintf("thinking state unreadable, block left out: %v", err))
		return nil, true
	}
	if st.Type == "redacted_thinking" {
		if st.Data == "" {
			r.warn("redacted thinking without data left out")
			return nil, true
		}
		return redactedThinkingBlock{Type: "redacted_thinking", Data: st.Data}, true
	}
	if st.Signature == "" {
		r.warn("thinking without a signature left out")
		return nil, true
	}
	text := p.Text
	if st.Thinking != nil {
		text = *st.Thinking
	}
	return thinkingBlock{Type: "thinking", Thinking: text, Signature: st.Signature}, true
}

// arguments returns the call's arguments if they are a JSON object, else {};
// invalid arguments the model sent are replayed wrapped as
// {"INVALID_JSON": "…"} (chat.ToolCall.ReplayArguments).
func (r *renderer) arguments(c chat.ToolCall) json.RawMessage {
	args := bytes.TrimSpace(c.ReplayArguments())
	if len(args) == 0 {
		return json.RawMessage("{}")
	}
	if args[0] != '{' || !json.Valid(args) {
		r.warn(fmt.Sprintf("tool call %s: arguments are not a JSON object, sent as {}", c.ID))
		return json.RawMessage("{}")
	}
	return args
}

// userBlocks renders a user or tool message. A tool result is kept only if
// it answers a tool_use of the latest assistant turn that has no result yet.
func (r *renderer) userBlocks(m chat.Message, ids map[string]string, open, answered map[string]bool) []any {
	var blocks []any
	for _, p := range m.Parts {
		switch p := p.(type) {
		case chat.TextPart:
			if p.Text != "" {
				blocks = append(blocks, textBlock{Type: "text", Text: p.Text})
			}
		case chat.FilePart:
			if b, ok := r.file(p); ok {
				blocks = append(blocks, b)
			}
		case chat.ResourcePart:
			blocks = append(blocks, r.resource(p)...)
		case chat.ToolResultPart:
			id, known := ids[p.Result.CallID]
			switch {
			case !known || !open[id]:
				r.warn(fmt.Sprintf("tool result for call %s left out: no matching tool call right before it", p.Result.CallID))
			case answered[id]:
				r.warn(fmt.Sprintf("duplicate tool result for call %s left out", p.Result.CallID))
			default:
				answered[id] = true
				blocks = append(blocks, r.toolResult(id, p.Result))
			}
		default:
			r.warn(fmt.Sprintf("%s message %s: %s part left out", m.Role, m.ID, p.PartType()))
		}
	}
	return blocks
}

// envelope is the tool result as the model sees it.
type envelope struct {
	Successful bool            `json:"successful"`
	Data       json.RawMessage `json:"data,omitempty"`
	Error      string          `json:"error,omitempty"`
}

// envelopeText marshals the envelope compactly, without HTML escaping.
func envelopeText(res chat.ToolResult) string {
	env := envelope{Successful: res.Successful, Error: res.Error}
	if d := bytes.TrimSpace(res.Data); len(d) > 0 {
		if json.Valid(d) {
			env.Data = d
		} else {
			env.Data, _ = json.Marshal(string(d)) // a string never fails
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(env) // valid RawMessage and plain fields: cannot fail
	return strings.TrimSuffix(buf.String(), "\n")
}

// toolResult renders one result: the envelope as text, plus image and
// resource attachments as blocks after it.
func (r *renderer) toolResult(id string, res chat.ToolResult) toolResultBlock {
	b := toolResultBlock{Type: "tool_result", ToolUseID: id, IsError: !res.Successful}
	text := envelopeText(res)
	var extra []any
	for _, a := range res.Attachments {
		if blk, ok := r.attachment(a); ok {
			extra = append(extra, blk)
		} else {
			r.warn(fmt.Sprintf("tool result %s: %s attachment (%s) left out", res.CallID, a.Type, a.MIMEType))
		}
	}
	if len(extra) == 0 {
		b.Content = text
		return b
	}
	b.Content = append([]any{textBlock{Type: "text", Text: text}}, extra...)
	return b
}

// merge joins consecutive messages of the same role.
func merge(msgs []message) []message {
	out := msgs[:0]
	for _, m := range msgs {
		if n := len(out); n > 0 && out[n-1].Role == m.Role {
			out[n-1].Content = append(out[n-1].Content, m.Content...)
			continue
		}
		out = append(out, m)
	}
	return out
}

// pairResults makes the message after each assistant tool_use message a
// user message that starts with one tool_result per tool_use, in tool_use
// order, synthesising an error result for any call that has none.
func (r *renderer) pairResults(msgs []message) []message {
	for i := 0; i < len(msgs); i++ {
		if msgs[i].Role != roleAssistant {
			continue
		}
		var ids []string
		for _, b := range msgs[i].Content {
			if tu, ok := b.(toolUseBlock); ok {
				ids = append(ids, tu.ID)
			}
		}
		if len(ids) == 0 {
			continue
		}
		if i+1 == len(msgs) {
			msgs = append(msgs, message{Role: roleUser})
		}
		next := &msgs[i+1]
		results := map[string]any{}
		var rest []any
		for _, b := range next.Content {
			if tr, ok := b.(toolResultBlock); ok {
				results[tr.ToolUseID] = tr
			} else {
				rest = append(rest, b)
			}
		}
		content := make([]any, 0, len(ids)+len(rest))
		for _, id := range ids {
			if tr, ok := results[id]; ok {
				content = append(content, tr)
				continue
			}
			r.warn(fmt.Sprintf("tool call %s has no result; an error result was sent in its place", id))
			content = append(content, toolResultBlock{Type: "tool_result", ToolUseID: id, IsError: true,
				Content: envelopeText(chat.ToolResult{Error: missingResultError})})
		}
		next.Content = append(content, rest...)
	}
	return msgs
}

// finalAssistantThinks reports whether a request may enable thinking: when
// it continues a tool loop (the last message starts with tool results), the
// assistant message before it must start with a thinking block.
func finalAssistantThinks(msgs []message) bool {
	n := len(msgs)
	if n < 2 || msgs[n-1].Role != roleUser || len(msgs[n-1].Content) == 0 {
		return true
	}
	if _, ok := msgs[n-1].Content[0].(toolResultBlock); !ok {
		return true
	}
	if len(msgs[n-2].Content) == 0 {
		return false
	}
	switch msgs[n-2].Content[0].(type) {
	case thinkingBlock, redactedThinkingBlock:
		return true
	}
	return false
}

// stripFinalThinking removes thinking blocks from a final assistant message
// (a prefill): without thinking enabled the API rejects them there. A final
// message left empty is dropped.
func stripFinalThinking(msgs []message) []message {
	n := len(msgs)
	if n == 0 || msgs[n-1].Role != roleAssistant {
		return msgs
	}
	kept := msgs[n-1].Content[:0]
	for _, b := range msgs[n-1].Content {
		switch b.(type) {
		case thinkingBlock, redactedThinkingBlock:
			continue
		}
		kept = append(kept, b)
	}
	msgs[n-1].Content = kept
	if len(kept) == 0 {
		return msgs[:n-1]
	}
	return msgs
}
