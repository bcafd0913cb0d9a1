package app

import (
	"context"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"maestro/backend/chat"
	"maestro/backend/mcp"
	"maestro/backend/sampling"
)

// sampler implements mcp.Sampler: the user approves (sampling:needed,
// then AnswerSampling), then backend/sampling runs the request on the
// session's provider and sampling:result shows the answer.
type sampler struct{ c *Connectors }

// errSamplingDeclined is the request's error when the user says no.
var errSamplingDeclined = chat.E(chat.ErrCanceled, "the user declined the sampling request")

// CreateMessage asks the user, then runs the request.
func (s sampler) CreateMessage(ctx context.Context, req mcp.SamplingRequest) (*mcpgo.CreateMessageResult, error) {
	events := s.c.core.events
	msgs := []SamplingMessageDTO{}
	for _, m := range sampling.Messages(req) {
		msgs = append(msgs, SamplingMessageDTO{Role: string(m.Role), Text: m.Text})
	}
	id, answers, done := s.c.samples.ask()
	defer done()
	events.emit(EventSampling, SamplingDTO{
		RequestID: id, SessionID: req.SessionID, Connector: cmpOr(req.ConnectorName, req.ConnectorID),
		Messages: msgs, SystemPrompt: req.Params.SystemPrompt, MaxTokens: req.Params.MaxTokens, ModelHint: sampling.Hint(req),
	})
	select {
	case ok := <-answers:
		if !ok {
			return nil, errSamplingDeclined
		}
	case <-ctx.Done():
		events.emit(EventSamplingResult, SamplingResultDTO{RequestID: id, Error: "Withdrawn: " + withdrawnReason(ctx)})
		return nil, ctx.Err()
	}
	run, _, cancel, err := s.c.core.call()
	if err == nil {
		cancel()
	}
	var res *mcpgo.CreateMessageResult
	if err == nil {
		res, err = run.sampler.Run(ctx, req)
	}
	if err != nil {
		events.emit(EventSamplingResult, SamplingResultDTO{RequestID: id, Error: err.Error()})
		return nil, err
	}
	events.emit(EventSamplingResult, SamplingResultDTO{RequestID: id, Text: sampling.Text(res.Content), Model: res.Model})
	return res, nil
}

// AnswerSampling approves or denies a pending sampling request.
func (c *Connectors) AnswerSampling(requestID string, approve bool) error {
	return c.samples.answer(context.Background(), requestID, approve)
}
