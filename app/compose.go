package app

import (
	"context"
	"errors"
	"slices"

	"maestro/backend/chat"
	"maestro/backend/mcp"
	"maestro/backend/tools"
)

// The composer's prompts and resources, on the Connectors service: each
// takes the chat's session, and backend/mcp refuses a connector the chat
// does not enable (docs/SECURITY.md, "Prompts and resources").

// maxDraftBytes bounds the base64 of a message's attachments: above every
// provider's request limit (docs/providers/), so a draft this big is
// refused here, before the agent reads it.
const maxDraftBytes = 160 << 20

// Offers lists what each connector the chat enables offers besides tools.
func (c *Connectors) Offers(sessionID string) ([]OfferDTO, error) {
	run, ctx, cancel, err := c.ready()
	if err != nil {
		return nil, err
	}
	defer cancel()
	offers, err := run.sup.Offers(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	out := make([]OfferDTO, 0, len(offers))
	for _, o := range offers {
		out = append(out, OfferDTO{ConnectorID: o.ConnectorID, Server: o.Server, State: string(o.State), Prompts: o.Prompts,
			Resources: o.Resources, Subscribe: o.Subscribe, Completions: o.Completions})
	}
	return out, nil
}

// Prompts lists the prompts of the connectors the chat enables.
func (c *Connectors) Prompts(sessionID string) (PromptListDTO, error) {
	run, ctx, cancel, err := c.ready()
	if err != nil {
		return PromptListDTO{}, err
	}
	defer cancel()
	list, err := run.sup.Prompts(ctx, sessionID)
	if err != nil {
		return PromptListDTO{}, err
	}
	return PromptListDTO{Prompts: promptDTOs(list.Prompts), Unavailable: unavailableDTOs(list.Unavailable)}, nil
}

// GetPrompt runs a prompt with its arguments and returns it as the parts
// of one user turn (text, files, resources), for the user to review. The
// server's refusal is the error, in its words.
func (c *Connectors) GetPrompt(sessionID, connectorID, name string, args map[string]string) ([]DraftPartDTO, error) {
	run, ctx, cancel, err := c.ready()
	if err != nil {
		return nil, err
	}
	defer cancel()
	res, err := run.sup.GetPrompt(ctx, sessionID, connectorID, name, args)
	if err != nil {
		return nil, err
	}
	return draftPartDTOs(res.Parts()), nil
}

// Complete asks a connector for completions of a prompt's argument or a
// template's variable.
func (c *Connectors) Complete(sessionID, connectorID string, ref CompletionRefDTO, argument, value string, context map[string]string) ([]string, error) {
	run, ctx, cancel, err := c.ready()
	if err != nil {
		return nil, err
	}
	defer cancel()
	got, err := run.sup.Complete(ctx, sessionID, connectorID, mcp.CompletionRef{Prompt: ref.Prompt, URITemplate: ref.URITemplate},
		argument, value, context)
	if err != nil {
		return nil, err
	}
	return append([]string{}, got.Values...), nil
}

// Resources returns one page of a connector's resources ("" for the first).
func (c *Connectors) Resources(sessionID, connectorID, cursor string) (ResourcePageDTO, error) {
	run, ctx, cancel, err := c.ready()
	if err != nil {
		return ResourcePageDTO{}, err
	}
	defer cancel()
	page, err := run.sup.Resources(ctx, sessionID, connectorID, cursor)
	if err != nil {
		return ResourcePageDTO{}, err
	}
	return ResourcePageDTO{Resources: resourceDTOs(page.Resources), NextCursor: page.NextCursor}, nil
}

// ResourceTemplates lists the resource templates of the chat's connectors.
func (c *Connectors) ResourceTemplates(sessionID string) ([]ResourceTemplateDTO, error) {
	run, ctx, cancel, err := c.ready()
	if err != nil {
		return nil, err
	}
	defer cancel()
	list, err := run.sup.ResourceTemplates(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	return templateDTOs(list.Templates), nil
}

// ReadResource reads a resource of a connector the chat enables, as parts
// ready to attach.
func (c *Connectors) ReadResource(sessionID, connectorID, uri string) ([]DraftPartDTO, error) {
	run, ctx, cancel, err := c.ready()
	if err != nil {
		return nil, err
	}
	defer cancel()
	return readParts(ctx, run, sessionID, connectorID, uri)
}

func readParts(ctx context.Context, run *running, sessionID, connectorID, uri string) ([]DraftPartDTO, error) {
	parts, err := run.sup.ReadResource(ctx, sessionID, connectorID, uri)
	if err != nil {
		return nil, err
	}
	out := make([]DraftPartDTO, 0, len(parts))
	for _, p := range parts {
		out = append(out, resourcePartDTO(p))
	}
	return out, nil
}

// ReadTemplate fills a resource template's variables and reads the
// resource it names.
func (c *Connectors) ReadTemplate(sessionID, connectorID, uriTemplate string, values map[string]string) ([]DraftPartDTO, error) {
	uri, err := mcp.ExpandTemplate(uriTemplate, values)
	if err != nil {
		return nil, err
	}
	return c.ReadResource(sessionID, connectorID, uri)
}

// SubscribeResource follows a resource attached in the chat: the server's
// updates arrive as resource:updated.
func (c *Connectors) SubscribeResource(sessionID, connectorID, uri string) error {
	run, ctx, cancel, err := c.ready()
	if err != nil {
		return err
	}
	defer cancel()
	return run.sup.Subscribe(ctx, sessionID, connectorID, uri)
}

// ReadToolResource reads a resource a tool's result linked to, from the
// connector that serves the tool (canonical name server.tool) in the chat.
func (c *Connectors) ReadToolResource(sessionID, toolName, uri string) ([]DraftPartDTO, error) {
	run, ctx, cancel, err := c.ready()
	if err != nil {
		return nil, err
	}
	defer cancel()
	snap, err := run.reg.Snapshot(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(snap.Entries, func(e tools.Entry) bool { return e.Canonical == toolName })
	if i < 0 {
		return nil, chat.E(chat.ErrNotFound, "the tool %s is not on in this chat, so its links cannot be read", toolName)
	}
	return readParts(ctx, run, sessionID, snap.Entries[i].ConnectorID, uri)
}

// Offering lists what a ready connector offers besides tools, for the
// connectors page.
func (c *Connectors) Offering(connectorID string) (OfferingDTO, error) {
	run, ctx, cancel, err := c.ready()
	if err != nil {
		return OfferingDTO{}, err
	}
	defer cancel()
	o, err := run.sup.ConnectorOffering(ctx, connectorID)
	if err != nil {
		return OfferingDTO{}, err
	}
	return OfferingDTO{ConnectorID: o.ConnectorID, Prompts: promptDTOs(o.Prompts), Templates: templateDTOs(o.Templates),
		Resources: resourceDTOs(o.Resources), MoreResources: o.MoreResources, Errors: append([]string{}, o.Errors...)}, nil
}

// CheckAttachments says why the chat's model would refuse the draft's
// attachments ([] when it takes them), so the composer shows it before
// anything is sent.
func (c *Chat) CheckAttachments(sessionID string, attachments []DraftPartDTO) ([]string, error) {
	files, resources, err := checkedDraft(attachments)
	if err != nil {
		return []string{err.Error()}, nil //nolint:nilerr // the refusal is the answer
	}
	run, ctx, cancel, err := c.core.call()
	if err != nil {
		return nil, err
	}
	defer cancel()
	err = run.agent.CheckAttachments(ctx, sessionID, files, resources)
	var ae *chat.AttachmentError
	switch {
	case err == nil:
		return []string{}, nil
	case errors.As(err, &ae):
		return []string{ae.Detail}, nil
	}
	return nil, err
}

// checkedDraft turns a draft's attachments into parts, within maxDraftBytes.
func checkedDraft(attachments []DraftPartDTO) ([]chat.FilePart, []chat.ResourcePart, error) {
	total := 0
	for _, a := range attachments {
		total += len(a.Data) + len(a.Text)
	}
	if total > maxDraftBytes {
		return nil, nil, chat.E(chat.ErrInvalid, "the attachments are %s, over the %s a message may carry",
			chat.HumanSize(int64(total)), chat.HumanSize(maxDraftBytes))
	}
	return draftParts(attachments)
}

// featureEvents turns the supervisor's prompt and resource changes into
// events (mcp.FeatureEvents): they only emit, never call back.
type featureEvents struct{ sink *sink }

func (e featureEvents) PromptsChanged(connectorID string) {
	e.sink.emit(EventPromptsChanged, ResourceChangedDTO{ConnectorID: connectorID})
}

func (e featureEvents) ResourcesChanged(connectorID string) {
	e.sink.emit(EventResourcesChanged, ResourceChangedDTO{ConnectorID: connectorID})
}

func (e featureEvents) ResourceUpdated(connectorID, uri string, sessionIDs []string) {
	e.sink.emit(EventResourceUpdated, ResourceUpdatedDTO{ConnectorID: connectorID, URI: uri, SessionIDs: append([]string{}, sessionIDs...)})
}
