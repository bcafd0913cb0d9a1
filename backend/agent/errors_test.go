package agent_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/providers/fakescript"
)

func TestRetryableErrorsRetry(t *testing.T) {
	t.Parallel()
	for _, scripted := range []string{"429", "529", "server", "stream_error"} {
		for _, p := range allProviders {
			t.Run(scripted+"/"+p, func(t *testing.T) {
				t.Parallel()
				h := newHarness(t, p)
				h.script(p).Push(fakescript.Reply{Error: scripted, RetryAfter: 1, Text: "lost words"}, fakescript.Reply{Text: "made it"})
				sink := &recSink{}
				if _, err := h.run(t.Context(), user("try"), sink); err != nil {
					t.Fatalf("Run: %v", err)
				}
				retries := eventsOf[agent.Retrying](sink)
				if len(retries) != 1 || retries[0].Attempt != 2 || retries[0].Err == nil {
					t.Fatalf("Retrying events %+v, want one before attempt 2", retries)
				}
				if slept := h.clock.slept(); len(slept) != 1 || slept[0] <= 0 || slept[0] > agent.DefaultRetry.MaxWait {
					t.Errorf("slept %v, want one short backoff", slept)
				}
				if scripted == "429" && h.clock.slept()[0] < time.Second {
					t.Errorf("slept %v, want at least the 1 s retry-after", h.clock.slept())
				}
				msgs := h.messages()
				if got := roles(msgs); got != "user,assistant" || msgs[1].Text() != "made it" {
					t.Errorf("stored %s %q, want the retried reply only", got, msgs[len(msgs)-1].Text())
				}
				if n := len(h.script(p).Requests()); n != 2 {
					t.Errorf("%d requests, want 2", n)
				}
			})
		}
	}
}

func TestUsageLimitEndsTurnWithResetTime(t *testing.T) {
	t.Parallel()
	for _, p := range allProviders {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, p)
			h.script(p).Push(fakescript.Reply{Error: "usage_limit", RetryAfter: 7200})
			sink := &recSink{}
			_, err := h.run(t.Context(), user("more please"), sink)
			he, ok := chat.AsProviderError(err)
			if !ok {
				t.Fatalf("Run error = %v, want the provider's limit", err)
			}
			fin := sink.finished()
			if fin.Canceled || fin.RetryAt.IsZero() || time.Until(fin.RetryAt) < time.Hour {
				t.Errorf("RunFinished = %+v, want RetryAt about two hours ahead", fin)
			}
			if !strings.Contains(err.Error(), "resets at") {
				t.Errorf("error %q does not show the reset time (kind %s)", err, he.Kind)
			}
			if n := len(h.clock.slept()); n != 0 {
				t.Errorf("slept %d times, want no retry", n)
			}
			msgs := h.messages()
			last := msgs[len(msgs)-1]
			if last.Status != chat.StatusFailed || last.Error != err.Error() {
				t.Errorf("last stored message = %+v, want the failure", last)
			}
			// The failure keeps its classification, so it reads the same
			// after a restart.
			if f := last.Failure; f == nil || f.Reason != string(he.Kind) || f.Provider != p || !f.RetryAt.Equal(fin.RetryAt) || f.Kind != chat.Kind(err) {
				t.Errorf("stored failure = %+v; want reason %s, provider %s, retry at %v", f, he.Kind, p, fin.RetryAt)
			}
			// The failed turn can be retried once the limit resets.
			h.script(p).Push(fakescript.Reply{Text: "back"})
			if _, err := h.run(t.Context(), agent.RunInput{Retry: true}, nil); err != nil {
				t.Fatalf("Retry: %v", err)
			}
			if got := roles(h.messages()); got != "user,assistant,assistant" {
				t.Errorf("stored %s after the retry", got)
			}
			h.requests(p) // the retried request is accepted
		})
	}
}

// TestUnauthorizedEndsTurn: a 401 that reaches the agent ends the turn at
// once asking for a sign-in. The credential's transport (backend/auth) has
// already refreshed the token and replayed the request, so the agent does
// not try again.
func TestUnauthorizedEndsTurn(t *testing.T) {
	t.Parallel()
	for _, p := range allProviders {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, p)
			h.script(p).Push(fakescript.Reply{Error: "401"}, fakescript.Reply{Text: "not reached"})
			sink := &recSink{}
			_, err := h.run(t.Context(), user("hi"), sink)
			if !errors.Is(err, chat.ErrAuthRequired) {
				t.Errorf("Run error = %v, want ErrAuthRequired", err)
			}
			if n := len(h.script(p).Requests()); n != 1 {
				t.Errorf("%d requests, want 1 (no retry)", n)
			}
			if r := eventsOf[agent.Retrying](sink); len(r) != 0 {
				t.Errorf("Retrying events %+v, want none", r)
			}
		})
	}
}
