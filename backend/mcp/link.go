package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"maestro/backend/chat"
)

// link is one live connection to a connector's server: the mcp-go client,
// its transport, the process for stdio, and the calls in flight. The
// runner's run goroutine creates and closes it; calls use it concurrently.
type link struct {
	r       *runner
	cfg     Connector
	started time.Time

	client *client.Client
	wire   *wire
	proc   *process        // stdio only
	http   *http.Transport // remote only
	hc     *http.Client    // streamable HTTP only: the probe's client too
	// session, for a link that follows a task again (tasks.go), is the
	// old-era HTTP session the task lives in.
	session string
	cancel  context.CancelFunc

	serverInfo mcpgo.Implementation
	caps       mcpgo.ServerCapabilities
	protocol   string

	// noise is what the server wrote to stdout that is not JSON-RPC.
	noise noise

	toolsChanged chan struct{} // capacity 1: list_changed seen
	lists        *featureLists // prompts and resource templates (offer.go)
	lost         chan struct{} // closed when the connection is gone
	lostOnce     sync.Once
	lostMu       sync.Mutex
	lostCause    error

	urlDone   urlDone     // URL elicitations waiting for the server's word
	listening listenState // 2026-07-28: the subscriptions/listen stream

	callsMu sync.Mutex
	calls   map[string]*callState // by progress token
	order   []*callState          // running calls, oldest first
	closeMu sync.Once
}

// callKey marks a call's context with its callState, so the answers to a
// Multi Round-Trip request, which mcp-go asks for on that context, know
// their call.
type callKey struct{}

// tokens numbers progress tokens across links.
var tokens atomic.Int64

// callState is one call in flight: its origin, and the timer that
// progress notifications push back.
type callState struct {
	token  string
	origin Origin
	// ctx ends with the call (answered, stopped or timed out), so a
	// server's request made on its behalf stops waiting for the user too.
	ctx        context.Context
	timeout    time.Duration
	onProgress func(Progress)

	mu       sync.Mutex
	timer    *time.Timer
	progress int
	reported time.Time // when onProgress was last called
}

// connect starts the server, initialises it and lists its tools, all
// within the connector's init timeout. On failure the link is closed and
// the error says why (for stdio: the exit status and stderr tail).
func (r *runner) connect(ctx context.Context, cfg Connector) (*link, []mcpgo.Tool, error) {
	l := &link{
		r: r, cfg: cfg, started: time.Now(),
		toolsChanged: make(chan struct{}, 1),
		lists:        &featureLists{},
		lost:         make(chan struct{}),
		calls:        map[string]*callState{},
	}
	// The link's context spans its whole life: stdio and SSE transports
	// tie their streams to the context given to Start.
	linkCtx, cancel := context.WithCancel(ctx)
	l.cancel = cancel
	initCtx, cancelInit := context.WithTimeout(ctx, cfg.InitTimeout())
	defer cancelInit()

	inner, err := l.transport(linkCtx)
	if err != nil {
		l.close()
		return nil, nil, err
	}
	l.wire = &wire{inner: inner, onLost: l.markLost}

	caps := l.capabilities()
	opts := []client.ClientOption{client.WithClientCapabilities(caps), client.WithMaxInputRoundTrips(MaxInputRounds)}
	h := handlers{l}
	if r.sup.sampler != nil {
		opts = append(opts, client.WithSamplingHandler(h))
	}
	if r.sup.elicitor != nil {
		opts = append(opts, client.WithElicitationHandler(h))
	}
	opts = append(opts, client.WithRootsHandler(h))
	l.client = client.NewClient(l.wire, opts...)
	l.client.OnNotification(l.onNotification)
	if err := l.client.Start(linkCtx); err != nil {
		return nil, nil, l.failStart(fmt.Errorf("start the transport: %w", err), initCtx)
	}
	version, err := l.chooseVersion(initCtx)
	if err != nil {
		return nil, nil, l.failStart(fmt.Errorf("server/discover: %w", err), initCtx)
	}
	res, err := l.client.Initialize(initCtx, mcpgo.InitializeRequest{Params: mcpgo.InitializeParams{
		ProtocolVersion: version,
		ClientInfo:      r.sup.client,
		Capabilities:    caps,
	}})
	if err != nil {
		return nil, nil, l.failStart(fmt.Errorf("initialize: %w", err), initCtx)
	}
	if IsModern(version) && !IsModern(res.ProtocolVersion) {
		return nil, nil, l.failStart(fmt.Errorf("the connector asks for protocol %s, which the server does not speak (it offered %s)", version, res.ProtocolVersion), initCtx)
	}
	l.serverInfo, l.caps, l.protocol = res.ServerInfo, res.Capabilities, res.ProtocolVersion
	if cfg.LogLevel != "" && l.caps.Logging != nil {
		if err := l.setLevel(initCtx, cfg.LogLevel); err != nil {
			r.note("logging/setLevel %s failed: %v", cfg.LogLevel, err)
		}
	}
	var tools []mcpgo.Tool
	if l.caps.Tools != nil {
		if tools, err = l.listTools(initCtx); err != nil {
			return nil, nil, l.failStart(fmt.Errorf("tools/list: %w", err), initCtx)
		}
	}
	return l, tools, nil
}

// capabilities are the client capabilities declared at initialize: roots
// always (the supervisor keeps them), sampling and elicitation when a
// handler is configured.
func (s *Supervisor) capabilities() mcpgo.ClientCapabilities {
	var caps mcpgo.ClientCapabilities
	caps.Roots = &struct {
		ListChanged bool `json:"listChanged,omitempty"`
	}{ListChanged: true}
	if s.sampler != nil {
		caps.Sampling = &mcpgo.SamplingCapability{}
	}
	if s.elicitor != nil {
		caps.Elicitation = &mcpgo.ElicitationCapability{Form: &struct{}{}}
		if s.opener != nil {
			caps.Elicitation.URL = &struct{}{}
		}
	}
	return caps
}

// transport builds the mcp-go transport for the connector's kind.
func (l *link) transport(ctx context.Context) (transport.Interface, error) {
	cfg, sup := l.cfg, l.r.sup
	switch cfg.kind() {
	case TransportStdio:
		p, err := startProcess(cfg, func(line string) { l.r.log(SourceStderr, "", "", line) })
		if err != nil {
			return nil, err
		}
		l.proc = p
		br := newBoundedReader(p.stdout, frameLines, sup.readLimits, l.readNote)
		br.onGarbage = l.stdoutNoise
		return transport.NewIO(br, p.stdin, nil), nil
	case TransportInProcess:
		srv, ok := sup.inproc[cfg.Command]
		if !ok {
			return nil, chat.E(chat.ErrNotFound, "no in-process server %q", cfg.Command)
		}
		h := handlers{l}
		var opts []transport.InProcessOption
		if sup.sampler != nil {
			opts = append(opts, transport.WithSamplingHandler(h))
		}
		if sup.elicitor != nil {
			opts = append(opts, transport.WithElicitationHandler(h))
		}
		opts = append(opts, transport.WithRootsHandler(h))
		return transport.NewInProcessTransportWithOptions(srv, opts...), nil
	case TransportHTTP, TransportSSE:
		l.http = &http.Transport{
			Proxy:                 http.ProxyFromEnvironment,
			DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			ForceAttemptHTTP2:     true,
			MaxIdleConns:          8,
			IdleConnTimeout:       90 * time.Second,
			TLSHandshakeTimeout:   10 * time.Second,
			ExpectContinueTimeout: time.Second,
		}
		var rt http.RoundTripper = answerWatch{next: l.http}
		if cfg.OAuth != nil {
			rt = l.r.oauth.roundTripper(rt, cfg)
		}
		rt = boundedTransport{next: rt, lim: sup.readLimits, note: l.readNote}
		rt = sessionKeeper{next: rt, l: l}
		hc := &http.Client{Transport: rt}
		if cfg.kind() == TransportHTTP {
			l.hc = hc
		}
		logger := slog.New(&linkLogHandler{r: l.r})
		if cfg.kind() == TransportSSE {
			t, err := transport.NewSSE(cfg.URL, transport.WithHeaders(cfg.Headers),
				transport.WithHTTPClient(hc), transport.WithSSELogger(logger))
			if err != nil {
				return nil, fmt.Errorf("sse transport: %w", err)
			}
			t.SetConnectionLostHandler(l.markLost)
			return t, nil
		}
		opts := []transport.StreamableHTTPCOption{transport.WithHTTPHeaders(cfg.Headers),
			transport.WithHTTPBasicClient(hc), transport.WithHTTPLogger(logger)}
		if l.session != "" {
			opts = append(opts, transport.WithSession(l.session))
		} else {
			opts = append(opts, transport.WithContinuousListening()) // server → client requests and list_changed outside calls
		}
		t, err := transport.NewStreamableHTTP(cfg.URL, opts...)
		if err != nil {
			return nil, fmt.Errorf("streamable http transport: %w", err)
		}
		return t, nil
	}
	return nil, chat.E(chat.ErrInvalid, "unknown transport %q", cfg.Transport)
}

// failStart closes a link that could not start and says why.
func (l *link) failStart(err error, initCtx context.Context) error {
	err = l.startError(err, initCtx)
	l.close()
	return err
}

// startError explains why a start failed, in the user's terms: for a
// stdio server that died, its exit status and last stderr lines.
func (l *link) startError(err error, initCtx context.Context) error {
	var ours *AuthRequiredError
	var authErr *transport.AuthorizationRequiredError
	switch {
	case errors.As(err, &ours):
		return ours // without the transport's wrapping
	case errors.As(err, &authErr):
		return &AuthRequiredError{Msg: "sign-in required: the server answered 401"}
	}
	timedOut := errors.Is(initCtx.Err(), context.DeadlineExceeded)
	if l.proc != nil && !timedOut {
		l.proc.settle(time.Second)
	}
	if l.proc != nil {
		if reason := l.proc.exitReason(); reason != "" {
			return fmt.Errorf("the server %s during start%s%s", reason, l.noiseNote(), l.tail())
		}
	}
	if timedOut {
		return fmt.Errorf("the server did not finish starting within %s%s%s", l.cfg.InitTimeout(), l.noiseNote(), l.tail())
	}
	return fmt.Errorf("%w%s%s", err, l.noiseNote(), l.tail())
}

// tail quotes the last stderr lines of this link, for an error message.
func (l *link) tail() string {
	lines := quoteTail(l.r.logs.stderrTail(l.started, tailLines), quoteLines)
	if len(lines) == 0 {
		return ""
	}
	return ": " + strings.Join(lines, " / ")
}

// lostReason explains why a ready link ended.
func (l *link) lostReason(cause error) string {
	if l.proc != nil {
		l.proc.settle(time.Second)
		if reason := l.proc.exitReason(); reason != "" {
			return "the server " + reason + l.tail()
		}
	}
	if cause == nil {
		cause = l.lostErr()
	}
	if cause == nil {
		return "the connection was lost"
	}
	return "the connection was lost: " + cause.Error()
}

func (l *link) serverName() string {
	if l.serverInfo.Version == "" {
		return l.serverInfo.Name
	}
	return l.serverInfo.Name + " " + l.serverInfo.Version
}

// exited is closed when a stdio server's process exits (nil otherwise).
func (l *link) exited() <-chan struct{} {
	if l.proc == nil {
		return nil
	}
	return l.proc.exited
}

func (l *link) markLost(err error) {
	l.lostOnce.Do(func() {
		l.lostMu.Lock()
		l.lostCause = err
		l.lostMu.Unlock()
		close(l.lost)
	})
}

func (l *link) lostErr() error {
	l.lostMu.Lock()
	defer l.lostMu.Unlock()
	return l.lostCause
}

// gone reports whether the link is known to be dead.
func (l *link) gone() bool {
	select {
	case <-l.lost:
		return true
	case <-l.exited():
		return true
	default:
		return false
	}
}

// close ends the connection and the server process, and waits for the
// goroutines they started.
func (l *link) close() {
	l.closeMu.Do(func() {
		l.stopListening()
		if l.client != nil {
			_ = l.client.Close()
		} else if l.wire != nil {
			_ = l.wire.Close()
		}
		if l.cancel != nil {
			l.cancel()
		}
		if l.proc != nil {
			l.proc.stop()
		}
		if l.http != nil {
			l.http.CloseIdleConnections()
		}
	})
}

func (l *link) listTools(ctx context.Context) ([]mcpgo.Tool, error) {
	res, err := l.client.ListTools(ctx, mcpgo.ListToolsRequest{})
	if err != nil {
		return nil, err
	}
	return res.Tools, nil
}

func (l *link) setLevel(ctx context.Context, level string) error {
	if l.caps.Logging == nil {
		return chat.E(chat.ErrInvalid, "mcp: %s does not offer logging", l.cfg.DisplayName())
	}
	return l.client.SetLevel(ctx, mcpgo.SetLevelRequest{Params: mcpgo.SetLevelParams{Level: mcpgo.LoggingLevel(level)}})
}

// onNotification routes the server's notifications: log messages to the
// connector's log, progress to its call, list_changed to the run loop. It
// runs on the transport's reader goroutine, so it never blocks.
func (l *link) onNotification(n mcpgo.JSONRPCNotification) {
	f := n.Params.AdditionalFields
	switch n.Method {
	case string(mcpgo.MethodNotificationMessage):
		level, _ := stringOf(f["level"])
		logger, _ := stringOf(f["logger"])
		l.r.log(SourceServer, level, logger, logText(f["data"]))
	case string(mcpgo.MethodNotificationProgress):
		cs := l.callByToken(tokenKey(f["progressToken"]))
		if cs == nil {
			return
		}
		p := Progress{}
		p.Progress, _ = number(f["progress"])
		p.Total, _ = number(f["total"])
		p.Message, _ = stringOf(f["message"])
		cs.onProgressNote(p)
	case string(mcpgo.MethodNotificationToolsListChanged):
		select {
		case l.toolsChanged <- struct{}{}:
		default:
		}
	case mcpgo.MethodNotificationSubscriptionsAcknowledged:
		l.acknowledged()
	case string(mcpgo.MethodNotificationElicitationComplete):
		id, _ := stringOf(f["elicitationId"])
		l.urlComplete(id)
	default:
		l.onFeatureNotification(n.Method, f) // prompts and resources (offer.go)
	}
}

func stringOf(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case fmt.Stringer:
		return x.String(), true
	case nil:
		return "", false
	}
	s := fmt.Sprint(v)
	return s, true
}

// tokenKey is the map key of a progress token (a string or a number).
func tokenKey(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case json.Number:
		return x.String()
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

func (l *link) callByToken(token string) *callState {
	l.callsMu.Lock()
	defer l.callsMu.Unlock()
	return l.calls[token]
}

// originCall is the origin of a server request: the connector, and the
// call it is made for. A Multi Round-Trip request is answered on the
// call's own context, which names the call; an old-era server request names
// none, and is taken for the latest call running on the connector (nil if
// none).
func (l *link) originCall(ctx context.Context) (Origin, *callState) {
	o := Origin{ConnectorID: l.cfg.ID, ConnectorName: l.cfg.DisplayName()}
	if cs, ok := ctx.Value(callKey{}).(*callState); ok {
		o.SessionID, o.CallID = cs.origin.SessionID, cs.origin.CallID
		return o, cs
	}
	l.callsMu.Lock()
	defer l.callsMu.Unlock()
	if n := len(l.order); n > 0 {
		last := l.order[n-1]
		o.SessionID, o.CallID = last.origin.SessionID, last.origin.CallID
		return o, last
	}
	return o, nil
}

// requestScope is the origin of a server request asking the user something
// (sampling, elicitation), and a context that also ends when the call it is
// made for ends: the user's answer is waited for within the call's timeout,
// and Stop or a timeout withdraws the question. stop must be called.
func (l *link) requestScope(ctx context.Context) (o Origin, scoped context.Context, stop func()) {
	o, cs := l.originCall(ctx)
	if cs == nil || cs.ctx == nil {
		return o, ctx, func() {}
	}
	scoped, cancel := context.WithCancelCause(ctx)
	unhook := context.AfterFunc(cs.ctx, func() {
		cause := context.Cause(cs.ctx)
		if cause == nil || errors.Is(cause, context.Canceled) {
			cause = errors.New("the tool call ended")
		}
		cancel(cause)
	})
	return o, scoped, func() { unhook(); cancel(nil) }
}

func (l *link) addCall(cs *callState) {
	l.callsMu.Lock()
	defer l.callsMu.Unlock()
	l.calls[cs.token] = cs
	l.order = append(l.order, cs)
}

func (l *link) removeCall(cs *callState) {
	l.callsMu.Lock()
	defer l.callsMu.Unlock()
	delete(l.calls, cs.token)
	for i, c := range l.order {
		if c == cs {
			l.order = append(l.order[:i], l.order[i+1:]...)
			break
		}
	}
}

// onProgressNote pushes the call's deadline back and reports progress, at
// most once per progressEvery (and always when it reaches the total): a
// server sending thousands a second does not flood the window.
func (cs *callState) onProgressNote(p Progress) {
	cs.mu.Lock()
	cs.progress++
	if cs.timer != nil {
		cs.timer.Reset(cs.timeout)
	}
	now := time.Now()
	report := now.Sub(cs.reported) >= progressEvery || (p.Total > 0 && p.Progress >= p.Total)
	if report {
		cs.reported = now
	}
	cs.mu.Unlock()
	if report && cs.onProgress != nil {
		cs.onProgress(p)
	}
}

// callTimeoutError is the cause of a call that went quiet for too long.
type callTimeoutError struct{ d time.Duration }

func (e *callTimeoutError) Error() string {
	return fmt.Sprintf("no answer or progress within %s", e.d)
}

// call sends tools/call with a progress token. The call is cancelled when
// ctx ends or when timeout passes without an answer or a progress
// notification; either way the server is sent notifications/cancelled.
func (l *link) call(ctx context.Context, tool string, args json.RawMessage, timeout time.Duration, origin Origin, onProgress func(Progress)) (*mcpgo.CallToolResult, error) {
	cs := &callState{
		token:      "maestro-" + strconv.FormatInt(tokens.Add(1), 10),
		origin:     origin,
		timeout:    timeout,
		onProgress: onProgress,
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	ctx = context.WithValue(ctx, callKey{}, cs)
	cs.ctx = ctx
	cs.mu.Lock()
	cs.timer = time.AfterFunc(timeout, func() { cancel(&callTimeoutError{timeout}) })
	cs.mu.Unlock()
	defer func() {
		cs.mu.Lock()
		cs.timer.Stop()
		cs.mu.Unlock()
	}()
	l.addCall(cs)
	defer l.removeCall(cs)

	req := mcpgo.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	req.Params.Meta = &mcpgo.Meta{ProgressToken: cs.token}
	res, err := l.client.CallTool(ctx, req)
	if err != nil {
		if cause := context.Cause(ctx); cause != nil && ctx.Err() != nil {
			return nil, cause
		}
		return nil, err
	}
	return res, nil
}
