package gemini

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"maestro/backend/chat"
	"maestro/backend/providers"
)

// mediaAck is the model turn gemini-cli inserts before re-injecting a
// read_file result's audio or video as a user turn (geminiChat.ts, its
// binary injection); gemini-cli marks it a thought, Maestro sends it as
// plain text because thought parts are never replayed.
const mediaAck = "Binary content received. Proceeding with analysis."

// responseTurns answers calls in order: one user turn with a
// functionResponse per call (docs/providers/gemini.md §Request rules). A
// result's attachments follow gemini-cli's convertToFunctionResponse:
//
//   - audio and video never sit beside a functionResponse ("protocol
//     limitations"); they move to a user turn of their own after a short
//     model acknowledgement, as gemini-cli does for read_file, and a note in
//     the response turn says so;
//   - other inline data (images) is nested in functionResponse.parts for
//     models that take multimodal function responses (Gemini 3), and
//     follows the responses as sibling parts otherwise;
//   - file URIs and text follow the responses as sibling parts.
func (r *renderer) responseTurns(calls []chat.ToolCall, results map[string]chat.ToolResult) []content {
	parts := make([]part, 0, len(calls))
	var siblings, notes, moved []part
	nested := multimodalResponses(r.model)
	for _, call := range calls {
		res, ok := results[call.ID]
		if !ok {
			r.warnf("tool call %s: no result in history; sent as an error result", call.ID)
			res = chat.ToolResult{CallID: call.ID, Name: call.Name, Error: "the tool call was interrupted before it returned a result"}
		}
		delete(results, call.ID)
		name := providers.ToolName(r.req, call.Name)
		fr := &functionResponse{ID: call.ProviderIDs[chat.ProviderGemini], Name: name}
		// "output" for success, "error" for failure (Google's documented
		// keys): the envelope text says the same, the key makes the failure
		// visible at a glance.
		if res.Successful {
			fr.Response.Output = envelopeText(res)
		} else {
			fr.Response.Error = envelopeText(res)
		}
		var mimes []string
		for _, a := range res.Attachments {
			switch {
			case a.Data != "" && a.MIMEType != "":
				b := &blob{MIMEType: a.MIMEType, Data: a.Data}
				switch {
				case audioOrVideo(a.MIMEType):
					moved = append(moved, part{InlineData: b})
					if !slices.Contains(mimes, a.MIMEType) {
						mimes = append(mimes, a.MIMEType)
					}
				case nested:
					fr.Parts = append(fr.Parts, responsePart{InlineData: b})
				default:
					siblings = append(siblings, part{InlineData: b})
				}
			case a.ModelText() != "":
				siblings = append(siblings, textPart(a.ModelText()))
			case a.URI != "" && isWebURL(a.URI):
				siblings = append(siblings, part{FileData: &fileData{MIMEType: a.MIMEType, FileURI: a.URI}})
			default:
				r.warnf("tool result %s: %s attachment (%s) dropped", res.CallID, a.Type, a.MIMEType)
			}
		}
		parts = append(parts, part{FunctionResponse: fr})
		if len(mimes) > 0 {
			notes = append(notes, textPart(fmt.Sprintf(
				"[Binary content (%s) returned by %s is sent in the next user turn.]", strings.Join(mimes, ", "), name)))
		}
	}
	for _, id := range slices.Sorted(maps.Keys(results)) {
		r.warnf("tool result %s: no matching tool call; dropped", id)
	}
	parts = append(append(parts, siblings...), notes...)
	out := []content{{Role: "user", Parts: parts}}
	if len(moved) > 0 {
		out = append(out, content{Role: "model", Parts: []part{textPart(mediaAck)}}, content{Role: "user", Parts: moved})
	}
	return out
}

func audioOrVideo(mime string) bool {
	return strings.HasPrefix(mime, "audio/") || strings.HasPrefix(mime, "video/")
}

// multimodalResponses reports models that take images inside a
// functionResponse: gemini-cli's modelDefinitions mark multimodalToolUse
// for the whole Gemini 3 family and for no 2.x model.
func multimodalResponses(model string) bool {
	return strings.HasPrefix(model, "gemini-3")
}
