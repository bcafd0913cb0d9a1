package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"sync"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// cancelTimeout bounds sending one notifications/cancelled.
const cancelTimeout = 5 * time.Second

// wire wraps the mcp-go transport of one link. It does two things mcp-go
// does not do for every transport:
//
//   - When a request's context ends before its answer, it sends
//     notifications/cancelled with the request id and the reason (mcp-go
//     sends it over stdio only). wire claims to be an HTTP connection so
//     that mcp-go leaves this to it on every transport.
//   - When a request fails because the connection is gone (the process
//     exited, the HTTP session ended, the server refused the connection),
//     it reports the loss, so the supervisor reconnects.
//
// Close closes the inner transport and waits for the cancellations in
// flight.
type wire struct {
	inner  transport.Interface
	onLost func(error)
	wg     sync.WaitGroup
}

var (
	_ transport.BidirectionalInterface = (*wire)(nil)
	_ transport.HTTPConnection         = (*wire)(nil)
)

func (w *wire) Start(ctx context.Context) error { return w.inner.Start(ctx) }

func (w *wire) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	resp, err := w.inner.SendRequest(ctx, req)
	if err == nil {
		if c, ok := ctx.Value(rawCatchKey{}).(*rawCatch); ok && resp.Error == nil {
			c.keep(resp.Result)
		}
		return resp, nil
	}
	if ctx.Err() != nil {
		if req.Method != string(mcpgo.MethodInitialize) {
			w.cancel(req.ID, context.Cause(ctx))
		}
		return nil, err
	}
	if connectionGone(err) && w.onLost != nil {
		w.onLost(err)
	}
	return nil, err
}

// cancel sends notifications/cancelled off the caller's path: the caller
// has its error already, and a server that does not read must not hold it
// up.
func (w *wire) cancel(id mcpgo.RequestId, cause error) {
	reason := "cancelled"
	if cause != nil {
		reason = cause.Error()
	}
	n := mcpgo.JSONRPCNotification{
		JSONRPC: mcpgo.JSONRPC_VERSION,
		Notification: mcpgo.Notification{
			Method: string(mcpgo.MethodNotificationCancelled),
			Params: mcpgo.NotificationParams{AdditionalFields: map[string]any{"requestId": id, "reason": reason}},
		},
	}
	w.wg.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), cancelTimeout)
		defer cancel()
		_ = w.inner.SendNotification(ctx, n)
	})
}

func (w *wire) SendNotification(ctx context.Context, n mcpgo.JSONRPCNotification) error {
	return w.inner.SendNotification(ctx, n)
}

func (w *wire) SetNotificationHandler(h func(mcpgo.JSONRPCNotification)) {
	w.inner.SetNotificationHandler(h)
}

func (w *wire) SetRequestHandler(h transport.RequestHandler) {
	if b, ok := w.inner.(transport.BidirectionalInterface); ok {
		b.SetRequestHandler(h)
	}
}

func (w *wire) SetProtocolVersion(v string) {
	if h, ok := w.inner.(transport.HTTPConnection); ok {
		h.SetProtocolVersion(v)
	}
}

func (w *wire) GetSessionId() string { return w.inner.GetSessionId() }

func (w *wire) Close() error {
	err := w.inner.Close()
	w.wg.Wait()
	return err
}

// connectionGone tells a dead connection from a failed request.
func connectionGone(err error) bool {
	var op *net.OpError
	return errors.Is(err, transport.ErrTransportClosed) ||
		errors.Is(err, transport.ErrSessionTerminated) ||
		errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.As(err, &op)
}

// rawCatch, in a request's context, keeps the request's raw result: a
// tools/call answered with a task handle (CreateTaskResult), which mcp-go
// cannot read as a tool result.
type rawCatch struct {
	mu  sync.Mutex
	raw json.RawMessage
}

type rawCatchKey struct{}

func (c *rawCatch) keep(raw json.RawMessage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.raw = append(c.raw[:0], raw...)
}

// task returns the task handle of the caught result, if it is one.
func (c *rawCatch) task() (mcpgo.Task, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var r struct {
		Task *mcpgo.Task `json:"task"`
	}
	if len(c.raw) == 0 || json.Unmarshal(c.raw, &r) != nil || r.Task == nil || r.Task.TaskId == "" {
		return mcpgo.Task{}, false
	}
	return *r.Task, true
}
