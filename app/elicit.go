package app

import (
	"context"
	"encoding/json"
	"errors"
	"sync"

	"maestro/backend/chat"
	"maestro/backend/mcp"
)

// EventElicitation carries an ElicitationDTO: a connector asks the user
// for input (a form) or for consent to open a URL.
const EventElicitation = "elicitation:needed"

// EventElicitationClosed carries an ElicitationClosedDTO: the request
// stopped waiting without the user's answer (the tool call was stopped or
// timed out, or the app is closing), so its dialog goes away.
const EventElicitationClosed = "elicitation:closed"

// ElicitationClosedDTO is elicitation:closed.
type ElicitationClosedDTO struct {
	RequestID string `json:"requestId"`
	// Reason is why, in plain words.
	Reason string `json:"reason"`
}

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

// ElicitationDTO is elicitation:needed.
type ElicitationDTO struct {
	RequestID string `json:"requestId"`
	SessionID string `json:"sessionId"`
	Connector string `json:"connector"`
	Message   string `json:"message"`
	// Mode is "form" or "url".
	Mode string `json:"mode"`
	// Schema is the flat form (mcp.Form) as JSON text, for mode "form".
	Schema string `json:"schema,omitempty"`
	URL    string `json:"url,omitempty"`
}

// elicitAnswer is what AnswerElicitation hands to the waiting Elicit.
type elicitAnswer struct {
	answer mcp.ElicitationAnswer
	// result receives the validation outcome of an accepted form (nil
	// when it was taken).
	result chan error
}

type pendingElicit struct {
	form   *mcp.Form
	answer chan elicitAnswer
	// done is closed when Elicit stops waiting.
	done chan struct{}
}

// elicitor implements mcp.Elicitor through the UI.
type elicitor struct {
	app     *App
	mu      sync.Mutex
	pending map[string]pendingElicit
}

func newElicitor(a *App) *elicitor {
	return &elicitor{app: a, pending: map[string]pendingElicit{}}
}

// Elicit emits elicitation:needed and waits for AnswerElicitation or for
// ctx (the call's timeout).
func (e *elicitor) Elicit(ctx context.Context, req mcp.ElicitationRequest) (mcp.ElicitationAnswer, error) {
	id := chat.NewID()
	p := pendingElicit{form: req.Form, answer: make(chan elicitAnswer), done: make(chan struct{})}
	dto := ElicitationDTO{
		RequestID: id, SessionID: req.SessionID, Connector: cmpOr(req.ConnectorName, req.ConnectorID),
		Message: req.Message, Mode: req.Mode, URL: req.URL,
	}
	if req.Mode != mcp.ElicitURL {
		dto.Mode = mcp.ElicitForm
		var form mcp.Form
		if req.Form != nil {
			form = *req.Form
		}
		if form.Fields == nil {
			form.Fields = []mcp.Field{} // "fields": [] rather than null
		}
		p.form = &form
		b, err := json.Marshal(form)
		if err != nil {
			return mcp.ElicitationAnswer{}, chat.E(chat.ErrInvalid, "elicitation schema: %v", err)
		}
		dto.Schema = string(b)
	}
	e.mu.Lock()
	e.pending[id] = p
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		delete(e.pending, id)
		e.mu.Unlock()
		close(p.done)
	}()
	e.app.emit(EventElicitation, dto)
	for {
		select {
		case a := <-p.answer:
			if a.answer.Action != mcp.ActionAccept || dto.Mode == mcp.ElicitURL {
				a.result <- nil
				return mcp.ElicitationAnswer{Action: a.answer.Action}, nil
			}
			content, err := p.form.Validate(p.form.WithDefaults(a.answer.Content))
			a.result <- err
			if err != nil {
				continue // the user fixes the form and answers again
			}
			return mcp.ElicitationAnswer{Action: mcp.ActionAccept, Content: content}, nil
		case <-ctx.Done():
			e.app.emit(EventElicitationClosed, ElicitationClosedDTO{RequestID: id, Reason: withdrawnReason(ctx)})
			return mcp.ElicitationAnswer{Action: mcp.ActionCancel}, ctx.Err()
		}
	}
}

// answer hands the user's answer to the waiting request and returns the
// validation error of an accepted form.
func (e *elicitor) answer(ctx context.Context, requestID, action, contentJSON string) error {
	switch action {
	case mcp.ActionAccept, mcp.ActionDecline, mcp.ActionCancel:
	default:
		return chat.E(chat.ErrInvalid, "unknown action %q: use accept, decline or cancel", action)
	}
	var content map[string]any
	if action == mcp.ActionAccept && contentJSON != "" {
		if err := json.Unmarshal([]byte(contentJSON), &content); err != nil {
			return chat.E(chat.ErrInvalid, "the answer is not a JSON object: %v", err)
		}
	}
	e.mu.Lock()
	p, ok := e.pending[requestID]
	e.mu.Unlock()
	if !ok {
		return chat.E(chat.ErrNotFound, "that request is no longer waiting")
	}
	a := elicitAnswer{answer: mcp.ElicitationAnswer{Action: action, Content: content}, result: make(chan error, 1)}
	select {
	case p.answer <- a:
	case <-p.done:
		return chat.E(chat.ErrNotFound, "that request is no longer waiting")
	case <-ctx.Done():
		return chat.E(chat.ErrNotFound, "that request is no longer waiting")
	}
	return <-a.result
}

// AnswerElicitation answers a pending elicitation: action is accept,
// decline or cancel; contentJSON is the form's values (a JSON object) for
// an accepted form. An invalid form is rejected (chat.ErrInvalid, with
// every problem) and the request keeps waiting for a corrected answer.
func (a *App) AnswerElicitation(requestID, action, contentJSON string) error {
	if a.conns == nil {
		return chat.E(chat.ErrUnavailable, "connectors are not available in this build")
	}
	ctx := context.Background()
	a.mu.RLock()
	if a.root != nil {
		ctx = a.root
	}
	a.mu.RUnlock()
	return a.conns.elicit.answer(ctx, requestID, action, contentJSON)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
