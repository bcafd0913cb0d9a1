package openai

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"runtime"
	"testing"

	"maestro/backend/chat"
	"maestro/backend/providers/openai/openaifake"
)

func TestLookup(t *testing.T) {
	t.Parallel()
	tests := []struct {
		id        string
		window    int
		output    int
		reasoning bool
		def       string
		efforts   int
	}{
		{"gpt-5.5", 272000, 128000, true, "medium", 4},
		{"gpt-5.5-2026-04-23", 272000, 128000, true, "medium", 4},
		{"gpt-5.4", 272000, 128000, true, "medium", 4},
		{"gpt-5.4-mini", 400000, 128000, true, "medium", 4},
		{"gpt-5.6-sol", 372000, 128000, true, "low", 6},
		{"gpt-5.6-luna", 372000, 128000, true, "medium", 5},
		{"gpt-6-astra", 272000, 128000, true, "", 0},
		{"gpt-5.3-codex-spark", 128000, 0, true, "", 0},
		{"gpt-5-mini", 400000, 128000, true, "medium", 4},
		{"gpt-5-chat-latest", 128000, 16384, false, "", 0},
		{"o3", 200000, 100000, true, "medium", 3},
		{"o4-mini", 200000, 100000, true, "medium", 3},
		{"gpt-4.1-mini", 1047576, 32768, false, "", 0},
		{"gpt-4o", 128000, 16384, false, "", 0},
	}
	for _, tt := range tests {
		got := Lookup(tt.id)
		if got.ID != tt.id || got.ContextWindow != tt.window || got.MaxOutputTokens != tt.output ||
			got.Reasoning != tt.reasoning || got.DefaultEffort != tt.def || len(got.Efforts) != tt.efforts ||
			tt.reasoning && got.Thinking != chat.ThinkingEffort {
			t.Errorf("Lookup(%q) = %+v; want window %d, output %d, reasoning %v, default %q, %d efforts",
				tt.id, got, tt.window, tt.output, tt.reasoning, tt.def, tt.efforts)
		}
	}
	if got := Lookup("davinci-002"); got.Known() {
		t.Errorf("Lookup(davinci-002) = %+v; want unknown", got)
	}
}

func TestBuiltin(t *testing.T) {
	t.Parallel()
	got := Builtin()
	if len(got) == 0 || got[0].ID != "gpt-5.5" {
		t.Fatalf("Builtin() = %+v; want gpt-5.5 first", got)
	}
	for _, m := range got {
		if m.Name == m.ID || m.ContextWindow == 0 || m.MaxOutputTokens == 0 || !m.Reasoning {
			t.Errorf("builtin %+v; want a display name and the table's limits", m)
		}
	}
}

func ids(list []chat.ModelInfo) []string {
	out := make([]string, len(list))
	for i, m := range list {
		out[i] = m.ID
	}
	return out
}

// ChatGPT sign-in lists the Codex backend's models with the responses
// call's identity headers and the client version.
func TestModelsChatGPT(t *testing.T) {
	t.Parallel()
	f, m, _ := newFake(t)
	list, err := m.Models(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"gpt-5.5", "gpt-5.4", "gpt-5.4-mini", "gpt-5.3-codex-spark"}; !reflect.DeepEqual(ids(list), want) {
		t.Errorf("Models() = %v; want %v (hidden codex-auto-review left out)", ids(list), want)
	}
	if got := list[0]; got.Name != "GPT-5.5" || got.ContextWindow != 272000 || got.MaxOutputTokens != 128000 ||
		!got.Reasoning || got.DefaultEffort != "medium" || len(got.Efforts) != 4 {
		t.Errorf("first = %+v; want the list's name, window and efforts, the table's output limit", got)
	}
	rec := f.Script.Requests()[0]
	want := map[string]string{"Chatgpt-Account-Id": "acc_1", "Originator": "maestro", "Version": DefaultClientVersion,
		"User-Agent": "maestro/1.2.3 (" + runtime.GOOS + " " + runtime.GOARCH + ")", "Accept": "application/json"}
	for k, v := range want {
		if got := rec.Header.Get(k); got != v {
			t.Errorf("header %s = %q; want %q", k, got, v)
		}
	}
	if rec.Method != http.MethodGet || rec.Path != openaifake.ChatGPTModelsPath || rec.Query != "client_version="+DefaultClientVersion ||
		rec.Header.Get("Authorization") == "" {
		t.Errorf("request %s %s?%s; want GET %s?client_version=%s with the client's bearer", rec.Method, rec.Path, rec.Query,
			openaifake.ChatGPTModelsPath, DefaultClientVersion)
	}

	f.Script.SetModels([]string{"gpt-5.4-mini", "gpt-6-sol"})
	list, err = m.Models(t.Context())
	if err != nil || !reflect.DeepEqual(ids(list), []string{"gpt-5.4-mini", "gpt-6-sol"}) {
		t.Errorf("served list: Models() = %v, %v; want the served ids", ids(list), err)
	}
}

// $MAESTRO_CODEX_CLIENT_VERSION is read when the Model is built. Not
// parallel: it sets the environment.
func TestClientVersionFromEnv(t *testing.T) {
	t.Setenv(ClientVersionEnv, "0.100.0")
	_, m, _ := newFake(t)
	list, err := m.Models(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(list) == 0 || list[0].ID == "gpt-5.5" {
		t.Errorf("Models() with client 0.100.0 = %v; want gpt-5.5 (minimal 0.124.0) hidden", ids(list))
	}
	if got := New(WithClientVersion("0.157.0")).ModelsURL(); got != DefaultChatGPTBaseURL+ChatGPTModelsPath+"?client_version=0.157.0" {
		t.Errorf("ModelsURL() = %s; want the option over the environment", got)
	}
}

// An API key lists /v1/models: chat models only, the default first.
func TestModelsAPI(t *testing.T) {
	t.Parallel()
	f := openaifake.New(openaifake.WithAPIKey("sk-test"))
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	list, err := New(WithBaseURL(srv.URL), WithAPIKey("sk-test")).Models(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"gpt-5.5", "o3", "gpt-4.1", "gpt-5-chat-latest", "gpt-5-mini", "gpt-5", "gpt-5.4-mini", "gpt-5.4"}
	if !reflect.DeepEqual(ids(list), want) {
		t.Errorf("Models() = %v; want %v", ids(list), want)
	}
	if got := list[1]; got.ContextWindow != 200000 || !got.Reasoning {
		t.Errorf("o3 = %+v; want the table's limits", got)
	}
	if rec := f.Script.Requests()[0]; rec.Path != openaifake.APIModelsPath || rec.Header.Get("Authorization") == "" ||
		rec.Header.Get("Chatgpt-Account-Id") != "" || rec.Header.Get("Version") != "" {
		t.Errorf("request %s %v; want GET %s with the key and no Codex headers", rec.Path, rec.Header, openaifake.APIModelsPath)
	}
}

func TestModelsErrors(t *testing.T) {
	t.Parallel()
	f := openaifake.New(openaifake.WithAPIKey("sk-test"))
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	_, err := New(WithBaseURL(srv.URL), WithAPIKey("sk-wrong")).Models(t.Context())
	if he, ok := chat.AsProviderError(err); !ok || he.Kind != chat.ProviderKindAuth || he.Code != "invalid_api_key" {
		t.Errorf("wrong key: %v; want auth invalid_api_key", err)
	}
	if _, err := New(WithBaseURL(srv.URL)).Models(t.Context()); !errors.Is(err, chat.ErrAuthRequired) {
		t.Errorf("no account id: %v; want auth required", err)
	}
	f.Script.SetModels([]string{"text-embedding-3-large", "tts-1"})
	if _, err := New(WithBaseURL(srv.URL), WithAPIKey("sk-test")).Models(t.Context()); err == nil {
		t.Error("a list without chat models: no error; want one, so the caller falls back")
	}
	junk := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("<html>")) }))
	t.Cleanup(junk.Close)
	_, err = New(WithBaseURL(junk.URL), WithAccountID("a")).Models(t.Context())
	if he, ok := chat.AsProviderError(err); !ok || he.Kind != chat.ProviderKindServer {
		t.Errorf("undecodable list: %v; want a server error", err)
	}
}

func TestParseCodexModels(t *testing.T) {
	t.Parallel()
	body := []byte(`{"models":[
		{"slug":"gpt-hidden","visibility":"hide","priority":0},
		{"slug":"gpt-5.4","display_name":"GPT-5.4","visibility":"list","priority":16,"supports_parallel_tool_calls":false},
		{"slug":"gpt-5.5","display_name":"GPT-5.5","visibility":"list","priority":7,"context_window":300000,
		 "default_reasoning_level":"high","supported_reasoning_levels":[{"effort":"low","description":"x"},{"effort":"high","description":"y"}]},
		{"slug":"none-model","visibility":"none","priority":1}]}`)
	got, err := parseCodexModels(body)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ids(got), []string{"gpt-5.5", "gpt-5.4"}) {
		t.Fatalf("ids = %v; want the listed ones by priority", ids(got))
	}
	if g := got[0]; g.ContextWindow != 300000 || g.DefaultEffort != "high" || !reflect.DeepEqual(g.Efforts, []string{"low", "high"}) || g.NoParallelToolCalls {
		t.Errorf("gpt-5.5 = %+v; want the list's window, efforts and default", g)
	}
	if g := got[1]; !g.NoParallelToolCalls || g.ContextWindow != 272000 || !g.Reasoning {
		t.Errorf("gpt-5.4 = %+v; want no parallel calls, the rest from the table", g)
	}
}

func TestChatModel(t *testing.T) {
	t.Parallel()
	for id, want := range map[string]bool{
		"gpt-5.5": true, "gpt-5-codex": true, "o3": true, "o4-mini": true, "o1-pro": true, "gpt-4.1-nano": true,
		"chatgpt-4o-latest": true, "codex-mini-latest": true, "gpt-5-chat-latest": true,
		"text-embedding-3-small": false, "tts-1-hd": false, "gpt-4o-mini-tts": false, "whisper-1": false,
		"dall-e-3": false, "gpt-image-1": false, "gpt-4o-audio-preview": false, "gpt-realtime": false,
		"gpt-4o-transcribe": false, "gpt-4o-search-preview": false, "omni-moderation-latest": false, "sora-2": false,
		"gpt-3.5-turbo-instruct": false, "davinci-002": false, "computer-use-preview": false, "o3-deep-research": false,
		"omni": false,
	} {
		if got := chatModel(id); got != want {
			t.Errorf("chatModel(%q) = %v; want %v", id, got, want)
		}
	}
}
