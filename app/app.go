package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/wailsapp/wails/v2/pkg/options"

	"maestro/backend/agent"
	"maestro/backend/auth"
	"maestro/backend/mcp"
	"maestro/backend/providers/catalog"
	"maestro/backend/tools"
)

// Keychain is what the app needs from the OS keychain itself.
type Keychain interface {
	Probe(ctx context.Context) error
	// Get is used only to mask a stored API key for display.
	Get(ctx context.Context, account string) (string, error)
}

// SignIns is what the app needs from the sign-in manager (auth.Manager).
type SignIns interface {
	Accounts(ctx context.Context) ([]auth.Account, error)
	StartLogin(ctx context.Context, provider string) (auth.Login, error)
	SubmitCode(ctx context.Context, loginID, code string) error
	CancelLogin(loginID string) error
	SignOut(ctx context.Context, provider string) error
	SetAPIKey(ctx context.Context, provider, key string) (auth.Account, error)
	RemoveAPIKey(ctx context.Context, provider string) error
}

// ModelCatalog is what the app needs from backend/providers/catalog.
type ModelCatalog interface {
	Providers(ctx context.Context) []catalog.Provider
	// RefreshSoon fetches a provider's model list in the background (after
	// a sign-in, or when the user asks).
	RefreshSoon(provider string)
	// Attach keeps the lists in the store and reports each change.
	Attach(lists catalog.Lists, changed func(provider string))
}

// Deps is what New needs. Every field is required unless it says
// otherwise: a missing one is a wiring mistake, and New panics.
type Deps struct {
	Version string
	// DataDir holds the data file; see store.DataDir.
	DataDir string
	// Runtime is the Wails runtime (WailsRuntime) or a test's recorder;
	// Emit is required, the rest optional.
	Runtime Runtime
	// Logger is optional (slog.Default).
	Logger *slog.Logger
	// Keychain is probed for Settings and masks stored API keys.
	Keychain Keychain
	// Secrets keeps connectors' env and header values, client secrets and
	// OAuth tokens (the keychain).
	Secrets mcp.SecretStore
	// SignIns signs in to providers and keeps their credentials.
	SignIns SignIns
	// Models builds a provider's adapter from its stored credentials.
	Models agent.Models
	// Catalog lists the providers, whether they have credentials, and the
	// models their accounts can use.
	Catalog ModelCatalog
	// Window is the window service (LoadWindow).
	Window *Window

	// Optional tuning, mostly for tests.
	AgentOptions      []agent.Option
	SupervisorOptions []mcp.SupervisorOption // added to the supervisor's and the connection test's
	RegistryOptions   []tools.Option
	// ProbeTimeout bounds a connection test (mcp.DefaultProbeTimeout when 0).
	ProbeTimeout time.Duration
	// SignInTimeout bounds a connector's OAuth sign-in
	// (mcp.DefaultSignInTimeout when 0).
	SignInTimeout time.Duration
}

// App is Maestro's services, bound side by side, and the lifecycle they
// share. App itself is not bound: main hands Services to Wails and the
// lifecycle methods to its hooks (Configure does both).
type App struct {
	Sessions   *Sessions
	Chat       *Chat
	Accounts   *Accounts
	Connectors *Connectors
	Settings   *Settings
	Window     *Window

	core *core
}

// New builds every service. Nothing runs until Startup.
func New(d Deps) *App {
	switch {
	case d.Runtime.Emit == nil, d.Keychain == nil, d.Secrets == nil, d.SignIns == nil,
		d.Models == nil, d.Catalog == nil, d.Window == nil:
		panic("app.New: a required dependency is missing")
	}
	c := newCore(d)
	a := &App{core: c, Window: d.Window}
	a.Connectors = &Connectors{core: c, secrets: d.Secrets, options: d.SupervisorOptions, regOptions: d.RegistryOptions,
		probeTimeout: d.ProbeTimeout, signInLimit: d.SignInTimeout,
		elicits: questions[elicitAnswer]{what: "request"}, samples: questions[bool]{what: "sampling request"},
		configs: map[string]mcp.Connector{}, signIns: map[string]context.CancelFunc{}}
	a.Chat = &Chat{core: c, models: d.Models, catalog: d.Catalog, options: d.AgentOptions,
		approvals: questions[agent.Decision]{what: "approval request"}, runs: map[string]*runState{}}
	a.Sessions = &Sessions{core: c, chat: a.Chat, conns: a.Connectors, catalog: d.Catalog}
	a.Accounts = &Accounts{core: c, signIns: d.SignIns, keychain: d.Keychain, catalog: d.Catalog}
	a.Settings = &Settings{core: c, keychain: d.Keychain}
	c.build = a.build
	return a
}

// Services are the values Wails binds, one per area of the UI.
func (a *App) Services() []any {
	return []any{a.Sessions, a.Chat, a.Accounts, a.Connectors, a.Settings, a.Window}
}

// Startup opens the data file and builds what runs on it. A data file that
// cannot be opened is not fatal: the window still opens, shows the error
// with the file's path (Settings.Status), and sign-ins still work.
func (a *App) Startup(ctx context.Context) { a.core.startup(ctx) }

// Shutdown stops the runs, the sign-ins and every other piece of long
// work and waits for them, then stops the connectors' servers, then closes
// the data file, in that order, so nothing writes to a closed file.
func (a *App) Shutdown(ctx context.Context) { a.core.shutdown(ctx) }

// SecondInstance brings the window to the front: Maestro was launched
// again on the same data dir.
func (a *App) SecondInstance() { a.core.show() }

// LoginUpdate is the sign-in manager's Notify: each update becomes an
// auth:login event.
func (a *App) LoginUpdate(u auth.LoginUpdate) { a.Accounts.loginUpdate(u) }

// OpenURL opens url in the browser; it is the sign-in manager's OpenURL.
func (a *App) OpenURL(url string) error { return a.core.openURL(url) }

// Configure sets Wails's options for the app: the bound services, the
// lifecycle hooks, the menu, the error formatter, and the window's size
// and background from the last run. A SingleInstanceLock set by the caller
// gets the second-launch hook.
func (a *App) Configure(o *options.App) {
	o.Bind = a.Services()
	o.ErrorFormatter = FormatError
	o.Menu = a.menu()
	o.OnStartup = func(ctx context.Context) {
		a.Window.startup(ctx)
		a.Startup(ctx)
	}
	o.OnBeforeClose = a.Window.beforeClose
	o.OnShutdown = a.Shutdown
	if o.SingleInstanceLock != nil {
		o.SingleInstanceLock.OnSecondInstanceLaunch = func(options.SecondInstanceData) { a.SecondInstance() }
	}
	a.Window.apply(o)
}
