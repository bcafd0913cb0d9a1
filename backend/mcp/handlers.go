package mcp

import (
	"cmp"
	"context"
	"errors"
	"fmt"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// handlers answers the server's requests (sampling, elicitation, roots)
// on behalf of a link. It satisfies mcp-go's client handler interfaces and
// the in-process transport's server-side ones.
type handlers struct{ l *link }

func (h handlers) CreateMessage(ctx context.Context, req mcpgo.CreateMessageRequest) (*mcpgo.CreateMessageResult, error) {
	smp := h.l.r.sup.sampler
	if smp == nil {
		return nil, errors.New("sampling is not supported")
	}
	h.l.r.note("sampling/createMessage (%d messages)", len(req.CreateMessageParams.Messages))
	origin, ctx, stop := h.l.requestScope(ctx)
	defer stop()
	res, err := smp.CreateMessage(ctx, SamplingRequest{Origin: origin, Params: req.CreateMessageParams})
	if err != nil {
		return nil, err
	}
	if res == nil {
		return nil, errors.New("sampling produced no message")
	}
	return res, nil
}

func (h handlers) Elicit(ctx context.Context, req mcpgo.ElicitationRequest) (*mcpgo.ElicitationResult, error) {
	sup := h.l.r.sup
	if sup.elicitor == nil {
		return nil, errors.New("elicitation is not supported")
	}
	p := req.Params
	origin, ctx, stop := h.l.requestScope(ctx)
	defer stop()
	if o, ok := h.l.taskOrigin(p.Meta); ok {
		origin = o // asked while a task runs: the call that started it
	}
	er := ElicitationRequest{Origin: origin, Mode: cmp.Or(p.Mode, ElicitForm), Message: p.Message}
	switch er.Mode {
	case ElicitForm:
		form, err := ParseForm(p.RequestedSchema)
		if err != nil {
			return nil, err
		}
		er.Form = form
	case ElicitURL:
		if sup.opener == nil {
			return nil, errors.New("URL elicitation is not supported")
		}
		if p.URL == "" {
			return nil, errors.New("URL elicitation without a url")
		}
		er.URL, er.ElicitationID = p.URL, p.ElicitationID
		h.l.r.note("elicitation/create (url mode)")
		action, err := h.elicitURL(ctx, er)
		if err != nil {
			return nil, err
		}
		out := &mcpgo.ElicitationResult{}
		out.Action = mcpgo.ElicitationResponseAction(action)
		return out, nil
	default:
		return nil, fmt.Errorf("unknown elicitation mode %q", p.Mode)
	}
	h.l.r.note("elicitation/create (form mode)")
	ans, err := sup.elicitor.Elicit(ctx, er)
	if err != nil {
		return nil, err
	}
	out := &mcpgo.ElicitationResult{}
	switch ans.Action {
	case ActionAccept:
		out.Action = mcpgo.ElicitationResponseActionAccept
		content, err := er.Form.Validate(er.Form.WithDefaults(ans.Content))
		if err != nil {
			return nil, fmt.Errorf("the answer does not fit the form: %w", err)
		}
		out.Content = content
	case ActionDecline:
		out.Action = mcpgo.ElicitationResponseActionDecline
	case ActionCancel:
		out.Action = mcpgo.ElicitationResponseActionCancel
	default:
		return nil, fmt.Errorf("unknown elicitation answer %q", ans.Action)
	}
	return out, nil
}

func (h handlers) ListRoots(ctx context.Context, _ mcpgo.ListRootsRequest) (*mcpgo.ListRootsResult, error) {
	return h.l.r.sup.rootsResult(), nil
}
