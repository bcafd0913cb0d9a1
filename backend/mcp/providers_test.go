package mcp

import (
	"net/http/httptest"
	"testing"

	"maestro/backend/chat"
	"maestro/backend/providers/anthropic"
	"maestro/backend/providers/anthropic/anthropicfake"
	"maestro/backend/providers/fakescript"
	"maestro/backend/providers/gemini"
	"maestro/backend/providers/gemini/geminifake"
	"maestro/backend/providers/openai"
	"maestro/backend/providers/openai/openaifake"
)

// providerFakes starts each provider's fake and returns, per provider, a
// function that streams a request through the real adapter to it and
// returns the body the fake accepted. Tests only: the package itself never
// reaches a provider (docs/ARCHITECTURE.md).
func providerFakes(t *testing.T) map[string]func(chat.Request) string {
	t.Helper()
	type fake struct {
		script *fakescript.Script
		model  chat.Model
		name   string
	}
	var fakes []fake
	a := anthropicfake.New()
	as := httptest.NewServer(a)
	t.Cleanup(as.Close)
	fakes = append(fakes, fake{a.Script, anthropic.New(anthropic.WithBaseURL(as.URL), anthropic.WithAPIKey("k")), "claude-sonnet-4-5"})
	o := openaifake.New()
	os := httptest.NewServer(o)
	t.Cleanup(os.Close)
	fakes = append(fakes, fake{o.Script, openai.New(openai.WithBaseURL(os.URL), openai.WithAPIKey("k")), "gpt-5.5"})
	g := geminifake.New()
	gs := httptest.NewServer(g)
	t.Cleanup(gs.Close)
	fakes = append(fakes, fake{g.Script, gemini.New(gemini.WithBaseURL(gs.URL), gemini.WithAPIKey("k")), "gemini-2.5-pro"})
	out := map[string]func(chat.Request) string{}
	for _, f := range fakes {
		out[f.name] = func(req chat.Request) string {
			t.Helper()
			req.Model = f.name
			seq, err := f.model.Stream(t.Context(), req)
			if err != nil {
				t.Fatalf("%s: %v", f.name, err)
			}
			for _, err := range seq {
				if err != nil {
					t.Fatalf("%s: %v", f.name, err)
				}
			}
			reqs := f.script.Requests()
			return string(reqs[len(reqs)-1].Body)
		}
	}
	return out
}
