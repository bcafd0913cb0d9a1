package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"maestro/backend/chat"
	"maestro/backend/tools"
)

// CallRequest is one tool call as the model made it.
type CallRequest struct {
	SessionID string
	// CallID is the canonical call id; it names the result.
	CallID string
	// Provider and Name: the name the model called, as Provider exposes it.
	Provider  string
	Name      string
	Arguments json.RawMessage
	// OnProgress, when set, receives the call's progress notifications
	// (on the transport's goroutine: it must not block).
	OnProgress func(Progress)
}

// Searcher answers the built-in search_tools; *tools.Registry satisfies it. The
// supervisor uses its ToolSink when the sink is one.
type Searcher interface {
	SearchTools(ctx context.Context, sessionID, provider string, args json.RawMessage) (chat.ToolResult, error)
}

// Call runs one tool call and returns its envelope; it never fails in any
// other way. The exposed name is resolved in snap (the snapshot the
// request was built from) to the canonical tool, its connector and its MCP
// name. Arguments that are not a JSON object or miss a required field are
// refused without calling the server, and so is a tool whose connector
// needs a sign-in. A connector still starting or restarting is waited for,
// up to its init timeout. The call carries a progress token; it is
// cancelled (notifications/cancelled) when ctx ends or when the
// connector's call timeout passes without an answer or progress. The
// result is normalised and capped (Normalize), with the duration set.
func (s *Supervisor) Call(ctx context.Context, snap tools.Snapshot, req CallRequest) chat.ToolResult {
	start := time.Now()
	res, connector, tool := s.call(ctx, snap, req)
	res.CallID = req.CallID
	if res.Name == "" {
		res.Name = req.Name
	}
	res.DurationMS = time.Since(start).Milliseconds()
	if !s.logger.Enabled(ctx, slog.LevelInfo) {
		return res
	}
	outcome := "ok"
	if !res.Successful {
		outcome = res.Error
	}
	s.logger.InfoContext(ctx, "mcp call", "session", req.SessionID, "connector", connector, "tool", tool,
		"durationMs", res.DurationMS, "successful", res.Successful, "outcome", outcome)
	return res
}

func (s *Supervisor) call(ctx context.Context, snap tools.Snapshot, req CallRequest) (res chat.ToolResult, connector, tool string) {
	e, ok := snap.Resolve(req.Provider, req.Name)
	if !ok {
		return tools.ErrorResult(req.CallID, req.Name, fmt.Sprintf("unknown tool %q: it is not one of this session's tools", req.Name)), "", req.Name
	}
	if e.Builtin {
		srch, ok := s.sink.(Searcher)
		if !ok {
			return tools.ErrorResult(req.CallID, e.Canonical, "search_tools is not available"), "", e.Canonical
		}
		res, err := srch.SearchTools(ctx, cmpOr(snap.SessionID, req.SessionID), req.Provider, req.Arguments)
		if err != nil {
			return tools.ErrorResult(req.CallID, e.Canonical, err.Error()), "", e.Canonical
		}
		res.Name = e.Canonical
		return res, "", e.Canonical
	}
	fail := func(msg string) chat.ToolResult { return tools.ErrorResult(req.CallID, e.Canonical, msg) }
	if err := tools.ValidateArguments(e.InputSchema, req.Arguments); err != nil {
		return fail(err.Error()), e.ServerName, e.Canonical
	}
	r, err := s.runner(e.ConnectorID)
	if err != nil {
		return fail(fmt.Sprintf("the %s connector no longer exists", e.ServerName)), e.ServerName, e.Canonical
	}
	l, err := r.ready(ctx)
	if err != nil {
		if errors.Is(err, chat.ErrAuthRequired) {
			return fail(UnauthorizedMessage(e.ServerName)), e.ServerName, e.Canonical
		}
		return fail(err.Error()), e.ServerName, e.Canonical
	}
	args := bytes.TrimSpace(req.Arguments)
	if len(args) == 0 || bytes.Equal(args, []byte("null")) {
		args = []byte("{}")
	}
	origin := Origin{ConnectorID: e.ConnectorID, ConnectorName: e.ServerName, SessionID: req.SessionID, CallID: req.CallID}
	out, err := s.callOnce(ctx, r, l, e, args, origin, req.OnProgress)
	for n := 0; n < maxURLElicitationRetries; n++ {
		var urlErr mcpgo.URLElicitationRequiredError
		if !errors.As(err, &urlErr) {
			break
		}
		// The server wants pages opened first (2025-11-25): once they are
		// done, the call is made again.
		if uerr := (handlers{l}).urlRequired(context.WithValue(ctx, callKey{}, &callState{origin: origin, ctx: ctx}), urlErr); uerr != nil {
			err = fmt.Errorf("%w: %w", urlErr, uerr)
			break
		}
		out, err = s.callOnce(ctx, r, l, e, args, origin, req.OnProgress)
	}
	if err != nil {
		return fail(s.callError(ctx, r, l, err)), e.ServerName, e.Canonical
	}
	lim := s.results
	if l.cfg.ResultCap > 0 {
		lim.Model = l.cfg.ResultCap
	}
	res = Normalize(out, lim)
	res.Name = e.Canonical
	res.App = r.appOfCall(e.Tool)
	return res, e.ServerName, e.Canonical
}

// callOnce makes the call, as a task when the server lets the tool run as
// one (tasks.go).
func (s *Supervisor) callOnce(ctx context.Context, r *runner, l *link, e tools.Entry, args json.RawMessage, origin Origin, onProgress func(Progress)) (*mcpgo.CallToolResult, error) {
	if r.taskSupport(l, e.Tool) != "" {
		return s.callTask(ctx, r, l, e, args, origin, onProgress)
	}
	return l.call(ctx, e.Tool, args, l.cfg.CallTimeout(), origin, onProgress)
}

// callError words a failed call for the model and the user.
func (s *Supervisor) callError(ctx context.Context, r *runner, l *link, err error) string {
	name := l.cfg.DisplayName()
	var timeout *callTimeoutError
	var authErr *transport.AuthorizationRequiredError
	switch {
	case errors.As(err, &timeout):
		return fmt.Sprintf("the %s server gave %s; the call was cancelled", name, timeout.Error())
	case errors.Is(err, client.ErrMaxInputRoundTripsExceeded):
		return fmt.Sprintf("the %s server kept asking for more input: Maestro answered %d rounds and stopped the call (%v)", name, MaxInputRounds, err)
	case ctx.Err() != nil:
		return "cancelled: the call was stopped before the server answered"
	case errors.Is(err, chat.ErrAuthRequired), errors.As(err, &authErr):
		return UnauthorizedMessage(name)
	case l.gone() || connectionGone(err):
		l.markLost(err) // the runner restarts the server
		return fmt.Sprintf("the %s server stopped during the call (%s); Maestro is restarting it", name, l.lostReason(err))
	case errors.Is(err, mcpgo.ErrInvalidParams), errors.Is(err, mcpgo.ErrMethodNotFound),
		errors.Is(err, mcpgo.ErrInvalidRequest), errors.Is(err, mcpgo.ErrInternalError):
		return fmt.Sprintf("the %s server refused the call: %v", name, err)
	}
	return fmt.Sprintf("the call to %s failed: %v", name, err)
}

// UnauthorizedMessage is the error text for a tool whose connector needs a
// sign-in that has not happened.
func UnauthorizedMessage(connector string) string {
	return "unauthorized: sign in to " + connector
}

// ready returns the current link, waiting while the connector starts or
// restarts (up to its init timeout). Its error is ErrAuthRequired when
// the connector needs a sign-in.
func (r *runner) ready(ctx context.Context) (*link, error) {
	var deadline <-chan time.Time
	for {
		r.mu.Lock()
		l, st, changed, cfg := r.link, r.status, r.changed, r.cfg
		r.mu.Unlock()
		if st.NeedsSignIn {
			return nil, chat.E(chat.ErrAuthRequired, "%s", UnauthorizedMessage(cfg.DisplayName()))
		}
		if l != nil && !l.gone() {
			return l, nil
		}
		switch st.State {
		case StateStopped:
			if cfg.Disabled {
				return nil, chat.E(chat.ErrUnavailable, "the %s connector is turned off", cfg.DisplayName())
			}
			return nil, chat.E(chat.ErrUnavailable, "the %s connector is stopped", cfg.DisplayName())
		case StateError:
			return nil, chat.E(chat.ErrUnavailable, "the %s server is not available: %s", cfg.DisplayName(), st.Error)
		}
		if deadline == nil {
			t := time.NewTimer(cfg.InitTimeout())
			defer t.Stop()
			deadline = t.C
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, chat.E(chat.ErrCanceled, "cancelled while waiting for the %s server", cfg.DisplayName())
		case <-deadline:
			if st.State == StateRestarting {
				return nil, chat.E(chat.ErrUnavailable, "the %s server is restarting (%s)", cfg.DisplayName(), st.Error)
			}
			return nil, chat.E(chat.ErrUnavailable, "the %s server is still starting", cfg.DisplayName())
		}
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
