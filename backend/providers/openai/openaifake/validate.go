package openaifake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// rejection is a 4xx the real service would give, with the rule it
// enforces (recorded as Recorded.Rejection).
type rejection struct {
	status int
	body   string
	rule   string
}

// detail is the ChatGPT backend's FastAPI-style 400
// (docs/providers/openai.md §Errors).
func detail(rule, msg string) *rejection {
	b, _ := json.Marshal(map[string]string{"detail": msg})
	return &rejection{status: http.StatusBadRequest, body: string(b), rule: rule}
}

// apiError is the Responses API error object. Empty param or code is null.
func apiError(status int, rule, msg, param, code string) *rejection {
	type obj struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
		Code    *string `json:"code"`
	}
	o := obj{Message: msg, Type: "invalid_request_error"}
	if param != "" {
		o.Param = &param
	}
	if code != "" {
		o.Code = &code
	}
	b, _ := json.Marshal(map[string]obj{"error": o})
	return &rejection{status: status, body: string(b), rule: rule}
}

// parsed is what the reply needs from a valid request.
type parsed struct {
	model    string
	lastUser string
	size     int
	// media totals the request's images and files (media.go).
	media *media
	// inputTokens is the prompt's size as the fake counts it
	// (fakescript.CountJSON).
	inputTokens int
}

// checkBody enforces the body rules of docs/providers/openai.md §Request
// rules and §Input items. chatgpt selects the backend's extra rules
// (instructions, store, input list, no system, no sampling parameters).
func checkBody(body []byte, chatgpt bool) (*parsed, *rejection) {
	var req map[string]json.RawMessage
	if err := json.Unmarshal(body, &req); err != nil || req == nil {
		return nil, apiError(http.StatusBadRequest, "body is not a JSON object",
			"We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)", "", "")
	}
	p := &parsed{}
	if json.Unmarshal(req["model"], &p.model) != nil || p.model == "" {
		return nil, apiError(http.StatusBadRequest, "model is required",
			"Missing required parameter: 'model'.", "model", "missing_required_parameter")
	}
	var store, stream *bool
	_ = json.Unmarshal(req["store"], &store)
	_ = json.Unmarshal(req["stream"], &stream)
	if chatgpt {
		var instr string
		if json.Unmarshal(req["instructions"], &instr) != nil || strings.TrimSpace(instr) == "" {
			return nil, detail("instructions are required", "Instructions are required")
		}
		if store == nil || *store {
			return nil, detail("store must be false", "Store must be set to false")
		}
		if stream == nil || !*stream {
			return nil, detail("stream must be true", "Stream must be set to true")
		}
	} else if stream == nil || !*stream {
		return nil, apiError(http.StatusBadRequest, "fake serves streams only",
			"openaifake: only stream:true is implemented", "stream", "")
	}
	if rej := checkParams(req, p.model, chatgpt); rej != nil {
		return nil, rej
	}
	if rej := checkTools(req["tools"]); rej != nil {
		return nil, rej
	}
	raw := req["input"]
	if len(raw) > 0 && raw[0] == '"' && !chatgpt {
		_ = json.Unmarshal(raw, &p.lastUser)
		return p, nil
	}
	var items []json.RawMessage
	if len(raw) == 0 || raw[0] != '[' || json.Unmarshal(raw, &items) != nil {
		if chatgpt {
			return nil, detail("input must be a list", "Input must be a list")
		}
		return nil, apiError(http.StatusBadRequest, "input must be a string or a list",
			"Invalid type for 'input': expected one of a string or array of input items, but got an object instead.", "input", "invalid_type")
	}
	stateless := store == nil || !*store
	if rej := checkInput(items, chatgpt, stateless, p); rej != nil {
		return nil, rej
	}
	return p, nil
}

// checkParams enforces which optional parameters the model takes. The
// ChatGPT backend takes no sampling or length parameter at all (kortix-ai/
// suna#5124, finch-xu/cc-router#32, ChatGPTNextWeb/NextChat#6774); the API
// refuses temperature and top_p on reasoning models
// (OpenHands/software-agent-sdk#1837, devoxx/DevoxxGenieIDEAPlugin#1240)
// and reasoning.effort on the others.
func checkParams(req map[string]json.RawMessage, model string, chatgpt bool) *rejection {
	has := func(k string) bool { v, ok := req[k]; return ok && string(v) != "null" }
	if chatgpt {
		for _, k := range []string{"max_output_tokens", "temperature", "top_p"} {
			if has(k) {
				return detail(k+" is not supported", "Unsupported parameter: "+k)
			}
		}
		return nil
	}
	if !reasoningModel(model) {
		if has("reasoning") {
			return apiError(http.StatusBadRequest, "reasoning only for reasoning models",
				"Unsupported parameter: 'reasoning.effort' is not supported with this model.", "reasoning.effort", "unsupported_parameter")
		}
		return nil
	}
	if has("temperature") {
		return apiError(http.StatusBadRequest, "no temperature for reasoning models",
			"Unsupported parameter: 'temperature' is not supported with this model.", "temperature", "")
	}
	if has("top_p") {
		return apiError(http.StatusBadRequest, "no top_p for reasoning models",
			"Unsupported parameter: 'top_p' is not supported with this model.", "top_p", "unsupported_parameter")
	}
	return nil
}

func checkTools(raw json.RawMessage) *rejection {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var tools []struct {
		Type       string          `json:"type"`
		Name       json.RawMessage `json:"name"`
		Parameters json.RawMessage `json:"parameters"`
	}
	if json.Unmarshal(raw, &tools) != nil {
		return apiError(http.StatusBadRequest, "tools must be a list of objects",
			"Invalid type for 'tools': expected an array of objects.", "tools", "invalid_type")
	}
	if len(tools) > 128 {
		return apiError(http.StatusBadRequest, "at most 128 tools",
			fmt.Sprintf("Invalid 'tools': array too long. Expected an array with maximum length 128, but got an array with length %d instead.", len(tools)),
			"tools", "array_above_max_length")
	}
	for i, t := range tools {
		if t.Type != "function" {
			continue
		}
		param := fmt.Sprintf("tools[%d].name", i)
		var name string
		if json.Unmarshal(t.Name, &name) != nil || name == "" {
			return apiError(http.StatusBadRequest, "tool name is required",
				fmt.Sprintf("Missing required parameter: '%s'.", param), param, "missing_required_parameter")
		}
		if len(name) > 64 {
			return apiError(http.StatusBadRequest, "tool name longer than 64",
				fmt.Sprintf("Invalid '%s': string too long. Expected a string with maximum length 64, but got a string with length %d instead.", param, len(name)),
				param, "string_above_max_length")
		}
		if !validName(name) {
			return apiError(http.StatusBadRequest, "tool name must match ^[a-zA-Z0-9_-]+$",
				fmt.Sprintf("Invalid '%s': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.", param),
				param, "invalid_value")
		}
	}
	for i, t := range tools {
		if t.Type != "function" {
			continue
		}
		var name string
		_ = json.Unmarshal(t.Name, &name)
		if rej := checkParameters(t.Parameters, name, fmt.Sprintf("tools[%d].parameters", i)); rej != nil {
			return rej
		}
	}
	return nil
}

func validName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return s != ""
}
