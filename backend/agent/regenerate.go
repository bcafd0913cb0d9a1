package agent

import (
	"context"
	"fmt"

	"maestro/backend/chat"
)

// Regenerating an answer (RunInput.Regenerate) answers its turn's user
// message again as a new branch: the history the request is rendered from
// is the branch up to the answer's first message (the user message, and a
// summary node made right after it, if any), and the run's first write is
// stored as a sibling of that first message (Store.ForkMessage), which
// moves the session's Head in the same transaction. The old answer stays,
// as another branch. A regeneration that stops or fails before it writes
// anything leaves the session as it was.

// checkRegenerate finds the answer to regenerate and prepares the run: it
// sets the history to the branch before the answer's first message and the
// message the first write forks from. Any assistant message of the
// answer's turn can be named: complete, stopped or failed.
func (r *run) checkRegenerate(ctx context.Context) error {
	seq := r.in.Regenerate
	if r.in.Text != "" || len(r.in.Files) > 0 || len(r.in.Resources) > 0 {
		return chat.E(chat.ErrInvalid, "a regenerated answer takes no new message")
	}
	// The answer's turn, newest first back to its user message.
	var turn []chat.Message
	done := false
	_, _, err := r.a.store.TailFrom(ctx, r.in.SessionID, seq, func(m chat.Message) bool {
		if done {
			return false
		}
		turn = append(turn, m)
		done = m.Role == chat.RoleUser
		return true
	})
	if err != nil {
		return fmt.Errorf("agent: find the answer to regenerate: %w", err)
	}
	if len(turn) == 0 || turn[0].Role != chat.RoleAssistant {
		return chat.E(chat.ErrInvalid, "message %d is not an answer; only the assistant's answers can be regenerated", seq)
	}
	if !done {
		return chat.E(chat.ErrInvalid, "answer %d has no message of yours before it to answer again", seq)
	}
	// first is the answer's first message: the oldest after the user
	// message that is not a summary node (a summary made for the turn is
	// kept and serves the new answer too).
	first := turn[len(turn)-2]
	for i := len(turn) - 2; i >= 0 && turn[i].Role == chat.RoleSummary; i-- {
		first = turn[max(i-1, 0)]
	}
	if first.Role == chat.RoleSummary {
		return chat.E(chat.ErrInvalid, "answer %d has nothing to regenerate", seq)
	}
	_, history, err := r.a.store.TailFrom(ctx, r.in.SessionID, first.Parent, tailKeeper())
	if err != nil {
		return fmt.Errorf("agent: read the conversation before the answer: %w", err)
	}
	r.history, r.forkAt = history, first.Seq
	r.entry.view.reset()
	return nil
}

// settleRegenerate hands the history entry back after a regeneration that
// wrote nothing: the run's history is not the session's branch then, so
// the entry is read again next time.
func (r *run) settleRegenerate() bool {
	if r.forkAt == 0 {
		return false
	}
	r.entry.loaded = false
	return true
}
