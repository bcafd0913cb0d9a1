package openaifake

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"maestro/backend/providers/fakescript"
)

func withVersion(v string) http.Header {
	h := backendHeader()
	h.Set("Version", v)
	return h
}

func apiHeader() http.Header {
	return http.Header{"Authorization": {"Bearer sk-good"}, "Content-Type": {"application/json"}}
}

// Each model rule answers with the real status and body
// (docs/providers/openai.md §What the fake enforces).
func TestModelRules(t *testing.T) {
	t.Parallel()
	f := New(WithToken("tok"), WithAccountID("acc_1"), WithAPIKey("sk-good"))
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	temp := func(b map[string]any) { b["temperature"] = 0.2 }
	arrayTool := func(params map[string]any) func(map[string]any) {
		return func(b map[string]any) {
			b["tools"] = []any{map[string]any{"type": "function", "name": "srv__list", "parameters": params}}
		}
	}
	model := func(id string, more ...func(map[string]any)) func(map[string]any) {
		return func(b map[string]any) {
			b["model"] = id
			for _, m := range more {
				m(b)
			}
		}
	}
	tests := []struct {
		name   string
		path   string
		header http.Header
		mut    func(map[string]any)
		status int
		want   string
	}{
		{"chatgpt: retired model", ChatGPTPath, backendHeader(), model("gpt-5-codex"), 400,
			`{"detail":"The 'gpt-5-codex' model is not supported when using Codex with a ChatGPT account."}`},
		{"chatgpt: temperature", ChatGPTPath, backendHeader(), temp, 400, `{"detail":"Unsupported parameter: temperature"}`},
		{"chatgpt: top_p", ChatGPTPath, backendHeader(), func(b map[string]any) { b["top_p"] = 0.9 }, 400,
			`{"detail":"Unsupported parameter: top_p"}`},
		{"chatgpt: a served model", ChatGPTPath, backendHeader(), model("gpt-5.4-mini"), 200, "response.completed"},
		{"chatgpt: a client too old for the model", ChatGPTPath, withVersion("0.120.0"), nil, 400,
			`{"detail":"The 'gpt-5.5' model requires a newer version of Codex. Please upgrade to the latest app or CLI and try again."}`},
		{"chatgpt: a client new enough", ChatGPTPath, withVersion("0.124.0"), nil, 200, "response.completed"},
		{"api: unknown model", APIPath, apiHeader(), model("gpt-9"), 404,
			`{"error":{"message":"The model ` + "`gpt-9`" + ` does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}}`},
		{"api: temperature to a reasoning model", APIPath, apiHeader(), temp, 400,
			`{"error":{"message":"Unsupported parameter: 'temperature' is not supported with this model.","type":"invalid_request_error","param":"temperature","code":null}}`},
		{"api: top_p to a reasoning model", APIPath, apiHeader(), func(b map[string]any) { b["top_p"] = 0.9 }, 400,
			`{"error":{"message":"Unsupported parameter: 'top_p' is not supported with this model.","type":"invalid_request_error","param":"top_p","code":"unsupported_parameter"}}`},
		{"api: reasoning to gpt-4.1", APIPath, apiHeader(), model("gpt-4.1", func(b map[string]any) {
			b["reasoning"] = map[string]any{"effort": "low"}
		}), 400, `"message":"Unsupported parameter: 'reasoning.effort' is not supported with this model.","type":"invalid_request_error","param":"reasoning.effort","code":"unsupported_parameter"`},
		{"api: reasoning to gpt-5-chat-latest", APIPath, apiHeader(), model("gpt-5-chat-latest", func(b map[string]any) {
			b["reasoning"] = map[string]any{"effort": "low"}
		}), 400, "reasoning.effort"},
		{"api: temperature to gpt-4.1", APIPath, apiHeader(), model("gpt-4.1", temp), 200, "response.completed"},
		{"array without items", ChatGPTPath, backendHeader(), arrayTool(map[string]any{"type": "object",
			"properties": map[string]any{"paths": map[string]any{"type": "array"}}}), 400,
			`{"error":{"message":"Invalid schema for function 'srv__list': In context=('properties', 'paths'), array schema missing items.","type":"invalid_request_error","param":"tools[0].parameters","code":"invalid_function_parameters"}}`},
		{"nested type list without items", APIPath, apiHeader(), arrayTool(map[string]any{"type": "object",
			"properties": map[string]any{"q": map[string]any{"type": "object", "properties": map[string]any{
				"ids": map[string]any{"type": []any{"array", "null"}}}}}}), 400,
			"In context=('properties', 'q', 'properties', 'ids'), array schema missing items."},
		{"object root without properties", APIPath, apiHeader(), arrayTool(map[string]any{"type": "object"}), 400,
			"Invalid schema for function 'srv__list': In context=(), object schema missing properties."},
		{"required null", APIPath, apiHeader(), arrayTool(map[string]any{"type": "object", "properties": map[string]any{}, "required": nil}), 400,
			"Invalid schema for function 'srv__list': None is not of type 'array'."},
		{"root of another type", APIPath, apiHeader(), arrayTool(map[string]any{"type": "array", "items": map[string]any{}}), 400,
			`schema must be a JSON Schema of 'type: \"object\"', got 'type: \"array\"'.`},
		{"array with items", APIPath, apiHeader(), arrayTool(map[string]any{"type": "object",
			"properties": map[string]any{"paths": map[string]any{"type": "array", "items": map[string]any{}}}}), 200, "response.completed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			resp, got := post(t, srv.URL+tt.path, tt.header, body(tt.mut))
			if resp.StatusCode != tt.status || !strings.Contains(got, tt.want) {
				t.Errorf("POST %s = %d %s; want %d with %s", tt.path, resp.StatusCode, got, tt.status, tt.want)
			}
		})
	}
}

func get(t *testing.T, url string, h http.Header) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	req.Header = h
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

type codexList struct {
	Models []struct {
		Slug                      string `json:"slug"`
		DisplayName               string `json:"display_name"`
		Visibility                string `json:"visibility"`
		Priority                  int    `json:"priority"`
		ContextWindow             int    `json:"context_window"`
		SupportsParallelToolCalls bool   `json:"supports_parallel_tool_calls"`
		MinimalClientVersion      string `json:"minimal_client_version"`
		SupportedReasoningLevels  []struct {
			Effort string `json:"effort"`
		} `json:"supported_reasoning_levels"`
	} `json:"models"`
}

func slugs(l codexList) []string {
	var out []string
	for _, m := range l.Models {
		out = append(out, m.Slug)
	}
	return out
}

// The ChatGPT list is the served models in the ModelInfo shape, gated by
// client_version; a test's served list replaces the defaults.
func TestCodexModelList(t *testing.T) {
	t.Parallel()
	f := New(WithToken("tok"), WithAccountID("acc_1"))
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	// The shape Codex reads, for a known entry.
	_, b := get(t, srv.URL+ChatGPTModelsPath+"?client_version=0.156.0", backendHeader())
	var l codexList
	_ = json.Unmarshal(b, &l)
	m := l.Models[0]
	if m.Slug != "gpt-5.5" || m.DisplayName != "GPT-5.5" || m.Visibility != "list" || m.Priority != 7 ||
		m.ContextWindow != 272000 || !m.SupportsParallelToolCalls || len(m.SupportedReasoningLevels) != 4 {
		t.Errorf("first entry = %+v; want gpt-5.5 as Codex's catalog has it", m)
	}
	if l.Models[4].Visibility != "hide" {
		t.Errorf("codex-auto-review visibility = %q; want hide", l.Models[4].Visibility)
	}

	tests := []struct {
		name   string
		query  string
		header http.Header
		served []string
		status int
		want   []string
	}{
		{"current client", "?client_version=0.156.0", backendHeader(), nil, 200, DefaultChatGPTModels},
		{"ungated sentinel", "?client_version=0.0.0", backendHeader(), nil, 200, DefaultChatGPTModels},
		{"old client misses gpt-5.5", "?client_version=0.100.0", backendHeader(), nil, 200,
			[]string{"gpt-5.4", "gpt-5.4-mini", "gpt-5.3-codex-spark", "codex-auto-review"}},
		{"served by the test", "?client_version=0.156.0", backendHeader(), []string{"gpt-5.5", "gpt-6-sol"}, 200,
			[]string{"gpt-5.5", "gpt-6-sol"}},
		{"no client_version", "", backendHeader(), nil, 400, nil},
		{"no account id", "?client_version=0.156.0", http.Header{"Authorization": {"Bearer tok"}}, nil, 403, nil},
		{"no bearer", "?client_version=0.156.0", http.Header{"Chatgpt-Account-Id": {"acc_1"}}, nil, 401, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := New(WithToken("tok"), WithAccountID("acc_1"))
			srv := httptest.NewServer(f)
			t.Cleanup(srv.Close)
			if tt.served != nil {
				f.Script.SetModels(tt.served)
			}
			resp, b := get(t, srv.URL+ChatGPTModelsPath+tt.query, tt.header)
			if resp.StatusCode != tt.status {
				t.Fatalf("GET %s = %d %s; want %d", tt.query, resp.StatusCode, b, tt.status)
			}
			if tt.status != 200 {
				if rec := f.Script.Requests()[0]; rec.Rejection == "" {
					t.Errorf("refusal %d recorded without its rule", resp.StatusCode)
				}
				return
			}
			var l codexList
			if err := json.Unmarshal(b, &l); err != nil {
				t.Fatal(err)
			}
			if got := slugs(l); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("slugs = %v; want %v", got, tt.want)
			}
		})
	}
}

// The API list is {"object":"list","data":[…]} of the served ids.
func TestAPIModelList(t *testing.T) {
	t.Parallel()
	f := New(WithAPIKey("sk-good"))
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	resp, b := get(t, srv.URL+APIModelsPath, apiHeader())
	var l struct {
		Object string `json:"object"`
		Data   []struct {
			ID      string `json:"id"`
			Object  string `json:"object"`
			Created int64  `json:"created"`
			OwnedBy string `json:"owned_by"`
		} `json:"data"`
	}
	if err := json.Unmarshal(b, &l); err != nil || resp.StatusCode != 200 || l.Object != "list" || len(l.Data) != len(DefaultAPIModels) {
		t.Fatalf("GET %s = %d %s; want the default list", APIModelsPath, resp.StatusCode, b)
	}
	if d := l.Data[0]; d.ID != "gpt-5.5" || d.Object != "model" || d.Created == 0 || d.OwnedBy == "" {
		t.Errorf("first entry = %+v; want gpt-5.5 with object, created, owned_by", d)
	}
	if resp, _ := get(t, srv.URL+APIModelsPath, http.Header{}); resp.StatusCode != 401 {
		t.Errorf("without a key: %d; want 401", resp.StatusCode)
	}
}

// The scripted failures for the UI's cards carry the real bodies.
func TestScriptedCardErrors(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		reply  string
		status int
		body   string
	}{
		{"instructions_not_valid", 400, `{"detail":"Instructions are not valid"}`},
		{"originator_rejected", 403, ""},
	} {
		f := New()
		srv := httptest.NewServer(f)
		t.Cleanup(srv.Close)
		f.Script.Push(fakescript.Reply{Error: tt.reply})
		resp, got := post(t, srv.URL+ChatGPTPath, backendHeader(), body(nil))
		if resp.StatusCode != tt.status || got != tt.body {
			t.Errorf("%s: %d %q; want %d %q", tt.reply, resp.StatusCode, got, tt.status, tt.body)
		}
	}
}
