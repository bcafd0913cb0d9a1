package auth

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/zalando/go-keyring"

	"maestro/backend/chat"
)

// fakeBackend is an in-memory keychain. If err is set every call fails with
// it; if block is set every call first waits for it to be closed; if panics
// is set every call panics with it.
type fakeBackend struct {
	err    error
	block  chan struct{}
	panics any

	mu      sync.Mutex
	calls   int
	secrets map[[2]string]string // {service, user} -> secret
}

func (f *fakeBackend) enter() error {
	f.mu.Lock()
	f.calls++
	f.mu.Unlock()
	if f.block != nil {
		<-f.block
	}
	if f.panics != nil {
		panic(f.panics)
	}
	return f.err
}

func (f *fakeBackend) Get(service, user string) (string, error) {
	if err := f.enter(); err != nil {
		return "", err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	s, ok := f.secrets[[2]string{service, user}]
	if !ok {
		return "", keyring.ErrNotFound
	}
	return s, nil
}

func (f *fakeBackend) Set(service, user, password string) error {
	if err := f.enter(); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.secrets == nil {
		f.secrets = make(map[[2]string]string)
	}
	f.secrets[[2]string{service, user}] = password
	return nil
}

func (f *fakeBackend) Delete(service, user string) error {
	if err := f.enter(); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	k := [2]string{service, user}
	if _, ok := f.secrets[k]; !ok {
		return keyring.ErrNotFound
	}
	delete(f.secrets, k)
	return nil
}

func (f *fakeBackend) callCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

const testSecret = "sk-test-DO-NOT-LEAK-0123456789"

// ops runs each public method of kc once, so error tests cover all of them.
var ops = []struct {
	name string
	run  func(ctx context.Context, kc *Keychain, account string) error
}{
	{"get", func(ctx context.Context, kc *Keychain, account string) error {
		_, err := kc.Get(ctx, account)
		return err
	}},
	{"set", func(ctx context.Context, kc *Keychain, account string) error {
		return kc.Set(ctx, account, testSecret)
	}},
	{"delete", func(ctx context.Context, kc *Keychain, account string) error {
		return kc.Delete(ctx, account)
	}},
	{"probe", func(ctx context.Context, kc *Keychain, _ string) error {
		return kc.Probe(ctx)
	}},
}

func TestKeychainFakeRoundTrip(t *testing.T) {
	t.Parallel()
	fb := &fakeBackend{}
	kc := New("maestro", withBackend(fb))
	ctx := t.Context()

	if err := kc.Probe(ctx); err != nil {
		t.Fatalf("Probe() = %v; want nil", err)
	}
	if err := kc.Set(ctx, "gemini", testSecret); err != nil {
		t.Fatalf("Set() = %v; want nil", err)
	}
	if got, ok := fb.secrets[[2]string{"maestro", "gemini"}]; !ok || got != testSecret {
		t.Fatalf("backend holds %q, %v under {maestro gemini}; want %q", got, ok, testSecret)
	}
	got, err := kc.Get(ctx, "gemini")
	if err != nil || got != testSecret {
		t.Fatalf("Get() = %q, %v; want %q, nil", got, err, testSecret)
	}
	if err := kc.Delete(ctx, "gemini"); err != nil {
		t.Fatalf("Delete() = %v; want nil", err)
	}
	if _, err := kc.Get(ctx, "gemini"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get() after Delete = %v; want ErrNotFound", err)
	}
	if err := kc.Delete(ctx, "gemini"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Delete() of missing entry = %v; want ErrNotFound", err)
	}
}

func TestErrNotFoundIsChatNotFound(t *testing.T) {
	t.Parallel()
	if !errors.Is(ErrNotFound, chat.ErrNotFound) {
		t.Errorf("errors.Is(ErrNotFound, chat.ErrNotFound) = false; want true")
	}
}

func TestErrorMapping(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		err          error
		wantNotFound bool
		wantHint     string   // "" means not an UnavailableError
		hintMentions []string // what the user is told to do
	}{
		{
			name:         "not found",
			err:          keyring.ErrNotFound,
			wantNotFound: true,
		},
		{
			name:         "no dbus-launch (typed)",
			err:          &exec.Error{Name: "dbus-launch", Err: exec.ErrNotFound},
			wantHint:     hintNoBus,
			hintMentions: []string{"dbus-user-session", "DBUS_SESSION_BUS_ADDRESS"},
		},
		{
			name:     "no dbus-launch (text)",
			err:      errors.New(`exec: "dbus-launch": executable file not found in $PATH`),
			wantHint: hintNoBus,
		},
		{
			name: "dead bus socket (typed)",
			err: &net.OpError{
				Op:  "dial",
				Net: "unix",
				Addr: &net.UnixAddr{
					Name: "/nonexistent/bus",
					Net:  "unix",
				},
				Err: os.NewSyscallError("connect", syscall.ENOENT),
			},
			wantHint: hintNoBus,
		},
		{
			name:     "dead bus socket (text)",
			err:      errors.New("dial unix /run/user/1000/bus: connect: no such file or directory"),
			wantHint: hintNoBus,
		},
		{
			name:     "bus connection refused",
			err:      errors.New("dial unix @/tmp/dbus-x: connect: connection refused"),
			wantHint: hintNoBus,
		},
		{
			name:     "no bus address",
			err:      errors.New("dbus: couldn't determine address of session bus"),
			wantHint: hintNoBus,
		},
		{
			name:     "bad bus address",
			err:      errors.New("dbus: invalid bus address (no transport)"),
			wantHint: hintNoBus,
		},
		{
			name:         "no secret service",
			err:          errors.New("The name org.freedesktop.secrets was not provided by any .service files"),
			wantHint:     hintNoService,
			hintMentions: []string{"apt install gnome-keyring", "KeePassXC"},
		},
		{
			name:         "locked keyring",
			err:          errors.New("failed to unlock correct collection '/org/freedesktop/secrets/aliases/default'"),
			wantHint:     hintLocked,
			hintMentions: []string{"unlock", "Seahorse"},
		},
		{
			name: "unknown",
			err:  errors.New("org.freedesktop.DBus.Error.NoReply: did not receive a reply"),
		},
	}
	for _, tt := range tests {
		for _, op := range ops {
			t.Run(tt.name+"/"+op.name, func(t *testing.T) {
				t.Parallel()
				kc := New("maestro", withBackend(&fakeBackend{err: tt.err}))
				err := op.run(t.Context(), kc, "gemini")

				if op.name == "probe" && tt.wantNotFound {
					if err != nil {
						t.Fatalf("Probe() = %v; want nil: not found means usable", err)
					}
					return
				}
				if err == nil {
					t.Fatalf("got nil error; want one for %v", tt.err)
				}
				if strings.Contains(err.Error(), testSecret) {
					t.Fatalf("error %q contains the secret", err)
				}
				if got := errors.Is(err, ErrNotFound); got != tt.wantNotFound {
					t.Errorf("errors.Is(%v, ErrNotFound) = %v; want %v", err, got, tt.wantNotFound)
				}

				var ue *UnavailableError
				isUnavailable := errors.As(err, &ue)
				if want := tt.wantHint != ""; isUnavailable != want {
					t.Fatalf("errors.As(%v, *UnavailableError) = %v; want %v", err, isUnavailable, want)
				}

				switch {
				case tt.wantNotFound:
					if got, want := chat.Kind(err), chat.KindNotFound; got != want {
						t.Errorf("chat.Kind(%v) = %q; want %q", err, got, want)
					}
				case isUnavailable:
					if ue.Hint != tt.wantHint {
						t.Errorf("Hint = %q; want %q", ue.Hint, tt.wantHint)
					}
					if ue.Op != op.name {
						t.Errorf("Op = %q; want %q", ue.Op, op.name)
					}
					if !errors.Is(err, chat.ErrUnavailable) {
						t.Errorf("errors.Is(%v, chat.ErrUnavailable) = false; want true", err)
					}
					if !errors.Is(err, tt.err) {
						t.Errorf("errors.Is(%v, cause) = false; want true", err)
					}
					if got, want := err.Error(), fmt.Sprintf("keychain unavailable: %s (%v)", tt.wantHint, tt.err); got != want {
						t.Errorf("Error() = %q; want %q", got, want)
					}
					for _, s := range tt.hintMentions {
						if !strings.Contains(ue.Hint, s) {
							t.Errorf("Hint = %q; want it to mention %q", ue.Hint, s)
						}
					}
				default: // unknown: wrapped with context, classified as internal
					if !errors.Is(err, tt.err) {
						t.Errorf("errors.Is(%v, cause) = false; want true", err)
					}
					if got, want := err.Error(), fmt.Sprintf("keychain: %s %q: %v", op.name, opAccount(op.name), tt.err); got != want {
						t.Errorf("Error() = %q; want %q", got, want)
					}
					if got, want := chat.Kind(err), chat.KindInternal; got != want {
						t.Errorf("chat.Kind(%v) = %q; want %q", err, got, want)
					}
				}
			})
		}
	}
}

// opAccount is the account an op from ops looks up.
func opAccount(op string) string {
	if op == "probe" {
		return probeAccount
	}
	return "gemini"
}

func TestTimeout(t *testing.T) {
	t.Parallel()
	const timeout = 100 * time.Millisecond
	for _, op := range ops {
		t.Run(op.name, func(t *testing.T) {
			t.Parallel()
			fb := &fakeBackend{block: make(chan struct{})}
			// Release the stuck backend call so its goroutine ends with the test.
			t.Cleanup(func() { close(fb.block) })
			kc := New("maestro", WithTimeout(timeout), withBackend(fb))

			start := time.Now()
			err := op.run(t.Context(), kc, "gemini")
			elapsed := time.Since(start)

			if elapsed < timeout || elapsed > timeout+time.Second {
				t.Errorf("returned after %v; want about %v", elapsed, timeout)
			}
			var ue *UnavailableError
			if !errors.As(err, &ue) {
				t.Fatalf("got %v; want *UnavailableError", err)
			}
			want := "the keychain did not answer within 100ms; it may be locked and waiting for a password prompt"
			if ue.Hint != want {
				t.Errorf("Hint = %q; want %q", ue.Hint, want)
			}
			if !errors.Is(err, chat.ErrUnavailable) || !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("got %v; want it to be chat.ErrUnavailable and context.DeadlineExceeded", err)
			}
		})
	}
}

func TestDefaultTimeout(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opts []Option
		want time.Duration
	}{
		{"default", nil, 5 * time.Second},
		{"set", []Option{WithTimeout(time.Second)}, time.Second},
		{"zero keeps default", []Option{WithTimeout(0)}, 5 * time.Second},
		{"negative keeps default", []Option{WithTimeout(-time.Second)}, 5 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := New("maestro", tt.opts...).timeout; got != tt.want {
				t.Errorf("timeout = %v; want %v", got, tt.want)
			}
		})
	}
}

func TestCanceled(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		ctx       func(parent context.Context) (context.Context, context.CancelFunc)
		wantCtx   error
		wantCalls int
	}{
		{
			name: "before the call",
			ctx: func(parent context.Context) (context.Context, context.CancelFunc) {
				ctx, cancel := context.WithCancel(parent)
				cancel()
				return ctx, cancel
			},
			wantCtx:   context.Canceled,
			wantCalls: 0, // a canceled Set must not start a write
		},
		{
			name: "during the call",
			ctx: func(parent context.Context) (context.Context, context.CancelFunc) {
				ctx, cancel := context.WithCancel(parent)
				time.AfterFunc(20*time.Millisecond, cancel)
				return ctx, cancel
			},
			wantCtx:   context.Canceled,
			wantCalls: 1,
		},
		{
			name: "caller deadline",
			ctx: func(parent context.Context) (context.Context, context.CancelFunc) {
				return context.WithTimeout(parent, 20*time.Millisecond)
			},
			wantCtx:   context.DeadlineExceeded,
			wantCalls: 1,
		},
	}
	for _, tt := range tests {
		for _, op := range ops {
			t.Run(tt.name+"/"+op.name, func(t *testing.T) {
				t.Parallel()
				fb := &fakeBackend{block: make(chan struct{})}
				t.Cleanup(func() { close(fb.block) })
				kc := New("maestro", WithTimeout(time.Minute), withBackend(fb))
				ctx, cancel := tt.ctx(t.Context())
				defer cancel()

				start := time.Now()
				err := op.run(ctx, kc, "gemini")
				if elapsed := time.Since(start); elapsed > 5*time.Second {
					t.Errorf("returned after %v; want soon after cancellation", elapsed)
				}
				if !errors.Is(err, chat.ErrCanceled) || !errors.Is(err, tt.wantCtx) {
					t.Errorf("got %v; want chat.ErrCanceled and %v", err, tt.wantCtx)
				}
				if got, want := chat.Kind(err), chat.KindCanceled; got != want {
					t.Errorf("chat.Kind(%v) = %q; want %q", err, got, want)
				}
				if got := fb.callCount(); got != tt.wantCalls {
					t.Errorf("backend called %d times; want %d", got, tt.wantCalls)
				}
			})
		}
	}
}

func TestInvalid(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		service string
		account string
		ops     []string
	}{
		{"empty account", "maestro", "", []string{"get", "set", "delete"}},
		{"empty service", "", "gemini", []string{"get", "set", "delete", "probe"}},
	}
	for _, tt := range tests {
		for _, op := range ops {
			if !slices.Contains(tt.ops, op.name) {
				continue
			}
			t.Run(tt.name+"/"+op.name, func(t *testing.T) {
				t.Parallel()
				fb := &fakeBackend{}
				kc := New(tt.service, withBackend(fb))
				err := op.run(t.Context(), kc, tt.account)
				if !errors.Is(err, chat.ErrInvalid) {
					t.Errorf("got %v; want chat.ErrInvalid", err)
				}
				if got := fb.callCount(); got != 0 {
					t.Errorf("backend called %d times; want 0", got)
				}
			})
		}
	}
}

func TestBackendPanic(t *testing.T) {
	t.Parallel()
	kc := New("maestro", withBackend(&fakeBackend{panics: "dbus exploded"}))
	_, err := kc.Get(t.Context(), "gemini")
	if err == nil || !strings.Contains(err.Error(), "dbus exploded") {
		t.Errorf("Get() = %v; want an error reporting the panic", err)
	}
}

// Tests against the real OS keychain. They skip when none is usable, unless
// MAESTRO_REQUIRE_KEYRING=1 (set by .ci/keyring-session.sh) makes that a
// failure.

// realKeychain returns a Keychain on the real OS keychain under a service
// name of its own, or skips the test if the keychain cannot be used.
func realKeychain(t *testing.T) *Keychain {
	t.Helper()
	unusable := func(reason string) {
		t.Helper()
		if os.Getenv("MAESTRO_REQUIRE_KEYRING") == "1" {
			t.Fatalf("MAESTRO_REQUIRE_KEYRING=1 but the OS keychain is unusable: %s", reason)
		}
		t.Skipf("skipping: the OS keychain is unusable (%s); run under .ci/keyring-session.sh, "+
			"or set MAESTRO_REQUIRE_KEYRING=1 to make this a failure", reason)
	}
	// Without a bus address godbus would run dbus-launch, which (when
	// dbus-x11 is installed) leaves a bus and a keyring daemon behind.
	if runtime.GOOS == "linux" && os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		if _, err := os.Stat(fmt.Sprintf("/run/user/%d/bus", os.Getuid())); err != nil {
			unusable("no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is empty")
		}
	}
	service := "maestro-test-" + rand.Text()
	if err := New(service, WithTimeout(2*time.Second)).Probe(t.Context()); err != nil {
		unusable(err.Error())
	}
	return New(service)
}

// cleanupAccount deletes account when the test ends, whatever happened.
func cleanupAccount(t *testing.T, kc *Keychain, account string) {
	t.Helper()
	t.Cleanup(func() {
		// t.Context is already canceled when cleanups run.
		if err := kc.Delete(context.Background(), account); err != nil && !errors.Is(err, ErrNotFound) {
			t.Errorf("cleanup: Delete(%q) = %v", account, err)
		}
	})
}

func TestRealKeychainRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		secret string
	}{
		{"ascii", "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789"},
		{"unicode", "pässwörd 🔑 秘密の鍵 ключ"},
		{"whitespace", "  line one\nline two\ttab  "},
		{"oauth token json", `{"access_token":"ya29.a0Af","refresh_token":"1//0g","expiry":"2030-01-02T03:04:05Z"}`},
		{"long", strings.Repeat("0123456789abcdef", 512)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			kc := realKeychain(t)
			ctx := t.Context()
			const account = "gemini"
			cleanupAccount(t, kc, account)

			if _, err := kc.Get(ctx, account); !errors.Is(err, ErrNotFound) {
				t.Fatalf("Get() before Set = %v; want ErrNotFound", err)
			}
			if err := kc.Set(ctx, account, tt.secret); err != nil {
				t.Fatalf("Set() = %v; want nil", err)
			}
			if got, err := kc.Get(ctx, account); err != nil || got != tt.secret {
				t.Fatalf("Get() = %q, %v; want %q, nil", got, err, tt.secret)
			}

			overwrite := tt.secret + "-rotated"
			if err := kc.Set(ctx, account, overwrite); err != nil {
				t.Fatalf("Set() overwrite = %v; want nil", err)
			}
			if got, err := kc.Get(ctx, account); err != nil || got != overwrite {
				t.Fatalf("Get() after overwrite = %q, %v; want %q, nil", got, err, overwrite)
			}

			if err := kc.Delete(ctx, account); err != nil {
				t.Fatalf("Delete() = %v; want nil", err)
			}
			if _, err := kc.Get(ctx, account); !errors.Is(err, ErrNotFound) {
				t.Fatalf("Get() after Delete = %v; want ErrNotFound", err)
			}
			if err := kc.Delete(ctx, account); !errors.Is(err, ErrNotFound) {
				t.Fatalf("Delete() of missing entry = %v; want ErrNotFound", err)
			}
		})
	}
}

func TestRealKeychainIsolation(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	a, b := realKeychain(t), realKeychain(t) // two service names
	for _, kc := range []*Keychain{a, b} {
		cleanupAccount(t, kc, "gemini")
		cleanupAccount(t, kc, "openai")
	}

	entries := []struct {
		kc              *Keychain
		account, secret string
	}{
		{a, "gemini", "a-gemini"},
		{a, "openai", "a-openai"},
		{b, "gemini", "b-gemini"},
	}
	for _, e := range entries {
		if err := e.kc.Set(ctx, e.account, e.secret); err != nil {
			t.Fatalf("Set(%s, %q) = %v; want nil", e.kc.service, e.account, err)
		}
	}
	for _, e := range entries {
		if got, err := e.kc.Get(ctx, e.account); err != nil || got != e.secret {
			t.Errorf("Get(%s, %q) = %q, %v; want %q, nil", e.kc.service, e.account, got, err, e.secret)
		}
	}
	if _, err := b.Get(ctx, "openai"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Get(%s, %q) = %v; want ErrNotFound: entries must not leak across services", b.service, "openai", err)
	}
}

// TestRealKeychainNoBus runs the real go-keyring against a dead D-Bus socket.
// godbus reads DBUS_SESSION_BUS_ADDRESS from the process environment, so the
// check runs in a child process (TestHelperProcessNoBus) to keep this process
// and its parallel tests untouched.
func TestRealKeychainNoBus(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("skipping: D-Bus Secret Service is the keychain only on Linux")
	}
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestHelperProcessNoBus$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(),
		"MAESTRO_AUTH_HELPER=nobus",
		"DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent/bus",
	)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper process failed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: TestHelperProcessNoBus") {
		t.Fatalf("helper process did not run TestHelperProcessNoBus; output:\n%s", out)
	}
}

func TestHelperProcessNoBus(t *testing.T) {
	if os.Getenv("MAESTRO_AUTH_HELPER") != "nobus" {
		t.Skip("skipping: helper process for TestRealKeychainNoBus")
	}
	const timeout = 2 * time.Second
	kc := New("maestro-test-nobus", WithTimeout(timeout))
	for _, op := range ops {
		t.Run(op.name, func(t *testing.T) {
			start := time.Now()
			err := op.run(t.Context(), kc, "gemini")
			if elapsed := time.Since(start); elapsed >= timeout {
				t.Errorf("returned after %v; want within the %v timeout", elapsed, timeout)
			}
			var ue *UnavailableError
			if !errors.As(err, &ue) {
				t.Fatalf("got %v; want *UnavailableError", err)
			}
			if ue.Hint != hintNoBus {
				t.Errorf("Hint = %q; want the no-bus hint %q (error: %v)", ue.Hint, hintNoBus, err)
			}
			if got, want := chat.Kind(err), chat.KindUnavailable; got != want {
				t.Errorf("chat.Kind(%v) = %q; want %q", err, got, want)
			}
			t.Logf("%s: %v", op.name, err)
		})
	}
}
