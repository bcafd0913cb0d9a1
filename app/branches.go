package app

import (
	"context"
	"slices"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/store"
)

// A conversation is a tree: editing a message and sending it again adds a
// new version of it (a sibling) with its own continuation, and keeps the
// old one. The session shows one branch at a time; SwitchBranch picks
// another. Neither may happen while a reply runs, since the run appends to
// the branch shown.

// EditAndResend stores text as a new version of the user message seq and
// starts a reply to it, with only the history before that message. The
// old message and everything after it stay, as another branch. Like
// SendMessage it returns once the new message is stored; the reply streams
// as events. Everything is checked before anything changes: the text, that
// no reply runs in the chat, that seq is one of the user's messages in the
// conversation shown, and that the chat's model can be used.
func (c *Chat) EditAndResend(sessionID string, seq uint64, text string) (SendResultDTO, error) {
	if err := checkText(text); err != nil {
		return SendResultDTO{}, err
	}
	run, ctx, cancel, err := c.core.call()
	if err != nil {
		return SendResultDTO{}, err
	}
	defer cancel()
	st := run.store
	if c.ActiveRun(sessionID) != "" {
		return SendResultDTO{}, errRunning()
	}
	if err := checkEditable(ctx, st, sessionID, seq); err != nil {
		return SendResultDTO{}, err
	}
	c.pickDefaultModel(sessionID)
	if err := c.checkModel(ctx, st, sessionID); err != nil {
		return SendResultDTO{}, err
	}
	// startRun checks again, atomically, that no reply has started since.
	runID, m, err := c.startRun(agent.RunInput{SessionID: sessionID, Text: text, Edit: seq})
	if err != nil {
		return SendResultDTO{}, err
	}
	return SendResultDTO{RunID: runID, Message: *m}, nil
}

// SwitchBranch shows the branch through message seq, one of the versions
// of an edited message: the conversation then runs to the newest message
// under it. It returns the session as Sessions.Open does.
func (c *Chat) SwitchBranch(sessionID string, seq uint64) (SessionViewDTO, error) {
	run, ctx, cancel, err := c.core.call()
	if err != nil {
		return SessionViewDTO{}, err
	}
	defer cancel()
	st := run.store
	var sess chat.Session
	err = c.whileIdle(sessionID, func() error {
		var serr error
		sess, serr = st.SwitchBranch(ctx, sessionID, seq)
		return serr
	})
	if err != nil {
		return SessionViewDTO{}, err
	}
	page, err := c.latestPage(ctx, st, sessionID)
	if err != nil {
		return SessionViewDTO{}, err
	}
	c.core.events.emit(EventSessionsChanged, nil)
	return sessionView(sess, page), nil
}

// checkEditable refuses an edit of anything but a user message of the
// conversation shown.
func checkEditable(ctx context.Context, st *store.Store, sessionID string, seq uint64) error {
	m, err := st.Message(ctx, sessionID, seq)
	if err != nil {
		return err
	}
	if m.Role != chat.RoleUser {
		return chat.E(chat.ErrInvalid, "only your own messages can be edited")
	}
	on, err := st.OnActivePath(ctx, sessionID, seq)
	if err != nil {
		return err
	}
	if !on {
		return chat.E(chat.ErrInvalid, "that message is not in the conversation shown; switch to its branch first")
	}
	return nil
}

// checkModel refuses to start a reply the chat's model cannot give: none
// chosen, or its provider has no usable credentials.
func (c *Chat) checkModel(ctx context.Context, st *store.Store, sessionID string) error {
	s, err := st.Session(ctx, sessionID)
	if err != nil {
		return err
	}
	if s.Provider == "" || s.Model == "" {
		return chat.E(chat.ErrAuthRequired, "choose a model for this chat; sign in to a provider in Accounts, or add an API key")
	}
	if _, err := c.models.Model(ctx, s.Provider); err != nil {
		return err
	}
	return nil
}

// branchOf places message seq among its versions, or returns nil when it
// has none. A failure only costs the switcher, so it is logged.
func (c *Chat) branchOf(ctx context.Context, st *store.Store, sessionID string, seq uint64) *BranchDTO {
	sibs, err := st.Siblings(ctx, sessionID, seq)
	if err != nil {
		c.core.log.Warn("list the versions of a message", "session", sessionID, "seq", seq, "err", err)
		return nil
	}
	i := slices.Index(sibs, seq)
	if len(sibs) < 2 || i < 0 {
		return nil
	}
	return branchDTO(store.Branch{Index: i, Count: len(sibs), Prev: at(sibs, i-1), Next: at(sibs, i+1)})
}

func at(s []uint64, i int) uint64 {
	if i < 0 || i >= len(s) {
		return 0
	}
	return s[i]
}

func branchDTO(b store.Branch) *BranchDTO {
	return &BranchDTO{Index: b.Index, Count: b.Count, Prev: b.Prev, Next: b.Next}
}
