package geminifake

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
)

// Typed view of a normalized (camelCase) request.

type caEnvelope struct {
	Model        string   `json:"model"`
	Project      string   `json:"project"`
	UserPromptID string   `json:"userPromptId"`
	Request      *request `json:"request"`
}

type request struct {
	Contents          []content `json:"contents"`
	SystemInstruction *content  `json:"systemInstruction"`
	Tools             []tool    `json:"tools"`
	GenerationConfig  *struct {
		ThinkingConfig *struct {
			IncludeThoughts bool   `json:"includeThoughts"`
			ThinkingBudget  *int   `json:"thinkingBudget"`
			ThinkingLevel   string `json:"thinkingLevel"`
		} `json:"thinkingConfig"`
	} `json:"generationConfig"`
}

type content struct {
	Role  string `json:"role"`
	Parts []part `json:"parts"`
}

type part struct {
	Text                *string         `json:"text"`
	Thought             bool            `json:"thought"`
	ThoughtSignature    *string         `json:"thoughtSignature"`
	InlineData          json.RawMessage `json:"inlineData"`
	FileData            json.RawMessage `json:"fileData"`
	FunctionCall        *call           `json:"functionCall"`
	FunctionResponse    *call           `json:"functionResponse"`
	ExecutableCode      json.RawMessage `json:"executableCode"`
	CodeExecutionResult json.RawMessage `json:"codeExecutionResult"`
}

// call is a FunctionCall or a FunctionResponse (same identifying fields).
type call struct {
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Args     json.RawMessage `json:"args"`
	Response json.RawMessage `json:"response"`
}

type tool struct {
	FunctionDeclarations []struct {
		Name string `json:"name"`
	} `json:"functionDeclarations"`
}

// toolTypes counts how many tool types an entry sets (from the raw map).
func toolTypes(raw map[string]any) int {
	n := 0
	for k, v := range raw {
		if k == "functionDeclarations" {
			if l, ok := v.([]any); !ok || len(l) == 0 {
				continue
			}
		}
		n++
	}
	return n
}

// validName is the service's function-name rule (docs/providers/gemini.md
// §Request rules):
// ^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$.
func validName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		case i > 0 && (c >= '0' && c <= '9' || c == '.' || c == ':' || c == '-'):
		default:
			return false
		}
	}
	return true
}

// decodeInto re-reads a normalized tree as typed values.
func decodeInto(v any, dst any) *rejection {
	b, err := json.Marshal(v)
	if err != nil {
		return invalid("json", "Invalid JSON payload received. %v", err)
	}
	if err := json.Unmarshal(b, dst); err != nil {
		return invalid("json type", "Invalid JSON payload received. %v", err)
	}
	return nil
}

// validate applies the service's content rules to a request for model d.
// rawTools is the normalized tools list, to see every tool type an entry
// sets; codeAssist picks the Code Assist wording where it differs.
func validate(req *request, rawTools []any, d modelDef, codeAssist bool) *rejection {
	if len(req.Contents) == 0 {
		return protoInvalid("contents required", "contents", "contents is not specified")
	}
	if rj := validateTools(req.Tools, rawTools); rj != nil {
		return rj
	}
	if si := req.SystemInstruction; si != nil && len(si.Parts) == 0 {
		return protoInvalid("system instruction parts", "system_instruction.parts", "contents.parts must not be empty.")
	}
	for i, c := range req.Contents {
		if rj := validateContent(i, c); rj != nil {
			return rj
		}
	}
	if rj := validateTurns(req.Contents); rj != nil {
		return rj
	}
	if rj := validateSignatures(req.Contents); rj != nil {
		return rj
	}
	return validateThinking(req, d, codeAssist)
}

func validateTools(tools []tool, raw []any) *rejection {
	seen := map[string]bool{}
	for i, t := range tools {
		if m, _ := raw[i].(map[string]any); toolTypes(m) == 0 {
			return protoInvalid("tool without a tool type", fmt.Sprintf("tools[%d].tool_type", i),
				"required one_of 'tool_type' must have one initialized field")
		}
		for j, d := range t.FunctionDeclarations {
			if !validName(d.Name) {
				return protoInvalid("function name pattern", fmt.Sprintf("tools[%d].function_declarations[%d].name", i, j), msgBadName)
			}
			if seen[d.Name] {
				return invalid("duplicate function declaration", "Duplicate function declaration found: %s", d.Name)
			}
			seen[d.Name] = true
		}
	}
	return nil
}

func validateContent(i int, c content) *rejection {
	if c.Role != "user" && c.Role != "model" {
		return invalid("role", "Please use a valid role: user, model.")
	}
	if len(c.Parts) == 0 {
		return protoInvalid("empty parts", fmt.Sprintf("contents[%d].parts", i), "contents.parts must not be empty.")
	}
	for j, p := range c.Parts {
		if r := validatePart(c.Role, fmt.Sprintf("contents[%d].parts[%d]", i, j), p); r != nil {
			return r
		}
	}
	if len(responses(c)) > 0 {
		for _, p := range c.Parts {
			if audioOrVideo(p.InlineData) {
				// Stricter than proven, as gemini-cli strips them "due to
				// protocol limitations".
				return invalid("audio or video beside a function response", msgInvalidArg)
			}
		}
	}
	return nil
}

// validatePart checks one part of a turn of role: exactly one data field,
// no thought, and calls and responses in the right turns and shapes.
func validatePart(role, field string, p part) *rejection {
	n := 0
	for _, set := range []bool{p.Text != nil, p.InlineData != nil, p.FileData != nil, p.FunctionCall != nil,
		p.FunctionResponse != nil, p.ExecutableCode != nil, p.CodeExecutionResult != nil} {
		if set {
			n++
		}
	}
	switch {
	case n == 0:
		return protoInvalid("part without data", field+".data", "required oneof field 'data' must have one initialized field")
	case n > 1:
		return invalid("part with two data fields", "Invalid JSON payload received. Oneof field 'data' is already set at '%s'.", field)
	}
	if p.Thought {
		// Stricter than proven: gemini-cli never sends thought parts
		// (docs/providers/gemini.md §What the fake enforces).
		return invalid("thought part in contents", msgInvalidArg)
	}
	if sig := p.ThoughtSignature; sig != nil && !validBase64(*sig) {
		return invalid("thought signature encoding",
			"Invalid value at '%s.thought_signature' (TYPE_BYTES), Base64 decoding failed for %q", field, *sig)
	}
	if p.InlineData != nil {
		if rj := validateInline(p.InlineData); rj != nil {
			return rj
		}
	}
	if fc := p.FunctionCall; fc != nil {
		return validateCall(role, field, fc)
	}
	if fr := p.FunctionResponse; fr != nil {
		return validateResponse(role, field, fr)
	}
	return nil
}

func validateCall(role, field string, fc *call) *rejection {
	if role != "model" {
		return invalid("function call in a user turn", msgCallTurn)
	}
	if !validName(fc.Name) {
		return protoInvalid("function name pattern", field+".function_call.name", msgBadName)
	}
	if a := bytes.TrimSpace(fc.Args); len(a) > 0 && a[0] != '{' && !bytes.Equal(a, []byte("null")) {
		return invalid("function call args", "Invalid value at '%s.function_call.args' (type.googleapis.com/google.protobuf.Struct), %s", field, a)
	}
	return nil
}

func validateResponse(role, field string, fr *call) *rejection {
	if role != "user" {
		return invalid("function response in a model turn", msgResponseTurn)
	}
	if !validName(fr.Name) {
		return protoInvalid("function name pattern", field+".function_response.name", msgBadName)
	}
	if r := bytes.TrimSpace(fr.Response); len(r) == 0 || r[0] != '{' {
		return protoInvalid("function response body", field+".function_response.response", "response is required and must be an object")
	}
	return nil
}

// audioOrVideo reports inline data of an audio or video type.
func audioOrVideo(inline json.RawMessage) bool {
	if inline == nil {
		return false
	}
	var b struct {
		MIMEType string `json:"mimeType"`
	}
	_ = json.Unmarshal(inline, &b)
	return strings.HasPrefix(b.MIMEType, "audio/") || strings.HasPrefix(b.MIMEType, "video/")
}

func calls(c content) []*call {
	var out []*call
	for _, p := range c.Parts {
		if p.FunctionCall != nil {
			out = append(out, p.FunctionCall)
		}
	}
	return out
}

func responses(c content) []*call {
	var out []*call
	for _, p := range c.Parts {
		if p.FunctionResponse != nil {
			out = append(out, p.FunctionResponse)
		}
	}
	return out
}

// validateTurns: a call turn follows a user or response turn and is
// followed by exactly one response turn answering its calls in order; a
// response turn follows a call turn.
func validateTurns(cs []content) *rejection {
	for i, c := range cs {
		if cl := calls(c); len(cl) > 0 {
			if i == 0 || cs[i-1].Role != "user" {
				return invalid("function call turn placement", msgCallTurn)
			}
			if i+1 >= len(cs) || len(responses(cs[i+1])) == 0 {
				return invalid("function response must follow function call", msgResponseTurn)
			}
			rs := responses(cs[i+1])
			if len(rs) != len(cl) {
				return invalid("function response count", msgResponseCount)
			}
			for k := range cl {
				if rs[k].Name != cl[k].Name || (rs[k].ID != "" && cl[k].ID != "" && rs[k].ID != cl[k].ID) {
					return invalid("function response order",
						"Please ensure that function response parts match the function call parts of the function call turn, in order: "+
							"response %d is for %q, call %d is %q.", k+1, rs[k].Name, k+1, cl[k].Name)
				}
			}
		}
		if len(responses(c)) > 0 && (i == 0 || len(calls(cs[i-1])) == 0) {
			return invalid("function response must follow function call", msgResponseTurn)
		}
		if i > 0 && cs[i-1].Role == c.Role {
			return invalid("consecutive "+c.Role+" contents", msgAlternate)
		}
	}
	return nil
}

// validateSignatures: in the active loop, the first functionCall of every
// model turn carries a thought signature. The loop starts after the last
// user turn with text and no function response (gemini-cli's rule; a
// media-only turn does not end the loop), or at the start when there is
// none.
func validateSignatures(cs []content) *rejection {
	start := 0
	for i := len(cs) - 1; i >= 0; i-- {
		if cs[i].Role == "user" && len(responses(cs[i])) == 0 && hasText(cs[i]) {
			start = i + 1
			break
		}
	}
	for i := start; i < len(cs); i++ {
		for _, p := range cs[i].Parts {
			if p.FunctionCall == nil {
				continue
			}
			if p.ThoughtSignature == nil || *p.ThoughtSignature == "" {
				return invalid("missing thought signature", msgMissingSigFmt, p.FunctionCall.Name, i+1)
			}
			break
		}
	}
	return nil
}

// validBase64 accepts standard or URL-safe base64, padded or not, as
// Google's bytes fields do.
func validBase64(s string) bool {
	if s == "" {
		return true
	}
	t := strings.TrimRight(s, "=")
	if _, err := base64.RawStdEncoding.DecodeString(t); err == nil {
		return true
	}
	_, err := base64.RawURLEncoding.DecodeString(t)
	return err == nil
}

func hasText(c content) bool {
	for _, p := range c.Parts {
		if p.Text != nil && *p.Text != "" {
			return true
		}
	}
	return false
}

// validateThinking checks the thinking config against model d: a budget
// or a level, never both; a level only for Gemini 3; a budget within a
// Gemini 2.5 model's range (-1, dynamic, always; 0 where thinking can be
// turned off). A budget sent to Gemini 3 is accepted, as Google's thinking
// guide says it is.
func validateThinking(req *request, d modelDef, codeAssist bool) *rejection {
	if req.GenerationConfig == nil || req.GenerationConfig.ThinkingConfig == nil {
		return nil
	}
	tc := req.GenerationConfig.ThinkingConfig
	switch {
	case tc.ThinkingBudget != nil && tc.ThinkingLevel != "":
		return invalid("thinking budget and level", msgBudgetAndLevel)
	case tc.ThinkingLevel != "" && d.minBudget > 0:
		// Google documents the error, not its wording: stricter than proven.
		return invalid("thinking level on a Gemini 2.5 model", msgInvalidArg)
	case tc.ThinkingBudget == nil || d.minBudget == 0:
		return nil
	}
	b := *tc.ThinkingBudget
	if b == -1 || b == 0 && d.zeroBudget || b >= d.minBudget && b <= d.maxBudget {
		return nil
	}
	if codeAssist {
		return invalid("thinking budget out of range", msgBudgetRangeFmt, d.minBudget, d.maxBudget)
	}
	return invalid("thinking budget out of range", msgBudgetInvalidFmt, b)
}
