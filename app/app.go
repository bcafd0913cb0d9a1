package app

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"maestro/backend/auth"
	"maestro/backend/chat"
	"maestro/backend/store"
)

// Runtime is the set of Wails runtime calls the app makes. main wires it to
// Wails (WailsRuntime); tests wire it to recorders.
type Runtime struct {
	// Emit sends an event to the frontend.
	Emit func(ctx context.Context, name string, data ...any)
	// OpenURL opens a URL in the system browser; an error says none could
	// be opened.
	OpenURL func(ctx context.Context, url string) error
	// Show brings the window to the front (a second launch does this).
	Show func(ctx context.Context)
	// OpenFileDialog, SaveFileDialog and OpenDirectoryDialog show the
	// system's file and folder pickers; they return "" when the user
	// cancels. Without them the pickers fail with ErrUnavailable.
	OpenFileDialog      func(ctx context.Context, d FileDialog) (string, error)
	SaveFileDialog      func(ctx context.Context, d FileDialog) (string, error)
	OpenDirectoryDialog func(ctx context.Context, d FileDialog) (string, error)
}

// FileDialog describes a file or folder picker.
type FileDialog struct {
	Title            string
	DefaultDirectory string
	DefaultFilename  string
	Filters          []FileFilter
}

// FileFilter is one choice of a picker's file type list, e.g.
// {"JSON files", "*.json"}.
type FileFilter struct {
	DisplayName string
	Pattern     string
}

// Keychain is what the app needs from the OS keychain.
type Keychain interface {
	Probe(ctx context.Context) error
	// Get is used only to mask a stored API key for display.
	Get(ctx context.Context, account string) (string, error)
}

// Config is what New needs.
type Config struct {
	Version string
	// DataDir holds the data file; see store.DataDir.
	DataDir  string
	Runtime  Runtime
	Keychain Keychain
	// Accounts signs in to providers and keeps their credentials; nil
	// makes the account methods fail with ErrUnavailable.
	Accounts Accounts
	Logger   *slog.Logger
}

// App is bound to the frontend. Create it with New.
type App struct {
	cfg Config
	log *slog.Logger

	mu sync.RWMutex
	// wailsCtx is the context Wails gave startup. It is stored because the
	// runtime needs it for every call (the one exception to "never store a
	// context"); it is used only through cfg.Runtime.
	wailsCtx context.Context
	root     context.Context
	cancel   context.CancelFunc
	store    *store.Store
	storeErr error

	work sync.WaitGroup

	// loginMu guards logins (the browser sign-ins being watched, by login
	// id) and ended (ids whose terminal update came before StartLogin
	// returned). It is never held while calling the manager.
	loginMu sync.Mutex
	logins  map[string]*signIn
	ended   map[string]bool

	// chat is set by EnableChat before startup and never changes after.
	chat *chatState
	// conns is set by EnableConnectors before startup and never changes
	// after; it starts with the store and closes before it.
	conns *connectorsState
}

// New returns an App that has not started yet.
func New(cfg Config) *App {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	noop := Runtime{
		Emit:    func(context.Context, string, ...any) {},
		OpenURL: func(context.Context, string) error { return nil },
		Show:    func(context.Context) {},
	}
	if cfg.Runtime.Emit == nil {
		cfg.Runtime.Emit = noop.Emit
	}
	if cfg.Runtime.OpenURL == nil {
		cfg.Runtime.OpenURL = noop.OpenURL
	}
	if cfg.Runtime.Show == nil {
		cfg.Runtime.Show = noop.Show
	}
	return &App{cfg: cfg, log: cfg.Logger}
}

// startup opens the store. A store that cannot be opened is not fatal: the
// window still opens and shows the error with the file's path.
func (a *App) startup(ctx context.Context) {
	root, cancel := context.WithCancel(context.WithoutCancel(ctx))
	st, err := store.Open(root, a.cfg.DataDir, store.Options{})
	if err != nil {
		a.log.Error("open data file", "dir", a.cfg.DataDir, "err", err)
	}
	a.mu.Lock()
	a.wailsCtx, a.root, a.cancel = ctx, root, cancel
	a.store, a.storeErr = st, err
	a.mu.Unlock()
	if a.conns != nil && st != nil {
		a.conns.start(root, st) // returns at once; servers start in the background
	}
	if a.chat != nil && a.chat.deps.Catalog != nil && st != nil {
		a.chat.deps.Catalog.Attach(st, func(provider string) { a.emit(EventModelsChanged, provider) })
	}
}

// shutdown cancels the root context, waits for running work, closes the
// connectors, then closes the store, in that order, so no goroutine writes
// to a closed file.
func (a *App) shutdown(context.Context) {
	a.mu.Lock()
	cancel, st := a.cancel, a.store
	a.store = nil
	a.storeErr = fmt.Errorf("maestro is shutting down: %w", chat.ErrUnavailable)
	a.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	a.work.Wait()
	if a.conns != nil {
		a.conns.close() // stops the servers; before the store they write to
	}
	if st != nil {
		if err := st.Close(); err != nil {
			a.log.Error("close data file", "err", err)
		}
	}
}

// secondInstance runs when Maestro is launched again on the same data dir.
func (a *App) secondInstance() {
	a.mu.RLock()
	ctx := a.wailsCtx
	a.mu.RUnlock()
	if ctx != nil {
		a.cfg.Runtime.Show(ctx)
	}
}

// Lifecycle holds the hooks main hands to Wails. They are not methods of App
// so that Wails does not bind them to JavaScript.
type Lifecycle struct {
	Startup        func(ctx context.Context)
	Shutdown       func(ctx context.Context)
	SecondInstance func()
	// LoginUpdate is the sign-in manager's Notify: it becomes an auth:login
	// event.
	LoginUpdate func(auth.LoginUpdate)
	// OpenURL opens a URL in the browser through Runtime.OpenURL; it is the
	// sign-in manager's OpenURL.
	OpenURL func(url string) error
}

// Hooks returns a's lifecycle hooks.
func Hooks(a *App) Lifecycle {
	return Lifecycle{
		Startup: a.startup, Shutdown: a.shutdown, SecondInstance: a.secondInstance,
		LoginUpdate: a.loginUpdate, OpenURL: a.openURL,
	}
}

// ready returns the store and a context for one bound call: a child of the
// root context bounded by a timeout, so no call outlives shutdown.
func (a *App) ready() (*store.Store, context.Context, context.CancelFunc, error) {
	a.mu.RLock()
	defer a.mu.RUnlock()
	if a.root == nil {
		return nil, nil, nil, fmt.Errorf("maestro is still starting: %w", chat.ErrUnavailable)
	}
	if a.storeErr != nil {
		return nil, nil, nil, a.storeErr
	}
	ctx, cancel := context.WithTimeout(a.root, 30*time.Second)
	return a.store, ctx, cancel, nil
}

// emit sends an event if the app has started.
func (a *App) emit(name string, data ...any) {
	a.mu.RLock()
	ctx := a.wailsCtx
	a.mu.RUnlock()
	if ctx != nil {
		a.cfg.Runtime.Emit(ctx, name, data...)
	}
}
