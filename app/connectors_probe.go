package app

import (
	"cmp"

	"maestro/backend/mcp"
)

// TestConnector starts the server of a connector form on its own (nothing
// is saved), lists its tools and stops it: the form's "Test connection"
// (mcp.Probe). A form editing a connector (in.ID set) may keep stored
// secret values. The result says what went wrong when the server did not
// start.
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
	opts := append([]mcp.SupervisorOption{
		mcp.WithClientInfo("Maestro", cmp.Or(a.cfg.Version, "dev")), mcp.WithLogger(a.log),
	}, a.conns.deps.Options...)
	res, err := mcp.Probe(ctx, cfg, a.conns.deps.TestTimeout, opts...)
	if err != nil {
		return TestResultDTO{}, err
	}
	return testResultDTO(res), nil
}

func testResultDTO(r mcp.ProbeResult) TestResultDTO {
	st := r.Status
	dto := TestResultDTO{
		OK: r.OK(), State: string(st.State), Error: st.Error, StderrTail: nonNil(st.StderrTail),
		NeedsSignIn: st.NeedsSignIn, Server: st.Server, Protocol: st.Protocol,
		DurationMS: r.Duration.Milliseconds(), Tools: make([]TestToolDTO, 0, len(r.Tools)),
	}
	for _, t := range r.Tools {
		dto.Tools = append(dto.Tools, TestToolDTO{Name: t.Name, Title: cmp.Or(t.Title, t.Annotations.Title),
			Description: t.Description, ReadOnly: readOnly(t)})
	}
	return dto
}
