package app

import (
	"context"
	"fmt"
	"strings"
	"sync"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"maestro/backend/chat"
	"maestro/backend/mcp"
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

// CreateMessage asks the user, then runs the request.
func (s *sampler) CreateMessage(ctx context.Context, req mcp.SamplingRequest) (*mcpgo.CreateMessageResult, error) {
	msgs := make([]SamplingMessageDTO, 0, len(req.Params.Messages))
	for _, m := range req.Params.Messages {
		msgs = append(msgs, SamplingMessageDTO{Role: string(m.Role), Text: contentText(m.Content)})
	}
	hint := ""
	if mp := req.Params.ModelPreferences; mp != nil && len(mp.Hints) > 0 {
		hint = mp.Hints[0].Name
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
		Messages: msgs, SystemPrompt: req.Params.SystemPrompt, MaxTokens: req.Params.MaxTokens, ModelHint: hint,
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
	res, err := s.run(ctx, req, msgs)
	if err != nil {
		s.app.emit(EventSamplingResult, SamplingResultDTO{RequestID: id, Error: err.Error()})
		return nil, err
	}
	s.app.emit(EventSamplingResult, SamplingResultDTO{RequestID: id, Text: contentText(res.Content), Model: res.Model})
	return res, nil
}

// run sends the request to the session's provider and collects the text.
func (s *sampler) run(ctx context.Context, req mcp.SamplingRequest, msgs []SamplingMessageDTO) (*mcpgo.CreateMessageResult, error) {
	c, err := s.app.chatOrErr()
	if err != nil {
		return nil, err
	}
	if c.deps.Models == nil {
		return nil, chat.E(chat.ErrUnavailable, "no model is available for sampling")
	}
	if req.SessionID == "" {
		return nil, chat.E(chat.ErrInvalid, "sampling needs a chat session: the request did not come from a tool call")
	}
	st, sctx, cancel, err := s.app.ready()
	if err != nil {
		return nil, err
	}
	sess, err := st.Session(sctx, req.SessionID)
	cancel()
	if err != nil {
		return nil, err
	}
	if sess.Provider == "" {
		return nil, chat.E(chat.ErrInvalid, "the session has no model selected")
	}
	model := sess.Model
	if mp := req.Params.ModelPreferences; mp != nil && c.deps.Catalog != nil {
		model = pickModel(providerModelsDTOs(c.deps.Catalog.Providers(ctx)), sess.Provider, mp.Hints, model)
	}
	m, err := c.deps.Models.Model(ctx, sess.Provider)
	if err != nil {
		return nil, err
	}
	creq := chat.Request{Model: model, Info: c.deps.Models.Info(ctx, sess.Provider, model), System: req.Params.SystemPrompt, SessionID: req.SessionID, MaxOutputTokens: req.Params.MaxTokens}
	if t := req.Params.Temperature; t != 0 {
		creq.Temperature = &t
	}
	for _, msg := range msgs {
		role := chat.RoleUser
		if msg.Role == string(mcpgo.RoleAssistant) {
			role = chat.RoleAssistant
		}
		creq.Messages = append(creq.Messages, chat.Message{ID: chat.NewID(), Role: role, Parts: chat.Parts{chat.TextPart{Text: msg.Text}}})
	}
	events, err := m.Stream(ctx, creq)
	if err != nil {
		return nil, err
	}
	var text strings.Builder
	stop := "endTurn"
	for ev, err := range events {
		if err != nil {
			return nil, err
		}
		switch e := ev.(type) {
		case chat.TextDelta:
			text.WriteString(e.Text)
		case chat.Finish:
			if e.Reason == "max_tokens" {
				stop = "maxTokens"
			}
		}
	}
	return &mcpgo.CreateMessageResult{
		SamplingMessage: mcpgo.SamplingMessage{Role: mcpgo.RoleAssistant, Content: mcpgo.NewTextContent(text.String())},
		Model:           model, StopReason: stop,
	}, nil
}

// pickModel returns the first of provider's models matching a hint (as a
// substring, in hint order), or def.
func pickModel(catalog []ProviderModelsDTO, provider string, hints []mcpgo.ModelHint, def string) string {
	for _, p := range catalog {
		if p.Provider != provider {
			continue
		}
		for _, h := range hints {
			if h.Name == "" {
				continue
			}
			for _, m := range p.Models {
				if m.ID == h.Name {
					return m.ID
				}
			}
			for _, m := range p.Models {
				if strings.Contains(m.ID, h.Name) {
					return m.ID
				}
			}
		}
	}
	return def
}

// contentText is the text of a sampling message's content, whatever shape
// the transport decoded it into.
func contentText(c any) string {
	switch v := c.(type) {
	case nil:
		return ""
	case mcpgo.TextContent:
		return v.Text
	case *mcpgo.TextContent:
		return v.Text
	case string:
		return v
	case map[string]any:
		if t, ok := v["text"].(string); ok {
			return t
		}
		if typ, ok := v["type"].(string); ok {
			return "[" + typ + "]"
		}
	case []any:
		var parts []string
		for _, p := range v {
			parts = append(parts, contentText(p))
		}
		return strings.Join(parts, "\n")
	case []mcpgo.Content:
		var parts []string
		for _, p := range v {
			parts = append(parts, contentText(p))
		}
		return strings.Join(parts, "\n")
	case mcpgo.ImageContent, *mcpgo.ImageContent:
		return "[image]"
	case mcpgo.AudioContent, *mcpgo.AudioContent:
		return "[audio]"
	}
	return fmt.Sprintf("%v", c)
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
