package sampling

import (
	"context"
	"fmt"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"maestro/backend/chat"
	"maestro/backend/mcp"
)

// Models builds a provider's adapter and describes its models (the
// catalog, as for the agent).
type Models interface {
	Model(ctx context.Context, provider string) (chat.Model, error)
	Info(ctx context.Context, provider, model string) chat.ModelInfo
}

// Sessions reads a session (the store).
type Sessions interface {
	Session(ctx context.Context, id string) (chat.Session, error)
}

// ModelIDs lists the models a provider's account can use, for the
// request's hints to choose from; nil lists none.
type ModelIDs func(ctx context.Context, provider string) []string

// Runner runs approved sampling requests.
type Runner struct {
	models   Models
	sessions Sessions
	ids      ModelIDs
}

// New returns a Runner. ids may be nil: the session's model is then used
// whatever the hints say.
func New(models Models, sessions Sessions, ids ModelIDs) *Runner {
	return &Runner{models: models, sessions: sessions, ids: ids}
}

// Message is one message of a sampling request, as text.
type Message struct {
	Role chat.Role
	Text string
}

// Messages is the request's prompt as text, for the user to read and for
// the model.
func Messages(req mcp.SamplingRequest) []Message {
	out := make([]Message, 0, len(req.Params.Messages))
	for _, m := range req.Params.Messages {
		role := chat.RoleUser
		if m.Role == mcpgo.RoleAssistant {
			role = chat.RoleAssistant
		}
		out = append(out, Message{Role: role, Text: Text(m.Content)})
	}
	return out
}

// Hint is the request's first model hint, "" when it gives none.
func Hint(req mcp.SamplingRequest) string {
	if mp := req.Params.ModelPreferences; mp != nil && len(mp.Hints) > 0 {
		return mp.Hints[0].Name
	}
	return ""
}

// Run sends the request to the session's provider and returns the model's
// text.
func (r *Runner) Run(ctx context.Context, req mcp.SamplingRequest) (*mcpgo.CreateMessageResult, error) {
	if req.SessionID == "" {
		return nil, chat.E(chat.ErrInvalid, "sampling needs a chat session: the request did not come from a tool call")
	}
	sess, err := r.sessions.Session(ctx, req.SessionID)
	if err != nil {
		return nil, err
	}
	if sess.Provider == "" {
		return nil, chat.E(chat.ErrInvalid, "the session has no model selected")
	}
	model := sess.Model
	if mp := req.Params.ModelPreferences; mp != nil && r.ids != nil {
		model = PickModel(r.ids(ctx, sess.Provider), mp.Hints, model)
	}
	m, err := r.models.Model(ctx, sess.Provider)
	if err != nil {
		return nil, err
	}
	creq := chat.Request{Model: model, Info: r.models.Info(ctx, sess.Provider, model), System: req.Params.SystemPrompt,
		SessionID: req.SessionID, MaxOutputTokens: req.Params.MaxTokens}
	if t := req.Params.Temperature; t != 0 {
		creq.Temperature = &t
	}
	for _, msg := range Messages(req) {
		creq.Messages = append(creq.Messages, chat.Message{ID: chat.NewID(), Role: msg.Role, Parts: chat.Parts{chat.TextPart{Text: msg.Text}}})
	}
	text, stop, err := drain(ctx, m, creq)
	if err != nil {
		return nil, err
	}
	return &mcpgo.CreateMessageResult{
		SamplingMessage: mcpgo.SamplingMessage{Role: mcpgo.RoleAssistant, Content: mcpgo.NewTextContent(text)},
		Model:           model, StopReason: stop,
	}, nil
}

// drain streams req and collects the text and the MCP stop reason.
func drain(ctx context.Context, m chat.Model, req chat.Request) (text, stop string, err error) {
	events, err := m.Stream(ctx, req)
	if err != nil {
		return "", "", err
	}
	var b strings.Builder
	stop = "endTurn"
	for ev, err := range events {
		if err != nil {
			return "", "", err
		}
		switch e := ev.(type) {
		case chat.TextDelta:
			b.WriteString(e.Text)
		case chat.Finish:
			if e.Reason == "max_tokens" {
				stop = "maxTokens"
			}
		}
	}
	return b.String(), stop, nil
}

// PickModel returns the first of ids matching a hint (exactly, else as a
// substring; hints in order), or def.
func PickModel(ids []string, hints []mcpgo.ModelHint, def string) string {
	for _, h := range hints {
		if h.Name == "" {
			continue
		}
		for _, id := range ids {
			if id == h.Name {
				return id
			}
		}
		for _, id := range ids {
			if strings.Contains(id, h.Name) {
				return id
			}
		}
	}
	return def
}

// Text is the text of a sampling message's content, whatever shape the
// transport decoded it into; what has no text shows as [image], [audio]
// or its type.
func Text(c any) string {
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
		return join(v)
	case []mcpgo.Content:
		return join(v)
	case mcpgo.ImageContent, *mcpgo.ImageContent:
		return "[image]"
	case mcpgo.AudioContent, *mcpgo.AudioContent:
		return "[audio]"
	}
	return fmt.Sprintf("%v", c)
}

func join[T any](parts []T) string {
	texts := make([]string, 0, len(parts))
	for _, p := range parts {
		texts = append(texts, Text(p))
	}
	return strings.Join(texts, "\n")
}
