package main

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/providers/fakescript"
	"maestro/backend/providers/gemini"
	"maestro/backend/providers/gemini/geminifake"
	"maestro/backend/providers/openai"
	"maestro/backend/providers/openai/openaifake"
	"maestro/backend/store"
)

// window is the small context window of the test: 400 seeded messages
// are about 50,000 estimated tokens, several windows' worth.
const window = 20_000

// windowModels serves one adapter, with a model whose window is window.
type windowModels struct{ m chat.Model }

func (w windowModels) Model(context.Context, string) (chat.Model, error) { return w.m, nil }
func (w windowModels) Info(_ context.Context, _, model string) chat.ModelInfo {
	return chat.ModelInfo{ID: model, ContextWindow: window, MaxOutputTokens: 4096}
}

// noTools is a session without MCP tools; the seeded history still calls
// files.search, which renders by its default name.
type noTools struct{}

func (noTools) Overlay(context.Context, string, string, []string) (agent.Overlay, error) {
	return agent.Overlay{}, nil
}

func (noTools) Call(_ context.Context, req agent.CallRequest, _ func(agent.ToolUpdate)) chat.ToolResult {
	return chat.ToolResult{CallID: req.Call.ID, Name: req.Call.Name, Error: "no tools"}
}

// TestLongSeededSession is the end-to-end check of a long conversation
// below the app: a session written by maestro-seed, far larger than its
// model's window, answered by the real adapter against a fake that
// enforces the same window. The turn completes; no request is refused on
// the way (the agent compacted first, in as many summarising requests as
// the history needs); the answer's request carries the summary; the
// stored history is whole, with the summary node added.
func TestLongSeededSession(t *testing.T) {
	t.Parallel()
	type provider struct {
		name, model string
		script      *fakescript.Script
		adapter     chat.Model
	}
	g := geminifake.New()
	gs := httptest.NewServer(g)
	t.Cleanup(gs.Close)
	o := openaifake.New()
	os := httptest.NewServer(o)
	t.Cleanup(os.Close)
	for _, p := range []provider{
		{chat.ProviderGemini, "gemini-2.5-pro", g.Script, gemini.New(gemini.WithBaseURL(gs.URL), gemini.WithAPIKey("k"))},
		{chat.ProviderOpenAI, "gpt-5.5", o.Script, openai.New(openai.WithBaseURL(os.URL), openai.WithAPIKey("k"))},
	} {
		t.Run(p.name, func(t *testing.T) {
			ctx := t.Context()
			st, err := store.Open(ctx, t.TempDir(), store.Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			seeded, err := seed(ctx, st, 400)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := st.UpdateSession(ctx, seeded.ID, func(s *chat.Session) error {
				s.Provider, s.Model = p.name, p.model
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			p.script.SetWindow(window)
			p.script.Route("Write the summary now.", fakescript.Reply{Text: "SUMMARY: a long pairing session on retries, sorting, migrations, caching, tool names and drafts."})
			p.script.Push(fakescript.Reply{Text: "Here is where we are."})
			a := agent.New(st, windowModels{p.adapter}, noTools{}, nil)
			var compactions []agent.CompactionStarted
			sink := agent.SinkFunc(func(ev agent.Event) {
				if c, ok := ev.(agent.CompactionStarted); ok {
					compactions = append(compactions, c)
				}
			})
			if _, err := a.Run(ctx, agent.RunInput{RunID: "r1", SessionID: seeded.ID, Text: "Where are we?"}, sink); err != nil {
				t.Fatalf("Run: %v", err)
			}
			reqs := p.script.Requests()
			for i, r := range reqs {
				if r.Rejection != "" {
					t.Errorf("request %d refused (%d): %s", i, r.Status, r.Rejection)
				}
			}
			if len(compactions) != 1 || compactions[0].Requests < 2 || len(reqs) != compactions[0].Requests+1 {
				t.Fatalf("compactions %+v, %d requests; want one compaction in several pieces, then the answer", compactions, len(reqs))
			}
			last := string(reqs[len(reqs)-1].Body)
			if !strings.Contains(last, "SUMMARY: a long pairing session") || !strings.Contains(last, "Where are we?") {
				t.Errorf("the answer's request lacks the summary or the question: %.300s", last)
			}
			if n := fakescript.CountJSON(reqs[len(reqs)-1].Body); n > window {
				t.Errorf("the answer's request counts %d tokens; the window is %d", n, window)
			}
			msgs, err := st.Messages(ctx, seeded.ID)
			if err != nil {
				t.Fatal(err)
			}
			var sums int
			for _, m := range msgs {
				if m.Role == chat.RoleSummary {
					sums++
				}
			}
			if len(msgs) != 400+3 || sums != 1 || msgs[len(msgs)-1].Text() != "Here is where we are." {
				t.Errorf("stored %d messages, %d summaries; want the 400 seeded, the question, one summary and the answer", len(msgs), sums)
			}
		})
	}
}
