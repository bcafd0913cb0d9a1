package app

import (
	"context"
	"sync"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"maestro/backend/chat"
	"maestro/backend/mcp"
	"maestro/backend/sampling"
)

// Sampling event names.
const (
	// EventSampling carries a SamplingDTO: a connector asks to use the
	// session's model.
	EventSampling = "sampling:needed"
	// EventSamplingResult carries a SamplingResultDTO: the model's answer
	// to an approved request (or why there is none).
	EventSamplingResult = "sampling:result"
)

// SamplingMessageDTO is one prompt message.
type SamplingMessageDTO struct {
	Role string `json:"role"`
	Text string `json:"text"`
}

// SamplingDTO is sampling:needed.
type SamplingDTO struct {
	RequestID    string               `json:"requestId"`
	SessionID    string               `json:"sessionId"`
	Connector    string               `json:"connector"`
	Messages     []SamplingMessageDTO `json:"messages"`
	SystemPrompt string               `json:"systemPrompt,omitempty"`
	MaxTokens    int                  `json:"maxTokens"`
	ModelHint    string               `json:"modelHint,omitempty"`
}

// SamplingResultDTO is sampling:result.
type SamplingResultDTO struct {
	RequestID string `json:"requestId"`
	Text      string `json:"text"`
	Model     string `json:"model,omitempty"`
	Error     string `json:"error,omitempty"`
}

// sampler implements mcp.Sampler: the user approves, then the request runs
// on the session's provider.
type sampler struct {
	app     *App
	mu      sync.Mutex
	pending map[string]chan bool
}

func newSampler(a *App) *sampler { return &sampler{app: a, pending: map[string]chan bool{}} }

// errSamplingDeclined is the request's error when the user says no.
var errSamplingDeclined = chat.E(chat.ErrCanceled, "the user declined the sampling request")

// CreateMessage asks the user, then runs the request (backend/sampling).
func (s *sampler) CreateMessage(ctx context.Context, req mcp.SamplingRequest) (*mcpgo.CreateMessageResult, error) {
	msgs := []SamplingMessageDTO{}
	for _, m := range sampling.Messages(req) {
		msgs = append(msgs, SamplingMessageDTO{Role: string(m.Role), Text: m.Text})
	}
	id := chat.NewID()
	answer := make(chan bool, 1)
	s.mu.Lock()
	s.pending[id] = answer
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.pending, id)
		s.mu.Unlock()
	}()
	s.app.emit(EventSampling, SamplingDTO{
		RequestID: id, SessionID: req.SessionID, Connector: cmpOr(req.ConnectorName, req.ConnectorID),
		Messages: msgs, SystemPrompt: req.Params.SystemPrompt, MaxTokens: req.Params.MaxTokens, ModelHint: sampling.Hint(req),
	})
	select {
	case ok := <-answer:
		if !ok {
			return nil, errSamplingDeclined
		}
	case <-ctx.Done():
		s.app.emit(EventSamplingResult, SamplingResultDTO{RequestID: id, Error: "Withdrawn: " + withdrawnReason(ctx)})
		return nil, ctx.Err()
	}
	res, err := s.run(ctx, req)
	if err != nil {
		s.app.emit(EventSamplingResult, SamplingResultDTO{RequestID: id, Error: err.Error()})
		return nil, err
	}
	s.app.emit(EventSamplingResult, SamplingResultDTO{RequestID: id, Text: sampling.Text(res.Content), Model: res.Model})
	return res, nil
}

// run sends the request to the session's provider.
func (s *sampler) run(ctx context.Context, req mcp.SamplingRequest) (*mcpgo.CreateMessageResult, error) {
	c, err := s.app.chatOrErr()
	if err != nil {
		return nil, err
	}
	if c.deps.Models == nil {
		return nil, chat.E(chat.ErrUnavailable, "no model is available for sampling")
	}
	st, _, cancel, err := s.app.ready()
	if err != nil {
		return nil, err
	}
	cancel()
	var ids sampling.ModelIDs
	if c.deps.Catalog != nil {
		ids = func(ctx context.Context, provider string) []string {
			for _, p := range c.deps.Catalog.Providers(ctx) {
				if p.ID == provider {
					out := make([]string, 0, len(p.Models))
					for _, m := range p.Models {
						out = append(out, m.ID)
					}
					return out
				}
			}
			return nil
		}
	}
	return sampling.New(c.deps.Models, st, ids).Run(ctx, req)
}

// AnswerSampling approves or denies a pending sampling request.
func (a *App) AnswerSampling(requestID string, approve bool) error {
	if a.conns == nil {
		return chat.E(chat.ErrUnavailable, "connectors are not available in this build")
	}
	smp := a.conns.sample
	smp.mu.Lock()
	ch, ok := smp.pending[requestID]
	smp.mu.Unlock()
	if !ok {
		return chat.E(chat.ErrNotFound, "that sampling request is no longer waiting")
	}
	select {
	case ch <- approve:
	default:
	}
	return nil
}
