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

// detail is the ChatGPT backend's FastAPI-style 400 (C6 obs).
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
}

// checkBody enforces the body rules of C6, C7, C10 and C11. chatgpt selects
// the backend's extra rules (instructions, store, input list, no system).
func checkBody(body []byte, chatgpt bool) (*parsed, *rejection) {
	var req map[string]json.RawMessage
	if err := json.Unmarshal(body, &req); err != nil || req == nil {
		return nil, apiError(http.StatusBadRequest, "body is not a JSON object",
			"We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)", "", "")
	}
	p := &parsed{size: len(body)}
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
		if _, ok := req["max_output_tokens"]; ok {
			return nil, detail("max_output_tokens is not supported", "Unsupported parameter: max_output_tokens")
		}
	} else if stream == nil || !*stream {
		return nil, apiError(http.StatusBadRequest, "fake serves streams only",
			"openaifake: only stream:true is implemented", "stream", "")
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

func checkTools(raw json.RawMessage) *rejection {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var tools []struct {
		Type string          `json:"type"`
		Name json.RawMessage `json:"name"`
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
