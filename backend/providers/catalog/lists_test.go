package catalog

import (
	"context"
	"errors"
	"iter"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"maestro/backend/auth"
	"maestro/backend/chat"
	"maestro/backend/store"
)

// listingModel is an adapter whose model list and refusals a test sets.
type listingModel struct {
	mu     sync.Mutex
	models []chat.ModelInfo
	err    error
	calls  int
	refuse error // what Stream returns
}

func (m *listingModel) Models(context.Context) ([]chat.ModelInfo, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls++
	return slices.Clone(m.models), m.err
}

func (m *listingModel) set(err error, ids ...string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.err, m.models = err, nil
	for _, id := range ids {
		m.models = append(m.models, chat.ModelInfo{ID: id, Name: "Name of " + id, ContextWindow: 1000})
	}
}

func (m *listingModel) fetches() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.calls
}

func (m *listingModel) Stream(context.Context, chat.Request) (iter.Seq2[chat.Event, error], error) {
	return nil, m.refuse
}

// listHarness is a catalog over a real store, with one OpenAI account whose
// adapter is a listingModel, and a clock the test moves.
type listHarness struct {
	c       *Catalog
	creds   *fakeCreds
	model   *listingModel
	st      *store.Store
	now     time.Time
	changed chan string
}

func newListHarness(t *testing.T, dir string) *listHarness {
	t.Helper()
	st, err := store.Open(t.Context(), dir, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := &listHarness{
		creds:   &fakeCreds{creds: map[string]auth.Credentials{chat.ProviderOpenAI: {Provider: chat.ProviderOpenAI, Method: auth.MethodAPIKey, APIKey: "key-1"}}},
		model:   &listingModel{},
		st:      st,
		now:     time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC),
		changed: make(chan string, 16),
	}
	h.c = New(h.creds, WithClock(func() time.Time { return h.now }), WithLogger(slog.New(slog.DiscardHandler)))
	h.c.build = func(auth.Credentials) (chat.Model, error) { return h.model, nil }
	h.c.Attach(st, func(p string) { h.changed <- p })
	t.Cleanup(func() {
		h.c.Close()
		_ = st.Close()
	})
	return h
}

func (h *listHarness) openai(t *testing.T) Provider {
	t.Helper()
	for _, p := range h.c.Providers(t.Context()) {
		if p.ID == chat.ProviderOpenAI {
			return p
		}
	}
	t.Fatal("no openai provider")
	return Provider{}
}

// settle waits for the background refresh Providers started.
func (h *listHarness) settle(t *testing.T) {
	t.Helper()
	select {
	case <-h.changed:
	case <-time.After(10 * time.Second):
		t.Fatal("no models:changed after a refresh")
	}
	h.c.wg.Wait()
}

func ids(ms []Model) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.ID)
	}
	return out
}

func TestModelListFetchedKeptAndAged(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	h := newListHarness(t, dir)
	h.model.set(nil, "gpt-a", "gpt-b")

	first := h.openai(t)
	if first.Source != SourceBuiltin {
		t.Errorf("before any fetch: source %q, want %q", first.Source, SourceBuiltin)
	}
	h.settle(t)
	got := h.openai(t)
	if got.Source != SourceService || !slices.Equal(ids(got.Models), []string{"gpt-a", "gpt-b"}) || !got.FetchedAt.Equal(h.now) {
		t.Fatalf("after the fetch: %s %v at %v; want the service's list fetched now", got.Source, ids(got.Models), got.FetchedAt)
	}
	if info := h.c.Info(t.Context(), chat.ProviderOpenAI, "gpt-b"); info.ContextWindow != 1000 {
		t.Errorf("Info(gpt-b) = %+v; want the listed model's limits", info)
	}

	// Within a day the kept list is used as is.
	h.now = h.now.Add(MaxAge - time.Minute)
	h.openai(t)
	h.c.wg.Wait()
	if n := h.model.fetches(); n != 1 {
		t.Errorf("fetches within a day = %d, want 1", n)
	}
	// After a day it is fetched again, in the background.
	h.model.set(nil, "gpt-c")
	h.now = h.now.Add(2 * time.Minute)
	if stale := h.openai(t); !slices.Equal(ids(stale.Models), []string{"gpt-a", "gpt-b"}) {
		t.Errorf("while refreshing: %v, want the kept list", ids(stale.Models))
	}
	h.settle(t)
	if fresh := h.openai(t); !slices.Equal(ids(fresh.Models), []string{"gpt-c"}) {
		t.Errorf("after a day: %v, want the new list", ids(fresh.Models))
	}
}

func TestModelListSurvivesRestartAndFollowsAccount(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	h := newListHarness(t, dir)
	h.model.set(nil, "gpt-a")
	h.openai(t)
	h.settle(t)
	h.c.Close()
	_ = h.st.Close()

	// A new process on the same data file shows the kept list without
	// asking the service.
	h2 := newListHarness(t, dir)
	h2.now = h.now.Add(time.Hour)
	if got := h2.openai(t); got.Source != SourceService || !slices.Equal(ids(got.Models), []string{"gpt-a"}) {
		t.Errorf("after a restart: %s %v; want the kept list", got.Source, ids(got.Models))
	}
	h2.c.wg.Wait()
	if n := h2.model.fetches(); n != 0 {
		t.Errorf("fetches after a restart = %d, want 0", n)
	}

	// Another API key is another account: its list is fetched, the old
	// one is not shown meanwhile.
	h2.creds.creds[chat.ProviderOpenAI] = auth.Credentials{Provider: chat.ProviderOpenAI, Method: auth.MethodAPIKey, APIKey: "key-2"}
	h2.model.set(nil, "gpt-z")
	if got := h2.openai(t); got.Source != SourceBuiltin {
		t.Errorf("new key before its fetch: source %q, want builtin", got.Source)
	}
	h2.settle(t)
	if got := h2.openai(t); !slices.Equal(ids(got.Models), []string{"gpt-z"}) {
		t.Errorf("new key: %v, want its own list", ids(got.Models))
	}
}

func TestModelListFailureKeepsLastList(t *testing.T) {
	t.Parallel()
	h := newListHarness(t, t.TempDir())
	h.model.set(nil, "gpt-a")
	h.openai(t)
	h.settle(t)

	h.model.set(&chat.ProviderError{Provider: chat.ProviderOpenAI, Kind: chat.ProviderKindServer, Message: "send request"})
	h.now = h.now.Add(MaxAge + time.Minute)
	h.openai(t)
	h.settle(t)
	got := h.openai(t)
	if !slices.Equal(ids(got.Models), []string{"gpt-a"}) || got.Err == "" {
		t.Errorf("after a failed refresh: %v, error %q; want the last list and the failure", ids(got.Models), got.Err)
	}
	// A failure is not retried at every picker open.
	h.openai(t)
	h.c.wg.Wait()
	if n := h.model.fetches(); n != 2 {
		t.Errorf("fetches right after a failure = %d, want 2", n)
	}
	// An explicit refresh is.
	h.model.set(nil, "gpt-b")
	if err := h.c.Refresh(t.Context(), chat.ProviderOpenAI); err != nil {
		t.Fatal(err)
	}
	if got := h.openai(t); !slices.Equal(ids(got.Models), []string{"gpt-b"}) || got.Err != "" {
		t.Errorf("after Refresh: %v, error %q; want the new list and no error", ids(got.Models), got.Err)
	}
}

func TestRefusedModelIsMarked(t *testing.T) {
	t.Parallel()
	h := newListHarness(t, t.TempDir())
	h.model.set(nil, "gpt-a", "gpt-b")
	h.openai(t)
	h.settle(t)
	msg := "The 'gpt-b' model is not supported when using Codex with a ChatGPT account."
	h.model.refuse = &chat.ProviderError{Provider: chat.ProviderOpenAI, Status: 400, Kind: chat.ProviderKindModelUnavailable, Message: msg}

	// The service no longer serves gpt-b to this account, nor lists it.
	h.model.set(nil, "gpt-a")
	m, err := h.c.Model(t.Context(), chat.ProviderOpenAI)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Stream(t.Context(), chat.Request{Model: "gpt-b"}); !errors.Is(err, chat.ErrNotFound) {
		t.Fatalf("Stream = %v; want the refusal", err)
	}
	// Two changes: the mark, then the list fetched again (the refusal shows
	// the kept list is out of date).
	h.settle(t)
	h.settle(t)
	if got := h.openai(t); !slices.Equal(ids(got.Models), []string{"gpt-a"}) {
		t.Errorf("after the refusal: %v, want the list fetched again", ids(got.Models))
	}
	// The mark stays for the model the service no longer lists (a session
	// may still use it), and goes for one it offers again.
	h.c.mu.Lock()
	marks := h.c.lists[chat.ProviderOpenAI].Unavailable
	h.c.mu.Unlock()
	if marks["gpt-b"] != msg {
		t.Errorf("marks after the refresh = %v, want gpt-b kept", marks)
	}
	h.model.set(nil, "gpt-a", "gpt-b")
	if err := h.c.Refresh(t.Context(), chat.ProviderOpenAI); err != nil {
		t.Fatal(err)
	}
	if got := h.openai(t); got.Models[1].Unavailable != "" {
		t.Errorf("offered again: gpt-b unavailable = %q, want no mark", got.Models[1].Unavailable)
	}
}

func TestNoAccountShowsBuiltinWithoutFetching(t *testing.T) {
	t.Parallel()
	h := newListHarness(t, t.TempDir())
	delete(h.creds.creds, chat.ProviderOpenAI)
	got := h.openai(t)
	h.c.wg.Wait()
	if got.Available || got.Source != SourceBuiltin || h.model.fetches() != 0 {
		t.Errorf("no account: available %v, source %q, %d fetches; want the built-in list, unfetched", got.Available, got.Source, h.model.fetches())
	}
}
