package mcp

import (
	"context"
	"fmt"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/yosida95/uritemplate/v3"

	"maestro/backend/chat"
)

// Resource is one resource a server lists.
type Resource struct {
	ConnectorID string `json:"connectorId"`
	Server      string `json:"server"`
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
	// Size is the content's length in bytes when the server says it, else 0.
	Size int64 `json:"size,omitempty"`
}

// ResourcePage is one page of a connector's resources; NextCursor, when
// set, asks for the next.
type ResourcePage struct {
	Resources  []Resource `json:"resources"`
	NextCursor string     `json:"nextCursor,omitempty"`
}

// ResourceTemplate is a template a server offers for resources it does
// not list: a URI template (RFC 6570) and its variables.
type ResourceTemplate struct {
	ConnectorID string   `json:"connectorId"`
	Server      string   `json:"server"`
	URITemplate string   `json:"uriTemplate"`
	Variables   []string `json:"variables"`
	Name        string   `json:"name"`
	Title       string   `json:"title,omitempty"`
	Description string   `json:"description,omitempty"`
	MIMEType    string   `json:"mimeType,omitempty"`
}

// TemplateList is the templates of a session's connectors.
type TemplateList struct {
	Templates   []ResourceTemplate `json:"templates"`
	Unavailable []Unavailable      `json:"unavailable,omitempty"`
}

// maxResourceContents bounds the contents kept of one read.
const maxResourceContents = 100

// Resources returns one page of a connector's resources (the first for an
// empty cursor). Pages are the server's: they are not kept, and the
// picker asks for the next with NextCursor.
func (s *Supervisor) Resources(ctx context.Context, sessionID, connectorID, cursor string) (ResourcePage, error) {
	_, l, err := s.sessionLink(ctx, sessionID, connectorID)
	if err != nil {
		return ResourcePage{}, err
	}
	return l.resourcePage(ctx, cursor)
}

// resourcePage reads one page of the server's resources.
func (l *link) resourcePage(ctx context.Context, cursor string) (ResourcePage, error) {
	out := ResourcePage{Resources: []Resource{}}
	if l.caps.Resources == nil {
		return out, nil
	}
	req := mcpgo.ListResourcesRequest{}
	req.Params.Cursor = mcpgo.Cursor(cursor)
	ctx, cancel := context.WithTimeout(ctx, l.cfg.InitTimeout())
	defer cancel()
	res, err := l.client.ListResourcesByPage(ctx, req)
	if err != nil {
		return ResourcePage{}, requestError("resources/list", l, err)
	}
	l.lists.mu.Lock()
	l.lists.resourcesRead = true
	l.lists.mu.Unlock()
	for _, r := range res.Resources[:min(len(res.Resources), maxListed)] {
		out.Resources = append(out.Resources, resourceOf(l, r))
	}
	if res.NextCursor != mcpgo.Cursor(cursor) { // a cursor that does not advance ends the list
		out.NextCursor = string(res.NextCursor)
	}
	return out, nil
}

func resourceOf(l *link, r mcpgo.Resource) Resource {
	out := Resource{ConnectorID: l.cfg.ID, Server: l.cfg.DisplayName(), URI: r.URI, Name: short(r.Name, maxName),
		Title: short(r.Title, maxName), Description: short(r.Description, maxDescription), MIMEType: r.MIMEType}
	if r.Size != nil && *r.Size > 0 {
		out.Size = *r.Size
	}
	return out
}

// ResourceTemplates lists the resource templates of every ready connector
// the session enables whose server offers resources, sorted by server and
// name; lists are kept until the server says they changed.
func (s *Supervisor) ResourceTemplates(ctx context.Context, sessionID string) (TemplateList, error) {
	runners, err := s.sessionRunners(ctx, sessionID)
	if err != nil {
		return TemplateList{}, err
	}
	var out TemplateList
	out.Templates, out.Unavailable = gather(ctx, runners, func(c mcpgo.ServerCapabilities) bool { return c.Resources != nil },
		(*link).templates, templateOf, func(t ResourceTemplate) (string, string) { return t.Server, t.Name })
	return out, nil
}

// templates returns the server's template list (featureLists).
func (l *link) templates(ctx context.Context) ([]mcpgo.ResourceTemplate, error) {
	return cachedList(ctx, l, func(f *featureLists) *listState { return &f.templates }, "resources/templates/list",
		func(ctx context.Context, cursor mcpgo.Cursor) ([]mcpgo.ResourceTemplate, mcpgo.Cursor, error) {
			req := mcpgo.ListResourceTemplatesRequest{}
			req.Params.Cursor = cursor
			res, err := l.client.ListResourceTemplatesByPage(ctx, req)
			if err != nil {
				return nil, "", err
			}
			return res.ResourceTemplates, res.NextCursor, nil
		})
}

func templateOf(l *link, t mcpgo.ResourceTemplate) ResourceTemplate {
	out := ResourceTemplate{ConnectorID: l.cfg.ID, Server: l.cfg.DisplayName(), Name: short(t.Name, maxName),
		Title: short(t.Title, maxName), Description: short(t.Description, maxDescription), MIMEType: t.MIMEType, Variables: []string{}}
	if t.URITemplate != nil && t.URITemplate.Template != nil {
		out.URITemplate = t.URITemplate.Raw()
		out.Variables = t.URITemplate.Varnames()
	}
	return out
}

// ExpandTemplate fills a URI template's variables (RFC 6570) to the URI to
// read.
func ExpandTemplate(template string, values map[string]string) (string, error) {
	t, err := uritemplate.New(template)
	if err != nil {
		return "", chat.E(chat.ErrInvalid, "resource template %q: %v", template, err)
	}
	vals := uritemplate.Values{}
	for k, v := range values {
		vals.Set(k, uritemplate.String(v))
	}
	uri, err := t.Expand(vals)
	if err != nil {
		return "", chat.E(chat.ErrInvalid, "resource template %q: %v", template, err)
	}
	return uri, nil
}

// ReadResource reads a resource of a connector the session enables and
// returns its contents as resource parts, ready to attach: text cut to
// MaxResourceText with a note, bytes as base64 (their size checked against
// the provider's limits when the message is sent). A tool result's
// resource link is fetched this way too, on demand.
func (s *Supervisor) ReadResource(ctx context.Context, sessionID, connectorID, uri string) ([]chat.ResourcePart, error) {
	_, l, err := s.sessionLink(ctx, sessionID, connectorID)
	if err != nil {
		return nil, err
	}
	if l.caps.Resources == nil {
		return nil, chat.E(chat.ErrInvalid, "the %s server offers no resources", l.cfg.DisplayName())
	}
	req := mcpgo.ReadResourceRequest{}
	req.Params.URI = uri
	ctx, cancel := context.WithTimeout(ctx, l.cfg.CallTimeout())
	defer cancel()
	res, err := l.client.ReadResource(ctx, req)
	if err != nil {
		return nil, requestError(fmt.Sprintf("resource %s", uri), l, err)
	}
	out := make([]chat.ResourcePart, 0, min(len(res.Contents), maxResourceContents))
	for _, c := range res.Contents[:min(len(res.Contents), maxResourceContents)] {
		p := resourcePart(c, l.cfg.ID, l.cfg.DisplayName())
		if p.URI == "" {
			p.URI = uri
		}
		out = append(out, p)
	}
	return out, nil
}
