package gemini

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"maestro/backend/chat"
)

// skipSignature is gemini-cli's SYNTHETIC_THOUGHT_SIGNATURE: the value the
// API accepts in place of a real thought signature on a function call it did
// not sign (history from another provider, or a signature that was lost).
const skipSignature = "skip_thought_signature_validator"

// Thinking budgets for chat.Reasoning.Effort when BudgetTokens is 0. -1 asks
// the model to choose (dynamic thinking).
const (
	budgetLow     = 1024
	budgetMedium  = 8192
	budgetHigh    = 24576
	budgetDynamic = -1
)

// toRequest renders req as a Code Assist envelope. It is pure: the same
// request always renders the same body. The envelope's project is left
// empty; the Model fills it in (or unwraps the inner request for API-key
// mode). Warnings name anything that had to be dropped or repaired.
func toRequest(req chat.Request) (*envelope, []string) {
	r := &renderer{req: req}
	gr := &generateRequest{
		Contents:         r.contents(),
		Tools:            r.tools(),
		GenerationConfig: generation(req),
		SessionID:        req.SessionID,
	}
	if req.System != "" {
		gr.SystemInstruction = &content{Role: "user", Parts: []part{textPart(req.System)}}
	}
	return &envelope{
		Model:        strings.TrimPrefix(req.Model, "models/"),
		UserPromptID: req.PromptID,
		Request:      gr,
	}, r.warnings
}

type renderer struct {
	req      chat.Request
	warnings []string
}

func (r *renderer) warnf(format string, args ...any) {
	r.warnings = append(r.warnings, fmt.Sprintf(format, args...))
}

// tools renders every tool into one Tool entry, as gemini-cli does.
func (r *renderer) tools() []tool {
	if len(r.req.Tools) == 0 {
		return nil
	}
	decls := make([]functionDeclaration, 0, len(r.req.Tools))
	for _, t := range r.req.Tools {
		d := functionDeclaration{Name: t.Name, Description: t.Description}
		// Schemas arrive normalised by the tool registry, so only their
		// shape is checked here (a full json.Valid per tool would double the
		// render time); encoding the request validates them fully.
		if schema := bytes.TrimSpace(t.InputSchema); len(schema) > 0 && !bytes.Equal(schema, []byte("null")) {
			if schema[0] == '{' && schema[len(schema)-1] == '}' {
				d.ParametersJSONSchema = schema
			} else {
				r.warnf("tool %s: input schema is not a JSON object; declared without parameters", t.Name)
			}
		}
		decls = append(decls, d)
	}
	return []tool{{FunctionDeclarations: decls, FunctionDeclarationsSnake: decls}}
}

func generation(req chat.Request) *generationConfig {
	gc := generationConfig{Temperature: req.Temperature, MaxOutputTokens: req.MaxOutputTokens}
	if rs := req.Reasoning; rs != nil {
		gc.ThinkingConfig = &thinkingConfig{ThinkingBudget: thinkingBudget(*rs), IncludeThoughts: true}
	}
	if gc == (generationConfig{}) {
		return nil
	}
	return &gc
}

func thinkingBudget(rs chat.Reasoning) int {
	if rs.BudgetTokens > 0 {
		return rs.BudgetTokens
	}
	switch rs.Effort {
	case "low":
		return budgetLow
	case "medium":
		return budgetMedium
	case "high":
		return budgetHigh
	}
	return budgetDynamic
}

func textPart(s string) part { return part{Text: &s} }

// signature reads the thought signature from a part's ProviderData. Only
// the "gemini" key is read, so another provider's opaque state never leaks.
func signature(pd chat.ProviderData) string {
	raw, ok := pd[chat.ProviderGemini]
	if !ok {
		return ""
	}
	var v struct {
		ThoughtSignature string `json:"thoughtSignature"`
	}
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	return v.ThoughtSignature
}

// args returns a call's arguments as a JSON object; FunctionCall.args is a
// Struct, so anything else would be rejected.
func (r *renderer) args(call chat.ToolCall) json.RawMessage {
	a := bytes.TrimSpace(call.Arguments)
	if len(a) == 0 || bytes.Equal(a, []byte("null")) {
		return json.RawMessage("{}")
	}
	if a[0] != '{' || !json.Valid(a) {
		r.warnf("tool call %s: arguments are not a JSON object; sent as {}", call.ID)
		return json.RawMessage("{}")
	}
	return a
}

// resultEnvelope is the tool-result envelope the model sees.
type resultEnvelope struct {
	Successful bool            `json:"successful"`
	Data       json.RawMessage `json:"data,omitempty"`
	Error      string          `json:"error,omitempty"`
}

// envelopeText renders a result as compact JSON text. Data that is not
// valid JSON is sent as a JSON string rather than dropped.
func envelopeText(res chat.ToolResult) string {
	env := resultEnvelope{Successful: res.Successful, Error: res.Error}
	if d := bytes.TrimSpace(res.Data); len(d) > 0 {
		if json.Valid(d) {
			env.Data = d
		} else {
			s, _ := json.Marshal(string(d))
			env.Data = s
		}
	}
	b, err := json.Marshal(env)
	if err != nil { // unreachable: every field is valid JSON by now
		return `{"successful":false,"error":"unencodable tool result"}`
	}
	return string(b)
}
