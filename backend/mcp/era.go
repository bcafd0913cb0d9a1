package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// Two protocol eras (docs/MCP.md): 2026-07-28 is stateless (server/discover,
// per-request _meta, Multi Round-Trip Requests, subscriptions/listen); up to
// 2025-11-25 a connection starts with initialize. A connector speaks the
// newest its server does: Maestro probes with server/discover and falls back
// to initialize. The connector's ProtocolVersion overrides the choice for
// servers that misbehave.

const (
	// ProtocolModern is the stateless revision.
	ProtocolModern = mcpgo.ProtocolVersion20260728
	// ProtocolLegacy is the newest revision that starts with initialize,
	// asked for when a server does not speak ProtocolModern.
	ProtocolLegacy = mcpgo.LATEST_LEGACY_PROTOCOL_VERSION
	// probeTimeout bounds the wait for a first answer to the
	// server/discover probe: a well-behaved old server answers an unknown
	// method at once, but some ignore it, which on stdio would otherwise
	// hold the start until its timeout. Over HTTP any response stops it
	// (answerWatch).
	probeTimeout = 3 * time.Second
)

// IsModern reports whether a negotiated protocol version is of the
// stateless era.
func IsModern(version string) bool { return mcpgo.IsModernProtocol(version) }

// errNotModern is the probe's answer for a server that does not speak the
// stateless revision; its text says why, for the connector's log.
type errNotModern struct{ why string }

func (e errNotModern) Error() string { return e.why }

// chooseVersion returns the protocol version to ask for: the connector's
// pin, or, when it has none (or says ProtocolAuto), the newest the server
// speaks according to the probe. The legacy SSE transport only carries the
// old era.
func (l *link) chooseVersion(ctx context.Context) (string, error) {
	pin := l.cfg.ProtocolVersion
	if pin != "" && pin != ProtocolAuto {
		return pin, nil
	}
	if l.cfg.kind() == TransportSSE {
		return ProtocolLegacy, nil
	}
	v, err := l.probe(ctx)
	var old errNotModern
	switch {
	case err == nil:
		return v, nil
	case errors.As(err, &old):
		l.r.note("server/discover: %v; speaking %s", err, ProtocolLegacy)
		return ProtocolLegacy, nil
	}
	return "", err // a sign-in the server asks for, or a transport that failed
}

// probe sends server/discover at ProtocolModern and returns the modern
// version the server supports, or an error saying why it is taken for an
// old server. Unlike mcp-go's own probe it checks the answer: a server
// that answers every unknown method with an empty success (as some old
// servers and the conformance suite's do) names no supported versions, and
// is old.
func (l *link) probe(ctx context.Context) (string, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	silent := time.AfterFunc(probeTimeout, func() { cancel(errProbeSilent) })
	defer silent.Stop()
	ctx = context.WithValue(ctx, answeredKey{}, func() { silent.Stop() })
	t, done, err := l.probeTransport(ctx)
	if err != nil {
		return "", err
	}
	defer done()
	caps := l.capabilities()
	params := map[string]any{"_meta": map[string]any{
		mcpgo.MetaKeyProtocolVersion:    ProtocolModern,
		mcpgo.MetaKeyClientCapabilities: caps,
		mcpgo.MetaKeyClientInfo:         l.r.sup.client,
	}}
	if h, ok := t.(transport.HTTPConnection); ok {
		h.SetProtocolVersion(ProtocolModern)
		defer h.SetProtocolVersion("")
	}
	resp, err := t.SendRequest(ctx, transport.JSONRPCRequest{
		JSONRPC: mcpgo.JSONRPC_VERSION,
		ID:      mcpgo.NewRequestId("maestro-discover"),
		Method:  string(mcpgo.MethodServerDiscover),
		Params:  params,
		Header:  http.Header{"Mcp-Method": {string(mcpgo.MethodServerDiscover)}},
	})
	if err != nil {
		var ours *AuthRequiredError
		var authErr *transport.AuthorizationRequiredError
		switch {
		case errors.As(err, &ours), errors.As(err, &authErr):
			return "", err
		case ctx.Err() != nil:
			return "", errNotModern{fmt.Sprintf("no answer within %s", probeTimeout)}
		}
		return "", errNotModern{err.Error()}
	}
	return discoverVerdict(resp)
}

// errProbeSilent ends a probe the server has not answered within
// probeTimeout.
var errProbeSilent = errors.New("mcp: no answer to server/discover")

// answeredKey holds, in a probe's context, what stops its timeout: over
// HTTP, the first response of any kind (answerWatch). A server that answers
// is not silent, and a sign-in its 401 leads to (inline, or a client
// credentials grant) may take longer than probeTimeout: it is bounded by the
// start's own timeout instead, and is not cut short and done again by
// initialize (which would ask for one sign-in more than the limit).
type answeredKey struct{}

// answerWatch tells a probe waiting on a request's context that the server
// answered. It sits under the OAuth round tripper, so it sees the 401.
type answerWatch struct{ next http.RoundTripper }

func (t answerWatch) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err == nil {
		if stop, ok := req.Context().Value(answeredKey{}).(func()); ok {
			stop()
		}
	}
	return resp, err
}

// discoverVerdict reads a server/discover answer: the newest modern version
// both sides support, or why the server is taken for an old one.
func discoverVerdict(resp *transport.JSONRPCResponse) (string, error) {
	if resp.Error != nil {
		err := resp.Error.AsError()
		var unsupported mcpgo.UnsupportedProtocolVersionError
		if errors.As(err, &unsupported) {
			if v := newestModern(unsupported.Supported); v != "" {
				return v, nil
			}
		}
		return "", errNotModern{fmt.Sprintf("the server answered %v", err)}
	}
	var res mcpgo.DiscoverResult
	if err := json.Unmarshal(resp.Result, &res); err != nil {
		return "", errNotModern{fmt.Sprintf("the answer is not a discover result: %v", err)}
	}
	if len(res.SupportedVersions) == 0 {
		return "", errNotModern{"the answer names no supported versions"}
	}
	if v := newestModern(res.SupportedVersions); v != "" {
		return v, nil
	}
	return "", errNotModern{fmt.Sprintf("the server supports %v only", res.SupportedVersions)}
}

// newestModern is the newest version in supported that Maestro speaks and
// that is of the stateless era, or "".
func newestModern(supported []string) string {
	for _, v := range mcpgo.ValidProtocolVersions { // newest first
		if IsModern(v) && slices.Contains(supported, v) {
			return v
		}
	}
	return ""
}

// probeTransport is the transport the probe goes over, and a function that
// releases it. Over HTTP it is a transport of its own on the link's HTTP
// client: mcp-go's streamable HTTP transport takes a successful
// server/discover as the start of a stateless connection and stops
// listening for the old era's server requests, so the probe must not touch
// the link's. Over stdio and in process it is the link's own wire, before
// anything else is sent.
func (l *link) probeTransport(ctx context.Context) (transport.Interface, func(), error) {
	if l.hc == nil {
		return l.wire.inner, func() {}, nil
	}
	t, err := transport.NewStreamableHTTP(l.cfg.URL, transport.WithHTTPHeaders(l.cfg.Headers),
		transport.WithHTTPBasicClient(l.hc))
	if err != nil {
		return nil, nil, fmt.Errorf("probe transport: %w", err)
	}
	if err := t.Start(ctx); err != nil {
		return nil, nil, fmt.Errorf("probe transport: %w", err)
	}
	return t, func() { _ = t.Close() }, nil
}

// MaxInputRounds caps the Multi Round-Trip rounds of one request: a server
// that keeps answering input_required past it gets the call failed with
// ErrInputRounds' text (mrtr.go).
const MaxInputRounds = 8

// ping checks that a remote server still answers: ping in the old era,
// server/discover in the stateless one, which has no ping.
func (l *link) ping(ctx context.Context) error {
	if IsModern(l.protocol) {
		_, err := l.client.Discover(ctx, mcpgo.DiscoverRequest{})
		return err
	}
	return l.client.Ping(ctx)
}
