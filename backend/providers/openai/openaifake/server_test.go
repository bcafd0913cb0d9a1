package openaifake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"maestro/backend/providers"
	"maestro/backend/providers/fakescript"
)

func userMsg(text string) map[string]any {
	return map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": text}}}
}

// body is a valid backend request, changed by mut.
func body(mut func(map[string]any)) []byte {
	b := map[string]any{"model": "gpt-5.5", "instructions": "Be brief.", "input": []any{userMsg("hi")},
		"tools": []any{}, "tool_choice": "auto", "parallel_tool_calls": true, "store": false, "stream": true}
	if mut != nil {
		mut(b)
	}
	out, _ := json.Marshal(b)
	return out
}

func withInput(items ...any) func(map[string]any) {
	return func(b map[string]any) { b["input"] = items }
}

func tools(names ...string) []any {
	out := make([]any, len(names))
	for i, n := range names {
		out[i] = map[string]any{"type": "function", "name": n, "parameters": map[string]any{"type": "object", "properties": map[string]any{}}}
	}
	return out
}

func post(t *testing.T, url string, h http.Header, b []byte) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, url, bytes.NewReader(b))
	req.Header = h
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp, string(out)
}

func backendHeader() http.Header {
	return http.Header{"Authorization": {"Bearer tok"}, "Chatgpt-Account-Id": {"acc_1"}, "Content-Type": {"application/json"}}
}

func TestRules(t *testing.T) {
	t.Parallel()
	f := New(WithToken("tok"), WithAccountID("acc_1"), WithAPIKey("sk-good"))
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	call := func(id string) map[string]any {
		return map[string]any{"type": "function_call", "name": "x", "arguments": "{}", "call_id": id}
	}
	output := func(id string) map[string]any {
		return map[string]any{"type": "function_call_output", "call_id": id, "output": "ok"}
	}
	reasoning := func(enc any) map[string]any {
		r := map[string]any{"type": "reasoning", "summary": []any{}}
		if enc != nil {
			r["encrypted_content"] = enc
		}
		return r
	}
	long := strings.Repeat("a", 65)
	many := make([]string, 129)
	for i := range many {
		many[i] = "t" + strconv.Itoa(i)
	}
	tests := []struct {
		name   string
		path   string
		header func(http.Header)
		body   []byte
		status int
		want   string
	}{
		{"no bearer", ChatGPTPath, func(h http.Header) { h.Del("Authorization") }, body(nil), 401, "Missing bearer"},
		{"stale token", ChatGPTPath, func(h http.Header) { h.Set("Authorization", "Bearer old") }, body(nil), 401, `"code":"token_expired"`},
		{"no account id", ChatGPTPath, func(h http.Header) { h.Del("Chatgpt-Account-Id") }, body(nil), 403, "Forbidden"},
		{"foreign account id", ChatGPTPath, func(h http.Header) { h.Set("Chatgpt-Account-Id", "acc_2") }, body(nil), 403, "Forbidden"},
		{"not json", ChatGPTPath, nil, []byte("{"), 400, "could not parse the JSON body"},
		{"no model", ChatGPTPath, nil, body(func(b map[string]any) { delete(b, "model") }), 400, "Missing required parameter: 'model'."},
		{"no instructions", ChatGPTPath, nil, body(func(b map[string]any) { delete(b, "instructions") }), 400, `{"detail":"Instructions are required"}`},
		{"store true", ChatGPTPath, nil, body(func(b map[string]any) { b["store"] = true }), 400, `{"detail":"Store must be set to false"}`},
		{"store missing", ChatGPTPath, nil, body(func(b map[string]any) { delete(b, "store") }), 400, "Store must be set to false"},
		{"stream false", ChatGPTPath, nil, body(func(b map[string]any) { b["stream"] = false }), 400, `{"detail":"Stream must be set to true"}`},
		{"max_output_tokens", ChatGPTPath, nil, body(func(b map[string]any) { b["max_output_tokens"] = 10 }), 400, "Unsupported parameter: max_output_tokens"},
		{"input string", ChatGPTPath, nil, body(func(b map[string]any) { b["input"] = "hi" }), 400, `{"detail":"Input must be a list"}`},
		{"system message", ChatGPTPath, nil, body(withInput(map[string]any{"role": "system", "content": "x"}, userMsg("hi"))), 400,
			`{"detail":"System messages are not allowed"}`},
		{"129 tools", ChatGPTPath, nil, body(func(b map[string]any) { b["tools"] = tools(many...) }), 400,
			`{"error":{"message":"Invalid 'tools': array too long. Expected an array with maximum length 128, but got an array with length 129 instead.","type":"invalid_request_error","param":"tools","code":"array_above_max_length"}}`},
		{"tool name with a dot", ChatGPTPath, nil, body(func(b map[string]any) { b["tools"] = tools("ok", "fs.read") }), 400,
			"Invalid 'tools[1].name': string does not match pattern"},
		{"tool name too long", ChatGPTPath, nil, body(func(b map[string]any) { b["tools"] = tools(long) }), 400, "string_above_max_length"},
		{"item id under store:false", ChatGPTPath, nil, body(withInput(userMsg("hi"), map[string]any{"id": "rs_1", "type": "reasoning", "summary": []any{}, "encrypted_content": "gAAAAAx"})), 404,
			"Item with id 'rs_1' not found. Items are not persisted when `store` is set to false."},
		{"input_text in an assistant message", ChatGPTPath, nil, body(withInput(userMsg("hi"),
			map[string]any{"type": "message", "role": "assistant", "content": []any{map[string]any{"type": "input_text", "text": "x"}}})), 400,
			`"message":"Invalid value: 'input_text'. Supported values are: 'output_text' and 'refusal'.","type":"invalid_request_error","param":"input[1].content[0]","code":"invalid_value"`},
		{"arguments as an object", ChatGPTPath, nil, body(withInput(userMsg("hi"),
			map[string]any{"type": "function_call", "name": "x", "arguments": map[string]any{}, "call_id": "call_a"}, output("call_a"))), 400,
			"Invalid type for 'input[1].arguments': expected a string, but got an object instead."},
		{"output without call", ChatGPTPath, nil, body(withInput(userMsg("hi"), output("call_x"))), 400,
			`{"error":{"message":"No tool call found for function call output with call_id call_x.","type":"invalid_request_error","param":"input","code":null}}`},
		{"call without output", ChatGPTPath, nil, body(withInput(userMsg("hi"), call("call_y"), call("call_z"), output("call_z"))), 400,
			"No tool output found for function call call_y."},
		{"reasoning without encrypted content", ChatGPTPath, nil, body(withInput(userMsg("hi"), reasoning(nil))), 400,
			"Missing required parameter: 'input[1].encrypted_content'."},
		{"foreign encrypted content", ChatGPTPath, nil, body(withInput(userMsg("hi"), reasoning("CiQBsignature"))), 400, "invalid_encrypted_content"},
		{"reasoning without summary", ChatGPTPath, nil, body(withInput(userMsg("hi"), map[string]any{"type": "reasoning", "encrypted_content": "gAAAAAx"})), 400,
			"Missing required parameter: 'input[1].summary'."},
		{"unknown role", ChatGPTPath, nil, body(withInput(map[string]any{"role": "robot", "content": "x"})), 400, "Invalid value: 'robot'"},
		{"valid pairing", ChatGPTPath, nil, body(withInput(userMsg("hi"), reasoning("gAAAAAx"), call("call_a"), output("call_a"))), 200, "response.completed"},
		{"api: no key", APIPath, func(h http.Header) { h.Del("Authorization") }, body(nil), 401, "You didn't provide an API key"},
		{"api: wrong key", APIPath, func(h http.Header) { h.Set("Authorization", "Bearer sk-bad-key-123456") }, body(nil), 401, `"code":"invalid_api_key"`},
		{"api: string input without instructions is fine", APIPath, func(h http.Header) { h.Set("Authorization", "Bearer sk-good") },
			body(func(b map[string]any) { b["input"] = "hello"; delete(b, "instructions"); b["store"] = true }), 200, "You said: hello"},
		{"api: system message is fine", APIPath, func(h http.Header) { h.Set("Authorization", "Bearer sk-good") },
			body(withInput(map[string]any{"role": "system", "content": "x"}, userMsg("yo"))), 200, "You said: yo"},
		{"api: 129 tools", APIPath, func(h http.Header) { h.Set("Authorization", "Bearer sk-good") },
			body(func(b map[string]any) { b["tools"] = tools(many...) }), 400, "array_above_max_length"},
		{"unknown path", "/v1/chat/completions", nil, body(nil), 404, "Not Found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := backendHeader()
			if tt.header != nil {
				tt.header(h)
			}
			resp, got := post(t, srv.URL+tt.path, h, tt.body)
			if resp.StatusCode != tt.status || !strings.Contains(got, tt.want) {
				t.Errorf("POST %s = %d %s; want %d with %s", tt.path, resp.StatusCode, got, tt.status, tt.want)
			}
			if tt.status != 200 && !json.Valid([]byte(got)) {
				t.Errorf("error body %q is not JSON", got)
			}
		})
	}
	for _, r := range f.Script.Requests() {
		if r.Status >= 400 && r.Rejection == "" {
			t.Errorf("%s answered %d without a recorded rule", r.Path, r.Status)
		}
		if a := r.Header.Get("Authorization"); strings.Contains(a, "sk-good") || strings.Contains(a, "Bearer tok") {
			t.Errorf("recorded authorization %q is not redacted", a)
		}
	}
}

// The echo stream follows the Responses grammar with sequence numbers and the
// x-codex headers.
func TestStreamGrammar(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_800_000_000, 0)
	f := New(WithClock(func() time.Time { return now }))
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	f.Script.Push(fakescript.Reply{Thinking: "think", ToolCalls: []fakescript.ToolCall{{Name: "x", Args: json.RawMessage(`{"a":1}`)}}}, fakescript.Reply{DisconnectAfter: 3})
	resp, got := post(t, srv.URL+ChatGPTPath, backendHeader(), body(nil))
	if resp.Header.Get("x-codex-primary-used-percent") == "" || resp.Header.Get("x-codex-primary-reset-at") != fmt.Sprint(now.Add(4*time.Hour).Unix()) {
		t.Errorf("headers %v; want x-codex-* rate-limit headers", resp.Header)
	}
	var types []string
	for ev, err := range providers.ReadSSE(strings.NewReader(got)) {
		if err != nil {
			t.Fatal(err)
		}
		var d struct {
			Type string `json:"type"`
			Seq  int    `json:"sequence_number"`
		}
		if err := json.Unmarshal(ev.Data, &d); err != nil || d.Type != ev.Event || d.Seq != len(types) {
			t.Fatalf("event %d = %s %s; want matching type and sequence_number %d", len(types), ev.Event, ev.Data, len(types))
		}
		types = append(types, d.Type)
	}
	want := "response.created response.in_progress response.output_item.added response.reasoning_summary_part.added " +
		"response.reasoning_summary_text.delta response.reasoning_summary_text.done response.reasoning_summary_part.done " +
		"response.output_item.done response.output_item.added response.function_call_arguments.delta " +
		"response.function_call_arguments.delta response.function_call_arguments.delta response.function_call_arguments.done " +
		"response.output_item.done response.completed"
	if strings.Join(types, " ") != want {
		t.Errorf("events:\n got %s\nwant %s", strings.Join(types, " "), want)
	}

	_, cut := post(t, srv.URL+ChatGPTPath, backendHeader(), body(nil))
	if n := strings.Count(cut, "event: "); n != 3 || strings.Contains(cut, "response.completed") {
		t.Errorf("DisconnectAfter 3 sent %d events (%q); want 3 and no response.completed", n, cut)
	}
}

func TestControlEndpoints(t *testing.T) {
	t.Parallel()
	f := New()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	resp, _ := post(t, srv.URL+"/_fake/replies", http.Header{}, []byte(`[{"text":"scripted"}]`))
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("POST /_fake/replies = %d", resp.StatusCode)
	}
	if _, got := post(t, srv.URL+ChatGPTPath, backendHeader(), body(nil)); !strings.Contains(got, `"delta":"scripted"`) {
		t.Errorf("reply %q; want the scripted text", got)
	}
	if _, got := post(t, srv.URL+ChatGPTPath, backendHeader(), []byte("not json")); !strings.Contains(got, "could not parse") {
		t.Errorf("reply %q; want the parse error", got)
	}
	res, err := http.Get(srv.URL + "/_fake/requests")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var recs []fakescript.Recorded
	if err := json.NewDecoder(res.Body).Decode(&recs); err != nil || len(recs) != 2 || recs[1].Rejection != "body is not a JSON object" {
		t.Errorf("requests = %+v, %v; want two, the second rejected as not JSON", recs, err)
	}
}

// TestBrokenAndInterleavedCalls: RawArgs goes out verbatim as the argument
// deltas and the completed item; Interleave opens every call first,
// alternates their deltas and completes them last first.
func TestBrokenAndInterleavedCalls(t *testing.T) {
	t.Parallel()
	f := New()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	f.Script.Push(fakescript.Reply{Interleave: true, ToolCalls: []fakescript.ToolCall{
		{Name: "a", RawArgs: `{"x": 1`, Fragments: 2},
		{Name: "b", Args: json.RawMessage(`{"y": 2}`), Fragments: 2},
	}})
	_, got := post(t, srv.URL+ChatGPTPath, backendHeader(), body(nil))
	var seq []string
	for ev, err := range providers.ReadSSE(strings.NewReader(got)) {
		if err != nil {
			t.Fatal(err)
		}
		var d struct {
			Type        string `json:"type"`
			OutputIndex int    `json:"output_index"`
			Delta       string `json:"delta"`
			Item        struct {
				Arguments string `json:"arguments"`
			} `json:"item"`
		}
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			t.Fatal(err)
		}
		switch d.Type {
		case "response.output_item.added":
			seq = append(seq, fmt.Sprintf("add%d", d.OutputIndex))
		case "response.function_call_arguments.delta":
			seq = append(seq, fmt.Sprintf("%d:%s", d.OutputIndex, d.Delta))
		case "response.output_item.done":
			seq = append(seq, fmt.Sprintf("done%d:%s", d.OutputIndex, d.Item.Arguments))
		}
	}
	want := `add0 add1 0:{"x" 1:{"y" 0:: 1 1::2} done1:{"y":2} done0:{"x": 1`
	if strings.Join(seq, " ") != want {
		t.Errorf("events:\n got %s\nwant %s", strings.Join(seq, " "), want)
	}
}
