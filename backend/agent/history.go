package agent

import "maestro/backend/chat"

// sendable reports whether a stored message belongs in requests: user and
// tool messages, and assistant messages that were completed or stopped (a
// stopped reply keeps its partial text; a crash leftover still marked
// streaming is settled as failed by Recover before a run reads history).
// Failed and superseded attempts are kept for the record only.
func sendable(m chat.Message) bool {
	switch m.Role {
	case chat.RoleUser, chat.RoleTool:
		return true
	case chat.RoleAssistant:
		return m.Status != chat.StatusFailed && m.Status != StatusSuperseded
	}
	return false
}

// sendableHistory filters the stored history down to what may be sent.
func sendableHistory(history []chat.Message) []chat.Message {
	out := make([]chat.Message, 0, len(history))
	for _, m := range history {
		if sendable(m) {
			out = append(out, m)
		}
	}
	return out
}

// turnStarts returns the index of every user message: each starts a turn.
func turnStarts(msgs []chat.Message) []int {
	var starts []int
	for i, m := range msgs {
		if m.Role == chat.RoleUser {
			starts = append(starts, i)
		}
	}
	return starts
}

// droppableTurns is how many turns a context view may leave out: all but
// the current (last) one.
func droppableTurns(msgs []chat.Message) int {
	return max(len(turnStarts(msgs))-1, 0)
}

// contextView is the per-request view of msgs (already sendable) without
// its drop oldest turns. Cuts fall only on user messages, so an assistant
// message with tool calls always stays next to the tool message holding
// its results, and the view starts with a user message. The current turn
// is never dropped. msgs itself is not modified.
func contextView(msgs []chat.Message, drop int) []chat.Message {
	if drop <= 0 {
		return msgs
	}
	starts := turnStarts(msgs)
	if len(starts) < 2 {
		return msgs
	}
	return msgs[starts[min(drop, len(starts)-1)]:]
}

// nextDrop is how many turns to leave out after the provider said the
// context is too large while current turns were left out: a quarter of the
// droppable turns, then half, then all of them. ok is false when nothing
// more can go.
func nextDrop(current, droppable int) (int, bool) {
	for _, n := range []int{(droppable + 3) / 4, (droppable + 1) / 2, droppable} {
		if n > current {
			return n, true
		}
	}
	return current, false
}

// usedTools lists the canonical names history called, most recent first,
// each once.
func usedTools(history []chat.Message) []string {
	var used []string
	seen := map[string]bool{}
	for i := len(history) - 1; i >= 0; i-- {
		calls := history[i].ToolCalls()
		for j := len(calls) - 1; j >= 0; j-- {
			if n := calls[j].Name; !seen[n] {
				seen[n] = true
				used = append(used, n)
			}
		}
	}
	return used
}

// lastUserMessage returns the index of the last user message, or -1.
func lastUserMessage(msgs []chat.Message) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == chat.RoleUser {
			return i
		}
	}
	return -1
}
