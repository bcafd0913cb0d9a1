package mcp

import (
	"context"
	"fmt"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"maestro/backend/chat"
)

// CompletionRef names what an argument belongs to: a prompt (by name) or
// a resource template (by its URI template). Exactly one is set.
type CompletionRef struct {
	Prompt      string `json:"prompt,omitempty"`
	URITemplate string `json:"uriTemplate,omitempty"`
}

// Completion is a server's suggestions for an argument's value.
type Completion struct {
	Values []string `json:"values"`
	// Total is how many the server has, when it says (0 otherwise).
	Total   int  `json:"total,omitempty"`
	HasMore bool `json:"hasMore,omitempty"`
}

// maxCompletions is the most values a completion keeps: the spec's bound
// on a response ("must not exceed 100 items").
const maxCompletions = 100

// Complete asks a connector the session enables to complete argument's
// value (completion/complete), given the values of the arguments already
// filled (context). A server that does not offer completions gives no
// values, not an error: the form simply offers none.
func (s *Supervisor) Complete(ctx context.Context, sessionID, connectorID string, ref CompletionRef, argument, value string, context map[string]string) (Completion, error) {
	_, l, err := s.sessionLink(ctx, sessionID, connectorID)
	if err != nil {
		return Completion{}, err
	}
	out := Completion{Values: []string{}}
	if l.caps.Completions == nil {
		return out, nil
	}
	req := mcpgo.CompleteRequest{}
	switch {
	case ref.Prompt != "" && ref.URITemplate == "":
		req.Params.Ref = mcpgo.PromptReference{Type: "ref/prompt", Name: ref.Prompt}
	case ref.URITemplate != "" && ref.Prompt == "":
		req.Params.Ref = mcpgo.ResourceReference{Type: "ref/resource", URI: ref.URITemplate}
	default:
		return Completion{}, chat.E(chat.ErrInvalid, "mcp: complete: name a prompt or a resource template")
	}
	req.Params.Argument = mcpgo.CompleteArgument{Name: argument, Value: value}
	req.Params.Context = mcpgo.CompleteContext{Arguments: context}
	rctx, cancel := contextWithTimeout(ctx, l)
	defer cancel()
	res, err := l.client.Complete(rctx, req)
	if err != nil {
		return Completion{}, requestError(fmt.Sprintf("completion of %q", argument), l, err)
	}
	for _, v := range res.Completion.Values[:min(len(res.Completion.Values), maxCompletions)] {
		out.Values = append(out.Values, short(v, maxName))
	}
	out.Total, out.HasMore = max(res.Completion.Total, 0), res.Completion.HasMore || len(res.Completion.Values) > maxCompletions
	return out, nil
}

// contextWithTimeout bounds a request to a server by its init timeout: a
// list or a completion is quick or broken.
func contextWithTimeout(ctx context.Context, l *link) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, l.cfg.InitTimeout())
}
