package anthropicfake

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// cached returns a text block with a cache breakpoint.
func cached(text string) map[string]any {
	return map[string]any{"type": "text", "text": text, "cache_control": map[string]any{"type": "ephemeral"}}
}

func withBreakpoints(n int) func(m map[string]any) {
	return func(m map[string]any) {
		var sys []any
		for i := range n {
			sys = append(sys, cached(strings.Repeat("x", i+1)))
		}
		m["system"] = append([]any{map[string]any{"type": "text", "text": ClaudeCodeSystem}}, sys...)
	}
}

// TestRules covers the rules added for issue 10, each with the real status
// and message (docs/providers/anthropic.md, "What the fake enforces").
func TestRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		opts    []Option
		models  []string // served models; nil for the defaults
		mode    string
		body    string
		status  int
		errType string
		message string
	}{
		{"model not served", nil, nil, "apikey", validBody(func(m map[string]any) { m["model"] = "claude-nope" }),
			404, "not_found_error", "model: claude-nope"},
		{"model not in the account's list", nil, []string{"claude-sonnet-4-6"}, "oauth", validBody(nil),
			404, "not_found_error", "model: claude-sonnet-4-5"},
		{"max_tokens above the output limit", nil, nil, "apikey", validBody(func(m map[string]any) {
			m["model"], m["max_tokens"] = "claude-opus-4-1", 40000
		}), 400, "invalid_request_error", "max_tokens: 40000 > 32000, which is the maximum allowed number of output tokens for claude-opus-4-1-20250805"},
		{"temperature to opus 4.7", nil, nil, "apikey", validBody(func(m map[string]any) {
			m["model"], m["temperature"] = "claude-opus-4-7", 0.5
		}), 400, "invalid_request_error", MsgTemperatureDeprecated},
		{"adaptive thinking with a temperature", nil, nil, "apikey", validBody(func(m map[string]any) {
			m["model"], m["thinking"], m["temperature"] = "claude-sonnet-4-6", map[string]any{"type": "adaptive"}, 0.5
			m["messages"] = msgs(m)[:1]
		}), 400, "invalid_request_error", "`temperature` may only be set to 1 when thinking is enabled. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#feature-compatibility"},
		{"five breakpoints", nil, nil, "oauth", validBody(withBreakpoints(5)),
			400, "invalid_request_error", "A maximum of 4 blocks with cache_control may be provided. Found 5."},
		{"five breakpoints, one inside a tool result", nil, nil, "oauth", validBody(func(m map[string]any) {
			withBreakpoints(4)(m)
			content(m, 2)[0].(map[string]any)["content"] = []any{cached("21")}
		}), 400, "invalid_request_error", "A maximum of 4 blocks with cache_control may be provided. Found 5."},
		{"breakpoint on an empty text block", nil, nil, "apikey", validBody(func(m map[string]any) {
			msgs(m)[0].(map[string]any)["content"] = []any{cached("")}
		}), 400, "invalid_request_error", "messages.0.content.0.text: cache_control cannot be set for empty text blocks"},
		{"breakpoint on an empty system block", nil, nil, "oauth", validBody(func(m map[string]any) {
			m["system"] = []any{map[string]any{"type": "text", "text": ClaudeCodeSystem}, cached("")}
		}), 400, "invalid_request_error", "system.1.text: cache_control cannot be set for empty text blocks"},
		{"breakpoint on a thinking block", nil, nil, "apikey", validBody(func(m map[string]any) {
			m["thinking"], m["max_tokens"] = map[string]any{"type": "enabled", "budget_tokens": 2048}, 4096
			msgs(m)[1].(map[string]any)["content"] = append([]any{map[string]any{"type": "thinking", "thinking": "hmm",
				"signature": Signature("hmm"), "cache_control": map[string]any{"type": "ephemeral"}}}, content(m, 1)...)
		}), 400, "invalid_request_error", "messages.1.content.0.thinking.cache_control: Extra inputs are not permitted"},
		{"breakpoint on a redacted thinking block", nil, nil, "apikey", validBody(func(m map[string]any) {
			m["thinking"], m["max_tokens"] = map[string]any{"type": "enabled", "budget_tokens": 2048}, 4096
			msgs(m)[1].(map[string]any)["content"] = append([]any{map[string]any{"type": "redacted_thinking", "data": "EmwK",
				"cache_control": map[string]any{"type": "ephemeral"}}}, content(m, 1)...)
		}), 400, "invalid_request_error", "messages.1.content.0.redacted_thinking.cache_control: Extra inputs are not permitted"},
		{"third-party gate", []Option{WithGate(GateThirdParty)}, nil, "oauth", validBody(nil),
			400, "invalid_request_error", MsgThirdPartyGate},
		{"extra usage exhausted", []Option{WithGate(GateExtraUsageExhausted)}, nil, "oauth", validBody(nil),
			400, "invalid_request_error", MsgExtraUsageExhausted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := New(tt.opts...)
			if tt.models != nil {
				f.Script.SetModels(tt.models)
			}
			srv := httptest.NewServer(f)
			t.Cleanup(srv.Close)
			resp := post(t, srv, tt.mode, tt.body, nil)
			e := readError(t, resp)
			if resp.StatusCode != tt.status || e.Error.Type != tt.errType || e.Error.Message != tt.message {
				t.Errorf("got %d %s %q; want %d %s %q", resp.StatusCode, e.Error.Type, e.Error.Message, tt.status, tt.errType, tt.message)
			}
			if recs := f.Script.Requests(); len(recs) != 1 || recs[0].Status != tt.status || recs[0].Rejection == "" {
				t.Errorf("recorded %+v; want one request with status %d and a rejection", recs, tt.status)
			}
		})
	}
}

func TestAccepted(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		mode string
		opts []Option
		body string
	}{
		{"alias of a dated snapshot", "apikey", nil, validBody(nil)},
		{"four breakpoints", "oauth", nil, validBody(withBreakpoints(4))},
		{"max_tokens at the limit", "apikey", nil, validBody(func(m map[string]any) { m["model"], m["max_tokens"] = "claude-opus-4-1", 32000 })},
		{"adaptive thinking with an effort", "apikey", nil, validBody(func(m map[string]any) {
			m["model"], m["thinking"], m["output_config"] = "claude-opus-4-7", map[string]any{"type": "adaptive"}, map[string]any{"effort": "high"}
			m["messages"] = msgs(m)[:1]
		})},
		{"gate spares api keys", "apikey", []Option{WithGate(GateThirdParty)}, validBody(nil)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(New(tt.opts...))
			t.Cleanup(srv.Close)
			if resp := post(t, srv, tt.mode, tt.body, nil); resp.StatusCode != http.StatusOK {
				t.Errorf("got %d %+v; want 200", resp.StatusCode, readError(t, resp).Error)
			}
		})
	}
}

func TestGateControl(t *testing.T) {
	t.Parallel()
	f := New()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	setGate := func(body string) int {
		resp, err := srv.Client().Post(srv.URL+"/_fake/gate", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, step := range []struct {
		set     string
		control int
		status  int
		message string
	}{
		{`{"mode":"third_party"}`, 204, 400, MsgThirdPartyGate},
		{`{"mode":"extra_usage_exhausted"}`, 204, 400, MsgExtraUsageExhausted},
		{`{"mode":"sideways"}`, 400, 400, MsgExtraUsageExhausted},
		{`{"mode":"off"}`, 204, 200, ""},
	} {
		if got := setGate(step.set); got != step.control {
			t.Errorf("POST /_fake/gate %s: got %d; want %d", step.set, got, step.control)
		}
		resp := post(t, srv, "oauth", validBody(nil), nil)
		if resp.StatusCode != step.status {
			t.Fatalf("after %s: got %d; want %d", step.set, resp.StatusCode, step.status)
		}
		if step.message != "" {
			if e := readError(t, resp); e.Error.Message != step.message {
				t.Errorf("after %s: got %q; want %q", step.set, e.Error.Message, step.message)
			}
		}
	}
}

// listPage is the real shape of GET /v1/models.
type listPage struct {
	Data []struct {
		Type           string `json:"type"`
		ID             string `json:"id"`
		DisplayName    string `json:"display_name"`
		CreatedAt      string `json:"created_at"`
		MaxInputTokens int    `json:"max_input_tokens"`
		MaxTokens      int    `json:"max_tokens"`
		Capabilities   struct {
			Thinking struct {
				Types struct {
					Adaptive struct{ Supported bool } `json:"adaptive"`
				} `json:"types"`
			} `json:"thinking"`
			Effort map[string]json.RawMessage `json:"effort"`
		} `json:"capabilities"`
	} `json:"data"`
	HasMore bool    `json:"has_more"`
	FirstID *string `json:"first_id"`
	LastID  *string `json:"last_id"`
}

func getModels(t *testing.T, srv *httptest.Server, mode, query string, edit func(*http.Request)) (*http.Response, listPage) {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+"/v1/models"+query, nil)
	resp := send(t, srv, req, mode, edit)
	var page listPage
	if resp.StatusCode == http.StatusOK {
		data, _ := io.ReadAll(resp.Body)
		if err := json.Unmarshal(data, &page); err != nil {
			t.Fatalf("decode %s: %v", data, err)
		}
	}
	return resp, page
}

func TestModelList(t *testing.T) {
	t.Parallel()
	f := New()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	for _, mode := range []string{"oauth", "apikey"} {
		resp, page := getModels(t, srv, mode, "?limit=1000", nil)
		if resp.StatusCode != 200 || len(page.Data) != len(DefaultModels()) || page.HasMore {
			t.Fatalf("%s: got %d, %d models, has_more %v; want 200 and the %d defaults", mode, resp.StatusCode, len(page.Data), page.HasMore, len(DefaultModels()))
		}
		first := page.Data[0]
		if first.Type != "model" || first.ID != "claude-opus-5" || first.DisplayName == "" || first.CreatedAt == "" ||
			first.MaxInputTokens != 1_000_000 || first.MaxTokens != 128_000 || !first.Capabilities.Thinking.Types.Adaptive.Supported ||
			!strings.Contains(string(first.Capabilities.Effort["xhigh"]), "true") {
			t.Errorf("%s: first model %+v; want claude-opus-5 with its limits and capabilities", mode, first)
		}
	}
	_, p1 := getModels(t, srv, "apikey", "?limit=2", nil)
	_, p2 := getModels(t, srv, "apikey", "?limit=2&after_id="+*p1.LastID, nil)
	if len(p1.Data) != 2 || !p1.HasMore || len(p2.Data) != 2 || p2.Data[0].ID != DefaultModels()[2] {
		t.Errorf("pages %+v, %+v; want two pages of two, the second from the third model", p1, p2)
	}
	f.Script.SetModels([]string{"claude-haiku-4-5-20251001", "claude-made-up"})
	_, page := getModels(t, srv, "apikey", "", nil)
	if len(page.Data) != 2 || page.Data[1].ID != "claude-made-up" || page.Data[1].MaxTokens == 0 {
		t.Errorf("after SetModels: %+v; want the two set models", page.Data)
	}
	if resp, _ := getModels(t, srv, "oauth", "", func(r *http.Request) { r.Header.Del("anthropic-beta") }); resp.StatusCode != 401 {
		t.Errorf("oauth without the beta: got %d; want 401", resp.StatusCode)
	} else if e := readError(t, resp); e.Error.Message != MsgOAuthUnsupported {
		t.Errorf("got %q; want %q", e.Error.Message, MsgOAuthUnsupported)
	}
	if resp, _ := getModels(t, srv, "apikey", "", func(r *http.Request) { r.Header.Del("x-api-key") }); resp.StatusCode != 401 {
		t.Errorf("no credentials: got %d; want 401", resp.StatusCode)
	}
}
