package mcp

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/client"
)

// Old-era HTTP sessions and tasks: a 2025-11-25 server knows a task only in
// the session that created it (mcp-go's and the TypeScript SDK's task
// stores both check). So that a task still running when Maestro quits can be
// followed after the restart, the session is not ended at quit (mcp-go
// would send DELETE), and the task is followed on a link that resumes the
// session (sessionLink).

// sessionKeeper drops the DELETE that ends an old-era HTTP session while
// the supervisor is closing and the connector has tasks still running.
type sessionKeeper struct {
	next http.RoundTripper
	l    *link
}

func (k sessionKeeper) RoundTrip(req *http.Request) (*http.Response, error) {
	sup := k.l.r.sup
	if req.Method == http.MethodDelete && sup.base.Err() != nil && len(sup.tasks.pending(k.l.cfg.ID)) > 0 {
		k.l.r.note("the session is kept for the tasks still running")
		return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Header: http.Header{},
			Body: io.NopCloser(strings.NewReader("")), Request: req}, nil
	}
	return k.next.RoundTrip(req)
}

// sessionLink connects to an existing old-era HTTP session, without
// initialize, to follow a task created in it. It answers the server's
// requests like any link (an input_required task asks through them).
func (r *runner) sessionLink(ctx context.Context, cfg Connector, session, protocol string) (*link, error) {
	l := &link{
		r: r, cfg: cfg, started: time.Now(), session: session, protocol: protocol,
		toolsChanged: make(chan struct{}, 1),
		lost:         make(chan struct{}),
		calls:        map[string]*callState{},
	}
	linkCtx, cancel := context.WithCancel(r.sup.base)
	l.cancel = cancel
	inner, err := l.transport(linkCtx)
	if err != nil {
		l.close()
		return nil, fmt.Errorf("resume session: %w", err)
	}
	l.wire = &wire{inner: inner, onLost: l.markLost}
	h := handlers{l}
	opts := []client.ClientOption{client.WithSession(), client.WithRootsHandler(h)}
	if r.sup.sampler != nil {
		opts = append(opts, client.WithSamplingHandler(h))
	}
	if r.sup.elicitor != nil {
		opts = append(opts, client.WithElicitationHandler(h))
	}
	l.client = client.NewClient(l.wire, opts...)
	if err := l.client.Start(linkCtx); err != nil {
		l.close()
		return nil, fmt.Errorf("resume session: %w", err)
	}
	l.wire.SetProtocolVersion(protocol)
	return l, nil
}
