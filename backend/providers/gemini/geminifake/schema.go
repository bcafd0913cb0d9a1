package geminifake

import (
	"fmt"
	"slices"
	"strings"
)

// schema lists, per message type, the fields the service knows (camelCase)
// and the message type of each ("" = a value not checked further, "[]t" =
// a list of t). Google's JSON parser accepts a field under its proto name
// (snake_case) or its JSON name (camelCase) and rejects unknown names;
// normalize reproduces that and rewrites every key to camelCase. A Tool's
// declarations under both names are rejected as the duplicates the service
// sees (docs/providers/gemini.md §Request rules); any other field under
// both names lets the camelCase one win (the service may be stricter; no
// source says).
type schema map[string]map[string]string

func newSchema() schema {
	request := map[string]string{
		"model": "", "contents": "[]content", "systemInstruction": "content", "tools": "[]tool",
		"toolConfig": "", "safetySettings": "", "cachedContent": "", "labels": "",
		"generationConfig": "generationConfig",
	}
	caRequest := map[string]string{"sessionId": ""}
	for k, v := range request {
		caRequest[k] = v
	}
	return schema{
		"envelope":  {"model": "", "project": "", "userPromptId": "", "request": "caRequest", "enabledCreditTypes": ""},
		"caRequest": caRequest,
		"request":   request,
		"content":   {"role": "", "parts": "[]part"},
		"part": {"text": "", "thought": "", "thoughtSignature": "", "inlineData": "blob", "fileData": "fileData",
			"functionCall": "functionCall", "functionResponse": "functionResponse", "executableCode": "",
			"codeExecutionResult": "", "videoMetadata": "", "partMetadata": ""},
		"blob":             {"mimeType": "", "data": "", "displayName": ""},
		"fileData":         {"mimeType": "", "fileUri": "", "displayName": ""},
		"functionCall":     {"id": "", "name": "", "args": ""},
		"functionResponse": {"id": "", "name": "", "response": "", "willContinue": "", "scheduling": "", "parts": ""},
		"tool": {"functionDeclarations": "[]functionDeclaration", "googleSearch": "", "googleSearchRetrieval": "",
			"codeExecution": "", "urlContext": "", "retrieval": "", "computerUse": "", "fileSearch": "", "googleMaps": ""},
		"functionDeclaration": {"name": "", "description": "", "parameters": "", "parametersJsonSchema": "",
			"response": "", "responseJsonSchema": "", "behavior": ""},
		"generationConfig": {"temperature": "", "topP": "", "topK": "", "candidateCount": "", "maxOutputTokens": "",
			"stopSequences": "", "presencePenalty": "", "frequencyPenalty": "", "seed": "", "responseMimeType": "",
			"responseSchema": "", "responseJsonSchema": "", "responseLogprobs": "", "logprobs": "",
			"thinkingConfig": "thinkingConfig", "responseModalities": "", "mediaResolution": "", "speechConfig": "",
			"imageConfig": ""},
		"thinkingConfig": {"thinkingBudget": "", "includeThoughts": "", "thinkingLevel": ""},
	}
}

// normalize checks v against message type typ and returns it with camelCase
// keys. path is the proto path used in error messages ("" at the top).
func (s schema) normalize(typ string, v any, path string) (any, *rejection) {
	if strings.HasPrefix(typ, "[]") {
		list, ok := v.([]any)
		if !ok {
			return nil, invalid("json type", "Invalid JSON payload received. Proto field is not repeating, cannot start list at '%s'.", path)
		}
		out := make([]any, len(list))
		for i, it := range list {
			n, rj := s.normalize(typ[2:], it, fmt.Sprintf("%s[%d]", path, i))
			if rj != nil {
				return nil, rj
			}
			out[i] = n
		}
		return out, nil
	}
	fields, ok := s[typ]
	if !ok {
		return v, nil // not checked further
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, invalid("json type", "Invalid JSON payload received. Expected an object at '%s'.", path)
	}
	out := make(map[string]any, len(obj))
	for _, k := range sortedKeys(obj) {
		camel := toCamel(k)
		if _, twice := out[camel]; twice && typ == "tool" && camel == "functionDeclarations" {
			return nil, invalid("both declaration spellings", "Duplicate function declaration found: %s", firstName(obj[k]))
		}
		child, known := fields[camel]
		if !known {
			where := ""
			if path != "" {
				where = fmt.Sprintf(" at '%s'", path)
			}
			return nil, invalid("unknown field", "Invalid JSON payload received. Unknown name %q%s: Cannot find field.", k, where)
		}
		n, rj := s.normalize(child, obj[k], join(path, toSnake(camel)))
		if rj != nil {
			return nil, rj
		}
		out[camel] = n
	}
	return out, nil
}

func join(path, field string) string {
	if path == "" {
		return field
	}
	return path + "." + field
}

// sortedKeys orders snake_case spellings before camelCase ones, so the
// camelCase value wins when both are present, deterministically.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		as, bs := strings.Contains(a, "_"), strings.Contains(b, "_")
		switch {
		case as && !bs:
			return -1
		case bs && !as:
			return 1
		}
		return strings.Compare(a, b)
	})
	return keys
}

func toCamel(s string) string {
	if !strings.Contains(s, "_") {
		return s
	}
	var b strings.Builder
	up := false
	for _, r := range s {
		switch {
		case r == '_':
			up = true
		case up && r >= 'a' && r <= 'z':
			b.WriteRune(r - 'a' + 'A')
			up = false
		default:
			b.WriteRune(r)
			up = false
		}
	}
	return b.String()
}

func toSnake(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// firstName is the name of the first declaration in a list.
func firstName(decls any) string {
	list, _ := decls.([]any)
	if len(list) == 0 {
		return ""
	}
	d, _ := list[0].(map[string]any)
	name, _ := d["name"].(string)
	return name
}
