package mcp

import (
	"context"
	"fmt"
	"slices"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"maestro/backend/chat"
)

// Prompt is one prompt a server offers: what the "/" menu shows and the
// argument form asks for.
type Prompt struct {
	ConnectorID string           `json:"connectorId"`
	Server      string           `json:"server"`
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []PromptArgument `json:"arguments,omitempty"`
}

// PromptArgument is one argument of a prompt.
type PromptArgument struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// PromptList is the prompts of a session's connectors, and the connectors
// that could not list theirs.
type PromptList struct {
	Prompts     []Prompt      `json:"prompts"`
	Unavailable []Unavailable `json:"unavailable,omitempty"`
}

// Prompts lists the prompts of every ready connector the session enables
// whose server offers prompts, sorted by server and name. Each list is
// read once and kept until the server says it changed. A connector that
// is not ready, or fails to list, is in Unavailable; the others are
// listed all the same.
func (s *Supervisor) Prompts(ctx context.Context, sessionID string) (PromptList, error) {
	runners, err := s.sessionRunners(ctx, sessionID)
	if err != nil {
		return PromptList{}, err
	}
	var out PromptList
	out.Prompts, out.Unavailable = gather(ctx, runners, func(c mcpgo.ServerCapabilities) bool { return c.Prompts != nil },
		(*link).prompts, promptOf, func(p Prompt) (string, string) { return p.Server, p.Name })
	return out, nil
}

// prompts returns the server's prompt list (featureLists).
func (l *link) prompts(ctx context.Context) ([]mcpgo.Prompt, error) {
	return cachedList(ctx, l, func(f *featureLists) *listState { return &f.prompts }, "prompts/list",
		func(ctx context.Context, cursor mcpgo.Cursor) ([]mcpgo.Prompt, mcpgo.Cursor, error) {
			req := mcpgo.ListPromptsRequest{}
			req.Params.Cursor = cursor
			res, err := l.client.ListPromptsByPage(ctx, req)
			if err != nil {
				return nil, "", err
			}
			return res.Prompts, res.NextCursor, nil
		})
}

func promptOf(l *link, p mcpgo.Prompt) Prompt {
	out := Prompt{ConnectorID: l.cfg.ID, Server: l.cfg.DisplayName(), Name: short(p.Name, maxName),
		Title: short(p.Title, maxName), Description: short(p.Description, maxDescription)}
	for _, a := range p.Arguments[:min(len(p.Arguments), 64)] {
		out.Arguments = append(out.Arguments, PromptArgument{Name: short(a.Name, maxName), Title: short(a.Title, maxName),
			Description: short(a.Description, maxDescription), Required: a.Required})
	}
	return out
}

// PromptResult is a prompt as prompts/get returned it: its messages, each
// turned into canonical parts (text, files for images and audio, resource
// parts for embedded resources and resource links).
type PromptResult struct {
	Description string          `json:"description,omitempty"`
	Messages    []PromptMessage `json:"messages"`
}

// PromptMessage is one message of a prompt.
type PromptMessage struct {
	Role  chat.Role  `json:"role"`
	Parts chat.Parts `json:"parts"`
}

// Parts is the prompt as one user turn, for the composer: the parts of its
// messages in order; the text of an assistant message is marked as such
// (a prompt may script an exchange), its other parts kept as they are.
func (p PromptResult) Parts() chat.Parts {
	var out chat.Parts
	for _, m := range p.Messages {
		for _, part := range m.Parts {
			if t, ok := part.(chat.TextPart); ok && m.Role == chat.RoleAssistant {
				part = chat.TextPart{Text: "Assistant: " + t.Text}
			}
			out = append(out, part)
		}
	}
	return out
}

// maxPromptMessages bounds the messages kept of one prompt.
const maxPromptMessages = 200

// GetPrompt runs prompts/get for a prompt of a connector the session
// enables. A required argument that is missing (by the server's list) is
// refused before anything is sent; any other refusal is the server's
// message, as ErrInvalid.
func (s *Supervisor) GetPrompt(ctx context.Context, sessionID, connectorID, name string, args map[string]string) (PromptResult, error) {
	_, l, err := s.sessionLink(ctx, sessionID, connectorID)
	if err != nil {
		return PromptResult{}, err
	}
	if l.caps.Prompts == nil {
		return PromptResult{}, chat.E(chat.ErrInvalid, "the %s server offers no prompts", l.cfg.DisplayName())
	}
	if err := l.checkArguments(ctx, name, args); err != nil {
		return PromptResult{}, err
	}
	req := mcpgo.GetPromptRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	ctx, cancel := context.WithTimeout(ctx, l.cfg.CallTimeout())
	defer cancel()
	res, err := l.client.GetPrompt(ctx, req)
	if err != nil {
		return PromptResult{}, requestError(fmt.Sprintf("prompt %q", name), l, err)
	}
	out := PromptResult{Description: short(res.Description, maxDescription), Messages: []PromptMessage{}}
	for _, m := range res.Messages[:min(len(res.Messages), maxPromptMessages)] {
		role := chat.RoleUser
		if m.Role == mcpgo.RoleAssistant {
			role = chat.RoleAssistant
		}
		if p, ok := contentPart(m.Content, l.cfg.ID, l.cfg.DisplayName()); ok {
			out.Messages = append(out.Messages, PromptMessage{Role: role, Parts: chat.Parts{p}})
		}
	}
	return out, nil
}

// checkArguments refuses a call that misses a required argument of a
// prompt the server listed.
func (l *link) checkArguments(ctx context.Context, name string, args map[string]string) error {
	list, err := l.prompts(ctx)
	if err != nil {
		return nil // the server will say
	}
	i := slices.IndexFunc(list, func(p mcpgo.Prompt) bool { return p.Name == name })
	if i < 0 {
		return nil // the list may be behind; the server will say
	}
	var missing []string
	for _, a := range list[i].Arguments {
		if a.Required && strings.TrimSpace(args[a.Name]) == "" {
			missing = append(missing, a.Name)
		}
	}
	if len(missing) > 0 {
		return chat.E(chat.ErrInvalid, "prompt %q needs %s", name, strings.Join(missing, ", "))
	}
	return nil
}
