package app

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"maestro/backend/chat"
	"maestro/backend/mcp"
)

// TestConnector starts the server of a connector form on its own (nothing
// is saved), lists its tools and stops it: the form's "Test connection".
// A form editing a connector (in.ID set) may keep stored secret values.
// The result says what went wrong when the server did not start.
func (a *App) TestConnector(in ConnectorInputDTO) (TestResultDTO, error) {
	cn, ctx, cancel, err := a.connectorsReady()
	if err != nil {
		return TestResultDTO{}, err
	}
	defer cancel()
	var old *mcp.Connector
	if in.ID != "" {
		o, err := cn.sup.Connector(in.ID)
		if err != nil {
			return TestResultDTO{}, err
		}
		old = &o
	}
	cfg, err := connectorFromInput(in, old)
	if err != nil {
		return TestResultDTO{}, err
	}
	limit := cmp.Or(a.conns.deps.TestTimeout, DefaultTestTimeout)
	cfg.ID, cfg.Disabled = "test-"+chat.NewID(), false
	cfg.InitTimeoutSeconds = max(1, int(min(cfg.InitTimeout(), limit)/time.Second))
	opts := []mcp.SupervisorOption{
		mcp.WithSecrets(mcp.NewMemorySecrets()),
		mcp.WithClientInfo("Maestro", cmp.Or(a.cfg.Version, "dev")),
		mcp.WithLogger(a.log),
	}
	opts = append(opts, a.conns.deps.Options...)
	// The same client capabilities as the real supervisor: servers list
	// tools by what the client supports (server-everything adds its
	// elicitation and sampling tools only for clients that declare them),
	// so the test must see the count the saved connector will. A question
	// asked during the test is declined: nobody is there to answer it.
	opts = append(opts, mcp.WithMaxStartFailures(1), mcp.WithEvents(nil), mcp.WithToolSink(nil),
		mcp.WithElicitor(testDecliner{}, testDecliner{}), mcp.WithSampler(testDecliner{}))
	tmp := mcp.NewSupervisor(opts...)
	defer tmp.Close()

	began := time.Now()
	if _, err := tmp.Add(ctx, cfg); err != nil {
		return TestResultDTO{}, err
	}
	wctx, wcancel := context.WithTimeout(ctx, limit+2*time.Second)
	defer wcancel()
	waitErr := tmp.WaitSettled(wctx, cfg.ID)
	st, err := tmp.Status(cfg.ID)
	if err != nil {
		return TestResultDTO{}, err
	}
	res := TestResultDTO{
		OK: st.State == mcp.StateReady, State: string(st.State), Error: st.Error,
		StderrTail: nonNil(st.StderrTail), NeedsSignIn: st.NeedsSignIn, Server: st.Server,
		Protocol: st.Protocol, DurationMS: time.Since(began).Milliseconds(), Tools: []TestToolDTO{},
	}
	if waitErr != nil && !res.OK && res.Error == "" {
		res.Error = fmt.Sprintf("the server did not answer within %s", limit)
	}
	if res.NeedsSignIn && res.Error == "" {
		res.Error = "the server needs a sign-in: save the connector, then sign in"
	}
	if res.OK {
		tools, err := tmp.Tools(cfg.ID)
		if err == nil {
			for _, t := range tools {
				res.Tools = append(res.Tools, TestToolDTO{Name: t.Name, Title: cmp.Or(t.Title, t.Annotations.Title),
					Description: t.Description, ReadOnly: t.Annotations.ReadOnlyHint != nil && *t.Annotations.ReadOnlyHint})
			}
			slices.SortFunc(res.Tools, func(x, y TestToolDTO) int { return cmp.Compare(x.Name, y.Name) })
		}
	}
	return res, nil
}

// testDecliner answers what a server asks during a connection test: no.
type testDecliner struct{}

func (testDecliner) Elicit(context.Context, mcp.ElicitationRequest) (mcp.ElicitationAnswer, error) {
	return mcp.ElicitationAnswer{Action: mcp.ActionDecline}, nil
}

func (testDecliner) CreateMessage(context.Context, mcp.SamplingRequest) (*mcpgo.CreateMessageResult, error) {
	return nil, chat.E(chat.ErrCanceled, "sampling is not answered during a connection test")
}

func (testDecliner) OpenURL(context.Context, string) error {
	return chat.E(chat.ErrCanceled, "no page is opened during a connection test")
}
