package mcp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"maestro/backend/chat"
)

// stableAfter is how long a connection must last for its crash count to
// start over.
const stableAfter = time.Minute

// runner owns one connector: its config, state, log and current link, and
// the goroutine (run) that starts, watches and restarts its server.
//
// mu guards cfg, status, link, tools, changed, cancel and done. The run
// goroutine is the only one that creates and closes links; calls borrow
// the current link under mu and use it without the lock.
type runner struct {
	sup   *Supervisor
	id    string
	logs  logRing
	oauth *oauthState
	kick  chan struct{} // restart now (capacity 1)
	// events bounds the log lines that reach Events (ratelimit.go).
	events *tokenBucket
	// subs are the resources sessions follow on this connector
	// (subscribe.go); they outlive links.
	subs *subscriptions

	mu       sync.Mutex
	cfg      Connector
	status   ConnectorStatus
	link     *link
	tools    []mcpgo.Tool
	reported bool          // the sink has had a list from this runner
	appsRev  int64         // the revision of the list the app cache holds (appcache.go)
	changed  chan struct{} // closed and replaced on every status change
	cancel   context.CancelFunc
	done     chan struct{}
}

func (s *Supervisor) newRunner(c Connector) *runner {
	r := &runner{
		sup:     s,
		id:      c.ID,
		cfg:     c.Clone(),
		kick:    make(chan struct{}, 1),
		changed: make(chan struct{}),
		events:  newTokenBucket(logBurst, logRate),
		subs:    newSubscriptions(),
	}
	r.status = ConnectorStatus{ID: c.ID, Name: c.DisplayName(), State: StateStopped, Since: time.Now()}
	r.oauth = newOAuthState(s, c.ID)
	return r
}

func (r *runner) config() Connector {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cfg.Clone()
}

func (r *runner) statusCopy() ConnectorStatus {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := r.status
	st.StderrTail = slices.Clone(st.StderrTail)
	return st
}

// watch returns the state and a channel closed at the next change.
func (r *runner) watch() (State, <-chan struct{}) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.status.State, r.changed
}

// update changes the status and publishes it. Events are sent under mu so
// that one connector's states arrive in order.
func (r *runner) update(fn func(*ConnectorStatus)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.updateLocked(fn)
}

func (r *runner) updateLocked(fn func(*ConnectorStatus)) {
	version := r.status.Version
	fn(&r.status)
	r.status.Version = version + 1
	r.status.Name = r.cfg.DisplayName()
	r.status.Since = time.Now()
	close(r.changed)
	r.changed = make(chan struct{})
	if ev := r.sup.events; ev != nil {
		st := r.status
		st.StderrTail = slices.Clone(st.StderrTail)
		ev.ConnectorState(st)
	}
}

// log adds a line to the connector's log and publishes it, unless the
// connector is logging faster than Events takes (then a later line says
// how many were held back).
func (r *runner) log(source, level, logger, text string) {
	line := r.logs.add(LogLine{Time: time.Now(), Source: source, Level: level, Logger: logger, Text: text})
	ev := r.sup.events
	if ev == nil {
		return
	}
	ok, dropped := r.events.take()
	if !ok {
		return
	}
	if dropped > 0 {
		ev.ConnectorLog(r.id, r.logs.add(LogLine{Time: line.Time, Source: SourceMaestro, Text: heldBackNote(dropped)}))
	}
	ev.ConnectorLog(r.id, line)
}

func (r *runner) note(format string, args ...any) {
	r.log(SourceMaestro, "", "", fmt.Sprintf(format, args...))
}

// launch starts the run goroutine, unless the connector is disabled (then
// it reports no tools, so the registry knows the connector).
func (r *runner) launch(ctx context.Context) {
	r.mu.Lock()
	if r.cfg.Disabled {
		r.updateLocked(func(st *ConnectorStatus) { *st = ConnectorStatus{ID: r.id, State: StateStopped} })
		cfg := r.cfg
		r.mu.Unlock()
		r.reportTools(ctx, cfg, nil)
		return
	}
	if r.cancel != nil {
		r.mu.Unlock()
		return
	}
	runCtx, cancel := context.WithCancel(r.sup.base)
	done := make(chan struct{})
	r.cancel, r.done = cancel, done
	// Starting from now, so that WaitSettled right after waits.
	r.updateLocked(func(st *ConnectorStatus) { st.State, st.Error, st.RetryAt = StateStarting, "", time.Time{} })
	r.mu.Unlock()
	go r.run(runCtx, done)
}

// fail puts a connector that cannot even be launched in StateError.
func (r *runner) fail(ctx context.Context, err error) {
	r.update(func(st *ConnectorStatus) {
		st.State, st.Error, st.Tools, st.RetryAt = StateError, err.Error(), 0, time.Time{}
	})
	r.reportTools(ctx, r.config(), nil)
}

// shutdown stops the run goroutine and waits for it.
func (r *runner) shutdown() {
	r.mu.Lock()
	cancel, done := r.cancel, r.done
	r.cancel, r.done = nil, nil
	r.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
	r.oauth.wait() // a token refresh its requests started
}

// reconfigure applies a new config: a running connector restarts with it,
// a stopped one starts, a disabled one stops.
// setConfig replaces the config without touching the server: for changes
// sameServer allows.
func (r *runner) setConfig(c Connector) {
	r.mu.Lock()
	r.cfg = c.Clone()
	r.mu.Unlock()
}

func (r *runner) reconfigure(ctx context.Context, c Connector) {
	r.mu.Lock()
	r.cfg = c.Clone()
	running := r.cancel != nil
	r.mu.Unlock()
	switch {
	case c.Disabled:
		r.shutdown()
		r.launch(ctx) // reports it stopped, with no tools
	case running:
		r.restartNow()
	default:
		r.launch(ctx)
	}
}

func (r *runner) restartNow() {
	select {
	case r.kick <- struct{}{}:
	default:
	}
}

// reportTools gives the sink the connector's list (nil: none).
func (r *runner) reportTools(ctx context.Context, cfg Connector, tools []mcpgo.Tool) {
	r.mu.Lock()
	r.reported = true
	r.mu.Unlock()
	if r.sup.sink == nil {
		return
	}
	if err := r.sup.sink.SetConnectorTools(ctx, cfg.ID, cfg.DisplayName(), toolsOf(tools)); err != nil {
		r.note("the registry did not take the tool list: %v", err)
	}
}

type waitResult int

const (
	waitDone waitResult = iota // the runner is stopping
	waitTimer
	waitKick
)

// wait sleeps d (forever when d <= 0) unless kicked or stopped.
func (r *runner) wait(ctx context.Context, d time.Duration) waitResult {
	var timer <-chan time.Time
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		timer = t.C
	}
	select {
	case <-ctx.Done():
		return waitDone
	case <-r.kick:
		return waitKick
	case <-timer:
		return waitTimer
	}
}

// run starts the server, serves it while it is up, and restarts it with
// backoff when it fails or drops, until ctx ends. It closes done when it
// has closed its last link.
func (r *runner) run(ctx context.Context, done chan struct{}) {
	defer close(done)
	defer r.update(func(st *ConnectorStatus) {
		*st = ConnectorStatus{ID: r.id, State: StateStopped, StderrTail: st.StderrTail}
	})
	var followers sync.WaitGroup // tasks followed again (tasks.go)
	defer followers.Wait()
	fails, crashes := 0, 0
	for {
		select { // a kick that came while starting is spent
		case <-r.kick:
		default:
		}
		cfg := r.config()
		r.update(func(st *ConnectorStatus) {
			st.State, st.Error, st.Tools, st.RetryAt, st.NeedsSignIn = StateStarting, "", 0, time.Time{}, false
			st.Restarts = crashes
		})
		started := time.Now()
		r.note("starting %s", summary(cfg))
		l, tools, err := r.connect(ctx, cfg)
		if ctx.Err() != nil {
			if l != nil {
				l.close()
			}
			return
		}
		if err != nil {
			fails++
			needsSignIn := errors.Is(err, chat.ErrAuthRequired)
			var retry time.Duration
			if !needsSignIn && fails < r.sup.maxFails {
				retry = r.sup.backoff(fails)
			}
			r.note("start failed: %v", err)
			tail := r.logs.stderrTail(started, tailLines)
			r.update(func(st *ConnectorStatus) {
				st.State, st.Error, st.NeedsSignIn, st.StderrTail = StateError, err.Error(), needsSignIn, tail
				if retry > 0 {
					st.RetryAt = time.Now().Add(retry)
				}
			})
			r.mu.Lock()
			first := !r.reported
			r.mu.Unlock()
			if first {
				r.reportTools(ctx, cfg, nil)
			}
			switch r.wait(ctx, retry) {
			case waitDone:
				return
			case waitKick:
				fails = 0
			}
			continue
		}
		fails = 0
		readyAt := time.Now()
		l.listen()                     // 2026-07-28: list changes come on a subscriptions/listen stream, open before ready
		r.reportTools(ctx, cfg, tools) // before ready: who waits for ready finds the tools
		r.mu.Lock()
		r.link, r.tools = l, tools
		r.mu.Unlock()
		r.preloadApps(ctx, cfg, l, tools)
		r.mu.Lock()
		r.updateLocked(func(st *ConnectorStatus) {
			st.State, st.Tools, st.Server, st.Protocol = StateReady, len(tools), l.serverName(), l.protocol
			st.Icons = l.icons()
			st.Error, st.StderrTail = "", nil
		})
		r.mu.Unlock()
		r.note("ready: %d tools (%s, protocol %s)", len(tools), l.serverName(), l.protocol)
		r.resubscribe(ctx, cfg, l) // the resources sessions follow (subscribe.go)
		r.resumeTasks(ctx, &followers)

		kicked, lost := r.serve(ctx, cfg, l)
		r.mu.Lock()
		r.link = nil
		r.mu.Unlock()
		l.close()
		if ctx.Err() != nil {
			return
		}
		if kicked {
			crashes = 0
			continue
		}
		if time.Since(readyAt) > stableAfter {
			crashes = 0
		}
		crashes++
		delay := r.sup.backoff(crashes)
		reason := l.lostReason(lost)
		r.note("%s; restarting in %s", reason, delay.Round(time.Millisecond))
		tail := r.logs.stderrTail(readyAt, tailLines)
		r.update(func(st *ConnectorStatus) {
			st.State, st.Error, st.Tools, st.StderrTail = StateRestarting, reason, 0, tail
			st.RetryAt, st.Restarts = time.Now().Add(delay), crashes
		})
		switch r.wait(ctx, delay) {
		case waitDone:
			return
		case waitKick:
			crashes = 0
		}
	}
}

// serve watches a ready link: it re-lists tools on list_changed, pings
// remote servers, and returns when the link is lost (lost: why), the
// runner is kicked, or ctx ends.
func (r *runner) serve(ctx context.Context, cfg Connector, l *link) (kicked bool, lost error) {
	var relisted time.Time
	var ping <-chan time.Time
	if cfg.kind() == TransportHTTP || cfg.kind() == TransportSSE {
		if d := r.sup.ping; d > 0 {
			t := time.NewTicker(d)
			defer t.Stop()
			ping = t.C
		}
	}
	for {
		select {
		case <-ctx.Done():
			return false, nil
		case <-r.kick:
			r.note("restarting on request")
			return true, nil
		case <-l.exited():
			return false, nil
		case <-l.lost:
			return false, l.lostErr()
		case <-l.toolsChanged:
			// A flood of list_changed costs at most one tools/list per
			// relistEvery (the notifications in between coalesce).
			if d := relistEvery - time.Since(relisted); d > 0 {
				switch r.wait(ctx, d) {
				case waitDone:
					return false, nil
				case waitKick:
					r.note("restarting on request")
					return true, nil
				}
			}
			relisted = time.Now()
			lctx, cancel := context.WithTimeout(ctx, cfg.InitTimeout())
			tools, err := l.listTools(lctx)
			cancel()
			if err != nil {
				if connectionGone(err) {
					return false, err
				}
				r.note("tools/list after list_changed failed: %v", err)
				continue
			}
			r.mu.Lock()
			r.tools = tools
			r.updateLocked(func(st *ConnectorStatus) { st.Tools = len(tools) })
			r.mu.Unlock()
			r.note("tool list changed: %d tools", len(tools))
			r.reportTools(ctx, cfg, tools)
			r.preloadApps(ctx, cfg, l, tools)
		case <-ping:
			pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			err := l.ping(pctx)
			cancel()
			if err != nil && (connectionGone(err) || errors.Is(err, context.DeadlineExceeded)) {
				return false, fmt.Errorf("ping failed: %w", err)
			}
		}
	}
}

// summary summarises a config for the log (no secrets).
func summary(c Connector) string {
	switch c.kind() {
	case TransportStdio:
		return strings.TrimSpace(c.Command + " " + strings.Join(c.Args, " "))
	case TransportInProcess:
		return "in-process server " + c.Command
	}
	return string(c.kind()) + " " + c.URL
}
