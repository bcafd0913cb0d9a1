package anthropicfake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"maestro/backend/providers/fakescript"
)

// post sends body to the fake's Messages endpoint with the headers of mode
// ("oauth" or "apikey").
func post(t *testing.T, srv *httptest.Server, mode string, body string, edit func(*http.Request)) *http.Response {
	t.Helper()
	u := srv.URL + "/v1/messages"
	if mode == "oauth" {
		u += "?beta=true"
	}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("content-type", "application/json")
	return send(t, srv, req, mode, edit)
}

// send adds the version and credential headers of mode ("oauth" or
// "apikey") to req, lets edit change it, and sends it.
func send(t *testing.T, srv *httptest.Server, req *http.Request, mode string, edit func(*http.Request)) *http.Response {
	t.Helper()
	req.Header.Set("anthropic-version", "2023-06-01")
	if mode == "oauth" {
		req.Header.Set("authorization", "Bearer sk-ant-oat01-test")
		req.Header.Set("anthropic-beta", "oauth-2025-04-20,interleaved-thinking-2025-05-14")
	} else {
		req.Header.Set("x-api-key", "sk-ant-api03-test")
	}
	if edit != nil {
		edit(req)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

type errorEnvelope struct {
	Type  string `json:"type"`
	Error struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
	RequestID string `json:"request_id"`
}

func readError(t *testing.T, resp *http.Response) errorEnvelope {
	t.Helper()
	var e errorEnvelope
	if err := json.NewDecoder(resp.Body).Decode(&e); err != nil {
		t.Fatalf("decode error body: %v", err)
	}
	if e.Type != "error" || !strings.HasPrefix(e.RequestID, "req_") {
		t.Errorf("error envelope %+v; want type error and a request_id", e)
	}
	return e
}

// TestGoldenBodiesAccepted replays every body the adapter's golden tests
// render. OAuth bodies start with the Claude Code system line; the others
// are API-key bodies.
func TestGoldenBodiesAccepted(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("..", "testdata", "golden", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden bodies found: %v", err)
	}
	srv := httptest.NewServer(New())
	t.Cleanup(srv.Close)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			body, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var probe wireRequest
			_ = json.Unmarshal(body, &probe)
			mode := "apikey"
			if probe.claudeCodeSystem() {
				mode = "oauth"
			}
			resp := post(t, srv, mode, string(body), nil)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("%s (%s): got %d %+v; want 200", f, mode, resp.StatusCode, readError(t, resp).Error)
			}
			data, _ := io.ReadAll(resp.Body)
			if !bytes.HasSuffix(data, []byte("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")) {
				t.Errorf("stream does not end with message_stop:\n%s", data)
			}
		})
	}
}

func validBody(edit func(m map[string]any)) string {
	m := map[string]any{
		"model":      "claude-sonnet-4-5",
		"max_tokens": 1024,
		"stream":     true,
		"system":     []any{map[string]any{"type": "text", "text": ClaudeCodeSystem}},
		"tools":      []any{map[string]any{"name": "get_weather", "input_schema": map[string]any{"type": "object"}}},
		"messages": []any{
			map[string]any{"role": "user", "content": "Weather?"},
			map[string]any{"role": "assistant", "content": []any{
				map[string]any{"type": "tool_use", "id": "toolu_01A", "name": "get_weather", "input": map[string]any{"city": "Paris"}},
				map[string]any{"type": "tool_use", "id": "toolu_01B", "name": "get_weather", "input": map[string]any{"city": "Rome"}}}},
			map[string]any{"role": "user", "content": []any{
				map[string]any{"type": "tool_result", "tool_use_id": "toolu_01A", "content": "21", "is_error": false},
				map[string]any{"type": "tool_result", "tool_use_id": "toolu_01B", "content": "25", "is_error": false},
				map[string]any{"type": "text", "text": "thanks"}}},
		},
	}
	if edit != nil {
		edit(m)
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func msgs(m map[string]any) []any { return m["messages"].([]any) }

func content(m map[string]any, i int) []any {
	return msgs(m)[i].(map[string]any)["content"].([]any)
}

func TestRejections(t *testing.T) {
	t.Parallel()
	thinkingOn := func(m map[string]any) {
		m["thinking"] = map[string]any{"type": "enabled", "budget_tokens": 2048}
		m["max_tokens"] = 4096
	}
	tests := []struct {
		name    string
		mode    string
		opts    []Option
		body    string
		edit    func(*http.Request)
		status  int
		errType string
		message string // exact, or a prefix when it ends with "…"
	}{
		{"no credentials", "oauth", nil, validBody(nil), func(r *http.Request) { r.Header.Del("authorization") },
			401, "authentication_error", MsgNoAPIKey},
		{"expired token", "oauth", []Option{WithToken("good")}, validBody(nil), nil, 401, "authentication_error", MsgTokenExpired},
		{"wrong api key", "apikey", []Option{WithAPIKey("good")}, validBody(nil), nil, 401, "authentication_error", MsgBadAPIKey},
		{"no version", "oauth", nil, validBody(nil), func(r *http.Request) { r.Header.Del("anthropic-version") }, 400, "invalid_request_error", MsgNoVersion},
		{"oauth without oauth beta", "oauth", nil, validBody(nil), func(r *http.Request) { r.Header.Set("anthropic-beta", "interleaved-thinking-2025-05-14") },
			401, "authentication_error", MsgOAuthUnsupported},
		{"oauth without claude code system", "oauth", nil, validBody(func(m map[string]any) { m["system"] = "You are helpful." }), nil,
			400, "invalid_request_error", MsgClaudeCodeOnly},
		{"oauth with claude code line second", "oauth", nil, validBody(func(m map[string]any) {
			m["system"] = []any{map[string]any{"type": "text", "text": "x"}, map[string]any{"type": "text", "text": ClaudeCodeSystem}}
		}), nil, 400, "invalid_request_error", MsgClaudeCodeOnly},
		{"missing max_tokens", "apikey", nil, validBody(func(m map[string]any) { delete(m, "max_tokens") }), nil, 400, "invalid_request_error", "max_tokens: Field required"},
		{"missing model", "apikey", nil, validBody(func(m map[string]any) { delete(m, "model") }), nil, 400, "invalid_request_error", "model: Field required"},
		{"bad json", "apikey", nil, `{"model":`, nil, 400, "invalid_request_error", "There was an error parsing the body of your request…"},
		{"tool name with a dot", "apikey", nil, validBody(func(m map[string]any) {
			m["tools"] = []any{map[string]any{"name": "weather.get", "input_schema": map[string]any{"type": "object"}}}
		}), nil, 400, "invalid_request_error", "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'"},
		{"tool name too long", "apikey", nil, validBody(func(m map[string]any) {
			m["tools"] = []any{map[string]any{"name": strings.Repeat("a", 65), "input_schema": map[string]any{"type": "object"}}}
		}), nil, 400, "invalid_request_error", "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'"},
		{"tool_use name with a dot", "apikey", nil, validBody(func(m map[string]any) {
			content(m, 1)[0].(map[string]any)["name"] = "weather.get"
		}), nil, 400, "invalid_request_error", "messages.1.content.0.tool_use.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'"},
		{"two user messages in a row", "apikey", nil, validBody(func(m map[string]any) {
			m["messages"] = append(msgs(m), map[string]any{"role": "user", "content": "more"})
		}), nil, 400, "invalid_request_error", `messages: roles must alternate between "user" and "assistant", but found multiple "user" roles in a row`},
		{"missing tool_result", "apikey", nil, validBody(func(m map[string]any) {
			msgs(m)[2].(map[string]any)["content"] = content(m, 2)[1:]
		}), nil, 400, "invalid_request_error", "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01A. Each `tool_use` block must have a corresponding `tool_result` block in the next message."},
		{"assistant tool_use at the end", "apikey", nil, validBody(func(m map[string]any) { m["messages"] = msgs(m)[:2] }),
			nil, 400, "invalid_request_error", "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01A, toolu_01B. Each `tool_use` block must have a corresponding `tool_result` block in the next message."},
		{"text before tool_result", "apikey", nil, validBody(func(m map[string]any) {
			c := content(m, 2)
			msgs(m)[2].(map[string]any)["content"] = []any{c[2], c[0], c[1]}
		}), nil, 400, "invalid_request_error", "messages.2: Did not find 2 `tool_result` block(s) at the beginning of this message. Messages following `tool_use` blocks must begin with a matching number of `tool_result` blocks."},
		{"unknown tool_use_id", "apikey", nil, validBody(func(m map[string]any) {
			msgs(m)[2].(map[string]any)["content"] = append(content(m, 2), map[string]any{"type": "tool_result", "tool_use_id": "toolu_ghost", "content": "x"})
		}), nil, 400, "invalid_request_error", "messages.2.content.3: unexpected `tool_use_id` found in `tool_result` blocks: toolu_ghost. Each `tool_result` block must have a corresponding `tool_use` block in the previous message."},
		{"empty text block", "apikey", nil, validBody(func(m map[string]any) {
			msgs(m)[0].(map[string]any)["content"] = []any{map[string]any{"type": "text", "text": ""}}
		}), nil, 400, "invalid_request_error", "messages.0.content.0.text: text content blocks must be non-empty"},
		{"thinking budget too small", "apikey", nil, validBody(func(m map[string]any) {
			thinkingOn(m)
			m["thinking"] = map[string]any{"type": "enabled", "budget_tokens": 100}
		}), nil, 400, "invalid_request_error", "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024"},
		{"max_tokens not above budget", "apikey", nil, validBody(func(m map[string]any) { thinkingOn(m); m["max_tokens"] = 2048 }),
			nil, 400, "invalid_request_error", "`max_tokens` must be greater than `thinking.budget_tokens`…"},
		{"tool loop without thinking", "apikey", nil, validBody(thinkingOn), nil, 400, "invalid_request_error",
			"messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final `assistant` message must start with a thinking block…"},
		{"forged thinking signature", "apikey", nil, validBody(func(m map[string]any) {
			thinkingOn(m)
			msgs(m)[1].(map[string]any)["content"] = append([]any{map[string]any{"type": "thinking", "thinking": "hmm", "signature": "EqForged"}}, content(m, 1)...)
		}), nil, 400, "invalid_request_error", "messages.1.content.0: Invalid `signature` in `thinking` block"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := New(tt.opts...)
			srv := httptest.NewServer(f)
			t.Cleanup(srv.Close)
			resp := post(t, srv, tt.mode, tt.body, tt.edit)
			e := readError(t, resp)
			if resp.StatusCode != tt.status || e.Error.Type != tt.errType {
				t.Errorf("got %d %s; want %d %s", resp.StatusCode, e.Error.Type, tt.status, tt.errType)
			}
			if prefix, ok := strings.CutSuffix(tt.message, "…"); ok {
				if !strings.HasPrefix(e.Error.Message, prefix) {
					t.Errorf("got message %q; want it to start with %q", e.Error.Message, prefix)
				}
			} else if e.Error.Message != tt.message {
				t.Errorf("got message %q; want %q", e.Error.Message, tt.message)
			}
			recs := f.Script.Requests()
			if len(recs) != 1 || recs[0].Status != tt.status || recs[0].Rejection == "" {
				t.Errorf("recorded %+v; want one request with status %d and a rejection", recs, tt.status)
			}
		})
	}
}

// TestOAuthWithoutBetaQueryAccepted: the real endpoint serves an OAuth
// request without ?beta=true (pi sends plain /v1/messages), so the fake
// does too.
func TestOAuthWithoutBetaQueryAccepted(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(New())
	t.Cleanup(srv.Close)
	if resp := post(t, srv, "oauth", validBody(nil), func(r *http.Request) { r.URL.RawQuery = "" }); resp.StatusCode != http.StatusOK {
		t.Errorf("got %d %+v; want 200", resp.StatusCode, readError(t, resp).Error)
	}
}

func TestValidThinkingReplayAccepted(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(New())
	t.Cleanup(srv.Close)
	body := validBody(func(m map[string]any) {
		m["thinking"] = map[string]any{"type": "enabled", "budget_tokens": 2048}
		m["max_tokens"] = 4096
		msgs(m)[1].(map[string]any)["content"] = append([]any{
			map[string]any{"type": "thinking", "thinking": "hmm", "signature": Signature("hmm")},
			map[string]any{"type": "redacted_thinking", "data": "EmwK"}}, content(m, 1)...)
	})
	if resp := post(t, srv, "oauth", body, nil); resp.StatusCode != http.StatusOK {
		t.Errorf("got %d %+v; want 200", resp.StatusCode, readError(t, resp).Error)
	}
}

func TestErrorReplies(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_787_400_000, 0)
	tests := []struct {
		reply      fakescript.Reply
		status     int
		errType    string
		retryAfter string
		reset      string
		window     string
	}{
		{fakescript.Reply{Error: "401"}, 401, "authentication_error", "", "", ""},
		{fakescript.Reply{Error: "429", RetryAfter: 7}, 429, "rate_limit_error", "7", "1787400007", ""},
		{fakescript.Reply{Error: "429"}, 429, "rate_limit_error", "2", "1787400002", ""},
		{fakescript.Reply{Error: "usage_limit"}, 429, "rate_limit_error", "18000", "1787418000", "1787418000"},
		{fakescript.Reply{Error: "529"}, 529, "overloaded_error", "", "", ""},
		{fakescript.Reply{Error: "context_too_large"}, 400, "invalid_request_error", "", "", ""},
		{fakescript.Reply{Error: "server"}, 500, "api_error", "", "", ""},
		{fakescript.Reply{Error: "bogus"}, 500, "api_error", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.reply.Error, func(t *testing.T) {
			t.Parallel()
			f := New(WithClock(func() time.Time { return now }))
			f.Script.Push(tt.reply)
			srv := httptest.NewServer(f)
			t.Cleanup(srv.Close)
			resp := post(t, srv, "oauth", validBody(nil), nil)
			e := readError(t, resp)
			h := resp.Header
			if resp.StatusCode != tt.status || e.Error.Type != tt.errType || h.Get("retry-after") != tt.retryAfter ||
				h.Get("anthropic-ratelimit-unified-reset") != tt.reset || h.Get("anthropic-ratelimit-unified-5h-reset") != tt.window {
				t.Errorf("got %d %s retry-after %q reset %q 5h %q; want %d %s %q %q %q", resp.StatusCode, e.Error.Type,
					h.Get("retry-after"), h.Get("anthropic-ratelimit-unified-reset"), h.Get("anthropic-ratelimit-unified-5h-reset"),
					tt.status, tt.errType, tt.retryAfter, tt.reset, tt.window)
			}
			if tt.reset != "" && h.Get("anthropic-ratelimit-unified-status") != "rejected" {
				t.Errorf("unified status %q; want rejected", h.Get("anthropic-ratelimit-unified-status"))
			}
			if recs := f.Script.Requests(); len(recs) != 1 || recs[0].Status != tt.status || recs[0].Rejection != "" {
				t.Errorf("recorded %+v; want status %d without a rejection", recs, tt.status)
			}
		})
	}
}

func TestStreamShape(t *testing.T) {
	t.Parallel()
	f := New()
	f.Script.Push(fakescript.Reply{Thinking: "Think.", Text: "Hello there", ChunkRunes: 5,
		ToolCalls: []fakescript.ToolCall{{Name: "get_weather", Args: json.RawMessage(`{"city": "Paris"}`), Fragments: 2}, {Name: "get_weather"}}})
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	resp := post(t, srv, "oauth", validBody(nil), nil)
	data, _ := io.ReadAll(resp.Body)
	got := string(data)
	for _, want := range []string{
		"event: message_start\n", "event: ping\n",
		`"delta":{"thinking":"Think","type":"thinking_delta"}`, `"delta":{"thinking":".","type":"thinking_delta"}`,
		`"delta":{"signature":"` + Signature("Think.") + `","type":"signature_delta"}`,
		`"delta":{"text":"Hello","type":"text_delta"}`, `"delta":{"text":" ther","type":"text_delta"}`,
		`"delta":{"partial_json":"","type":"input_json_delta"}`,
		`"delta":{"partial_json":"{\"city\":","type":"input_json_delta"}`,
		`"delta":{"partial_json":"\"Paris\"}","type":"input_json_delta"}`,
		`"stop_reason":"tool_use"`, "event: message_stop\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("stream lacks %s:\n%s", want, got)
		}
	}
	if ct := resp.Header.Get("content-type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Errorf("content-type %q", ct)
	}
}

func TestControlEndpoints(t *testing.T) {
	t.Parallel()
	f := New()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	resp, err := srv.Client().Post(srv.URL+"/_fake/replies", "application/json", strings.NewReader(`[{"text":"scripted"}]`))
	if err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("push replies: %v %v", resp, err)
	}
	resp.Body.Close()
	data, _ := io.ReadAll(post(t, srv, "oauth", validBody(nil), nil).Body)
	if !strings.Contains(string(data), `"text":"scripted"`) {
		t.Errorf("scripted reply not streamed:\n%s", data)
	}
	resp, err = srv.Client().Get(srv.URL + "/_fake/requests")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var recs []fakescript.Recorded
	if err := json.NewDecoder(resp.Body).Decode(&recs); err != nil || len(recs) != 1 || recs[0].Status != 200 || recs[0].Query != "beta=true" {
		t.Errorf("recorded %+v, %v; want the one request", recs, err)
	}
	if got := recs[0].Header.Get("Authorization"); strings.Contains(got, "sk-ant-oat01-test") {
		t.Errorf("authorization recorded in clear: %q", got)
	}
}

func TestUnknownPath(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(New())
	t.Cleanup(srv.Close)
	resp, err := srv.Client().Get(srv.URL + "/v1/complete")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if e := readError(t, resp); resp.StatusCode != 404 || e.Error.Type != "not_found_error" {
		t.Errorf("got %d %+v; want 404 not_found_error", resp.StatusCode, e)
	}
}

// TestBrokenAndInterleavedCalls: RawArgs goes out verbatim as
// input_json_delta; Interleave starts every tool_use block first,
// alternates their deltas and stops them last first.
func TestBrokenAndInterleavedCalls(t *testing.T) {
	t.Parallel()
	f := New()
	f.Script.Push(fakescript.Reply{Interleave: true, ToolCalls: []fakescript.ToolCall{
		{Name: "a", RawArgs: `{"x": 1`, Fragments: 2},
		{Name: "b", Args: json.RawMessage(`{"y": 2}`), Fragments: 2},
	}})
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	data, _ := io.ReadAll(post(t, srv, "oauth", validBody(nil), nil).Body)
	var seq []string
	for _, line := range strings.Split(string(data), "\n") {
		payload, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		var ev struct {
			Type  string `json:"type"`
			Index int    `json:"index"`
			Delta struct {
				PartialJSON string `json:"partial_json"`
			} `json:"delta"`
		}
		if err := json.Unmarshal([]byte(payload), &ev); err != nil {
			t.Fatal(err)
		}
		switch ev.Type {
		case "content_block_start":
			seq = append(seq, fmt.Sprintf("start%d", ev.Index))
		case "content_block_delta":
			if ev.Delta.PartialJSON != "" {
				seq = append(seq, fmt.Sprintf("%d:%s", ev.Index, ev.Delta.PartialJSON))
			}
		case "content_block_stop":
			seq = append(seq, fmt.Sprintf("stop%d", ev.Index))
		}
	}
	want := `start0 start1 0:{"x" 1:{"y" 0:: 1 1::2} stop1 stop0`
	if strings.Join(seq, " ") != want {
		t.Errorf("events:\n got %s\nwant %s", strings.Join(seq, " "), want)
	}
}
