package app

import (
	"cmp"
	"context"
	"strings"
	"sync"
	"time"

	"maestro/backend/chat"
	"maestro/backend/mcp"
	"maestro/backend/store"
	"maestro/backend/toolbox"
	"maestro/backend/tools"
)

// Limits of what the connector methods accept.
const (
	maxConnectorName = 64
	maxImportFile    = 1 << 20
	maxRoots         = 32
	// newChatsWait is how long Sessions.Create waits for the connectors to
	// load at start-up; a chat made before that starts with none.
	newChatsWait = 2 * time.Second
)

// Connectors is the bound service of the Connectors page and of a
// session's Tools panel: the MCP servers' configs and live states, their
// sign-ins, imports and exports, which connectors and tools each session
// uses, and the questions servers put to the user (elicitation and
// sampling).
//
// The supervisor and the registry are built at startup on the data file
// (App.build), which loads and starts the stored connectors on a goroutine
// tracked in the core's WaitGroup, so no server delays the window; bound
// methods wait for that load. The supervisor reports states and log lines
// through connectorEvents from its own goroutines: they read the
// cfgMu-guarded copy of the configs and emit, never calling back into the
// supervisor. The registry's revision listener emits tools:changed.
type Connectors struct {
	core         *core
	probeTimeout time.Duration
	options      []mcp.SupervisorOption
	regOptions   []tools.Option
	signInLimit  time.Duration
	secrets      mcp.SecretStore

	// elicits and samples are the servers' questions waiting for the user.
	elicits questions[elicitAnswer]
	samples questions[bool]

	// mu guards signIns: the OAuth sign-ins waiting for the browser, by
	// connector id.
	mu      sync.Mutex
	signIns map[string]context.CancelFunc

	// cfgMu guards configs: every connector's config, for the DTOs of
	// connector:state events (which mask the secret values, as every DTO
	// does).
	cfgMu   sync.Mutex
	configs map[string]mcp.Connector
}

// newSupervisor builds the supervisor on st, reporting tools to reg and
// states and logs to ev.
func (c *Connectors) newSupervisor(st *store.Store, reg *tools.Registry, ev *connectorEvents) *mcp.Supervisor {
	authz := &mcp.LoopbackAuthorizer{Open: func(_ context.Context, u string) error { return c.core.openURL(u) },
		Timeout: c.signInLimit, Logger: c.core.log}
	opts := []mcp.SupervisorOption{
		mcp.WithConnectorStore(st), mcp.WithToolSink(reg), mcp.WithEvents(ev),
		mcp.WithAuthorizer(authz, false),
		mcp.WithElicitor(elicitor{c}, urlOpener{c.core}), mcp.WithSampler(sampler{c}),
		mcp.WithSecrets(keychainSecrets{c.secrets, c.core.log}),
		mcp.WithTaskStore(st), mcp.WithTaskEvents(taskEvents{c}),
		mcp.WithSessions(st), mcp.WithFeatureEvents(featureEvents{c.core.events}),
	}
	return mcp.NewSupervisor(append(append(opts, c.clientOptions()...), c.options...)...)
}

// clientOptions say who the client is, for the supervisor and the
// connection test alike.
func (c *Connectors) clientOptions() []mcp.SupervisorOption {
	return []mcp.SupervisorOption{mcp.WithClientInfo("Maestro", cmp.Or(c.core.version, "dev")), mcp.WithLogger(c.core.log)}
}

// start loads the stored connectors and starts them in the background
// (loading configs reads the keychain, which can be slow): it never
// blocks the window. run.loaded is closed when it is done.
func (c *Connectors) start(root context.Context, run *running) {
	c.core.work.Add(1) // startup: shutdown has not begun
	go func() {
		defer c.core.work.Done()
		defer close(run.loaded)
		// Sessions' folders first, so servers see them at initialize.
		if sessions, err := run.store.Sessions(root); err == nil {
			for _, s := range sessions {
				if len(s.Roots) == 0 {
					continue
				}
				if err := run.sup.SetRoots(root, s.ID, toRoots(s.Roots)); err != nil {
					c.core.log.Warn("restore session folders", "session", s.ID, "err", err)
				}
			}
		}
		if err := run.sup.Start(root); err != nil {
			c.core.log.Error("start connectors", "err", err)
			return
		}
		// Read the configs before taking cfgMu: Connectors locks each runner,
		// and a runner publishing its state (ConnectorState) holds its lock
		// while it takes cfgMu.
		cfgs := run.sup.Connectors()
		c.cfgMu.Lock()
		for _, cfg := range cfgs {
			c.configs[cfg.ID] = cfg
		}
		c.cfgMu.Unlock()
	}()
}

// connectorEvents implements mcp.Events for the app: connector:state and
// connector:log, and a server's log messages to the tool call they belong
// to (the toolbox).
type connectorEvents struct {
	c   *Connectors
	box *toolbox.Toolbox
}

// ConnectorState implements mcp.Events.
func (e *connectorEvents) ConnectorState(st mcp.ConnectorStatus) {
	c := e.c
	c.core.log.Info("connector state", "connector", st.Name, "id", st.ID, "state", st.State,
		"tools", st.Tools, "error", st.Error)
	c.cfgMu.Lock()
	cfg, ok := c.configs[st.ID]
	c.cfgMu.Unlock()
	if !ok {
		cfg = mcp.Connector{ID: st.ID, Name: st.Name}
	}
	c.core.events.emit(EventConnectorState, connectorDTO(cfg, st))
}

// ConnectorLog implements mcp.Events. A server's log message also goes to
// the latest tool call running on that connector, if any.
func (e *connectorEvents) ConnectorLog(id string, line mcp.LogLine) {
	if line.Source == mcp.SourceServer {
		e.box.ServerLog(id, line.Level, line.Text)
	}
	e.c.core.events.emit(EventConnectorLog, ConnectorLogDTO{ID: id, Line: logLineDTO(line)})
}

func (c *Connectors) revisionChanged(sessionID string, rev int64) {
	c.core.events.emit(EventToolsChanged, ToolsChangedDTO{SessionID: sessionID, Revision: rev})
}

// urlOpener opens the URL of an accepted URL-mode elicitation through
// Runtime.OpenURL.
type urlOpener struct{ c *core }

func (o urlOpener) OpenURL(_ context.Context, u string) error { return o.c.openURL(u) }

func (c *Connectors) remember(cfg mcp.Connector) {
	c.cfgMu.Lock()
	c.configs[cfg.ID] = cfg.Clone()
	c.cfgMu.Unlock()
}

func (c *Connectors) forget(id string) {
	c.cfgMu.Lock()
	delete(c.configs, id)
	c.cfgMu.Unlock()
}

// ready returns what runs on the data file, with a context for one bound
// call, once the stored connectors are loaded.
func (c *Connectors) ready() (*running, context.Context, context.CancelFunc, error) {
	run, ctx, cancel, err := c.core.call()
	if err != nil {
		return nil, nil, nil, err
	}
	select {
	case <-run.loaded:
		return run, ctx, cancel, nil
	case <-ctx.Done():
		cancel()
		return nil, nil, nil, chat.E(chat.ErrUnavailable, "the connectors are still loading; try again in a moment")
	}
}

// forNewChats lists the connectors a new chat starts with: those on in
// new chats and not switched off. It waits briefly for the connectors to
// load at start-up; a chat made before that starts with none.
func (c *Connectors) forNewChats(run *running) []string {
	select {
	case <-run.loaded:
	case <-time.After(newChatsWait):
		return nil
	}
	var ids []string
	for _, cfg := range run.sup.Connectors() {
		if cfg.NewChats && !cfg.Disabled {
			ids = append(ids, cfg.ID)
		}
	}
	return ids
}

// List returns every connector with its live state, sorted by name.
// Secret values are never included, only masked hints.
func (c *Connectors) List() ([]ConnectorDTO, error) {
	run, _, cancel, err := c.ready()
	if err != nil {
		return nil, err
	}
	defer cancel()
	list := run.sup.Connectors()
	out := make([]ConnectorDTO, 0, len(list))
	for _, cfg := range list {
		st, err := run.sup.Status(cfg.ID)
		if err != nil {
			continue // removed meanwhile
		}
		out = append(out, connectorDTO(cfg, st))
	}
	return out, nil
}

// Save adds a connector (in.ID empty) or replaces one's settings, and
// (re)starts it. Env and header values go to the keychain; a row with Keep
// set keeps the value stored for its key.
func (c *Connectors) Save(in ConnectorInputDTO) (ConnectorDTO, error) {
	run, ctx, cancel, err := c.ready()
	if err != nil {
		return ConnectorDTO{}, err
	}
	defer cancel()
	sup := run.sup
	old, err := stored(sup, in.ID)
	if err != nil {
		return ConnectorDTO{}, err
	}
	cfg, err := connectorFromInput(in, old)
	if err != nil {
		return ConnectorDTO{}, err
	}
	if old == nil && in.NewChats == nil {
		cfg.NewChats = mcp.NewChatsByDefault(len(sup.Connectors()))
	}
	for _, other := range sup.Connectors() {
		if other.ID != cfg.ID && strings.EqualFold(other.DisplayName(), cfg.Name) {
			return ConnectorDTO{}, chat.E(chat.ErrConflict, "a connector named %q exists already: choose another name", other.DisplayName())
		}
	}
	if old == nil {
		cfg.ID = chat.NewID()
		c.remember(cfg) // before Add, whose first state event needs it
		if _, err := sup.Add(ctx, cfg); err != nil {
			c.forget(cfg.ID)
			return ConnectorDTO{}, err
		}
	} else {
		c.remember(cfg)
		if err := sup.Update(ctx, cfg); err != nil {
			c.remember(*old)
			return ConnectorDTO{}, err
		}
	}
	return connectorNow(sup, cfg.ID)
}

// stored returns the stored config a form edits, nil for a new one.
func stored(sup *mcp.Supervisor, id string) (*mcp.Connector, error) {
	if id == "" {
		return nil, nil
	}
	o, err := sup.Connector(id)
	if err != nil {
		return nil, err
	}
	return &o, nil
}

// SuggestSecretArgs returns the indexes of the arguments that look like
// they hold a secret (--token=…, --api-key …, "Bearer …", a key with a
// known prefix), for the form to offer to keep them in the keychain.
func (c *Connectors) SuggestSecretArgs(args []string) []int {
	return nonNil(mcp.SuggestSecretArgs(args))
}

// connectorNow is a connector's DTO with its current state.
func connectorNow(sup *mcp.Supervisor, id string) (ConnectorDTO, error) {
	cfg, err := sup.Connector(id)
	if err != nil {
		return ConnectorDTO{}, err
	}
	st, err := sup.Status(id)
	if err != nil {
		return ConnectorDTO{}, err
	}
	return connectorDTO(cfg, st), nil
}

// Delete stops a connector and deletes it with its secrets and tokens;
// its tools leave every session.
func (c *Connectors) Delete(id string) error {
	run, ctx, cancel, err := c.ready()
	if err != nil {
		return err
	}
	defer cancel()
	if err := run.sup.Remove(ctx, id); err != nil {
		return err
	}
	c.forget(id)
	return nil
}

// SetEnabled turns a connector on or off everywhere: a connector that is
// off is not started and its tools are in no session.
func (c *Connectors) SetEnabled(id string, on bool) (ConnectorDTO, error) {
	run, ctx, cancel, err := c.ready()
	if err != nil {
		return ConnectorDTO{}, err
	}
	defer cancel()
	if cfg, err := run.sup.Connector(id); err != nil {
		return ConnectorDTO{}, err
	} else if cfg.Disabled == !on {
		return connectorNow(run.sup, id)
	}
	var before mcp.Connector
	_, err = run.sup.Modify(ctx, id, func(cfg *mcp.Connector) error {
		before = cfg.Clone()
		cfg.Disabled = !on
		c.remember(*cfg) // before the restart, whose first state event needs it
		return nil
	})
	if err != nil {
		if before.ID != "" {
			c.remember(before)
		}
		return ConnectorDTO{}, err
	}
	return connectorNow(run.sup, id)
}

// Restart stops and starts a connector now.
func (c *Connectors) Restart(id string) error {
	run, ctx, cancel, err := c.ready()
	if err != nil {
		return err
	}
	defer cancel()
	cfg, err := run.sup.Connector(id)
	if err != nil {
		return err
	}
	if cfg.Disabled {
		return chat.E(chat.ErrInvalid, "%s is turned off: turn it on to start it", cfg.DisplayName())
	}
	return run.sup.Restart(ctx, id)
}

// Logs returns a connector's log, oldest first: the server's stderr, its
// log messages and the supervisor's notes.
func (c *Connectors) Logs(id string) ([]LogLineDTO, error) {
	run, _, cancel, err := c.ready()
	if err != nil {
		return nil, err
	}
	defer cancel()
	lines, err := run.sup.Logs(id)
	if err != nil {
		return nil, err
	}
	out := make([]LogLineDTO, 0, len(lines))
	for _, l := range lines {
		out = append(out, logLineDTO(l))
	}
	return out, nil
}

// SignIn signs a connector that uses OAuth in: the browser opens on the
// server's consent page and Maestro waits (up to 5 minutes) for it to come
// back to a listener on 127.0.0.1. The connector restarts with the token.
// CancelSignIn stops the wait.
func (c *Connectors) SignIn(id string) error {
	run, _, cancel, err := c.ready()
	if err != nil {
		return err
	}
	cancel()
	cfg, err := run.sup.Connector(id)
	if err != nil {
		return err
	}
	if cfg.OAuth == nil {
		return chat.E(chat.ErrInvalid, "%s does not use OAuth sign-in", cfg.DisplayName())
	}
	root, err := c.core.beginWork()
	if err != nil {
		return err
	}
	defer c.core.work.Done()
	ctx, stop := context.WithCancel(root)
	defer stop()
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
	if err := run.sup.SignIn(ctx, id); err != nil {
		if ctx.Err() != nil {
			return chat.E(chat.ErrCanceled, "the sign-in to %s was cancelled", cfg.DisplayName())
		}
		return err
	}
	return nil
}

// CancelSignIn stops a connector's sign-in that is waiting for the
// browser.
func (c *Connectors) CancelSignIn(id string) error {
	c.mu.Lock()
	stop := c.signIns[id]
	c.mu.Unlock()
	if stop == nil {
		return chat.E(chat.ErrNotFound, "no sign-in is waiting for this connector")
	}
	stop()
	return nil
}

// SignOut forgets a connector's OAuth token and restarts it.
func (c *Connectors) SignOut(id string) error {
	run, ctx, cancel, err := c.ready()
	if err != nil {
		return err
	}
	defer cancel()
	return run.sup.SignOut(ctx, id)
}

// Test starts the server of a connector form on its own (nothing is
// saved), lists its tools and stops it: the form's "Test connection"
// (mcp.Probe). A form editing a connector (in.ID set) may keep stored
// secret values. The result says what went wrong when the server did not
// start.
func (c *Connectors) Test(in ConnectorInputDTO) (TestResultDTO, error) {
	run, ctx, cancel, err := c.ready()
	if err != nil {
		return TestResultDTO{}, err
	}
	defer cancel()
	old, err := stored(run.sup, in.ID)
	if err != nil {
		return TestResultDTO{}, err
	}
	cfg, err := connectorFromInput(in, old)
	if err != nil {
		return TestResultDTO{}, err
	}
	res, err := mcp.Probe(ctx, cfg, c.probeTimeout, append(c.clientOptions(), c.options...)...)
	if err != nil {
		return TestResultDTO{}, err
	}
	return testResultDTO(res), nil
}
