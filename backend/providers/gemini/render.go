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

// Thinking defaults (docs/providers/gemini.md §Request rules). Budgets for
// chat.Reasoning.Effort on Gemini 2.5 when BudgetTokens is 0; -1 asks the
// model to choose (dynamic thinking). budgetDefault is what gemini-cli sends
// when nothing is asked (chat-base-2.5, DEFAULT_THINKING_MODE).
const (
	budgetLow     = 1024
	budgetMedium  = 8192
	budgetHigh    = 24576
	budgetDynamic = -1
	budgetDefault = 8192

	// Gemini 3 levels; levelHigh is gemini-cli's chat-base-3 default.
	levelLow  = "LOW"
	levelHigh = "HIGH"
)

// toRequest renders req as a Code Assist envelope. It is pure: the same
// request always renders the same body. The envelope's project is left
// empty; the Model fills it in (or unwraps the inner request for API-key
// mode). Warnings name anything that had to be dropped or repaired.
func toRequest(req chat.Request) (*envelope, []string) {
	model := strings.TrimPrefix(req.Model, "models/")
	r := &renderer{req: req, model: model, info: modelInfo(req.Info, model)}
	gr := &generateRequest{
		Tools:            r.tools(),
		GenerationConfig: r.generation(),
		SessionID:        req.SessionID,
		Contents:         r.contents(),
	}
	if req.System != "" {
		gr.SystemInstruction = &content{Role: "user", Parts: []part{textPart(req.System)}}
	}
	return &envelope{
		Model:        model,
		UserPromptID: req.PromptID,
		Request:      gr,
	}, r.warnings
}

// modelInfo is what the catalog knows about model, completed from the
// built-in table; the built-in table alone when the catalog knows nothing.
func modelInfo(info chat.ModelInfo, model string) chat.ModelInfo {
	if info.ID != model {
		return Lookup(model)
	}
	return info.Fill(Lookup(model))
}

type renderer struct {
	req      chat.Request
	model    string // without "models/"
	info     chat.ModelInfo
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
	return []tool{{FunctionDeclarations: decls}}
}

func (r *renderer) generation() *generationConfig {
	gc := generationConfig{Temperature: r.req.Temperature, MaxOutputTokens: r.req.MaxOutputTokens,
		ThinkingConfig: r.thinking()}
	if gc == (generationConfig{}) {
		return nil
	}
	return &gc
}

// thinking is the thinkingConfig for the model. A model known to think
// always gets one, as gemini-cli always sends one: with req.Reasoning nil,
// the family default (budget 8192 on Gemini 2.5, level HIGH on Gemini 3).
// A model the tables do not know gets one only when reasoning is asked for,
// as a budget, unclamped.
func (r *renderer) thinking() *thinkingConfig {
	rs := r.req.Reasoning
	tc := &thinkingConfig{IncludeThoughts: true}
	switch r.info.Thinking {
	case chat.ThinkingLevel:
		tc.ThinkingLevel = thinkingLevel(rs)
	case chat.ThinkingBudget:
		b := budgetDefault
		if rs != nil {
			b = thinkingBudget(*rs)
		}
		b = clampBudget(b, r.info)
		tc.ThinkingBudget = &b
	default:
		if rs == nil {
			return nil
		}
		b := thinkingBudget(*rs)
		tc.ThinkingBudget = &b
	}
	return tc
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

// clampBudget bounds b by the model's range; -1 (dynamic) is valid on
// every Gemini 2.5 model and stays.
func clampBudget(b int, info chat.ModelInfo) int {
	if b == budgetDynamic {
		return b
	}
	if info.MaxThinkingBudget > 0 && b > info.MaxThinkingBudget {
		b = info.MaxThinkingBudget
	}
	if b < info.MinThinkingBudget {
		b = info.MinThinkingBudget
	}
	return b
}

// thinkingLevel maps a request onto the two levels every Gemini 3 model
// takes (LOW and HIGH; MINIMAL and MEDIUM are Flash-only): low effort or a
// budget of at most budgetLow is LOW, anything else HIGH.
func thinkingLevel(rs *chat.Reasoning) string {
	switch {
	case rs == nil:
		return levelHigh
	case rs.BudgetTokens > 0 && rs.BudgetTokens <= budgetLow, rs.BudgetTokens == 0 && rs.Effort == "low":
		return levelLow
	}
	return levelHigh
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
// Struct, so anything else would be rejected. Invalid arguments a model
// sent are replayed wrapped as {"INVALID_JSON": "…"}
// (chat.ToolCall.ReplayArguments).
func (r *renderer) args(call chat.ToolCall) json.RawMessage {
	a := bytes.TrimSpace(call.ReplayArguments())
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
