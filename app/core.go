package app

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/mcp"
	"maestro/backend/providers/catalog"
	"maestro/backend/sampling"
	"maestro/backend/store"
	"maestro/backend/toolbox"
	"maestro/backend/tools"
)

// callTimeout bounds one bound call's work.
const callTimeout = 30 * time.Second

// core is what the services share: the lifecycle, the WaitGroup of long
// work, and the event sink. mu guards the fields below it; work tracks
// every goroutine app/ starts for long work (runs, sign-ins, the
// connectors' load), and shutdown waits for it.
type core struct {
	version, dataDir string
	log              *slog.Logger
	rt               Runtime
	events           *sink
	// build makes what runs on the opened data file (App.build).
	build func(root context.Context, st *store.Store) *running

	mu sync.RWMutex
	// wailsCtx is the context Wails gave startup. It is stored because the
	// runtime needs it for every call (the one exception to "never store a
	// context"); it is used only through rt.
	wailsCtx context.Context
	root     context.Context
	cancel   context.CancelFunc
	// run is nil before startup, once shutdown has begun, and when the data
	// file could not be opened; runErr then says why.
	run    *running
	runErr error

	work sync.WaitGroup
}

// running is what startup builds on the opened data file. Its fields are
// set once, before it is published under core.mu, and never change.
type running struct {
	store   *store.Store
	agent   *agent.Agent
	reg     *tools.Registry
	sup     *mcp.Supervisor
	box     *toolbox.Toolbox
	sampler *sampling.Runner
	// loaded is closed once the stored connectors are loaded and started.
	loaded chan struct{}
}

func newCore(d Deps) *core {
	c := &core{version: d.Version, dataDir: d.DataDir, log: cmp.Or(d.Logger, slog.Default()), rt: d.Runtime,
		runErr: fmt.Errorf("maestro is still starting: %w", chat.ErrUnavailable)}
	c.events = newSink(d.Runtime.Emit)
	return c
}

// build makes what runs on the opened data file: the tools registry, the
// connectors' supervisor (its servers start in the background), the toolbox
// the agent calls tools through, the agent, and the sampling runner.
func (a *App) build(root context.Context, st *store.Store) *running {
	cn, ch := a.Connectors, a.Chat
	reg := tools.NewRegistry(st, catalog.ToolRules(),
		append([]tools.Option{tools.WithRevisionListener(cn.revisionChanged)}, cn.regOptions...)...)
	ev := &connectorEvents{c: cn}
	sup := cn.newSupervisor(st, reg, ev)
	box := toolbox.New(reg, sup)
	ev.box = box // before any server starts
	run := &running{
		store: st, reg: reg, sup: sup, box: box, loaded: make(chan struct{}),
		agent:   agent.New(st, ch.models, box, approver{ch}, append([]agent.Option{agent.WithLogger(a.core.log)}, ch.options...)...),
		sampler: sampling.New(ch.models, st, ch.modelIDs),
	}
	ch.catalog.Attach(st, func(provider string) { a.core.events.emit(EventModelsChanged, provider) })
	cn.start(root, run)
	return run
}

func (c *core) startup(ctx context.Context) {
	root, cancel := context.WithCancel(context.WithoutCancel(ctx))
	st, err := store.Open(root, c.dataDir, store.Options{})
	if err != nil {
		c.log.Error("open data file", "dir", c.dataDir, "err", err)
	}
	c.events.start(ctx)
	c.mu.Lock()
	c.wailsCtx, c.root, c.cancel = ctx, root, cancel
	if err != nil {
		c.runErr = err // "still starting" until then
	}
	c.mu.Unlock()
	if st == nil {
		return
	}
	run := c.build(root, st)
	c.mu.Lock()
	c.run = run
	c.mu.Unlock()
}

func (c *core) shutdown(context.Context) {
	c.mu.Lock()
	cancel, run := c.cancel, c.run
	c.run, c.runErr = nil, fmt.Errorf("maestro is shutting down: %w", chat.ErrUnavailable)
	c.mu.Unlock()
	if cancel != nil {
		cancel() // runs, sign-ins and loads stop
	}
	c.work.Wait()
	c.events.close() // nothing more reaches the window
	if run == nil {
		return
	}
	if err := run.sup.Close(); err != nil { // the servers write to the store
		c.log.Warn("stop the connectors", "err", err)
	}
	if err := run.store.Close(); err != nil {
		c.log.Error("close data file", "err", err)
	}
}

// call returns what runs on the data file and a context for one bound
// call: a child of the root bounded by a timeout, so no call outlives
// shutdown.
func (c *core) call() (*running, context.Context, context.CancelFunc, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.run == nil {
		return nil, nil, nil, c.runErr
	}
	ctx, cancel := context.WithTimeout(c.root, callTimeout)
	return c.run, ctx, cancel, nil
}

// rootCall is call for what does not need the data file (sign-ins work
// when it failed to open).
func (c *core) rootCall() (context.Context, context.CancelFunc, error) {
	root, err := c.rootContext()
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithTimeout(root, callTimeout)
	return ctx, cancel, nil
}

// beginWork takes a WaitGroup slot for long work and returns the root
// context, or fails once shutdown has begun. Holding mu while checking and
// adding means no Add can race shutdown's Wait: shutdown cancels the root
// before it waits, and a canceled root refuses new work here.
func (c *core) beginWork() (context.Context, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	root, err := c.rootLocked()
	if err != nil {
		return nil, err
	}
	c.work.Add(1)
	return root, nil
}

func (c *core) rootContext() (context.Context, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.rootLocked()
}

func (c *core) rootLocked() (context.Context, error) {
	switch {
	case c.root == nil:
		return nil, fmt.Errorf("maestro is still starting: %w", chat.ErrUnavailable)
	case c.root.Err() != nil:
		return nil, fmt.Errorf("maestro is shutting down: %w", chat.ErrUnavailable)
	}
	return c.root, nil
}

func (c *core) runtimeContext() context.Context {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.wailsCtx
}

func (c *core) show() {
	if ctx := c.runtimeContext(); ctx != nil && c.rt.Show != nil {
		c.rt.Show(ctx)
	}
}

// openURL opens url in the user's browser through the runtime; the error
// says why none could be opened.
func (c *core) openURL(url string) error {
	ctx := c.runtimeContext()
	if ctx == nil || c.rt.OpenURL == nil {
		return chat.E(chat.ErrUnavailable, "the window is not open yet, so no browser can be opened")
	}
	if err := c.rt.OpenURL(ctx, url); err != nil {
		c.log.Warn("open the browser", "err", err)
		return err
	}
	return nil
}

// dialog shows a file or folder picker; "" means the user cancelled.
func (c *core) dialog(fn func(context.Context, FileDialog) (string, error), d FileDialog) (string, error) {
	ctx := c.runtimeContext()
	if fn == nil || ctx == nil {
		return "", chat.E(chat.ErrUnavailable, "file pickers are not available here")
	}
	if d.DefaultDirectory == "" {
		if home, err := os.UserHomeDir(); err == nil {
			d.DefaultDirectory = home
		}
	}
	path, err := fn(ctx, d)
	if err != nil {
		return "", chat.E(chat.ErrUnavailable, "the file picker failed: %v", err)
	}
	return path, nil
}
