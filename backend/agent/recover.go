package agent

import (
	"context"
	"fmt"

	"maestro/backend/chat"
)

const (
	msgInterruptedReply = "Maestro closed before this reply finished. Retry the turn to continue."
	msgInterruptedCall  = "Maestro closed before this tool call finished"
)

// Recover settles what a turn left behind when the process running it
// died (a crash, kill -9, power loss): its last checkpoints are still
// marked streaming. An assistant checkpoint becomes a failed reply (its
// partial text stays visible, is not sent again, and the turn can be
// retried); a tool message checkpoint gets an error result for each call
// that has none and becomes complete, so history stays well-formed.
//
// The caller must know no run of this process is writing to the session
// (the app calls it when it opens a session with no run, and Run calls it
// on the history it loads, since a session has at most one run). It
// returns msgs with the changes applied and how many messages it rewrote.
func Recover(ctx context.Context, st Store, sessionID string, msgs []chat.Message) ([]chat.Message, int, error) {
	n := 0
	for i, m := range msgs {
		if m.Status != chat.StatusStreaming {
			continue
		}
		switch m.Role {
		case chat.RoleAssistant:
			m.Status, m.Error = chat.StatusFailed, msgInterruptedReply
			m.Failure = &chat.Failure{Kind: chat.KindInterrupted}
		case chat.RoleTool:
			m.Parts = append(m.Parts, missingResults(msgs[:i], m)...)
			m.Status = chat.StatusComplete
		default:
			m.Status = chat.StatusComplete
		}
		if err := st.PutMessage(context.WithoutCancel(ctx), sessionID, m); err != nil {
			return msgs, n, fmt.Errorf("agent: settle an interrupted message: %w", err)
		}
		msgs[i] = m
		n++
	}
	return msgs, n, nil
}

// missingResults are error results for the calls of the assistant message
// that tool message tm answers which tm holds no result for.
func missingResults(before []chat.Message, tm chat.Message) chat.Parts {
	var calls []chat.ToolCall
	for j := len(before) - 1; j >= 0; j-- {
		if before[j].Role == chat.RoleAssistant {
			calls = before[j].ToolCalls()
			break
		}
	}
	have := map[string]bool{}
	for _, p := range tm.Parts {
		if r, ok := p.(chat.ToolResultPart); ok {
			have[r.Result.CallID] = true
		}
	}
	var out chat.Parts
	for _, c := range calls {
		if !have[c.ID] {
			out = append(out, chat.ToolResultPart{Result: errorResult(c, msgInterruptedCall)})
		}
	}
	return out
}
