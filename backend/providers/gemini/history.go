package gemini

import (
	"maestro/backend/chat"
	"maestro/backend/providers"
)

// interruptedPlaceholder is gemini-cli's INTERRUPTED_RESPONSE_PLACEHOLDER
// (packages/core/src/core/geminiChat.ts): the model turn that closes a
// function-response turn nobody answered, so a new prompt after it stays a
// turn of its own.
const interruptedPlaceholder = "[The previous response was interrupted before it completed.]"

// contents renders the history. The service's rules shape it
// (docs/providers/gemini.md §Request rules):
//
//   - A model turn with N functionCall parts is followed by exactly one user
//     turn holding the N functionResponse parts in the same order (results
//     are looked up by call id; a missing result is replaced by an error
//     result, an orphan result is dropped).
//   - Roles alternate. A user message after a function-response turn gets
//     gemini-cli's placeholder model turn in between (its
//     closeUnansweredToolResponseTurn); any other two turns of one role are
//     merged into one, as gemini-cli's coalesceConsecutiveRoles does.
//   - Thought parts are never replayed (gemini-cli strips them); a
//     signature that only a dropped thought carried moves to the call it
//     preceded.
//   - In the active loop the first functionCall of every model turn carries
//     a thought signature; the skip sentinel stands in when history has none.
func (r *renderer) contents() []content {
	msgs := r.req.Messages
	t := &turns{out: make([]content, 0, len(msgs)+1)}
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		switch m.Role {
		case chat.RoleUser:
			if parts := r.userParts(m); len(parts) > 0 {
				t.user(parts)
			} else {
				r.warnf("message %s: user message has nothing to send; dropped", m.ID)
			}
		case chat.RoleAssistant:
			parts, calls := r.modelParts(m)
			if len(parts) == 0 {
				continue
			}
			t.add("model", parts)
			if len(calls) == 0 {
				continue
			}
			results := map[string]chat.ToolResult{}
			j := i + 1
			for ; j < len(msgs) && msgs[j].Role == chat.RoleTool; j++ {
				for _, p := range msgs[j].Parts {
					if tr, ok := p.(chat.ToolResultPart); ok {
						results[tr.Result.CallID] = tr.Result
					}
				}
			}
			i = j - 1
			t.responses(r.responseTurns(calls, results))
		case chat.RoleTool:
			r.warnf("message %s: tool results without a preceding tool call; dropped", m.ID)
		default:
			r.warnf("message %s: unknown role %q; dropped", m.ID, m.Role)
		}
	}
	signActiveLoop(t.out)
	return t.out
}

// turns builds an alternating list of contents.
type turns struct{ out []content }

// add appends parts as a turn of role, merging them into the previous turn
// when it has the same role (gemini-cli's coalesceConsecutiveRoles: the
// service wants user and model turns to alternate).
func (t *turns) add(role string, parts []part) {
	if n := len(t.out); n > 0 && t.out[n-1].Role == role {
		t.out[n-1].Parts = append(t.out[n-1].Parts, parts...)
		return
	}
	t.out = append(t.out, content{Role: role, Parts: parts})
}

// user adds a user message. After a function-response turn it first closes
// that turn with the placeholder model turn, as gemini-cli does before
// recording a new prompt; merging the two would make the model read the
// prompt as the end of the tool result.
func (t *turns) user(parts []part) {
	if n := len(t.out); n > 0 && t.out[n-1].Role == "user" && hasResponse(t.out[n-1]) {
		t.out = append(t.out, content{Role: "model", Parts: []part{textPart(interruptedPlaceholder)}})
	}
	t.add("user", parts)
}

// responses adds the turns answering a call turn: the function-response
// turn, then any moved media (see responseTurns).
func (t *turns) responses(cs []content) { t.out = append(t.out, cs...) }

func hasResponse(c content) bool {
	for _, p := range c.Parts {
		if p.FunctionResponse != nil {
			return true
		}
	}
	return false
}

func (r *renderer) userParts(m chat.Message) []part {
	var parts []part
	for _, p := range m.Parts {
		switch p := p.(type) {
		case chat.TextPart:
			if p.Text != "" {
				parts = append(parts, textPart(p.Text))
			}
		case chat.FilePart:
			if fp, ok := filePart(p); ok {
				parts = append(parts, fp)
			} else {
				r.warnf("message %s: file %q has neither data nor URI; dropped", m.ID, p.Name)
			}
		case chat.ResourcePart:
			parts = append(parts, r.resourceParts(p)...)
		default:
			r.warnf("message %s: %s part in a user message; dropped", m.ID, p.PartType())
		}
	}
	return parts
}

// modelParts renders an assistant message. Reasoning is never replayed:
// gemini-cli filters thought parts out of the history it sends (stripThoughts),
// and reasoning from another provider would read as the model's visible
// answer. A Gemini thought's signature is not lost when a functionCall
// follows it in the message and has none of its own: the call carries it.
// (gemini-cli's stripThoughts gives such a call the skip sentinel; keeping
// the real signature keeps the model's reasoning context.)
func (r *renderer) modelParts(m chat.Message) ([]part, []chat.ToolCall) {
	var parts []part
	var calls []chat.ToolCall
	var thoughtSig string // signature of a dropped thought, for the next call
	for _, p := range m.Parts {
		switch p := p.(type) {
		case chat.TextPart:
			sig := signature(p.ProviderData)
			if p.Text == "" && sig == "" {
				continue
			}
			tp := textPart(p.Text)
			tp.ThoughtSignature = sig
			parts = append(parts, tp)
		case chat.ReasoningPart:
			if sig := signature(p.ProviderData); sig != "" && len(calls) == 0 {
				thoughtSig = sig
			}
		case chat.ToolCallPart:
			call := p.Call
			sig := signature(call.ProviderData)
			if len(calls) == 0 && sig == "" {
				sig = thoughtSig
			}
			calls = append(calls, call)
			parts = append(parts, part{
				FunctionCall: &functionCall{
					// Real recordings carry no ids; send one only when Gemini
					// gave it, so foreign ids never reach the service.
					ID:   call.ProviderIDs[chat.ProviderGemini],
					Name: providers.ToolName(r.req, call.Name),
					Args: r.args(call),
				},
				ThoughtSignature: sig,
			})
		default:
			r.warnf("message %s: %s part in an assistant message; dropped", m.ID, p.PartType())
		}
	}
	return parts, calls
}

// signActiveLoop makes sure the first functionCall of every model turn in
// the active loop carries a thought signature. The active loop starts at
// the last user turn that has a text part and no functionResponse
// (gemini-cli's ensureActiveLoopHasThoughtSignatures): a media-only turn,
// such as moved tool-result media, does not start a new loop. With no such
// turn the whole history is the loop (gemini-cli then signs nothing; the
// sentinel is accepted on any call, so signing more is the safe side).
func signActiveLoop(cs []content) {
	start := 0
	for i := len(cs) - 1; i >= 0; i-- {
		if cs[i].Role == "user" && hasText(cs[i]) && !hasResponse(cs[i]) {
			start = i + 1
			break
		}
	}
	for i := start; i < len(cs); i++ {
		if cs[i].Role != "model" {
			continue
		}
		for j := range cs[i].Parts {
			if p := &cs[i].Parts[j]; p.FunctionCall != nil {
				if p.ThoughtSignature == "" {
					p.ThoughtSignature = skipSignature
				}
				break
			}
		}
	}
}

func hasText(c content) bool {
	for _, p := range c.Parts {
		if p.Text != nil && *p.Text != "" {
			return true
		}
	}
	return false
}
