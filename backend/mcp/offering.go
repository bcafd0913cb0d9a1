package mcp

import (
	"context"

	"maestro/backend/chat"
)

// Offering is what one connector's server offers besides tools, for the
// connectors page: its prompts, its resource templates and the first page
// of its resources. It is the user's own view of a server, outside any
// chat, so no session is asked; a chat sees the same through Prompts,
// Resources and ResourceTemplates, for the connectors it enables.
type Offering struct {
	ConnectorID string             `json:"connectorId"`
	Prompts     []Prompt           `json:"prompts"`
	Templates   []ResourceTemplate `json:"templates"`
	Resources   []Resource         `json:"resources"`
	// MoreResources: the server has more resources than the first page.
	MoreResources bool `json:"moreResources,omitempty"`
	// Errors are the lists that failed, each with the server's message.
	Errors []string `json:"errors,omitempty"`
}

// ConnectorOffering lists what a ready connector offers besides tools
// (bounded as every list is: maxListed items, maxListPages pages). A
// connector that is not ready is ErrUnavailable, with its state.
func (s *Supervisor) ConnectorOffering(ctx context.Context, connectorID string) (Offering, error) {
	r, err := s.runner(connectorID)
	if err != nil {
		return Offering{}, err
	}
	l := r.current()
	if l == nil {
		return Offering{}, chat.E(chat.ErrUnavailable, "the %s connector is %s", r.config().DisplayName(), unavailableReason(r.statusCopy()))
	}
	out := Offering{ConnectorID: connectorID, Prompts: []Prompt{}, Templates: []ResourceTemplate{}, Resources: []Resource{}}
	ctx, cancel := contextWithTimeout(ctx, l)
	defer cancel()
	if l.caps.Prompts != nil {
		if list, err := l.prompts(ctx); err != nil {
			out.Errors = append(out.Errors, err.Error())
		} else {
			for _, p := range list {
				out.Prompts = append(out.Prompts, promptOf(l, p))
			}
		}
	}
	if l.caps.Resources != nil {
		if list, err := l.templates(ctx); err != nil {
			out.Errors = append(out.Errors, err.Error())
		} else {
			for _, t := range list {
				out.Templates = append(out.Templates, templateOf(l, t))
			}
		}
		if page, err := l.resourcePage(ctx, ""); err != nil {
			out.Errors = append(out.Errors, err.Error())
		} else {
			out.Resources, out.MoreResources = page.Resources, page.NextCursor != ""
		}
	}
	return out, nil
}
