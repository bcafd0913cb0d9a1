package sampling

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"maestro/backend/chat"
	"maestro/backend/mcp"
	"maestro/backend/providers/fakescript"
	"maestro/backend/providers/gemini"
	"maestro/backend/providers/gemini/geminifake"
	"maestro/backend/store"
)

// geminiModels builds Gemini adapters on the Gemini fake (API-key mode);
// other providers have no credentials.
type geminiModels struct{ url string }

func (m geminiModels) Model(_ context.Context, provider string) (chat.Model, error) {
	if provider != chat.ProviderGemini {
		return nil, chat.E(chat.ErrAuthRequired, "sign in to %s in Accounts", provider)
	}
	return gemini.New(gemini.WithBaseURL(m.url), gemini.WithAPIKey("test-key")), nil
}

func (geminiModels) Info(context.Context, string, string) chat.ModelInfo { return chat.ModelInfo{} }

// rig is a Runner over a real store and the Gemini fake.
type rig struct {
	r      *Runner
	st     *store.Store
	script *fakescript.Script
}

func newRig(t *testing.T) *rig {
	t.Helper()
	srv := geminifake.New(geminifake.WithAPIKey("test-key"))
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	st, err := store.Open(t.Context(), t.TempDir(), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	ids := func(_ context.Context, provider string) []string {
		if provider == chat.ProviderGemini {
			return []string{"gemini-2.5-pro", "gemini-2.5-flash"}
		}
		return nil
	}
	return &rig{r: New(geminiModels{hs.URL}, st, ids), st: st, script: srv.Script}
}

func (r *rig) session(t *testing.T, provider, model string) string {
	t.Helper()
	s, err := r.st.CreateSession(t.Context(), chat.Session{Title: "Sampled", Provider: provider, Model: model})
	if err != nil {
		t.Fatal(err)
	}
	return s.ID
}

func request(sessionID string, hints ...string) mcp.SamplingRequest {
	req := mcp.SamplingRequest{Origin: mcp.Origin{SessionID: sessionID}, Params: mcpgo.CreateMessageParams{
		Messages: []mcpgo.SamplingMessage{
			{Role: mcpgo.RoleUser, Content: mcpgo.NewTextContent("say hi")},
			{Role: mcpgo.RoleAssistant, Content: mcpgo.NewTextContent("hi?")},
			{Role: mcpgo.RoleUser, Content: mcpgo.NewTextContent("louder")},
		},
		SystemPrompt: "Be brief.", MaxTokens: 10,
	}}
	if len(hints) > 0 {
		req.Params.ModelPreferences = &mcpgo.ModelPreferences{}
		for _, h := range hints {
			req.Params.ModelPreferences.Hints = append(req.Params.ModelPreferences.Hints, mcpgo.ModelHint{Name: h})
		}
	}
	return req
}

func TestRun(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		hints     []string
		wantModel string
	}{
		{"the session's model", nil, "gemini-2.5-pro"},
		{"a hint picks another model of the provider", []string{"claude", "flash"}, "gemini-2.5-flash"},
		{"hints that match nothing", []string{"sonnet"}, "gemini-2.5-pro"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := newRig(t)
			id := r.session(t, chat.ProviderGemini, "gemini-2.5-pro")
			r.script.Push(fakescript.Reply{Text: "HI THERE", ChunkRunes: 3})
			res, err := r.r.Run(t.Context(), request(id, tt.hints...))
			if err != nil {
				t.Fatal(err)
			}
			if got := Text(res.Content); got != "HI THERE" || res.Model != tt.wantModel || res.Role != mcpgo.RoleAssistant || res.StopReason != "endTurn" {
				t.Errorf("Run = %q from %s (%s, %s); want %q from %s (assistant, endTurn)", got, res.Model, res.Role, res.StopReason, "HI THERE", tt.wantModel)
			}
			reqs := r.script.Requests()
			if len(reqs) != 1 || !strings.Contains(reqs[0].Path, tt.wantModel) {
				t.Fatalf("requests = %+v; want one to %s", reqs, tt.wantModel)
			}
			body := string(reqs[0].Body)
			for _, want := range []string{"Be brief.", "say hi", "hi?", "louder", `"maxOutputTokens":10`} {
				if !strings.Contains(body, want) {
					t.Errorf("request body lacks %s: %s", want, body)
				}
			}
		})
	}
}

func TestRunRefuses(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	noModel := r.session(t, "", "")
	signedOut := r.session(t, chat.ProviderOpenAI, "gpt-5")
	tests := []struct {
		name, sessionID string
		kind            string
	}{
		{"no session: not from a tool call", "", chat.KindInvalid},
		{"a session that is gone", "missing", chat.KindNotFound},
		{"a session with no model", noModel, chat.KindInvalid},
		{"a provider without credentials", signedOut, chat.KindAuthRequired},
	}
	for _, tt := range tests {
		if _, err := r.r.Run(t.Context(), request(tt.sessionID)); chat.Kind(err) != tt.kind {
			t.Errorf("%s: err = %v; want kind %s", tt.name, err, tt.kind)
		}
	}
	if n := len(r.script.Requests()); n != 0 {
		t.Errorf("%d requests reached the provider; want none", n)
	}
}

func TestRunFailsWithTheProvider(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	id := r.session(t, chat.ProviderGemini, "gemini-2.5-pro")
	r.script.Push(fakescript.Reply{Error: "server"})
	if _, err := r.r.Run(t.Context(), request(id)); err == nil {
		t.Fatal("Run succeeded on a failing provider")
	} else if _, ok := chat.AsProviderError(err); !ok {
		t.Errorf("err = %v; want the provider's error", err)
	}
}

func TestPickModel(t *testing.T) {
	t.Parallel()
	ids := []string{"claude-opus-4", "claude-sonnet-4", "sonnet"}
	tests := []struct {
		hints []string
		want  string
	}{
		{[]string{"gpt", "sonnet-4"}, "claude-sonnet-4"},
		{[]string{"sonnet"}, "sonnet"}, // an exact match before a substring
		{[]string{"", "opus"}, "claude-opus-4"},
		{[]string{"gpt"}, "def"},
		{nil, "def"},
	}
	for _, tt := range tests {
		var hints []mcpgo.ModelHint
		for _, h := range tt.hints {
			hints = append(hints, mcpgo.ModelHint{Name: h})
		}
		if got := PickModel(ids, hints, "def"); got != tt.want {
			t.Errorf("PickModel(%v) = %q; want %q", tt.hints, got, tt.want)
		}
	}
}

func TestText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   any
		want string
	}{
		{nil, ""},
		{mcpgo.NewTextContent("a"), "a"},
		{&mcpgo.TextContent{Text: "b"}, "b"},
		{"c", "c"},
		{map[string]any{"type": "text", "text": "d"}, "d"},
		{map[string]any{"type": "image", "data": "AAAA"}, "[image]"},
		{[]any{"e", map[string]any{"text": "f"}}, "e\nf"},
		{[]mcpgo.Content{mcpgo.NewTextContent("g"), mcpgo.NewImageContent("AAAA", "image/png")}, "g\n[image]"},
		{mcpgo.NewAudioContent("AAAA", "audio/wav"), "[audio]"},
		{42, "42"},
	}
	for _, tt := range tests {
		if got := Text(tt.in); got != tt.want {
			t.Errorf("Text(%#v) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

func TestMessagesAndHint(t *testing.T) {
	t.Parallel()
	req := request("s", "flash", "pro")
	msgs := Messages(req)
	if len(msgs) != 3 || msgs[0] != (Message{chat.RoleUser, "say hi"}) || msgs[1] != (Message{chat.RoleAssistant, "hi?"}) {
		t.Errorf("Messages = %+v", msgs)
	}
	if got := Hint(req); got != "flash" {
		t.Errorf("Hint = %q; want the first, flash", got)
	}
	if got := Hint(request("s")); got != "" {
		t.Errorf("Hint without preferences = %q; want none", got)
	}
}
