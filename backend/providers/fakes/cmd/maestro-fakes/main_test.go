package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"iter"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/zalando/go-keyring"

	"maestro/backend/auth"
	"maestro/backend/chat"
	"maestro/backend/providers/anthropic"
	"maestro/backend/providers/gemini"
	"maestro/backend/providers/openai"
)

// envFor is what the end-to-end suite sets: every variable of a provider
// points at {url}/<provider>.
func envFor(url string) map[string]string {
	return map[string]string{
		"MAESTRO_OPENAI_AUTH_URL":        url + "/openai",
		"MAESTRO_OPENAI_BASE_URL":        url + "/openai",
		"MAESTRO_OPENAI_API_URL":         url + "/openai",
		"MAESTRO_ANTHROPIC_AUTH_URL":     url + "/anthropic",
		"MAESTRO_ANTHROPIC_TOKEN_URL":    url + "/anthropic",
		"MAESTRO_ANTHROPIC_BASE_URL":     url + "/anthropic",
		"MAESTRO_GEMINI_AUTH_URL":        url + "/gemini",
		"MAESTRO_GEMINI_TOKEN_URL":       url + "/gemini",
		"MAESTRO_GEMINI_USERINFO_URL":    url + "/gemini",
		"MAESTRO_GEMINI_CODE_ASSIST_URL": url + "/gemini",
		"MAESTRO_GEMINI_BASE_URL":        url + "/gemini",
	}
}

type model interface {
	Stream(context.Context, chat.Request) (iter.Seq2[chat.Event, error], error)
}

// TestOneOrigin signs in to each provider through the command's handler,
// configured from the environment exactly as the app will be, and streams
// a reply with the resulting credentials. Not parallel: it sets the
// environment and uses go-keyring's process-wide mock.
func TestOneOrigin(t *testing.T) {
	keyring.MockInit()
	srv := httptest.NewServer(newHandler(config{openaiAnyPort: true, accessTTL: time.Hour,
		scenario: "free", onboardPolls: 1, strictTokens: true}))
	defer srv.Close()
	for k, v := range envFor(srv.URL) {
		t.Setenv(k, v)
	}

	updates := make(chan auth.LoginUpdate, 64)
	opened := make(chan string, 4)
	m := auth.NewManager(auth.New("maestro-fakes-test"), auth.ManagerConfig{
		OpenURL:   func(u string) error { opened <- u; return nil },
		Notify:    func(u auth.LoginUpdate) { updates <- u },
		Endpoints: auth.EndpointsFromEnv(),
		Logger:    slog.New(slog.DiscardHandler),
	})
	defer m.Close()

	tests := []struct {
		provider string
		model    string
		build    func(auth.Credentials) model
	}{
		{chat.ProviderOpenAI, openai.Builtin()[0].ID, func(c auth.Credentials) model {
			return openai.New(openai.WithHTTPClient(c.HTTPClient), openai.WithAccountID(c.AccountID), openai.WithBaseURL(c.BaseURL))
		}},
		{chat.ProviderAnthropic, "claude-sonnet-4-5", func(c auth.Credentials) model {
			return anthropic.New(anthropic.WithHTTPClient(c.HTTPClient), anthropic.WithBaseURL(c.BaseURL))
		}},
		{chat.ProviderGemini, "gemini-2.5-pro", func(c auth.Credentials) model {
			return gemini.New(gemini.WithHTTPClient(c.HTTPClient), gemini.WithProject(c.Project), gemini.WithBaseURL(c.BaseURL))
		}},
	}
	ctx := t.Context()
	for _, tt := range tests {
		// ChatGPT binds the real 1455 or 1457 (the fake here accepts any
		// port). backend/auth's fallback test may hold them for a moment
		// when the packages' tests run side by side: retry briefly.
		lg, err := m.StartLogin(ctx, tt.provider)
		for i := 0; errors.Is(err, chat.ErrUnavailable) && i < 50; i++ {
			time.Sleep(100 * time.Millisecond)
			lg, err = m.StartLogin(ctx, tt.provider)
		}
		if err != nil {
			t.Fatalf("%s: StartLogin() = %v", tt.provider, err)
		}
		u := <-opened
		if !strings.HasPrefix(u, srv.URL+"/"+tt.provider+"/") {
			t.Errorf("%s: authorize URL is not under the provider's prefix", tt.provider)
		}
		resp, err := http.Get(u)
		if err != nil {
			t.Fatalf("%s: browse: %v", tt.provider, err)
		}
		resp.Body.Close()
		var last auth.LoginUpdate
		for last.Status != auth.LoginSignedIn && last.Status != auth.LoginFailed && last.Status != auth.LoginCanceled {
			select {
			case last = <-updates:
			case <-time.After(10 * time.Second):
				t.Fatalf("%s: no terminal update", tt.provider)
			}
		}
		if last.LoginID != lg.ID || last.Status != auth.LoginSignedIn {
			t.Fatalf("%s: update = %+v; want signed_in", tt.provider, last)
		}

		c, err := m.Credentials(ctx, tt.provider)
		if err != nil {
			t.Fatalf("%s: Credentials() = %v", tt.provider, err)
		}
		post(t, srv.URL+"/_fake/"+tt.provider+"/replies", `[{"text":"hello from the fake"}]`)
		post(t, srv.URL+"/_fake/"+tt.provider+"/oauth/expire", "")
		seq, err := tt.build(c).Stream(ctx, chat.Request{Model: tt.model, SessionID: "s",
			Messages: []chat.Message{{ID: "u", Role: chat.RoleUser, Parts: chat.Parts{chat.TextPart{Text: "hi"}}}}})
		if err != nil {
			t.Fatalf("%s: Stream() = %v", tt.provider, err)
		}
		var text strings.Builder
		for ev, err := range seq {
			if err != nil {
				t.Fatalf("%s: stream: %v", tt.provider, err)
			}
			if d, ok := ev.(chat.TextDelta); ok {
				text.WriteString(d.Text)
			}
		}
		if text.String() != "hello from the fake" {
			t.Errorf("%s: reply = %q", tt.provider, text.String())
		}
		var st struct{ Refreshes int }
		getJSON(t, srv.URL+"/_fake/"+tt.provider+"/oauth/state", &st)
		if st.Refreshes != 1 {
			t.Errorf("%s: refreshes = %d; want 1 (the expired token refreshed once)", tt.provider, st.Refreshes)
		}
	}
	var ca struct{ OnboardedProject string }
	getJSON(t, srv.URL+"/_fake/gemini/codeassist", &ca)
	if ca.OnboardedProject == "" {
		t.Errorf("the Gemini fake was not onboarded through its prefix")
	}
	resp, err := http.Get(srv.URL + "/nowhere")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown path = %d; want 404", resp.StatusCode)
	}
}

func post(t *testing.T, u, body string) {
	t.Helper()
	resp, err := http.Post(u, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		t.Fatalf("POST %s = %d", u, resp.StatusCode)
	}
}

func getJSON(t *testing.T, u string, v any) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
}

// TestRunPrintsURLAndStopsOnStdinClose runs the command's main loop with a
// pipe as stdin.
func TestRunPrintsURLAndStopsOnStdinClose(t *testing.T) {
	t.Parallel()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(config{addr: "127.0.0.1:0", accessTTL: time.Hour, scenario: "free", onboardPolls: 1},
			outW, inR, slog.New(slog.DiscardHandler))
	}()
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	var v struct{ URL string }
	if err := json.Unmarshal([]byte(line), &v); err != nil || !strings.HasPrefix(v.URL, "http://127.0.0.1:") {
		t.Fatalf("first line = %q; want {\"url\":\"http://127.0.0.1:PORT\"}", line)
	}
	resp, err := http.Get(v.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	inW.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run() = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run() did not return after stdin closed")
	}
}
