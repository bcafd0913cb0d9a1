package agent

import "maestro/backend/chat"

// sendable reports whether a stored message belongs in requests as it is:
// user and tool messages, and assistant messages that were completed or
// stopped (a stopped reply keeps its partial text; a crash leftover still
// marked streaming is settled as failed by Recover before a run reads
// history). Failed and superseded attempts are kept for the record only;
// summary nodes reach requests through the view (view.go).
func sendable(m chat.Message) bool {
	switch m.Role {
	case chat.RoleUser, chat.RoleTool:
		return true
	case chat.RoleAssistant:
		return m.Status != chat.StatusFailed && m.Status != StatusSuperseded
	}
	return false
}

// lastSendable returns the index of the last message that may be sent, or
// -1.
func lastSendable(msgs []chat.Message) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		if sendable(msgs[i]) {
			return i
		}
	}
	return -1
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
