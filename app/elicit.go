package app

import (
	"context"
	"encoding/json"
	"errors"

	"maestro/backend/chat"
	"maestro/backend/mcp"
)

// withdrawnReason says why a question to the user was withdrawn.
func withdrawnReason(ctx context.Context) string {
	cause := context.Cause(ctx)
	switch {
	case cause == nil, errors.Is(cause, context.Canceled):
		return "the tool call ended before you answered"
	case errors.Is(cause, context.DeadlineExceeded):
		return "the connector stopped waiting for an answer"
	}
	return cause.Error()
}

// elicitAnswer is what AnswerElicitation hands to the waiting Elicit.
type elicitAnswer struct {
	answer mcp.ElicitationAnswer
	// result receives the validation outcome of an accepted form (nil
	// when it was taken).
	result chan error
}

// elicitor implements mcp.Elicitor through the UI: elicitation:needed,
// then AnswerElicitation.
type elicitor struct{ c *Connectors }

// Elicit emits elicitation:needed and waits for AnswerElicitation or for
// ctx (the call's timeout).
func (e elicitor) Elicit(ctx context.Context, req mcp.ElicitationRequest) (mcp.ElicitationAnswer, error) {
	dto := ElicitationDTO{
		SessionID: req.SessionID, Connector: cmpOr(req.ConnectorName, req.ConnectorID),
		Message: req.Message, Mode: req.Mode, URL: req.URL,
	}
	var form mcp.Form
	if req.Mode != mcp.ElicitURL {
		dto.Mode = mcp.ElicitForm
		if req.Form != nil {
			form = *req.Form
		}
		if form.Fields == nil {
			form.Fields = []mcp.Field{} // "fields": [] rather than null
		}
		b, err := json.Marshal(form)
		if err != nil {
			return mcp.ElicitationAnswer{}, chat.E(chat.ErrInvalid, "elicitation schema: %v", err)
		}
		dto.Schema = string(b)
	}
	id, answers, done := e.c.elicits.ask()
	defer done()
	dto.RequestID = id
	e.c.core.events.emit(EventElicitation, dto)
	for {
		select {
		case a := <-answers:
			if a.answer.Action != mcp.ActionAccept || dto.Mode == mcp.ElicitURL {
				a.result <- nil
				return mcp.ElicitationAnswer{Action: a.answer.Action}, nil
			}
			content, err := form.Validate(form.WithDefaults(a.answer.Content))
			a.result <- err
			if err != nil {
				continue // the user fixes the form and answers again
			}
			return mcp.ElicitationAnswer{Action: mcp.ActionAccept, Content: content}, nil
		case <-ctx.Done():
			e.c.core.events.emit(EventElicitationClosed, ElicitationClosedDTO{RequestID: id, Reason: withdrawnReason(ctx)})
			return mcp.ElicitationAnswer{Action: mcp.ActionCancel}, ctx.Err()
		}
	}
}

// ElicitationAction is the user's answer to an elicitation.
type ElicitationAction string

// AnswerElicitation answers a pending elicitation: action is accept,
// decline or cancel; contentJSON is the form's values (a JSON object) for
// an accepted form. An invalid form is rejected (chat.ErrInvalid, with
// every problem) and the request keeps waiting for a corrected answer.
func (c *Connectors) AnswerElicitation(requestID string, answer ElicitationAction, contentJSON string) error {
	action := string(answer)
	switch action {
	case mcp.ActionAccept, mcp.ActionDecline, mcp.ActionCancel:
	default:
		return chat.E(chat.ErrInvalid, "unknown action %.40q: use accept, decline or cancel", action)
	}
	var content map[string]any
	if action == mcp.ActionAccept && contentJSON != "" {
		if err := json.Unmarshal([]byte(contentJSON), &content); err != nil {
			return chat.E(chat.ErrInvalid, "the answer is not a JSON object: %v", err)
		}
	}
	ctx, err := c.core.rootContext()
	if err != nil {
		ctx = context.Background() // shutting down: the request is gone, and answer says so
	}
	a := elicitAnswer{answer: mcp.ElicitationAnswer{Action: action, Content: content}, result: make(chan error, 1)}
	if err := c.elicits.answer(ctx, requestID, a); err != nil {
		return err
	}
	return <-a.result
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
