package app

import (
	"cmp"
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"maestro/backend/chat"
	"maestro/backend/mcp"
	"maestro/backend/providers/catalog"
	"maestro/backend/store"
	"maestro/backend/toolbox"
	"maestro/backend/tools"
)

// Connector event names.
const (
	// EventConnectorState carries a ConnectorDTO each time a connector's
	// state changes (starting, ready, error, restarting, stopped).
	EventConnectorState = "connector:state"
	// EventConnectorLog carries a ConnectorLogDTO: one stderr line, server
	// log message or supervisor note.
	EventConnectorLog = "connector:log"
	// EventToolsChanged carries a ToolsChangedDTO whenever a session's
	// tools revision changes (a toggle, a server's tool list changing).
	EventToolsChanged = "tools:changed"
)

// Limits of what the connector methods accept.
const (
	maxConnectorName = 64
	maxImportFile    = 1 << 20
	maxRoots         = 32
)

// ConnectorsDeps is what the connectors need from main. main wires it with
// EnableConnectors before the app starts.
type ConnectorsDeps struct {
	// Secrets keeps env and header values, client secrets and OAuth tokens
	// (the keychain, *auth.Keychain).
	Secrets mcp.SecretStore
	// Options are added to the supervisor's (and to the one TestConnector
	// uses); tests register in-process servers with them.
	Options []mcp.SupervisorOption
	// RegistryOptions are added to the registry's.
	RegistryOptions []tools.Option
	// TestTimeout bounds TestConnector (mcp.DefaultProbeTimeout when 0).
	TestTimeout time.Duration
	// SignInTimeout bounds an OAuth sign-in (mcp.DefaultSignInTimeout when 0).
	SignInTimeout time.Duration
}

// EnableConnectors gives a its MCP connectors: at startup the app builds the
// supervisor and the registry on its store and starts the connectors in the
// background; at shutdown it closes them before the store. It is a function
// rather than a method so that Wails does not bind it.
func EnableConnectors(a *App, deps ConnectorsDeps) {
	a.conns = &connectorsState{
		deps: deps, app: a, loaded: make(chan struct{}),
		configs: map[string]mcp.Connector{}, signIns: map[string]context.CancelFunc{},
		elicit: newElicitor(a), sample: newSampler(a),
	}
}

// connectorsState owns the supervisor and the registry. They are built in
// start (under mu) and never replaced; loaded is closed once the stored
// connectors are loaded, and bound methods wait for it. The supervisor calls
// the Events methods from its goroutines: they only read cfgMu-guarded
// configs and emit, never call back into the supervisor.
type connectorsState struct {
	deps ConnectorsDeps
	app  *App

	mu      sync.Mutex
	sup     *mcp.Supervisor
	reg     *tools.Registry
	box     *toolbox.Toolbox
	loaded  chan struct{}
	signIns map[string]context.CancelFunc // by connector id

	// closing silences events once shutdown has begun.
	closing atomic.Bool

	// cfgMu guards configs: every connector's config, for the DTOs of
	// connector:state events (which mask the secret values, as every DTO
	// does).
	cfgMu   sync.Mutex
	configs map[string]mcp.Connector

	// elicit and sample answer servers' elicitation and sampling requests
	// through the UI (elicitation:needed, sampling:needed).
	elicit *elicitor
	sample *sampler
}

// start builds the registry and the supervisor on st and starts the
// connectors in the background (loading configs reads the keychain, which
// can be slow): it never blocks the window.
func (c *connectorsState) start(root context.Context, st *store.Store) {
	log := c.app.log
	regOpts := append([]tools.Option{tools.WithRevisionListener(c.revisionChanged)}, c.deps.RegistryOptions...)
	reg := tools.NewRegistry(st, catalog.ToolRules(), regOpts...)
	authz := &mcp.LoopbackAuthorizer{Open: c.openURL, Timeout: c.deps.SignInTimeout, Logger: log}
	opts := []mcp.SupervisorOption{
		mcp.WithConnectorStore(st), mcp.WithToolSink(reg), mcp.WithEvents(c),
		mcp.WithAuthorizer(authz, false),
		mcp.WithElicitor(c.elicit, urlOpener{c}), mcp.WithSampler(c.sample),
		mcp.WithClientInfo("Maestro", cmp.Or(c.app.cfg.Version, "dev")),
		mcp.WithLogger(log),
	}
	if c.deps.Secrets != nil {
		opts = append(opts, mcp.WithSecrets(keychainSecrets{c.deps.Secrets, log}))
	}
	sup := mcp.NewSupervisor(append(opts, c.deps.Options...)...)
	c.mu.Lock()
	c.sup, c.reg, c.box = sup, reg, toolbox.New(reg, sup)
	c.mu.Unlock()

	c.app.work.Add(1)
	go func() {
		defer c.app.work.Done()
		defer close(c.loaded)
		// Sessions' folders first, so servers see them at initialize.
		if sessions, err := st.Sessions(root); err == nil {
			for _, s := range sessions {
				if len(s.Roots) == 0 {
					continue
				}
				if err := sup.SetRoots(root, s.ID, toRoots(s.Roots)); err != nil {
					log.Warn("restore session folders", "session", s.ID, "err", err)
				}
			}
		}
		if err := sup.Start(root); err != nil {
			log.Error("start connectors", "err", err)
			return
		}
		// Read the configs before taking cfgMu: Connectors locks each runner,
		// and a runner publishing its state (ConnectorState) holds its lock
		// while it takes cfgMu.
		cfgs := sup.Connectors()
		c.cfgMu.Lock()
		for _, cfg := range cfgs {
			c.configs[cfg.ID] = cfg
		}
		c.cfgMu.Unlock()
	}()
}

// close stops every server and waits for them. It runs after the app's
// work has finished and before the store closes.
func (c *connectorsState) close() {
	c.closing.Store(true)
	c.mu.Lock()
	sup := c.sup
	c.mu.Unlock()
	if sup != nil {
		_ = sup.Close()
	}
}

func (c *connectorsState) current() (*mcp.Supervisor, *tools.Registry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sup, c.reg
}

func (c *connectorsState) openURL(_ context.Context, u string) error {
	return c.app.openURL(u)
}

// urlOpener opens the URL of an accepted URL-mode elicitation through
// Runtime.OpenURL.
type urlOpener struct{ c *connectorsState }

func (o urlOpener) OpenURL(ctx context.Context, u string) error { return o.c.openURL(ctx, u) }

// ConnectorState implements mcp.Events.
func (c *connectorsState) ConnectorState(st mcp.ConnectorStatus) {
	if c.closing.Load() {
		return
	}
	c.app.log.Info("connector state", "connector", st.Name, "id", st.ID, "state", st.State,
		"tools", st.Tools, "error", st.Error)
	c.cfgMu.Lock()
	cfg, ok := c.configs[st.ID]
	c.cfgMu.Unlock()
	if !ok {
		cfg = mcp.Connector{ID: st.ID, Name: st.Name}
	}
	c.app.emit(EventConnectorState, connectorDTO(cfg, st))
}

// ConnectorLog implements mcp.Events. A server's log message also goes to
// the latest tool call running on that connector, if any.
func (c *connectorsState) ConnectorLog(id string, line mcp.LogLine) {
	if c.closing.Load() {
		return
	}
	if line.Source == mcp.SourceServer {
		c.mu.Lock()
		box := c.box
		c.mu.Unlock()
		if box != nil {
			box.ServerLog(id, line.Level, line.Text)
		}
	}
	c.app.emit(EventConnectorLog, ConnectorLogDTO{ID: id, Line: logLineDTO(line)})
}

func (c *connectorsState) revisionChanged(sessionID string, rev int64) {
	if c.closing.Load() {
		return
	}
	c.app.emit(EventToolsChanged, ToolsChangedDTO{SessionID: sessionID, Revision: rev})
}

func (c *connectorsState) remember(cfg mcp.Connector) {
	c.cfgMu.Lock()
	c.configs[cfg.ID] = cfg.Clone()
	c.cfgMu.Unlock()
}

func (c *connectorsState) forget(id string) {
	c.cfgMu.Lock()
	delete(c.configs, id)
	c.cfgMu.Unlock()
}

// conn is what one bound connector call works with.
type conn struct {
	c   *connectorsState
	sup *mcp.Supervisor
	reg *tools.Registry
	st  *store.Store
}

var errNoConnectors = chat.E(chat.ErrUnavailable, "connectors are not available in this build of Maestro")

// connectorsReady returns the supervisor, the registry and the store, with
// a context for one bound call, once the stored connectors are loaded.
func (a *App) connectorsReady() (conn, context.Context, context.CancelFunc, error) {
	if a.conns == nil {
		return conn{}, nil, nil, errNoConnectors
	}
	st, ctx, cancel, err := a.ready()
	if err != nil {
		return conn{}, nil, nil, err
	}
	select {
	case <-a.conns.loaded:
	case <-ctx.Done():
		cancel()
		return conn{}, nil, nil, chat.E(chat.ErrUnavailable, "the connectors are still loading; try again in a moment")
	}
	sup, reg := a.conns.current()
	if sup == nil {
		cancel()
		return conn{}, nil, nil, errNoConnectors
	}
	return conn{c: a.conns, sup: sup, reg: reg, st: st}, ctx, cancel, nil
}

// ListConnectors returns every connector with its live state, sorted by
// name. Secret values are never included, only masked hints.
func (a *App) ListConnectors() ([]ConnectorDTO, error) {
	cn, _, cancel, err := a.connectorsReady()
	if err != nil {
		return nil, err
	}
	defer cancel()
	list := cn.sup.Connectors()
	out := make([]ConnectorDTO, 0, len(list))
	for _, cfg := range list {
		st, err := cn.sup.Status(cfg.ID)
		if err != nil {
			continue // removed meanwhile
		}
		out = append(out, connectorDTO(cfg, st))
	}
	return out, nil
}

// SaveConnector adds a connector (in.ID empty) or replaces one's settings,
// and (re)starts it. Env and header values go to the keychain; a row with
// Keep set keeps the value stored for its key.
func (a *App) SaveConnector(in ConnectorInputDTO) (ConnectorDTO, error) {
	cn, ctx, cancel, err := a.connectorsReady()
	if err != nil {
		return ConnectorDTO{}, err
	}
	defer cancel()
	var old *mcp.Connector
	if in.ID != "" {
		o, err := cn.sup.Connector(in.ID)
		if err != nil {
			return ConnectorDTO{}, err
		}
		old = &o
	}
	cfg, err := connectorFromInput(in, old)
	if err != nil {
		return ConnectorDTO{}, err
	}
	if old == nil && in.NewChats == nil {
		cfg.NewChats = mcp.NewChatsByDefault(len(cn.sup.Connectors()))
	}
	for _, other := range cn.sup.Connectors() {
		if other.ID != cfg.ID && strings.EqualFold(other.DisplayName(), cfg.Name) {
			return ConnectorDTO{}, chat.E(chat.ErrConflict, "a connector named %q exists already: choose another name", other.DisplayName())
		}
	}
	if old == nil {
		cfg.ID = chat.NewID()
		cn.c.remember(cfg) // before Add, whose first state event needs it
		if _, err := cn.sup.Add(ctx, cfg); err != nil {
			cn.c.forget(cfg.ID)
			return ConnectorDTO{}, err
		}
	} else {
		cn.c.remember(cfg)
		if err := cn.sup.Update(ctx, cfg); err != nil {
			cn.c.remember(*old)
			return ConnectorDTO{}, err
		}
	}
	return cn.dto(cfg.ID)
}

// SuggestSecretArgs returns the indexes of the arguments that look like
// they hold a secret (--token=…, --api-key …, "Bearer …", a key with a
// known prefix), for the form to offer to keep them in the keychain.
func (a *App) SuggestSecretArgs(args []string) []int {
	return nonNil(mcp.SuggestSecretArgs(args))
}

func (cn conn) dto(id string) (ConnectorDTO, error) {
	cfg, err := cn.sup.Connector(id)
	if err != nil {
		return ConnectorDTO{}, err
	}
	st, err := cn.sup.Status(id)
	if err != nil {
		return ConnectorDTO{}, err
	}
	return connectorDTO(cfg, st), nil
}

// DeleteConnector stops a connector and deletes it with its secrets and
// tokens; its tools leave every session.
func (a *App) DeleteConnector(id string) error {
	cn, ctx, cancel, err := a.connectorsReady()
	if err != nil {
		return err
	}
	defer cancel()
	if err := cn.sup.Remove(ctx, id); err != nil {
		return err
	}
	cn.c.forget(id)
	return nil
}

// SetConnectorEnabled turns a connector on or off everywhere: a connector
// that is off is not started and its tools are in no session.
func (a *App) SetConnectorEnabled(id string, on bool) (ConnectorDTO, error) {
	cn, ctx, cancel, err := a.connectorsReady()
	if err != nil {
		return ConnectorDTO{}, err
	}
	defer cancel()
	cfg, err := cn.sup.Connector(id)
	if err != nil {
		return ConnectorDTO{}, err
	}
	if cfg.Disabled == !on {
		return cn.dto(id)
	}
	cfg.Disabled = !on
	cn.c.remember(cfg)
	if err := cn.sup.Update(ctx, cfg); err != nil {
		cfg.Disabled = on
		cn.c.remember(cfg)
		return ConnectorDTO{}, err
	}
	return cn.dto(id)
}

// RestartConnector stops and starts a connector now.
func (a *App) RestartConnector(id string) error {
	cn, ctx, cancel, err := a.connectorsReady()
	if err != nil {
		return err
	}
	defer cancel()
	cfg, err := cn.sup.Connector(id)
	if err != nil {
		return err
	}
	if cfg.Disabled {
		return chat.E(chat.ErrInvalid, "%s is turned off: turn it on to start it", cfg.DisplayName())
	}
	return cn.sup.Restart(ctx, id)
}

// ConnectorLogs returns a connector's log, oldest first: the server's
// stderr, its log messages and the supervisor's notes.
func (a *App) ConnectorLogs(id string) ([]LogLineDTO, error) {
	cn, _, cancel, err := a.connectorsReady()
	if err != nil {
		return nil, err
	}
	defer cancel()
	lines, err := cn.sup.Logs(id)
	if err != nil {
		return nil, err
	}
	out := make([]LogLineDTO, 0, len(lines))
	for _, l := range lines {
		out = append(out, logLineDTO(l))
	}
	return out, nil
}

// SignInConnector signs a connector that uses OAuth in: the browser opens
// on the server's consent page and Maestro waits (up to 5 minutes) for it
// to come back to a listener on 127.0.0.1. The connector restarts with the
// token. CancelConnectorSignIn stops the wait.
func (a *App) SignInConnector(id string) error {
	cn, _, cancel, err := a.connectorsReady()
	if err != nil {
		return err
	}
	cancel()
	cfg, err := cn.sup.Connector(id)
	if err != nil {
		return err
	}
	if cfg.OAuth == nil {
		return chat.E(chat.ErrInvalid, "%s does not use OAuth sign-in", cfg.DisplayName())
	}
	root, err := a.beginWork()
	if err != nil {
		return err
	}
	defer a.work.Done()
	ctx, stop := context.WithCancel(root)
	defer stop()
	c := a.conns
	c.mu.Lock()
	if prev := c.signIns[id]; prev != nil {
		prev() // a sign-in already waiting is replaced
	}
	c.signIns[id] = stop
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.signIns, id) // cancel funcs are not comparable: the newest one deletes
		c.mu.Unlock()
	}()
	if err := cn.sup.SignIn(ctx, id); err != nil {
		if ctx.Err() != nil {
			return chat.E(chat.ErrCanceled, "the sign-in to %s was cancelled", cfg.DisplayName())
		}
		return err
	}
	return nil
}

// CancelConnectorSignIn stops a connector's sign-in that is waiting for
// the browser.
func (a *App) CancelConnectorSignIn(id string) error {
	if a.conns == nil {
		return errNoConnectors
	}
	a.conns.mu.Lock()
	stop := a.conns.signIns[id]
	a.conns.mu.Unlock()
	if stop == nil {
		return chat.E(chat.ErrNotFound, "no sign-in is waiting for this connector")
	}
	stop()
	return nil
}

// SignOutConnector forgets a connector's OAuth token and restarts it.
func (a *App) SignOutConnector(id string) error {
	cn, ctx, cancel, err := a.connectorsReady()
	if err != nil {
		return err
	}
	defer cancel()
	return cn.sup.SignOut(ctx, id)
}
