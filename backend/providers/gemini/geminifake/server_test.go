package geminifake_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"maestro/backend/providers/fakescript"
	"maestro/backend/providers/gemini/geminifake"
)

const (
	token   = "ya29.good"
	apiKey  = "AIza-good"
	project = "proj-1"
	caPath  = "/v1internal:streamGenerateContent?alt=sse"
	apiPath = "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse"
)

func newServer(t *testing.T) (*geminifake.Server, *httptest.Server) {
	t.Helper()
	f := geminifake.New(geminifake.WithToken(token), geminifake.WithAPIKey(apiKey), geminifake.WithProject(project))
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv
}

// valid is a request the service accepts: a signed call in the active
// loop, its response, tools declared.
func valid() map[string]any {
	return map[string]any{
		"contents": []any{
			map[string]any{"role": "user", "parts": []any{map[string]any{"text": "read a"}}},
			map[string]any{"role": "model", "parts": []any{
				map[string]any{"functionCall": map[string]any{"name": "read_file", "args": map[string]any{"path": "a"}}, "thoughtSignature": "CiQBc2ln"},
				map[string]any{"functionCall": map[string]any{"name": "now", "args": map[string]any{}}},
			}},
			map[string]any{"role": "user", "parts": []any{
				map[string]any{"functionResponse": map[string]any{"name": "read_file", "response": map[string]any{"output": "A"}}},
				map[string]any{"functionResponse": map[string]any{"name": "now", "response": map[string]any{"output": "9:00"}}},
			}},
		},
		"tools": []any{map[string]any{"functionDeclarations": []any{
			map[string]any{"name": "read_file", "parametersJsonSchema": map[string]any{"type": "object"}},
			map[string]any{"name": "now"},
		}}},
	}
}

func envelope(req map[string]any) map[string]any {
	return map[string]any{"model": "gemini-2.5-pro", "project": project, "user_prompt_id": "p1", "request": req}
}

type call struct {
	path    string
	body    any // marshalled unless []byte
	headers map[string]string
}

func (c call) do(t *testing.T, srv *httptest.Server) (int, []byte) {
	t.Helper()
	var b []byte
	switch v := c.body.(type) {
	case []byte:
		b = v
	default:
		b, _ = json.Marshal(v)
	}
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL+c.path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range c.headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

func ca(body any) call {
	return call{path: caPath, body: body, headers: map[string]string{"Authorization": "Bearer " + token}}
}

func public(body any) call {
	return call{path: apiPath, body: body, headers: map[string]string{"x-goog-api-key": apiKey}}
}

// mutate returns valid() changed by f.
func mutate(f func(r map[string]any)) map[string]any {
	r := valid()
	f(r)
	return r
}

func contents(r map[string]any) []any { return r["contents"].([]any) }

func parts(r map[string]any, i int) []any {
	return contents(r)[i].(map[string]any)["parts"].([]any)
}

func TestAccepts(t *testing.T) {
	t.Parallel()
	decls := valid()["tools"].([]any)[0].(map[string]any)["functionDeclarations"]
	tests := []struct {
		name string
		c    call
	}{
		{"code assist", ca(envelope(valid()))},
		{"code assist with session_id", ca(envelope(mutate(func(r map[string]any) { r["session_id"] = "s1" })))},
		{"public", public(valid())},
		{"public key in query", call{path: apiPath + "&key=" + apiKey, body: valid()}},
		{"snake_case declarations only", public(mutate(func(r map[string]any) {
			r["tools"] = []any{map[string]any{"function_declarations": decls}}
		}))},
		{"code assist model name of 3.5 flash", ca(map[string]any{"model": "gemini-3-flash", "project": project, "request": valid()})},
		{"budget in range", public(mutate(func(r map[string]any) {
			r["generationConfig"] = map[string]any{"thinkingConfig": map[string]any{"thinkingBudget": 32768, "includeThoughts": true}}
		}))},
		{"dynamic budget", public(mutate(func(r map[string]any) {
			r["generationConfig"] = map[string]any{"thinkingConfig": map[string]any{"thinkingBudget": -1}}
		}))},
		{"budget to gemini 3", call{path: "/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse", headers: map[string]string{"x-goog-api-key": apiKey},
			body: mutate(func(r map[string]any) {
				r["generationConfig"] = map[string]any{"thinkingConfig": map[string]any{"thinkingBudget": 50000}}
			})}},
		{"level to gemini 3", call{path: "/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse", headers: map[string]string{"x-goog-api-key": apiKey},
			body: mutate(func(r map[string]any) {
				r["generationConfig"] = map[string]any{"thinkingConfig": map[string]any{"thinkingLevel": "HIGH", "includeThoughts": true}}
			})}},
		{"image beside a function response", public(mutate(func(r map[string]any) {
			contents(r)[2].(map[string]any)["parts"] = append(parts(r, 2), map[string]any{"inlineData": map[string]any{"mimeType": "image/png", "data": "iVBO"}})
		}))},
		{"audio in a user turn of its own", public(mutate(func(r map[string]any) {
			r["contents"] = append(contents(r),
				map[string]any{"role": "model", "parts": []any{map[string]any{"text": "Binary content received. Proceeding with analysis."}}},
				map[string]any{"role": "user", "parts": []any{map[string]any{"inlineData": map[string]any{"mimeType": "audio/mpeg", "data": "SUQz"}}}})
		}))},
		{"unsigned call before the last user turn", public(mutate(func(r map[string]any) {
			delete(parts(r, 1)[0].(map[string]any), "thoughtSignature")
			r["contents"] = append(contents(r), map[string]any{"role": "model", "parts": []any{map[string]any{"text": "done"}}},
				map[string]any{"role": "user", "parts": []any{map[string]any{"text": "thanks"}}})
		}))},
		{"skip sentinel", public(mutate(func(r map[string]any) {
			parts(r, 1)[0].(map[string]any)["thoughtSignature"] = "skip_thought_signature_validator"
		}))},
		{"snake_case fields", public(map[string]any{
			"contents":           []any{map[string]any{"role": "user", "parts": []any{map[string]any{"text": "hi"}}}},
			"system_instruction": map[string]any{"parts": []any{map[string]any{"text": "be brief"}}},
			"generation_config":  map[string]any{"max_output_tokens": 10, "thinking_config": map[string]any{"include_thoughts": true}},
		})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, srv := newServer(t)
			status, body := tt.c.do(t, srv)
			if status != 200 {
				t.Fatalf("got %d %s; want 200", status, body)
			}
			if !bytes.Contains(body, []byte("\r\n\r\n")) || !bytes.HasPrefix(body, []byte("data: ")) {
				t.Errorf("got body %q; want CRLF-delimited data: events", body)
			}
		})
	}
}

func TestRejects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		c          call
		wantStatus int
		wantInBody string
		wantRule   string
	}{
		{"no bearer", call{path: caPath, body: envelope(valid())}, 401, "CREDENTIALS_MISSING", "bearer token required"},
		{"wrong bearer", call{path: caPath, body: envelope(valid()), headers: map[string]string{"Authorization": "Bearer nope"}},
			401, "UNAUTHENTICATED", "bearer token invalid"},
		{"no api key", call{path: apiPath, body: valid()}, 403, "unregistered callers", "api key required"},
		{"wrong api key", call{path: apiPath, body: valid(), headers: map[string]string{"x-goog-api-key": "bad"}}, 400, "API_KEY_INVALID", "api key invalid"},
		{"no project", ca(map[string]any{"model": "gemini-2.5-pro", "request": valid()}), 400, "invalid argument", "project required"},
		{"other project", ca(map[string]any{"model": "gemini-2.5-pro", "project": "other", "request": valid()}), 403, "cloudaicompanion.companions.generateChat", "unknown project"},
		{"no request", ca(map[string]any{"model": "gemini-2.5-pro", "project": project}), 400, "request is not specified", "request required"},
		{"unknown model", ca(map[string]any{"model": "gpt-4", "project": project, "request": valid()}), 404,
			`"message": "Requested entity was not found."`, "model not served"},
		{"prefixed model", ca(map[string]any{"model": "models/gemini-2.5-pro", "project": project, "request": valid()}), 404, "NOT_FOUND", "model not served"},
		{"unknown public model", call{path: "/v1beta/models/foo:streamGenerateContent?alt=sse", body: valid(),
			headers: map[string]string{"x-goog-api-key": apiKey}}, 404,
			"models/foo is not found for API version v1beta, or is not supported for generateContent.", "model not served"},
		{"both declaration spellings", public(mutate(func(r map[string]any) {
			decls := r["tools"].([]any)[0].(map[string]any)["functionDeclarations"]
			r["tools"] = []any{map[string]any{"function_declarations": decls, "functionDeclarations": decls}}
		})), 400, "Duplicate function declaration found: read_file", "both declaration spellings"},
		{"consecutive user contents", public(mutate(func(r map[string]any) {
			r["contents"] = append(contents(r), map[string]any{"role": "user", "parts": []any{map[string]any{"text": "and now?"}}})
		})), 400, "Please ensure that multiturn requests alternate between user and model.", "consecutive user contents"},
		{"consecutive model contents", public(mutate(func(r map[string]any) {
			r["contents"] = append(contents(r), map[string]any{"role": "model", "parts": []any{map[string]any{"text": "a"}}},
				map[string]any{"role": "model", "parts": []any{map[string]any{"text": "b"}}})
		})), 400, "Please ensure that multiturn requests alternate between user and model.", "consecutive model contents"},
		{"thought part", public(mutate(func(r map[string]any) {
			contents(r)[1].(map[string]any)["parts"] = append([]any{map[string]any{"text": "hmm", "thought": true}}, parts(r, 1)...)
		})), 400, `"message": "Request contains an invalid argument."`, "thought part in contents"},
		{"audio beside a function response", public(mutate(func(r map[string]any) {
			contents(r)[2].(map[string]any)["parts"] = append(parts(r, 2), map[string]any{"inlineData": map[string]any{"mimeType": "audio/mpeg", "data": "SUQz"}})
		})), 400, `"message": "Request contains an invalid argument."`, "audio or video beside a function response"},
		{"video beside a function response", ca(envelope(mutate(func(r map[string]any) {
			contents(r)[2].(map[string]any)["parts"] = append(parts(r, 2), map[string]any{"inlineData": map[string]any{"mimeType": "video/mp4", "data": "AAAA"}})
		}))), 400, "Request contains an invalid argument.", "audio or video beside a function response"},
		{"budget above the model's range", public(mutate(func(r map[string]any) {
			r["generationConfig"] = map[string]any{"thinkingConfig": map[string]any{"thinkingBudget": 32769}}
		})), 400, "The thinking budget (32769) is invalid.", "thinking budget out of range"},
		{"budget 0 on 2.5 pro, code assist", ca(envelope(mutate(func(r map[string]any) {
			r["generationConfig"] = map[string]any{"thinkingConfig": map[string]any{"thinkingBudget": 0}}
		}))), 400, "Unable to submit request because thinking_budget is out of range; supported values are integers from 128 to 32768. " +
			"Learn more: https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/gemini", "thinking budget out of range"},
		{"budget and level", public(mutate(func(r map[string]any) {
			r["generationConfig"] = map[string]any{"thinkingConfig": map[string]any{"thinkingBudget": 1024, "thinkingLevel": "LOW"}}
		})), 400, "You can only set only one of thinking budget and thinking level.", "thinking budget and level"},
		{"level to gemini 2.5", public(mutate(func(r map[string]any) {
			r["generationConfig"] = map[string]any{"thinkingConfig": map[string]any{"thinkingLevel": "HIGH"}}
		})), 400, "Request contains an invalid argument.", "thinking level on a Gemini 2.5 model"},
		{"unsigned call before a media-only user turn", public(mutate(func(r map[string]any) {
			delete(parts(r, 1)[0].(map[string]any), "thoughtSignature")
			r["contents"] = append(contents(r), map[string]any{"role": "model", "parts": []any{map[string]any{"text": "send it"}}},
				map[string]any{"role": "user", "parts": []any{map[string]any{"inlineData": map[string]any{"mimeType": "image/png", "data": "iVBO"}}}})
		})), 400, "Function call is missing a thought_signature", "missing thought signature"},
		{"no alt=sse", call{path: "/v1internal:streamGenerateContent", body: envelope(valid()),
			headers: map[string]string{"Authorization": "Bearer " + token}}, 400, "alt=sse", "alt=sse required"},
		{"form body", call{path: apiPath, body: []byte("a=b"), headers: map[string]string{"x-goog-api-key": apiKey, "Content-Type": "application/x-www-form-urlencoded"}},
			400, "Invalid JSON payload", "content-type must be application/json"},
		{"malformed JSON", public([]byte(`{"contents":[`)), 400, "Invalid JSON payload", "malformed JSON"},
		{"session_id on the public API", public(mutate(func(r map[string]any) { r["session_id"] = "s" })), 400,
			`Unknown name \"session_id\": Cannot find field.`, "unknown field"},
		{"unknown part field", public(mutate(func(r map[string]any) { parts(r, 0)[0].(map[string]any)["bogus"] = 1 })), 400,
			`Unknown name \"bogus\" at 'contents[0].parts[0]'`, "unknown field"},
		{"tools entry with neither key", public(mutate(func(r map[string]any) { r["tools"] = []any{map[string]any{}} })), 400,
			"required one_of 'tool_type'", "tool without a tool type"},
		{"bad declared name", public(mutate(func(r map[string]any) {
			r["tools"] = []any{map[string]any{"functionDeclarations": []any{map[string]any{"name": "1bad name"}}}}
		})), 400, "tools[0].function_declarations[0].name: [FIELD_INVALID] Invalid function name", "function name pattern"},
		{"name too long", public(mutate(func(r map[string]any) {
			r["tools"] = []any{map[string]any{"functionDeclarations": []any{map[string]any{"name": strings.Repeat("a", 65)}}}}
		})), 400, "Invalid function name", "function name pattern"},
		{"bad name in history", public(mutate(func(r map[string]any) {
			parts(r, 1)[1].(map[string]any)["functionCall"].(map[string]any)["name"] = "srv/now"
			parts(r, 2)[1].(map[string]any)["functionResponse"].(map[string]any)["name"] = "srv/now"
		})), 400, "contents[1].parts[1].function_call.name: [FIELD_INVALID]", "function name pattern"},
		{"duplicate declaration", public(mutate(func(r map[string]any) {
			r["tools"] = []any{map[string]any{"functionDeclarations": []any{map[string]any{"name": "a"}, map[string]any{"name": "a"}}}}
		})), 400, "Duplicate function declaration found: a", "duplicate function declaration"},
		{"assistant role", public(mutate(func(r map[string]any) { contents(r)[1].(map[string]any)["role"] = "assistant" })), 400,
			"Please use a valid role: user, model.", "role"},
		{"empty parts", public(mutate(func(r map[string]any) { contents(r)[0].(map[string]any)["parts"] = []any{} })), 400,
			"contents.parts must not be empty", "empty parts"},
		{"part without data", public(mutate(func(r map[string]any) { parts(r, 0)[0] = map[string]any{"thought": true} })), 400,
			"required oneof field 'data'", "part without data"},
		{"no contents", public(map[string]any{"contents": []any{}}), 400, "contents is not specified", "contents required"},
		{"response turn missing", public(mutate(func(r map[string]any) {
			c := contents(r)
			r["contents"] = []any{c[0], c[1], map[string]any{"role": "user", "parts": []any{map[string]any{"text": "hm"}}}}
		})), 400, "function response turn comes immediately after a function call turn", "function response must follow function call"},
		{"call turn last", public(mutate(func(r map[string]any) { r["contents"] = contents(r)[:2] })), 400,
			"function response turn comes immediately after a function call turn", "function response must follow function call"},
		{"response count", public(mutate(func(r map[string]any) {
			contents(r)[2].(map[string]any)["parts"] = parts(r, 2)[:1]
		})), 400, "number of function response parts is equal to the number of function call parts", "function response count"},
		{"response order", public(mutate(func(r map[string]any) {
			p := parts(r, 2)
			p[0], p[1] = p[1], p[0]
		})), 400, "match the function call parts", "function response order"},
		{"orphan response turn", public(mutate(func(r map[string]any) {
			c := contents(r)
			r["contents"] = []any{c[0], c[2]}
		})), 400, "function response turn comes immediately after a function call turn", "function response must follow function call"},
		{"call turn after a model turn", public(mutate(func(r map[string]any) {
			c := contents(r)
			r["contents"] = []any{c[0], map[string]any{"role": "model", "parts": []any{map[string]any{"text": "thinking"}}}, c[1], c[2]}
		})), 400, "function call turn comes immediately after a user turn or after a function response turn", "function call turn placement"},
		{"missing thought signature", public(mutate(func(r map[string]any) {
			delete(parts(r, 1)[0].(map[string]any), "thoughtSignature")
		})), 400, "Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:read_file` , position 2.", "missing thought signature"},
		{"signature not base64", public(mutate(func(r map[string]any) {
			parts(r, 1)[0].(map[string]any)["thoughtSignature"] = "not base64!"
		})), 400, "Base64 decoding failed", "thought signature encoding"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, srv := newServer(t)
			status, body := tt.c.do(t, srv)
			if status != tt.wantStatus || !strings.Contains(string(body), tt.wantInBody) {
				t.Fatalf("got %d %s; want %d containing %q", status, body, tt.wantStatus, tt.wantInBody)
			}
			if !json.Valid(body) {
				t.Errorf("error body is not JSON: %s", body)
			}
			reqs := f.Script.Requests()
			if len(reqs) != 1 || reqs[0].Rejection != tt.wantRule || reqs[0].Status != tt.wantStatus {
				t.Errorf("got log %+v; want one request with rule %q status %d", reqs, tt.wantRule, tt.wantStatus)
			}
			if a := reqs[0].Header.Get("Authorization"); strings.Contains(a, token) {
				t.Errorf("log leaks the token: %q", a)
			}
		})
	}
}

// TestErrorBodyShapes: Code Assist service errors come wrapped in a
// one-element array; front-end and public API errors do not.
func TestErrorBodyShapes(t *testing.T) {
	t.Parallel()
	_, srv := newServer(t)
	bad := mutate(func(r map[string]any) { r["tools"] = []any{map[string]any{}} })
	if _, body := ca(envelope(bad)).do(t, srv); !bytes.HasPrefix(bytes.TrimSpace(body), []byte("[")) {
		t.Errorf("code assist 400: got %s; want an array", body)
	}
	if _, body := public(bad).do(t, srv); !bytes.HasPrefix(bytes.TrimSpace(body), []byte("{")) {
		t.Errorf("public 400: got %s; want an object", body)
	}
	if _, body := (call{path: caPath, body: envelope(valid())}).do(t, srv); !bytes.HasPrefix(bytes.TrimSpace(body), []byte("{")) {
		t.Errorf("401: got %s; want an object", body)
	}
}

func TestScriptedReplies(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		reply      fakescript.Reply
		c          func() call
		wantStatus int
		want       []string // substrings of the body, in order
	}{
		{"echo on code assist", fakescript.Reply{}, func() call {
			return ca(envelope(map[string]any{"contents": []any{map[string]any{"role": "user", "parts": []any{map[string]any{"text": "ping"}}}}}))
		}, 200, []string{`data: {"response":{"candidates":[{"content":{"parts":[{"text":"You said`, `"traceId":"`, `"finishReason":"STOP"`}},
		{"thinking then signed text", fakescript.Reply{Thinking: "hmm", Text: "ok"}, func() call { return public(valid()) }, 200,
			[]string{`"thought":true`, `{"text":"ok"}`, `"thoughtSignature":"Cl`, `"finishReason":"STOP"`, `"responseId":"`}},
		{"declared call signed", fakescript.Reply{ToolCalls: []fakescript.ToolCall{{Name: "now"}}}, func() call { return public(valid()) }, 200,
			[]string{`{"functionCall":{"name":"now","args":{}},"thoughtSignature":"`, `"finishReason":"STOP"`}},
		{"undeclared call", fakescript.Reply{Text: "calling", ToolCalls: []fakescript.ToolCall{{Name: "now"}, {Name: "ghost"}}}, func() call { return public(valid()) }, 200,
			[]string{`{"text":"calling"}`, `"finishReason":"UNEXPECTED_TOOL_CALL"`}},
		{"args not matching the schema sent as they are", fakescript.Reply{ToolCalls: []fakescript.ToolCall{{Name: "read_file", RawArgs: `{"path": 7}`}}},
			func() call { return public(valid()) }, 200,
			[]string{`{"functionCall":{"name":"read_file","args":{"path":7}}`, `"finishReason":"STOP"`}},
		{"broken args end the turn malformed", fakescript.Reply{Text: "calling", ToolCalls: []fakescript.ToolCall{{Name: "now"}, {Name: "read_file", RawArgs: `{"path": "a"`}}},
			func() call { return public(valid()) }, 200,
			[]string{`{"text":"calling"}`, `"finishReason":"MALFORMED_FUNCTION_CALL"`}},
		{"429 code assist", fakescript.Reply{Error: "429", RetryAfter: 5}, func() call { return ca(envelope(valid())) }, 429,
			[]string{`"RATE_LIMIT_EXCEEDED"`, `"retryDelay": "5s"`}},
		{"429 public", fakescript.Reply{Error: "429", RetryAfter: 5}, func() call { return public(valid()) }, 429,
			[]string{`PerMinute`, `"retryDelay": "5s"`}},
		{"usage limit", fakescript.Reply{Error: "usage_limit"}, func() call { return ca(envelope(valid())) }, 429,
			[]string{`"QUOTA_EXHAUSTED"`, `quotaResetTimeStamp`}},
		{"overloaded", fakescript.Reply{Error: "529"}, func() call { return public(valid()) }, 503, []string{`"UNAVAILABLE"`}},
		{"expired token", fakescript.Reply{Error: "401"}, func() call { return ca(envelope(valid())) }, 401, []string{`ACCESS_TOKEN_EXPIRED`}},
		{"expired key", fakescript.Reply{Error: "401"}, func() call { return public(valid()) }, 400, []string{`API key expired`}},
		{"context too large", fakescript.Reply{Error: "context_too_large"}, func() call { return public(valid()) }, 400, []string{`exceeds the maximum number of tokens`}},
		{"server", fakescript.Reply{Error: "server"}, func() call { return public(valid()) }, 500, []string{`"INTERNAL"`}},
		{"stream error", fakescript.Reply{Error: "stream_error", Text: "abc"}, func() call { return public(valid()) }, 200,
			[]string{`{"text":"abc"}`, `data: {"error":{"code":500`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, srv := newServer(t)
			f.Script.Push(tt.reply)
			status, body := tt.c().do(t, srv)
			if status != tt.wantStatus {
				t.Fatalf("got %d %s; want %d", status, body, tt.wantStatus)
			}
			rest := string(body)
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("body %s\nlacks %q (in order)", body, w)
				}
				rest = rest[i+len(w):]
			}
		})
	}
}

func TestDisconnectCutsTheStream(t *testing.T) {
	t.Parallel()
	f, srv := newServer(t)
	f.Script.Push(fakescript.Reply{Text: "0123456789", ChunkRunes: 2, DisconnectAfter: 2})
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL+apiPath, bytes.NewReader(mustJSON(valid())))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("x-goog-api-key", apiKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err == nil {
		t.Errorf("got a clean end of stream; want the connection cut")
	}
	if n := strings.Count(string(body), "data: "); n != 2 || strings.Contains(string(body), "finishReason") {
		t.Errorf("got %d events %q; want 2 and no finish", n, body)
	}
}

func TestControlEndpoints(t *testing.T) {
	t.Parallel()
	_, srv := newServer(t)
	resp, err := http.Post(srv.URL+fakescript.ControlPrefix+"replies", "application/json", strings.NewReader(`[{"text":"scripted"}]`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if _, body := public(valid()).do(t, srv); !strings.Contains(string(body), `"scripted"`) {
		t.Errorf("got %s; want the scripted reply", body)
	}
	resp, err = http.Get(srv.URL + fakescript.ControlPrefix + "requests")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var log []fakescript.Recorded
	if err := json.NewDecoder(resp.Body).Decode(&log); err != nil || len(log) != 1 || log[0].Status != 200 {
		t.Errorf("got log %+v (%v); want one 200 request", log, err)
	}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
