package app

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/mcp"
)

// maxMessageLen bounds one typed message (1 MiB of text).
const maxMessageLen = 1 << 20

// ApprovalDecision answers approval:needed.
type ApprovalDecision string

// The decisions.
const (
	DecisionAllowOnce   ApprovalDecision = "allow_once"
	DecisionAlwaysAllow ApprovalDecision = "always_allow"
	// DecisionAlwaysAllowAllChats allows the tool in every chat (a grant
	// kept by tools.Trust, revocable in the connector's Trust panel).
	DecisionAlwaysAllowAllChats ApprovalDecision = "always_allow_all_chats"
	DecisionDeny                ApprovalDecision = "deny"
)

// Chat is the bound service of the chat pane: sending and editing
// messages, the replies running (stop, retry, apply the new tools now),
// the approvals they ask for, branches, and the session's model.
//
// Runs: a run appends to its session's active branch, so nothing may move
// that branch while a run is on. startRun checks and registers a session's
// run under mu; SwitchBranch (whileIdle) moves the branch while holding mu
// after checking that no run is registered. A run leaves the table before
// its run:finished event goes out, so a message sent on run:finished is not
// refused.
type Chat struct {
	core    *core
	models  agent.Models
	catalog ModelCatalog
	options []agent.Option

	approvals questions[agent.Decision]
	// appContexts wait for the chat's next message (SetAppContext).
	appContexts mcp.AppContexts

	mu   sync.Mutex
	runs map[string]*runState // by run id
}

type runState struct {
	id, sessionID string
	// edit is set for EditAndResend's runs, whose user message has siblings.
	edit bool
	// regen is set for Regenerate's runs, whose first reply has siblings.
	regen   bool
	cancel  context.CancelFunc
	control *agent.Control
}

// modelIDs lists a provider's models for sampling's hints.
func (c *Chat) modelIDs(ctx context.Context, provider string) []string {
	for _, p := range c.catalog.Providers(ctx) {
		if p.ID == provider {
			ids := make([]string, 0, len(p.Models))
			for _, m := range p.Models {
				ids = append(ids, m.ID)
			}
			return ids
		}
	}
	return nil
}

// SendMessage stores the user's message, with the draft's attachments
// (files and resources; see CheckAttachments), and starts a reply. It returns
// once the message is stored; the reply streams as events. A chat without
// a usable provider still keeps the message: the run then fails with a
// sign-in hint.
func (c *Chat) SendMessage(sessionID, text string, attachments []DraftPartDTO) (SendResultDTO, error) {
	if err := checkText(text); err != nil {
		return SendResultDTO{}, err
	}
	files, resources, err := checkedDraft(attachments)
	if err != nil {
		return SendResultDTO{}, err
	}
	appContexts, sent := c.appContexts.Pending(sessionID)
	runID, m, err := c.startRun(agent.RunInput{SessionID: sessionID, Text: text, Files: files, Resources: append(resources, appContexts...)})
	if err != nil {
		return SendResultDTO{}, err
	}
	sent()
	return SendResultDTO{RunID: runID, Message: *m}, nil
}

// checkText refuses a typed message that is empty or too long.
func checkText(text string) error {
	if strings.TrimSpace(text) == "" {
		return fmt.Errorf("the message is empty: %w", chat.ErrInvalid)
	}
	if len(text) > maxMessageLen {
		return fmt.Errorf("the message is %d bytes, at most %d allowed: %w", len(text), maxMessageLen, chat.ErrInvalid)
	}
	return nil
}

// errRunning refuses a change to a chat whose reply is still running.
func errRunning() error {
	return chat.E(chat.ErrConflict, "a reply is still running in this chat; stop it first")
}

// StopRun stops a running reply: the stream and any running tool calls
// are cancelled, and what was received is kept.
func (c *Chat) StopRun(runID string) error {
	r, err := c.runByID(runID)
	if err != nil {
		return err
	}
	r.cancel()
	return nil
}

// ApplyNow restarts the running reply's current step with the session's
// current tools. It reports whether a request was in flight.
func (c *Chat) ApplyNow(runID string) (bool, error) {
	r, err := c.runByID(runID)
	if err != nil {
		return false, err
	}
	return r.control.ApplyNow(), nil
}

// RetryTurn runs the session's last failed turn again.
func (c *Chat) RetryTurn(sessionID string) (string, error) {
	id, _, err := c.startRun(agent.RunInput{SessionID: sessionID, Retry: true})
	return id, err
}

// ActiveRun returns the id of the session's running reply, or "".
func (c *Chat) ActiveRun(sessionID string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range c.runs {
		if r.sessionID == sessionID {
			return r.id
		}
	}
	return ""
}

// AnswerApproval answers a pending approval request: allow_once,
// always_allow or deny.
func (c *Chat) AnswerApproval(requestID string, decision ApprovalDecision) error {
	var d agent.Decision
	switch decision {
	case DecisionAllowOnce:
		d = agent.AllowOnce
	case DecisionAlwaysAllow:
		d = agent.AlwaysAllow
	case DecisionAlwaysAllowAllChats:
		d = agent.AlwaysAllowAllChats
	case DecisionDeny:
		d = agent.Deny
	default:
		return chat.E(chat.ErrInvalid, "unknown decision %.40q: use allow_once, always_allow, always_allow_all_chats or deny", decision)
	}
	return c.approvals.answer(context.Background(), requestID, d)
}

// approver implements agent.Approver for the chat. It is not a method of
// Chat, which Wails binds.
type approver struct{ c *Chat }

// Approve asks the UI (approval:needed) and waits for AnswerApproval, or
// for the run to stop.
func (a approver) Approve(ctx context.Context, req agent.ApprovalRequest) (agent.Decision, error) {
	c := a.c
	id, answers, done := c.approvals.ask()
	defer done()
	c.core.events.runEvent(req.RunID, EventApproval, ApprovalDTO{
		RunID: req.RunID, RequestID: id, CallID: req.Call.ID, Name: req.Call.Name,
		Server: req.Server, Arguments: string(req.Call.Arguments), ReadOnlyHint: req.ReadOnlyHint,
		Hints: &req.Hints, Destructive: req.Destructive, Change: req.Change,
		RequestedBy: req.RequestedBy,
	})
	select {
	case d := <-answers:
		return d, nil
	case <-ctx.Done():
		return agent.Deny, ctx.Err()
	}
}
