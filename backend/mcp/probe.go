package mcp

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"maestro/backend/chat"
)

// DefaultProbeTimeout bounds Probe when the caller gives no limit.
const DefaultProbeTimeout = 20 * time.Second

// ProbeResult is what Probe found out about a server.
type ProbeResult struct {
	// Status is the server's state once it settled (ready, error, or
	// still starting when it did not answer within the limit). Its Error
	// says what went wrong in words the connector form shows.
	Status ConnectorStatus
	// Tools are the server's tools, sorted by name, when it was ready.
	Tools    []mcpgo.Tool
	Duration time.Duration
}

// OK reports whether the server started and listed its tools.
func (r ProbeResult) OK() bool { return r.Status.State == StateReady }

// Probe starts cfg's server on a supervisor of its own (nothing is stored,
// secret values stay in memory), waits until it is ready or has failed,
// lists its tools and stops it: the connector form's "Test connection".
// limit bounds the start (DefaultProbeTimeout when 0); opts are added to
// the probe supervisor's (client info, logger, in-process servers in
// tests). The probe declares the same client capabilities as the real
// supervisor, because servers list their tools by what the client
// supports (server-everything adds its elicitation and sampling tools only
// for clients that declare them), so the count it sees is the count the
// saved connector will; a question a server asks during the probe is
// declined, since nobody is there to answer it.
func Probe(ctx context.Context, cfg Connector, limit time.Duration, opts ...SupervisorOption) (ProbeResult, error) {
	limit = cmp.Or(limit, DefaultProbeTimeout)
	cfg.ID, cfg.Disabled = "probe-"+chat.NewID(), false
	cfg.InitTimeoutSeconds = max(1, int(min(cfg.InitTimeout(), limit)/time.Second))
	all := append([]SupervisorOption{WithSecrets(NewMemorySecrets())}, opts...)
	all = append(all, WithMaxStartFailures(1), WithEvents(nil), WithToolSink(nil),
		WithElicitor(probeDecliner{}, probeDecliner{}), WithSampler(probeDecliner{}))
	sup := NewSupervisor(all...)
	defer sup.Close()

	began := time.Now()
	if _, err := sup.Add(ctx, cfg); err != nil {
		return ProbeResult{}, err
	}
	wctx, cancel := context.WithTimeout(ctx, limit+2*time.Second)
	defer cancel()
	waitErr := sup.WaitSettled(wctx, cfg.ID)
	st, err := sup.Status(cfg.ID)
	if err != nil {
		return ProbeResult{}, err
	}
	res := ProbeResult{Status: st, Duration: time.Since(began)}
	switch {
	case res.OK():
		tools, err := sup.Tools(cfg.ID)
		if err == nil {
			res.Tools = slices.SortedFunc(slices.Values(tools), func(x, y mcpgo.Tool) int { return cmp.Compare(x.Name, y.Name) })
		}
	case res.Status.Error != "":
	case waitErr != nil:
		res.Status.Error = fmt.Sprintf("the server did not answer within %s", limit)
	case res.Status.NeedsSignIn:
		res.Status.Error = "the server needs a sign-in: save the connector, then sign in"
	}
	return res, nil
}

// probeDecliner answers what a server asks during a probe: no.
type probeDecliner struct{}

func (probeDecliner) Elicit(context.Context, ElicitationRequest) (ElicitationAnswer, error) {
	return ElicitationAnswer{Action: ActionDecline}, nil
}

func (probeDecliner) CreateMessage(context.Context, SamplingRequest) (*mcpgo.CreateMessageResult, error) {
	return nil, chat.E(chat.ErrCanceled, "sampling is not answered during a connection test")
}

func (probeDecliner) OpenURL(context.Context, string) error {
	return chat.E(chat.ErrCanceled, "no page is opened during a connection test")
}
