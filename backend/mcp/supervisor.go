package mcp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"maestro/backend/chat"
	"maestro/backend/tools"
)

// Supervisor runs the configured connectors: it starts each enabled one in
// its own goroutine, keeps its state, restarts it when it crashes, feeds
// its tools to the registry (ToolSink) and routes tool calls to it. See
// the package doc for the goroutine contract. Build it with NewSupervisor;
// the zero value is not usable.
type Supervisor struct {
	store      ConnectorStore
	secrets    SecretStore
	sink       ToolSink
	events     Events
	sampler    Sampler
	elicitor   Elicitor
	opener     URLOpener
	authorizer Authorizer
	inlineAuth bool
	inproc     map[string]*server.MCPServer
	client     mcpgo.Implementation
	backoffMin time.Duration
	backoffMax time.Duration
	maxFails   int
	ping       time.Duration
	logger     *slog.Logger
	readLimits ReadLimits
	results    tools.ResultLimits
	// sessions and featureEvents serve prompts and resources (offer.go).
	sessions      SessionReader
	featureEvents FeatureEvents
	tasks         taskBook
	// apps keeps the UI resources of MCP Apps (appcache.go).
	apps appCache

	// base is the lifetime of the connector goroutines, cancelled by
	// Close. It is not a request context: no request outlives it.
	base   context.Context
	cancel context.CancelFunc

	// cfgMu serialises the writes of connector configs (Update, Modify,
	// SetNewChats), so a read-modify-write never stores a stale copy over
	// another write.
	cfgMu sync.Mutex

	mu      sync.Mutex
	runners map[string]*runner
	roots   map[string][]Root // by session id
	closed  bool
}

// SupervisorOption configures a Supervisor.
type SupervisorOption func(*Supervisor)

// WithConnectorStore persists connector configs (backend/store). Without
// one, configs live in memory only.
func WithConnectorStore(st ConnectorStore) SupervisorOption {
	return func(s *Supervisor) { s.store = st }
}

// WithSecrets keeps env and header values, client secrets and OAuth
// tokens (the keychain, *auth.Keychain).
func WithSecrets(sec SecretStore) SupervisorOption {
	return func(s *Supervisor) { s.secrets = sec }
}

// WithToolSink receives every connector's tool list (the *tools.Registry).
func WithToolSink(sink ToolSink) SupervisorOption {
	return func(s *Supervisor) { s.sink = sink }
}

// WithEvents receives state changes and log lines.
func WithEvents(e Events) SupervisorOption {
	return func(s *Supervisor) { s.events = e }
}

// WithSampler declares sampling at initialize and routes
// sampling/createMessage to smp.
func WithSampler(smp Sampler) SupervisorOption {
	return func(s *Supervisor) { s.sampler = smp }
}

// WithElicitor declares elicitation (form mode; URL mode too when opener
// is not nil) and routes elicitation/create to e.
func WithElicitor(e Elicitor, opener URLOpener) SupervisorOption {
	return func(s *Supervisor) { s.elicitor, s.opener = e, opener }
}

// WithAuthorizer performs OAuth sign-ins. With inline set, a 401 or a 403
// insufficient_scope answer is handled during the request that got it (at
// most three authorizations per request); without it, the connector waits
// in StateError with NeedsSignIn until SignIn is called (so the app never
// opens a browser on its own).
func WithAuthorizer(a Authorizer, inline bool) SupervisorOption {
	return func(s *Supervisor) { s.authorizer, s.inlineAuth = a, inline }
}

// WithInProcessServer registers srv for connectors with TransportInProcess
// and Command name.
func WithInProcessServer(name string, srv *server.MCPServer) SupervisorOption {
	return func(s *Supervisor) { s.inproc[name] = srv }
}

// WithClientInfo sets the name and version sent at initialize.
func WithClientInfo(name, version string) SupervisorOption {
	return func(s *Supervisor) { s.client = mcpgo.Implementation{Name: name, Version: version} }
}

// WithBackoff sets the restart delays: the first retry waits min, each
// next one twice as long, up to max. Defaults: 1s and 1m.
func WithBackoff(min, max time.Duration) SupervisorOption {
	return func(s *Supervisor) { s.backoffMin, s.backoffMax = min, max }
}

// WithMaxStartFailures sets how many starts in a row may fail before the
// supervisor stops retrying and leaves the connector in StateError
// (default 5; Restart starts over).
func WithMaxStartFailures(n int) SupervisorOption {
	return func(s *Supervisor) { s.maxFails = n }
}

// WithPingInterval sets how often an idle remote connector is pinged to
// notice a dropped connection (default 30s; 0 turns it off).
func WithPingInterval(d time.Duration) SupervisorOption {
	return func(s *Supervisor) { s.ping = d }
}

// WithReadLimits bounds what is read from servers, per message
// (readlimit.go; zero fields take the defaults).
func WithReadLimits(l ReadLimits) SupervisorOption {
	return func(s *Supervisor) { s.readLimits = l.withDefaults() }
}

// WithResultLimits bounds the copies of a tool result (the model's, the
// stored one; zero fields take the defaults). A connector's ResultCap
// overrides the model's.
func WithResultLimits(l tools.ResultLimits) SupervisorOption {
	return func(s *Supervisor) { s.results = l.WithDefaults() }
}

// WithLogger sets the logger for supervisor diagnostics (default: discard).
func WithLogger(l *slog.Logger) SupervisorOption {
	return func(s *Supervisor) { s.logger = l }
}

// NewSupervisor returns a supervisor with no connectors. Call Start to load
// and start the stored ones, and Close when done.
func NewSupervisor(opts ...SupervisorOption) *Supervisor {
	s := &Supervisor{
		inproc:     map[string]*server.MCPServer{},
		client:     mcpgo.Implementation{Name: "Maestro", Version: "dev"},
		backoffMin: time.Second,
		backoffMax: time.Minute,
		maxFails:   5,
		ping:       30 * time.Second,
		logger:     slog.New(slog.DiscardHandler),
		runners:    map[string]*runner{},
		roots:      map[string][]Root{},
		readLimits: ReadLimits{}.withDefaults(),
		results:    tools.ResultLimits{}.WithDefaults(),
	}
	for _, o := range opts {
		o(s)
	}
	s.base, s.cancel = context.WithCancel(context.Background())
	return s
}

// ErrClosed is returned by a Supervisor after Close.
var ErrClosed = chat.E(chat.ErrUnavailable, "mcp: the supervisor is closed")

// Start loads the stored connectors and starts the enabled ones, each in
// its own goroutine, and returns without waiting for them (WaitSettled
// does). Disabled and broken ones are reported to the ToolSink with no
// tools, so server slugs stay stable.
func (s *Supervisor) Start(ctx context.Context) error {
	if err := s.tasks.load(ctx); err != nil {
		return err
	}
	if s.store == nil {
		return nil
	}
	list, broken, err := loadConnectors(ctx, s.store, s.secrets)
	if err != nil {
		return err
	}
	s.loseOrphanTasks(ctx, list)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	for _, c := range list {
		if _, ok := s.runners[c.ID]; ok {
			continue
		}
		var moved []int
		if broken[c.ID] == nil {
			c, moved = s.checkArgs(ctx, c)
			c = s.checkURL(ctx, c)
		}
		r := s.newRunner(c)
		s.runners[c.ID] = r
		if len(moved) > 0 {
			r.note("%s", movedNote(moved))
		}
		if err := broken[c.ID]; err != nil {
			r.fail(ctx, err)
			continue
		}
		r.launch(ctx)
	}
	return nil
}

// Add validates c, gives it an id when it has none, stores it and starts
// it (unless disabled). It returns the stored config.
func (s *Supervisor) Add(ctx context.Context, c Connector) (Connector, error) {
	if c.ID == "" {
		c.ID = chat.NewID()
	}
	if c.CreatedAt.IsZero() {
		c.CreatedAt = time.Now().UTC()
	}
	if c.Transport == "" {
		c.Transport = c.kind()
	}
	if err := c.moveURLCredentials(); err != nil {
		return Connector{}, err
	}
	if err := c.Validate(); err != nil {
		return Connector{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return Connector{}, ErrClosed
	}
	if _, ok := s.runners[c.ID]; ok {
		return Connector{}, chat.E(chat.ErrConflict, "mcp: add connector: id %q is taken", c.ID)
	}
	if err := saveConnector(ctx, s.store, s.secrets, c); err != nil {
		return Connector{}, err
	}
	r := s.newRunner(c)
	s.runners[c.ID] = r
	r.launch(ctx)
	return c.Clone(), nil
}

// Update replaces a connector's config, stores it and restarts the
// connector with it (or stops it, when it is now disabled). A change of
// what only Maestro reads (the approval policy, new chats; sameServer)
// applies at once and leaves the running server and its session alone.
func (s *Supervisor) Update(ctx context.Context, c Connector) error {
	s.cfgMu.Lock()
	defer s.cfgMu.Unlock()
	return s.update(ctx, c)
}

// Modify changes a connector's stored config with fn, read, changed and
// written with no other config write in between (Update's rules apply to
// what fn makes), and returns the config as stored. An error from fn
// changes nothing.
func (s *Supervisor) Modify(ctx context.Context, id string, fn func(*Connector) error) (Connector, error) {
	s.cfgMu.Lock()
	defer s.cfgMu.Unlock()
	r, err := s.runner(id)
	if err != nil {
		return Connector{}, err
	}
	c := r.config()
	if err := fn(&c); err != nil {
		return Connector{}, err
	}
	if err := s.update(ctx, c); err != nil {
		return Connector{}, err
	}
	return r.config(), nil
}

// update is Update with cfgMu held.
func (s *Supervisor) update(ctx context.Context, c Connector) error {
	if c.Transport == "" {
		c.Transport = c.kind()
	}
	if err := c.moveURLCredentials(); err != nil {
		return err
	}
	if err := c.Validate(); err != nil {
		return err
	}
	r, err := s.runner(c.ID)
	if err != nil {
		return err
	}
	old := r.config()
	if c.CreatedAt.IsZero() {
		c.CreatedAt = old.CreatedAt
	}
	if err := saveConnector(ctx, s.store, s.secrets, c); err != nil {
		return err
	}
	if old.URL != c.URL || !sameOAuth(old.OAuth, c.OAuth) {
		r.oauth.reset() // another server: its tokens do not apply
	}
	if sameServer(old, c) {
		r.setConfig(c)
		return nil
	}
	r.reconfigure(ctx, c)
	return nil
}

func sameOAuth(a, b *OAuthConfig) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.ClientID == b.ClientID && a.ClientMetadataURL == b.ClientMetadataURL &&
		a.GrantType == b.GrantType && a.AuthServerMetadataURL == b.AuthServerMetadataURL &&
		slices.Equal(a.Scopes, b.Scopes)
}

// Remove stops a connector, deletes its config, secrets and tokens, and
// removes its tools from the registry.
func (s *Supervisor) Remove(ctx context.Context, id string) error {
	s.mu.Lock()
	r, ok := s.runners[id]
	if ok {
		delete(s.runners, id)
	}
	s.mu.Unlock()
	if !ok {
		return chat.E(chat.ErrNotFound, "mcp: no connector %q", id)
	}
	r.shutdown()
	s.apps.drop(id)
	r.oauth.forget() // a refresh still in flight must not write the record back
	s.tasks.forget(ctx, id)
	var errs []error
	if s.store != nil {
		if err := s.store.DeleteConnector(ctx, id); err != nil && !errors.Is(err, chat.ErrNotFound) {
			errs = append(errs, err)
		}
	}
	if s.secrets != nil {
		for _, acct := range []string{secretsAccount(id), oauthAccount(id)} {
			if err := s.secrets.Delete(ctx, acct); err != nil && !errors.Is(err, chat.ErrNotFound) {
				errs = append(errs, err)
			}
		}
	}
	if s.sink != nil {
		if err := s.sink.RemoveConnector(ctx, id); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("mcp: remove connector %q: %w", r.config().DisplayName(), err)
	}
	return nil
}

// Restart stops and starts a connector now, resetting its failure count.
func (s *Supervisor) Restart(ctx context.Context, id string) error {
	r, err := s.runner(id)
	if err != nil {
		return err
	}
	r.reconfigure(ctx, r.config())
	return nil
}

// Connectors returns every config, secrets included (for the edit form),
// sorted by name.
func (s *Supervisor) Connectors() []Connector {
	s.mu.Lock()
	out := make([]Connector, 0, len(s.runners))
	for _, r := range s.runners {
		out = append(out, r.config())
	}
	s.mu.Unlock()
	slices.SortFunc(out, func(a, b Connector) int {
		return cmp.Or(cmp.Compare(a.DisplayName(), b.DisplayName()), cmp.Compare(a.ID, b.ID))
	})
	return out
}

// Connector returns one config.
func (s *Supervisor) Connector(id string) (Connector, error) {
	r, err := s.runner(id)
	if err != nil {
		return Connector{}, err
	}
	return r.config(), nil
}

// Status returns a connector's state.
func (s *Supervisor) Status(id string) (ConnectorStatus, error) {
	r, err := s.runner(id)
	if err != nil {
		return ConnectorStatus{}, err
	}
	return r.statusCopy(), nil
}

// Statuses returns every connector's state, sorted by name.
func (s *Supervisor) Statuses() []ConnectorStatus {
	s.mu.Lock()
	out := make([]ConnectorStatus, 0, len(s.runners))
	for _, r := range s.runners {
		out = append(out, r.statusCopy())
	}
	s.mu.Unlock()
	slices.SortFunc(out, func(a, b ConnectorStatus) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.ID, b.ID))
	})
	return out
}

// Tools returns a ready connector's tools as the server listed them.
func (s *Supervisor) Tools(id string) ([]mcpgo.Tool, error) {
	r, err := s.runner(id)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.link == nil {
		return nil, chat.E(chat.ErrUnavailable, "mcp: %s is %s", r.cfg.DisplayName(), r.status.State)
	}
	return slices.Clone(r.tools), nil
}

// Logs returns a connector's log: stderr lines, server log messages and
// the supervisor's notes, oldest first.
func (s *Supervisor) Logs(id string) ([]LogLine, error) {
	r, err := s.runner(id)
	if err != nil {
		return nil, err
	}
	return r.logs.snapshot(), nil
}

// WaitSettled waits until each named connector (every one when ids is
// empty) is ready, in error, or stopped, or ctx ends.
func (s *Supervisor) WaitSettled(ctx context.Context, ids ...string) error {
	if len(ids) == 0 {
		s.mu.Lock()
		for id := range s.runners {
			ids = append(ids, id)
		}
		s.mu.Unlock()
	}
	for _, id := range ids {
		r, err := s.runner(id)
		if err != nil {
			return err
		}
		for {
			st, changed := r.watch()
			if st != StateStarting && st != StateRestarting {
				break
			}
			select {
			case <-changed:
			case <-ctx.Done():
				return fmt.Errorf("mcp: wait for %s: %w", r.config().DisplayName(), ctx.Err())
			}
		}
	}
	return nil
}

// SetLevel sets the level of the log messages a connector's server sends,
// stores it in the config and applies it now if the server is ready.
func (s *Supervisor) SetLevel(ctx context.Context, id, level string) error {
	if !validLevel(level) {
		return chat.E(chat.ErrInvalid, "mcp: unknown log level %q", level)
	}
	r, err := s.runner(id)
	if err != nil {
		return err
	}
	c := r.config()
	c.LogLevel = level
	if err := saveConnector(ctx, s.store, s.secrets, c); err != nil {
		return err
	}
	r.mu.Lock()
	r.cfg.LogLevel = level
	l := r.link
	r.mu.Unlock()
	if l == nil {
		return nil // applied at the next start
	}
	return l.setLevel(ctx, level)
}

// Close stops every connector and waits until all of the supervisor's
// goroutines (and the servers it started) have exited.
func (s *Supervisor) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	runners := make([]*runner, 0, len(s.runners))
	for _, r := range s.runners {
		runners = append(runners, r)
	}
	s.mu.Unlock()
	s.cancel()
	var wg sync.WaitGroup
	for _, r := range runners {
		wg.Go(r.shutdown)
	}
	wg.Wait()
	return nil
}

func (s *Supervisor) runner(id string) (*runner, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrClosed
	}
	r, ok := s.runners[id]
	if !ok {
		return nil, chat.E(chat.ErrNotFound, "mcp: no connector %q", id)
	}
	return r, nil
}

// backoff is the delay before retry n (1-based).
func (s *Supervisor) backoff(n int) time.Duration {
	d := s.backoffMin
	for i := 1; i < n && d < s.backoffMax; i++ {
		d *= 2
	}
	return min(d, s.backoffMax)
}
