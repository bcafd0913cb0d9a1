package app

import (
	"maestro/backend/chat"
	"maestro/backend/mcp"
)

// PromptArgumentDTO is one argument of a prompt.
type PromptArgumentDTO struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// PromptDTO is a prompt a connector of the chat offers, for the "/" menu.
type PromptDTO struct {
	ConnectorID string              `json:"connectorId"`
	Server      string              `json:"server"`
	Name        string              `json:"name"`
	Title       string              `json:"title,omitempty"`
	Description string              `json:"description,omitempty"`
	Arguments   []PromptArgumentDTO `json:"arguments"`
}

// UnavailableDTO is a connector whose prompts or resources could not be
// listed, and why.
type UnavailableDTO struct {
	ConnectorID string `json:"connectorId"`
	Server      string `json:"server"`
	Error       string `json:"error"`
}

// PromptListDTO is the chat's prompts.
type PromptListDTO struct {
	Prompts     []PromptDTO      `json:"prompts"`
	Unavailable []UnavailableDTO `json:"unavailable"`
}

// ResourceDTO is a resource a connector lists.
type ResourceDTO struct {
	ConnectorID string `json:"connectorId"`
	Server      string `json:"server"`
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
	Size        int64  `json:"size,omitempty"`
}

// ResourcePageDTO is one page of a connector's resources.
type ResourcePageDTO struct {
	Resources  []ResourceDTO `json:"resources"`
	NextCursor string        `json:"nextCursor,omitempty"`
}

// ResourceTemplateDTO is a resource template (RFC 6570) and its variables.
type ResourceTemplateDTO struct {
	ConnectorID string   `json:"connectorId"`
	Server      string   `json:"server"`
	URITemplate string   `json:"uriTemplate"`
	Variables   []string `json:"variables"`
	Name        string   `json:"name"`
	Title       string   `json:"title,omitempty"`
	Description string   `json:"description,omitempty"`
	MIMEType    string   `json:"mimeType,omitempty"`
}

// OfferDTO is what one connector of the chat offers besides tools.
type OfferDTO struct {
	ConnectorID string `json:"connectorId"`
	Server      string `json:"server"`
	State       string `json:"state"`
	Prompts     bool   `json:"prompts"`
	Resources   bool   `json:"resources"`
	Subscribe   bool   `json:"subscribe"`
	Completions bool   `json:"completions"`
}

// OfferingDTO is one connector's prompts, templates and first page of
// resources, for the connectors page.
type OfferingDTO struct {
	ConnectorID   string                `json:"connectorId"`
	Prompts       []PromptDTO           `json:"prompts"`
	Templates     []ResourceTemplateDTO `json:"templates"`
	Resources     []ResourceDTO         `json:"resources"`
	MoreResources bool                  `json:"moreResources,omitempty"`
	Errors        []string              `json:"errors"`
}

// CompletionRefDTO names what a completion is for: a prompt or a resource
// template. Exactly one is set.
type CompletionRefDTO struct {
	Prompt      string `json:"prompt,omitempty"`
	URITemplate string `json:"uriTemplate,omitempty"`
}

// DraftPartDTO is a part of a message being composed, both ways: text
// (a prompt's), a file (an image, a PDF, a text file; Data base64) or a
// resource (URI and connector, with its Text or its bytes in Data).
type DraftPartDTO struct {
	Type        string `json:"type"`
	Text        string `json:"text,omitempty"`
	Name        string `json:"name,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
	Size        int64  `json:"size,omitempty"`
	Data        string `json:"data,omitempty"`
	URI         string `json:"uri,omitempty"`
	ConnectorID string `json:"connectorId,omitempty"`
	Server      string `json:"server,omitempty"`
	Title       string `json:"title,omitempty"`
	Truncated   bool   `json:"truncated,omitempty"`
}

// ResourceChangedDTO names a connector whose prompt or resource list
// changed.
type ResourceChangedDTO struct {
	ConnectorID string `json:"connectorId"`
}

// ResourceUpdatedDTO is a followed resource the server says changed, and
// the chats that follow it.
type ResourceUpdatedDTO struct {
	ConnectorID string   `json:"connectorId"`
	URI         string   `json:"uri"`
	SessionIDs  []string `json:"sessionIds"`
}

func promptDTO(p mcp.Prompt) PromptDTO {
	return PromptDTO{ConnectorID: p.ConnectorID, Server: p.Server, Name: p.Name, Title: p.Title, Description: p.Description,
		Arguments: mapped(p.Arguments, func(a mcp.PromptArgument) PromptArgumentDTO { return PromptArgumentDTO(a) })}
}

func promptDTOs(ps []mcp.Prompt) []PromptDTO { return mapped(ps, promptDTO) }

func resourceDTOs(rs []mcp.Resource) []ResourceDTO {
	return mapped(rs, func(r mcp.Resource) ResourceDTO { return ResourceDTO(r) })
}

func templateDTOs(ts []mcp.ResourceTemplate) []ResourceTemplateDTO {
	return mapped(ts, func(t mcp.ResourceTemplate) ResourceTemplateDTO { return ResourceTemplateDTO(t) })
}

func unavailableDTOs(us []mcp.Unavailable) []UnavailableDTO {
	return mapped(us, func(u mcp.Unavailable) UnavailableDTO { return UnavailableDTO(u) })
}

// draftPartDTOs turns canonical parts (a prompt's, a read's) into draft
// parts; parts of other types are left out.
func draftPartDTOs(ps chat.Parts) []DraftPartDTO {
	out := make([]DraftPartDTO, 0, len(ps))
	for _, p := range ps {
		switch p := p.(type) {
		case chat.TextPart:
			out = append(out, DraftPartDTO{Type: "text", Text: p.Text})
		case chat.FilePart:
			out = append(out, DraftPartDTO{Type: "file", Name: p.Name, MIMEType: p.MIMEType, Size: p.Size, Data: p.Data, URI: p.URI})
		case chat.ResourcePart:
			out = append(out, resourcePartDTO(p))
		}
	}
	return out
}

func resourcePartDTO(p chat.ResourcePart) DraftPartDTO {
	return DraftPartDTO{Type: "resource", URI: p.URI, ConnectorID: p.ConnectorID, Server: p.Server, Name: p.Name, Title: p.Title,
		MIMEType: p.MIMEType, Text: p.Text, Data: p.Data, Size: p.Size, Truncated: p.Truncated}
}

// draftParts turns the draft's attachments into the parts of the user's
// message: files and resources; text parts belong in the message's text.
func draftParts(in []DraftPartDTO) ([]chat.FilePart, []chat.ResourcePart, error) {
	var files []chat.FilePart
	var resources []chat.ResourcePart
	for i, p := range in {
		switch p.Type {
		case "file":
			if p.Data == "" || p.MIMEType == "" {
				return nil, nil, chat.E(chat.ErrInvalid, "attachment %d (%s) has no content or type", i+1, p.Name)
			}
			files = append(files, chat.FilePart{Name: p.Name, MIMEType: p.MIMEType, Size: chat.DecodedLen(p.Data), Data: p.Data})
		case "resource":
			if p.URI == "" {
				return nil, nil, chat.E(chat.ErrInvalid, "attachment %d is a resource without a URI", i+1)
			}
			resources = append(resources, chat.ResourcePart{URI: p.URI, ConnectorID: p.ConnectorID, Server: p.Server, Name: p.Name,
				Title: p.Title, MIMEType: p.MIMEType, Text: p.Text, Data: p.Data, Size: p.Size, Truncated: p.Truncated})
		default:
			return nil, nil, chat.E(chat.ErrInvalid, "attachment %d has type %q; want file or resource", i+1, p.Type)
		}
	}
	return files, resources, nil
}
