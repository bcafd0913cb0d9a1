package catalog

import (
	"context"
	"errors"
	"log/slog"
	"net/http/httptest"
	"slices"
	"testing"

	"maestro/backend/auth"
	"maestro/backend/chat"
	"maestro/backend/providers/anthropic/anthropicfake"
	"maestro/backend/providers/fakescript"
	"maestro/backend/providers/gemini/geminifake"
	"maestro/backend/providers/openai/openaifake"
)

type fakeCreds struct {
	creds map[string]auth.Credentials
}

func (f *fakeCreds) Credentials(_ context.Context, p string) (auth.Credentials, error) {
	c, ok := f.creds[p]
	if !ok {
		return auth.Credentials{}, chat.E(chat.ErrAuthRequired, "sign in to %s", p)
	}
	return c, nil
}

func (f *fakeCreds) Accounts(context.Context) ([]auth.Account, error) {
	var out []auth.Account
	for p, c := range f.creds {
		out = append(out, auth.Account{Provider: p, Method: c.Method})
	}
	return out, nil
}

// TestModelsStreamFromEachFake builds each adapter from API-key
// credentials and streams a scripted reply through the provider's fake.
func TestModelsStreamFromEachFake(t *testing.T) {
	t.Parallel()
	scripts := map[string]*fakescript.Script{}
	creds := &fakeCreds{creds: map[string]auth.Credentials{}}
	g := geminifake.New(geminifake.WithAPIKey("g-key"))
	a := anthropicfake.New(anthropicfake.WithAPIKey("a-key"))
	o := openaifake.New(openaifake.WithAPIKey("o-key"))
	for p, h := range map[string]struct {
		srv    *httptest.Server
		script *fakescript.Script
		key    string
	}{
		chat.ProviderGemini:    {httptest.NewServer(g), g.Script, "g-key"},
		chat.ProviderAnthropic: {httptest.NewServer(a), a.Script, "a-key"},
		chat.ProviderOpenAI:    {httptest.NewServer(o), o.Script, "o-key"},
	} {
		t.Cleanup(h.srv.Close)
		scripts[p] = h.script
		creds.creds[p] = auth.Credentials{Provider: p, Method: auth.MethodAPIKey, APIKey: h.key, BaseURL: h.srv.URL}
	}
	c := New(creds, WithLogger(slog.New(slog.DiscardHandler)))
	t.Cleanup(c.Close)
	for _, p := range []string{chat.ProviderGemini, chat.ProviderAnthropic, chat.ProviderOpenAI} {
		t.Run(p, func(t *testing.T) {
			scripts[p].Push(fakescript.Reply{Text: "hi from " + p})
			m, err := c.Model(t.Context(), p)
			if err != nil {
				t.Fatal(err)
			}
			// The catalog's wrapper keeps the adapter's attachment rules
			// visible: a draft is checked with them before sending.
			if checker, ok := m.(chat.AttachmentChecker); !ok {
				t.Errorf("the %s model hides its attachment rules (%T)", p, m)
			} else if _, _, err := checker.AttachmentRules(chat.ModelInfo{}).Fit([]chat.Message{{Role: chat.RoleUser,
				Parts: chat.Parts{chat.FilePart{Name: "scan.tiff", MIMEType: "image/tiff", Data: "SUkqAA=="}}}}); err == nil && p == chat.ProviderAnthropic {
				t.Errorf("Claude's rules take a TIFF; want it refused")
			}
			seq, err := m.Stream(t.Context(), chat.Request{
				Model: DefaultModel(p), SessionID: "s", PromptID: "p",
				Messages: []chat.Message{{Role: chat.RoleUser, Parts: chat.Parts{chat.TextPart{Text: "hello"}}}},
			})
			if err != nil {
				t.Fatal(err)
			}
			var text string
			var finished bool
			for ev, err := range seq {
				if err != nil {
					t.Fatalf("stream: %v", err)
				}
				switch e := ev.(type) {
				case chat.TextDelta:
					text += e.Text
				case chat.Finish:
					finished = true
				}
			}
			if text != "hi from "+p || !finished {
				t.Errorf("streamed %q (finished %v); want the scripted reply", text, finished)
			}
			again, _ := c.Model(t.Context(), p)
			if again != m {
				t.Error("the adapter was rebuilt for unchanged credentials")
			}
		})
	}
}

func TestModelFollowsCredentials(t *testing.T) {
	t.Parallel()
	creds := &fakeCreds{creds: map[string]auth.Credentials{}}
	c := New(creds, WithLogger(slog.New(slog.DiscardHandler)))
	t.Cleanup(c.Close)
	if _, err := c.Model(t.Context(), chat.ProviderOpenAI); !errors.Is(err, chat.ErrAuthRequired) {
		t.Errorf("no credentials: got %v, want ErrAuthRequired", err)
	}
	creds.creds[chat.ProviderOpenAI] = auth.Credentials{Provider: chat.ProviderOpenAI, Method: auth.MethodAPIKey, APIKey: "k1", BaseURL: "http://127.0.0.1:1"}
	m1, err := c.Model(t.Context(), chat.ProviderOpenAI)
	if err != nil {
		t.Fatal(err)
	}
	creds.creds[chat.ProviderOpenAI] = auth.Credentials{Provider: chat.ProviderOpenAI, Method: auth.MethodAPIKey, APIKey: "k2", BaseURL: "http://127.0.0.1:1"}
	m2, _ := c.Model(t.Context(), chat.ProviderOpenAI)
	if m1 == m2 {
		t.Error("a new API key did not give a new adapter")
	}
	ps := c.Providers(t.Context())
	if len(ps) != 3 {
		t.Fatalf("Providers = %d entries, want 3", len(ps))
	}
	for _, p := range ps {
		if want := p.ID == chat.ProviderOpenAI; p.Available != want || len(p.Models) == 0 {
			t.Errorf("%s: available %v with %d models; want available %v and some models", p.ID, p.Available, len(p.Models), want)
		}
	}
	if DefaultModel(chat.ProviderGemini) != "gemini-2.5-pro" || DefaultModel("x") != "" {
		t.Error("DefaultModel")
	}
}

// TestModelListsFromEachFake fetches each provider's list from its fake in
// both modes the fake serves with an API key, and shows it in the picker.
func TestModelListsFromEachFake(t *testing.T) {
	t.Parallel()
	g := geminifake.New(geminifake.WithAPIKey("g-key"))
	a := anthropicfake.New(anthropicfake.WithAPIKey("a-key"))
	o := openaifake.New(openaifake.WithAPIKey("o-key"))
	served := map[string][]string{
		chat.ProviderGemini:    {"gemini-2.5-flash", "gemini-2.5-pro"},
		chat.ProviderAnthropic: {"claude-haiku-4-5", "claude-sonnet-4-6"},
		chat.ProviderOpenAI:    {"gpt-5.4-mini", "gpt-5.5"},
	}
	creds := &fakeCreds{creds: map[string]auth.Credentials{}}
	for p, h := range map[string]struct {
		srv    *httptest.Server
		script *fakescript.Script
		key    string
	}{
		chat.ProviderGemini:    {httptest.NewServer(g), g.Script, "g-key"},
		chat.ProviderAnthropic: {httptest.NewServer(a), a.Script, "a-key"},
		chat.ProviderOpenAI:    {httptest.NewServer(o), o.Script, "o-key"},
	} {
		t.Cleanup(h.srv.Close)
		h.script.SetModels(served[p])
		creds.creds[p] = auth.Credentials{Provider: p, Method: auth.MethodAPIKey, APIKey: h.key, BaseURL: h.srv.URL}
	}
	c := New(creds, WithLogger(slog.New(slog.DiscardHandler)))
	t.Cleanup(c.Close)
	for p, want := range served {
		t.Run(p, func(t *testing.T) {
			if err := c.Refresh(t.Context(), p); err != nil {
				t.Fatal(err)
			}
			for _, got := range c.Providers(t.Context()) {
				if got.ID != p {
					continue
				}
				var ids []string
				for _, m := range got.Models {
					ids = append(ids, m.ID)
					if m.Name == "" || m.ContextWindow == 0 {
						t.Errorf("%s: %+v; want a name and a context window", m.ID, m.ModelInfo)
					}
				}
				slices.Sort(ids)
				if got.Source != SourceService || !slices.Equal(ids, want) {
					t.Errorf("picker: %s %v; want the fake's list %v", got.Source, ids, want)
				}
			}
			if info := c.Info(t.Context(), p, want[1]); info.MaxOutputTokens == 0 {
				t.Errorf("Info(%s) = %+v; want its output limit", want[1], info)
			}
		})
	}
}

// TestEveryProviderHasAKit: the catalog serves every provider of
// chat.Providers, the one list of them, in its order.
func TestEveryProviderHasAKit(t *testing.T) {
	t.Parallel()
	ids := chat.Providers()
	if len(kitsByID) != len(ids) {
		t.Errorf("%d kits for %d providers", len(kitsByID), len(ids))
	}
	rules := ToolRules()
	for i, id := range ids {
		if _, ok := kitFor(id); !ok {
			t.Errorf("no kit for %s", id)
		}
		if i >= len(rules) || rules[i].Provider != id || rules[i].MaxTools < 1 || rules[i].MaxNameLen < 1 {
			t.Errorf("tool rules %d = %+v; want %s's", i, rules, id)
		}
	}
}
