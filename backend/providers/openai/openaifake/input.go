package openaifake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// inputItem holds the fields of an input item the rules look at.
type inputItem struct {
	ID               *string         `json:"id"`
	Type             string          `json:"type"`
	Role             string          `json:"role"`
	Content          json.RawMessage `json:"content"`
	Name             json.RawMessage `json:"name"`
	Arguments        json.RawMessage `json:"arguments"`
	CallID           json.RawMessage `json:"call_id"`
	Output           json.RawMessage `json:"output"`
	Summary          json.RawMessage `json:"summary"`
	EncryptedContent json.RawMessage `json:"encrypted_content"`
}

// checkInput enforces the item shapes of docs/providers/openai.md §Input
// items and the pairing invariant:
// every function_call_output has its function_call and vice versa.
func checkInput(items []json.RawMessage, chatgpt, stateless bool, p *parsed) *rejection {
	var calls, outputs []string
	p.media = &media{}
	for i, raw := range items {
		at := fmt.Sprintf("input[%d]", i)
		var it inputItem
		if err := json.Unmarshal(raw, &it); err != nil {
			return apiError(http.StatusBadRequest, "input items must be objects",
				fmt.Sprintf("Invalid type for '%s': expected an input item object.", at), at, "invalid_type")
		}
		if stateless && it.ID != nil && *it.ID != "" {
			return apiError(http.StatusNotFound, "no item ids under store:false",
				fmt.Sprintf("Item with id '%s' not found. Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your input.", *it.ID),
				"input", "")
		}
		if it.Type == "" && it.Role != "" {
			it.Type = "message"
		}
		var rej *rejection
		switch it.Type {
		case "message":
			rej = checkMessage(it, at, chatgpt, p)
		case "reasoning":
			rej = checkReasoning(it, at, stateless)
		case "function_call":
			var id string
			id, rej = requiredString(it.CallID, at+".call_id")
			if rej == nil {
				_, rej = requiredString(it.Name, at+".name")
			}
			if rej == nil && (len(it.Arguments) == 0 || it.Arguments[0] != '"') {
				rej = apiError(http.StatusBadRequest, "function_call arguments must be a string",
					fmt.Sprintf("Invalid type for '%s.arguments': expected a string, but got %s instead.", at, jsonKind(it.Arguments)),
					at+".arguments", "invalid_type")
			}
			calls = append(calls, id)
		case "function_call_output":
			var id string
			id, rej = requiredString(it.CallID, at+".call_id")
			if rej == nil && (len(it.Output) == 0 || it.Output[0] != '"' && it.Output[0] != '[') {
				rej = apiError(http.StatusBadRequest, "function_call_output output must be a string or a list",
					fmt.Sprintf("Invalid type for '%s.output': expected one of a string or array of input items, but got %s instead.", at, jsonKind(it.Output)),
					at+".output", "invalid_type")
			}
			if rej == nil && it.Output[0] == '[' {
				rej = checkOutputMedia(it.Output, at, p)
			}
			outputs = append(outputs, id)
		}
		if rej != nil {
			return rej
		}
	}
	return checkPairing(calls, outputs)
}

func checkPairing(calls, outputs []string) *rejection {
	has := func(ids []string, id string) bool {
		for _, x := range ids {
			if x == id {
				return true
			}
		}
		return false
	}
	for _, id := range outputs {
		if !has(calls, id) {
			return apiError(http.StatusBadRequest, "function_call_output without its function_call",
				fmt.Sprintf("No tool call found for function call output with call_id %s.", id), "input", "")
		}
	}
	for _, id := range calls {
		if !has(outputs, id) {
			return apiError(http.StatusBadRequest, "function_call without its output",
				fmt.Sprintf("No tool output found for function call %s.", id), "input", "")
		}
	}
	return nil
}

func checkMessage(it inputItem, at string, chatgpt bool, p *parsed) *rejection {
	var allowed []string
	switch it.Role {
	case "user", "developer":
		allowed = []string{"input_text", "input_image", "input_file"}
	case "assistant":
		allowed = []string{"output_text", "refusal"}
	case "system":
		if chatgpt {
			return detail("no system messages in input", "System messages are not allowed")
		}
		allowed = []string{"input_text"}
	default:
		return apiError(http.StatusBadRequest, "message role must be user, assistant, system or developer",
			fmt.Sprintf("Invalid value: '%s'. Supported values are: 'assistant', 'system', 'developer', and 'user'.", it.Role),
			at+".role", "invalid_value")
	}
	if len(it.Content) > 0 && it.Content[0] == '"' {
		if it.Role == "user" {
			_ = json.Unmarshal(it.Content, &p.lastUser)
		}
		return nil
	}
	var parts []contentPart
	if json.Unmarshal(it.Content, &parts) != nil || it.Content == nil {
		return apiError(http.StatusBadRequest, "message content must be a string or a list",
			fmt.Sprintf("Invalid type for '%s.content': expected one of a string or array of input content items.", at),
			at+".content", "invalid_type")
	}
	var texts []string
	for j, part := range parts {
		pat := fmt.Sprintf("%s.content[%d]", at, j)
		if !contains(allowed, part.Type) {
			return apiError(http.StatusBadRequest, it.Role+" content types are "+strings.Join(allowed, ", "),
				fmt.Sprintf("Invalid value: '%s'. Supported values are: %s.", part.Type, quoteList(allowed)), pat, "invalid_value")
		}
		text, rej := part.check(pat, p)
		if rej != nil {
			return rej
		}
		if text != nil {
			texts = append(texts, *text)
		}
	}
	if it.Role == "user" && len(texts) > 0 {
		p.lastUser = strings.Join(texts, "\n")
	}
	return nil
}

// contentPart is one item of a message's content list.
type contentPart struct {
	Type     string          `json:"type"`
	Text     json.RawMessage `json:"text"`
	ImageURL string          `json:"image_url"`
	FileID   string          `json:"file_id"`
	FileData string          `json:"file_data"`
	FileURL  string          `json:"file_url"`
}

// check applies the rules of the part's type and returns its text, for a
// text part.
func (part contentPart) check(pat string, p *parsed) (*string, *rejection) {
	switch part.Type {
	case "input_text", "output_text":
		text, rej := requiredString(part.Text, pat+".text")
		return &text, rej
	case "input_image":
		if part.ImageURL == "" && part.FileID == "" {
			return nil, apiError(http.StatusBadRequest, "input_image needs image_url or file_id",
				fmt.Sprintf("Missing required parameter: '%s.image_url'.", pat), pat+".image_url", "missing_required_parameter")
		}
		if part.ImageURL != "" {
			return nil, p.media.checkImage(part.ImageURL, pat)
		}
	case "input_file":
		if part.FileData == "" && part.FileID == "" && part.FileURL == "" {
			return nil, apiError(http.StatusBadRequest, "input_file needs file_data or file_id",
				fmt.Sprintf("Missing required parameter: '%s.file_data'.", pat), pat+".file_data", "missing_required_parameter")
		}
		return nil, p.media.checkFile(part.FileData, pat)
	}
	return nil, nil
}

// fernetPrefix starts every real encrypted_content (a Fernet token) and the
// fake's own; anything else cannot be decrypted.
const fernetPrefix = "gAAAA"

func checkReasoning(it inputItem, at string, stateless bool) *rejection {
	if len(it.Summary) == 0 || it.Summary[0] != '[' {
		return apiError(http.StatusBadRequest, "reasoning items need a summary list",
			fmt.Sprintf("Missing required parameter: '%s.summary'.", at), at+".summary", "missing_required_parameter")
	}
	if !stateless {
		return nil
	}
	enc, rej := requiredString(it.EncryptedContent, at+".encrypted_content")
	if rej != nil {
		return rej
	}
	if !strings.HasPrefix(enc, fernetPrefix) {
		return apiError(http.StatusBadRequest, "encrypted_content must be the service's own",
			"The encrypted content could not be verified. Reason: Encrypted content could not be decrypted or parsed.",
			"", "invalid_encrypted_content")
	}
	return nil
}

func requiredString(raw json.RawMessage, param string) (string, *rejection) {
	var s string
	if json.Unmarshal(raw, &s) != nil || s == "" {
		return "", apiError(http.StatusBadRequest, param+" is required",
			fmt.Sprintf("Missing required parameter: '%s'.", param), param, "missing_required_parameter")
	}
	return s, nil
}

func jsonKind(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// quoteList writes 'a', 'b', and 'c' (or 'a' and 'b') as OpenAI does.
func quoteList(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = "'" + s + "'"
	}
	switch len(q) {
	case 1:
		return q[0]
	case 2:
		return q[0] + " and " + q[1]
	}
	return strings.Join(q[:len(q)-1], ", ") + ", and " + q[len(q)-1]
}

// checkOutputMedia checks the images and files of a function_call_output's
// list, which count toward the request's totals like a message's.
func checkOutputMedia(output json.RawMessage, at string, p *parsed) *rejection {
	var parts []contentPart
	if json.Unmarshal(output, &parts) != nil {
		return nil
	}
	for j, part := range parts {
		if part.Type != "input_image" && part.Type != "input_file" {
			continue
		}
		if _, rej := part.check(fmt.Sprintf("%s.output[%d]", at, j), p); rej != nil {
			return rej
		}
	}
	return nil
}
