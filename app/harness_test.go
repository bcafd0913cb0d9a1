package app

import (
	"context"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/desktop"
	"maestro/backend/mcp"
	"maestro/backend/providers/catalog"
	"maestro/backend/providers/fakescript"
	"maestro/backend/providers/gemini"
	"maestro/backend/providers/gemini/geminifake"
)

// The tests' app: every service over a real data file in a temporary
// dir, with the runtime replaced by an eventLog, a fake sign-in manager
// (fakeManager), and models that refuse every provider unless a test wires
// Gemini's fake (withGemini).

// emitted is one event as the runtime got it.
type emitted struct {
	name string
	data any
}

// eventLog stands in for the Wails runtime's Emit. It records every event
// and checks it against the contract (Events): a name that is not listed,
// or a payload that is not of the listed type, fails the test.
type eventLog struct {
	mu     sync.Mutex
	events []emitted
	// wrong are the contract violations seen, reported at cleanup (an
	// event may be sent from a goroutine after the test's last check).
	wrong []string
}

var eventTypes = func() map[Event]reflect.Type {
	m := map[Event]reflect.Type{}
	for _, e := range Events {
		m[e.Name] = reflect.TypeOf(e.Payload)
	}
	return m
}()

func newEventLog(t testing.TB) *eventLog {
	l := &eventLog{}
	t.Cleanup(func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		for _, w := range l.wrong {
			t.Error(w)
		}
	})
	return l
}

func (l *eventLog) emit(_ context.Context, name string, data ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var d any
	if len(data) > 0 {
		d = data[0]
	}
	want, listed := eventTypes[Event(name)]
	switch {
	case !listed:
		l.wrong = append(l.wrong, fmt.Sprintf("event %q is not listed in Events", name))
	case len(data) > 1, reflect.TypeOf(d) != want:
		l.wrong = append(l.wrong, fmt.Sprintf("event %s carried %T (%d values); Events says %v", name, d, len(data), want))
	}
	for _, path := range nullLists(reflect.ValueOf(d), name) {
		l.wrong = append(l.wrong, path+" is null; the contract says lists are never null")
	}
	l.events = append(l.events, emitted{name, d})
}

// all returns the payloads of the events named name, in order.
func (l *eventLog) all(name Event) []any {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []any
	for _, e := range l.events {
		if e.name == string(name) {
			out = append(out, e.data)
		}
	}
	return out
}

func (l *eventLog) count(name Event) int { return len(l.all(name)) }

// wait polls until an event named name satisfies ok (nil: any), or fails
// the test after 15 s.
func (l *eventLog) wait(t testing.TB, name Event, ok func(any) bool) any {
	t.Helper()
	return l.waitFrom(t, 0, name, ok)
}

// waitFrom is wait for the events named name after the first skip of them.
func (l *eventLog) waitFrom(t testing.TB, skip int, name Event, ok func(any) bool) any {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		for i, d := range l.all(name) {
			if i >= skip && (ok == nil || ok(d)) {
				return d
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no matching %s event within 15 s; got %d of them", name, l.count(name))
	return nil
}

// nullLists returns the paths of the nil slices in v that JSON would send
// as null: the fields without omitempty, and v itself.
func nullLists(v reflect.Value, path string) []string {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return nullLists(v.Elem(), path)
	case reflect.Slice:
		if v.IsNil() {
			return []string{path}
		}
		var out []string
		for i := range v.Len() {
			out = append(out, nullLists(v.Index(i), fmt.Sprintf("%s[%d]", path, i))...)
		}
		return out
	case reflect.Struct:
		var out []string
		for i := range v.NumField() {
			f := v.Type().Field(i)
			tag := f.Tag.Get("json")
			if !f.IsExported() || tag == "-" || strings.Contains(tag, "omitempty") && v.Field(i).IsZero() ||
				f.Type.Kind() == reflect.Slice && f.Type.Elem().Kind() == reflect.Uint8 {
				continue
			}
			out = append(out, nullLists(v.Field(i), path+"."+f.Name)...)
		}
		return out
	}
	return nil
}

// loginEvents returns the auth:login payloads emitted so far.
func (l *eventLog) loginEvents() []LoginEventDTO {
	var out []LoginEventDTO
	for _, d := range l.all(EventAuthLogin) {
		out = append(out, d.(LoginEventDTO))
	}
	return out
}

// fakeKeychain answers Probe with err and Get from secrets.
type fakeKeychain struct {
	err     error
	secrets map[string]string
}

func (k fakeKeychain) Probe(context.Context) error { return k.err }

func (k fakeKeychain) Get(_ context.Context, account string) (string, error) {
	if s, ok := k.secrets[account]; ok {
		return s, nil
	}
	return "", chat.ErrNotFound
}

// staticCatalog is a model catalog that never changes.
type staticCatalog []catalog.Provider

func (c staticCatalog) Providers(context.Context) []catalog.Provider { return c }
func (staticCatalog) RefreshSoon(string)                             {}
func (staticCatalog) Attach(catalog.Lists, func(string))             {}

// signedOut is the models of a Maestro signed in nowhere.
var signedOut = agent.ModelsFunc(func(_ context.Context, provider string) (chat.Model, error) {
	return nil, chat.E(chat.ErrAuthRequired, "sign in to %s in Accounts, or add an API key", provider)
})

// testWindow is the window service over a window file in dir, without the
// desktop probe LoadWindow makes on a first run.
func testWindow(dir string) *Window {
	return &Window{file: desktop.NewWindowFile(dir), log: slog.Default(), state: desktop.Defaults()}
}

// startApp starts the app on dir (a fresh temporary dir when "") with the
// test dependencies, edited by opts, and shuts it down at cleanup.
func startApp(t testing.TB, dir string, opts ...func(*Deps)) (*App, *eventLog) {
	t.Helper()
	a, log := newApp(t, dir, opts...)
	a.Startup(t.Context())
	t.Cleanup(func() { a.Shutdown(context.Background()) })
	return a, log
}

// newApp is startApp without the start.
func newApp(t testing.TB, dir string, opts ...func(*Deps)) (*App, *eventLog) {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	log := newEventLog(t)
	d := Deps{
		Version: "test", DataDir: dir, Runtime: Runtime{Emit: log.emit},
		Keychain: fakeKeychain{}, Secrets: mcp.NewMemorySecrets(), SignIns: &fakeManager{},
		Models: signedOut, Catalog: staticCatalog{}, Window: testWindow(dir),
	}
	for _, o := range opts {
		o(&d)
	}
	a := New(d)
	if m, ok := d.SignIns.(*fakeManager); ok && m.notify == nil {
		m.notify = a.LoginUpdate
	}
	return a, log
}

// withRuntime sets the runtime calls other than Emit.
func withRuntime(rt Runtime) func(*Deps) {
	return func(d *Deps) {
		rt.Emit = d.Runtime.Emit
		d.Runtime = rt
	}
}

// withGemini makes Gemini's model Gemini's fake (API-key mode; the other
// providers have no credentials) and lists Gemini 2.5 Pro in the catalog;
// it returns the fake's script.
func withGemini(t testing.TB) (func(*Deps), *fakescript.Script) {
	t.Helper()
	srv := geminifake.New(geminifake.WithAPIKey("test-key"))
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return func(d *Deps) {
		d.Models = agent.ModelsFunc(func(ctx context.Context, provider string) (chat.Model, error) {
			if provider != chat.ProviderGemini {
				return signedOut(ctx, provider)
			}
			return gemini.New(gemini.WithBaseURL(hs.URL), gemini.WithAPIKey("test-key")), nil
		})
		d.Catalog = staticCatalog{{ID: chat.ProviderGemini, DisplayName: "Gemini", Available: true, Source: catalog.SourceBuiltin,
			Models: []catalog.Model{{ModelInfo: chat.ModelInfo{ID: "gemini-2.5-pro", Name: "Gemini 2.5 Pro"}}}}}
	}, srv.Script
}

// withServers adds supervisor options (in-process servers, fast restarts).
func withServers(opts ...mcp.SupervisorOption) func(*Deps) {
	return func(d *Deps) { d.SupervisorOptions = append(d.SupervisorOptions, opts...) }
}

// running returns what runs on the app's data file, with a context.
func (a *App) running(t testing.TB) (*running, context.Context) {
	t.Helper()
	run, ctx, cancel, err := a.core.call()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cancel)
	return run, ctx
}

// testSupervisor is the running supervisor.
func (c *Connectors) testSupervisor(t testing.TB) *mcp.Supervisor {
	t.Helper()
	run, _, cancel, err := c.ready()
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	return run.sup
}
