package gemini

import (
	"maps"
	"slices"

	"maestro/backend/chat"
	"maestro/backend/providers"
)

// contents renders the history. The service's rules shape it:
//
//   - A model turn with N functionCall parts is followed by exactly one user
//     turn holding the N functionResponse parts in the same order (results
//     are looked up by call id; a missing result is replaced by an error
//     result, an orphan result is dropped).
//   - A function-call turn follows a user turn or a function-response turn,
//     so consecutive assistant messages merge into one model turn.
//   - In the active loop (after the last plain user turn) the first
//     functionCall of every model turn carries a thought signature; the
//     skip sentinel stands in when history has none.
func (r *renderer) contents() []content {
	msgs := r.req.Messages
	out := make([]content, 0, len(msgs))
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		switch m.Role {
		case chat.RoleUser:
			if parts := r.userParts(m); len(parts) > 0 {
				out = appendTurn(out, "user", parts)
			} else {
				r.warnf("message %s: user message has nothing to send; dropped", m.ID)
			}
		case chat.RoleAssistant:
			parts, calls := r.modelParts(m)
			if len(parts) == 0 {
				continue
			}
			out = appendTurn(out, "model", parts)
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
			out = append(out, content{Role: "user", Parts: r.responseParts(calls, results)})
		case chat.RoleTool:
			r.warnf("message %s: tool results without a preceding tool call; dropped", m.ID)
		default:
			r.warnf("message %s: unknown role %q; dropped", m.ID, m.Role)
		}
	}
	signActiveLoop(out)
	return out
}

// appendTurn adds parts as a new turn, or merges them into the previous turn
// of the same role when that turn is plain (no calls, no responses): Gemini
// treats a turn as a unit, and a call turn must directly follow a user or
// response turn.
func appendTurn(out []content, role string, parts []part) []content {
	if n := len(out); n > 0 && out[n-1].Role == role && !hasCallOrResponse(out[n-1]) {
		out[n-1].Parts = append(out[n-1].Parts, parts...)
		return out
	}
	return append(out, content{Role: role, Parts: parts})
}

func hasCallOrResponse(c content) bool {
	for _, p := range c.Parts {
		if p.FunctionCall != nil || p.FunctionResponse != nil {
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
		default:
			r.warnf("message %s: %s part in a user message; dropped", m.ID, p.PartType())
		}
	}
	return parts
}

func filePart(f chat.FilePart) (part, bool) {
	switch {
	case f.Data != "":
		return part{InlineData: &blob{MIMEType: f.MIMEType, Data: f.Data}}, true
	case f.URI != "":
		return part{FileData: &fileData{MIMEType: f.MIMEType, FileURI: f.URI}}, true
	}
	return part{}, false
}

// modelParts renders an assistant message. Reasoning is replayed only when
// it carries Gemini state (a thought signature Gemini produced); reasoning
// from another provider is dropped, not sent as text: it would read as the
// model's visible answer, and gemini-cli likewise strips thoughts from
// history.
func (r *renderer) modelParts(m chat.Message) ([]part, []chat.ToolCall) {
	var parts []part
	var calls []chat.ToolCall
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
			if _, ok := p.ProviderData[chat.ProviderGemini]; !ok {
				continue
			}
			tp := textPart(p.Text)
			tp.Thought = true
			tp.ThoughtSignature = signature(p.ProviderData)
			parts = append(parts, tp)
		case chat.ToolCallPart:
			call := p.Call
			calls = append(calls, call)
			parts = append(parts, part{
				FunctionCall: &functionCall{
					// Real recordings carry no ids; send one only when Gemini
					// gave it, so foreign ids never reach the service.
					ID:   call.ProviderIDs[chat.ProviderGemini],
					Name: providers.ToolName(r.req, call.Name),
					Args: r.args(call),
				},
				ThoughtSignature: signature(call.ProviderData),
			})
		default:
			r.warnf("message %s: %s part in an assistant message; dropped", m.ID, p.PartType())
		}
	}
	return parts, calls
}

// responseParts answers calls in order. Attachments (images, audio,
// resources) follow the functionResponse parts as extra parts, as gemini-cli
// sends richer tool output.
func (r *renderer) responseParts(calls []chat.ToolCall, results map[string]chat.ToolResult) []part {
	parts := make([]part, 0, len(calls))
	var extra []part
	for _, call := range calls {
		res, ok := results[call.ID]
		if !ok {
			r.warnf("tool call %s: no result in history; sent as an error result", call.ID)
			res = chat.ToolResult{CallID: call.ID, Name: call.Name, Error: "the tool call was interrupted before it returned a result"}
		}
		delete(results, call.ID)
		resp := responseObject{}
		// "output" for success, "error" for failure (Google's documented
		// keys): the envelope text says the same, the key makes the failure
		// visible at a glance.
		if res.Successful {
			resp.Output = envelopeText(res)
		} else {
			resp.Error = envelopeText(res)
		}
		parts = append(parts, part{FunctionResponse: &functionResponse{
			ID:       call.ProviderIDs[chat.ProviderGemini],
			Name:     providers.ToolName(r.req, call.Name),
			Response: resp,
		}})
		for _, a := range res.Attachments {
			switch {
			case a.Data != "" && a.MIMEType != "":
				extra = append(extra, part{InlineData: &blob{MIMEType: a.MIMEType, Data: a.Data}})
			case a.Text != "":
				extra = append(extra, textPart(a.Text))
			case a.URI != "":
				extra = append(extra, part{FileData: &fileData{MIMEType: a.MIMEType, FileURI: a.URI}})
			}
		}
	}
	for _, id := range slices.Sorted(maps.Keys(results)) {
		r.warnf("tool result %s: no matching tool call; dropped", id)
	}
	return append(parts, extra...)
}

// signActiveLoop makes sure the first functionCall of every model turn after
// the last plain user turn carries a thought signature.
func signActiveLoop(cs []content) {
	start := 0
	for i := len(cs) - 1; i >= 0; i-- {
		if cs[i].Role == "user" && !hasCallOrResponse(cs[i]) {
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
