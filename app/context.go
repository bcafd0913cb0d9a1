package app

import (
	"context"

	"maestro/backend/agent"
	"maestro/backend/chat"
)

// Long conversations in the chat (issue 14) and their cost (issue 18): the
// header's context meter (ContextUse and context:measured), "Compact now"
// (CompactNow, stopped with StopRun, its progress in compaction:progress),
// Regenerate, the compaction threshold of Settings, and the usage carried
// by messages and sessions.

// ContextUseDTO is how full a session's next request is: estimated tokens
// (system prompt, tool declarations, messages after compaction) against
// its model's window. Window is 0 when the session has no model.
type ContextUseDTO struct {
	SessionID string `json:"sessionId"`
	Provider  string `json:"provider"`
	Model     string `json:"model"`
	Tokens    int64  `json:"tokens"`
	// ToolTokens and SystemTokens are the parts of Tokens the tool
	// declarations and the system prompt take.
	ToolTokens   int64 `json:"toolTokens"`
	SystemTokens int64 `json:"systemTokens"`
	// Window is the model's context window; Reserve is kept for the
	// answer; Limit (Window − Reserve) is the most a request carries;
	// Threshold is where compaction starts.
	Window    int64 `json:"window"`
	Reserve   int64 `json:"reserve"`
	Limit     int64 `json:"limit"`
	Threshold int64 `json:"threshold"`
	// Reported is set when Tokens rests on the usage the provider
	// reported for the last reply.
	Reported bool `json:"reported"`
	// Summary locates the latest summary node, when there is one.
	Summary *ContextSummaryDTO `json:"summary,omitempty"`
}

// ContextSummaryDTO locates a summary node: its Seq, the last message it
// stands for (Through) and how many it stands for.
type ContextSummaryDTO struct {
	Seq      uint64 `json:"seq"`
	Through  uint64 `json:"through"`
	Messages int    `json:"messages"`
}

// SummaryDTO is what a summary node stands for in requests: every message
// of its branch up to Through (Messages of them, about Replaced tokens).
// Reason is "threshold", "manual" or "too_long".
type SummaryDTO struct {
	Through  uint64 `json:"through"`
	Messages int    `json:"messages"`
	Replaced int64  `json:"replaced,omitempty"`
	Reason   string `json:"reason"`
}

// CompactionDTO is compaction:progress. Phase "started" gives the part
// being summarised (Messages, Tokens) and how many requests it takes;
// "progress" how many are done; "finished" the summary node's Seq and its
// size against what it replaced (TokensBefore, TokensAfter).
type CompactionDTO struct {
	RunID        string `json:"runId"`
	SessionID    string `json:"sessionId"`
	Phase        string `json:"phase" ts:"CompactionPhase"`
	Reason       string `json:"reason,omitempty"`
	Messages     int    `json:"messages,omitempty"`
	Tokens       int64  `json:"tokens,omitempty"`
	Done         int    `json:"done"`
	Requests     int    `json:"requests"`
	Seq          uint64 `json:"seq,omitempty"`
	TokensBefore int64  `json:"tokensBefore,omitempty"`
	TokensAfter  int64  `json:"tokensAfter,omitempty"`
}

// The phases of CompactionDTO.
const (
	CompactionStarted  = "started"
	CompactionProgress = "progress"
	CompactionFinished = "finished"
)

func usageDTO(u chat.Usage) *UsageDTO {
	if u.IsZero() {
		return nil
	}
	return &UsageDTO{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens, ReasoningTokens: u.ReasoningTokens,
		CacheReadTokens: u.CacheReadTokens, CacheWriteTokens: u.CacheWriteTokens}
}

func messageUsage(m chat.Message) *UsageDTO {
	if m.Usage == nil {
		return nil
	}
	return usageDTO(*m.Usage)
}

func summaryDTO(s *chat.Summary) *SummaryDTO {
	if s == nil {
		return nil
	}
	return &SummaryDTO{Through: s.Through, Messages: s.Messages, Replaced: s.Replaced, Reason: s.Reason}
}

func contextUseDTO(u agent.ContextUse) ContextUseDTO {
	dto := ContextUseDTO{SessionID: u.SessionID, Provider: u.Provider, Model: u.Model, Tokens: u.Tokens,
		ToolTokens: u.ToolTokens, SystemTokens: u.SystemTokens, Window: u.Window, Reserve: u.Reserve, Limit: u.Limit,
		Threshold: u.Threshold, Reported: u.Reported}
	if s := u.Summary; s != nil {
		dto.Summary = &ContextSummaryDTO{Seq: s.Seq, Through: s.Through, Messages: s.Messages}
	}
	return dto
}

// contextEvent converts the agent's context and compaction events.
func contextEvent(runID, sessionID string, ev agent.Event) (Event, any, bool) {
	switch e := ev.(type) {
	case agent.ContextMeasured:
		return EventContextMeasured, contextUseDTO(e.Use), true
	case agent.CompactionStarted:
		return EventCompaction, CompactionDTO{RunID: runID, SessionID: sessionID, Phase: CompactionStarted, Reason: e.Reason,
			Messages: e.Messages, Tokens: e.Tokens, Requests: e.Requests}, true
	case agent.CompactionProgress:
		return EventCompaction, CompactionDTO{RunID: runID, SessionID: sessionID, Phase: CompactionProgress,
			Done: e.Done, Requests: e.Requests}, true
	case agent.CompactionFinished:
		return EventCompaction, CompactionDTO{RunID: runID, SessionID: sessionID, Phase: CompactionFinished, Seq: e.Seq,
			Messages: e.Messages, TokensBefore: e.TokensBefore, TokensAfter: e.TokensAfter}, true
	}
	return "", nil, false
}

// ContextUse measures the session's next request against its model's
// window: the numbers of the chat header's context meter. While a reply
// runs it answers the run's latest measurement.
func (c *Chat) ContextUse(sessionID string) (ContextUseDTO, error) {
	run, ctx, cancel, err := c.core.call()
	if err != nil {
		return ContextUseDTO{}, err
	}
	defer cancel()
	u, err := run.agent.Context(ctx, sessionID)
	if err != nil {
		return ContextUseDTO{}, err
	}
	return contextUseDTO(u), nil
}

// CompactNow summarises the session's conversation before its latest turn
// now, with the session's model ("Compact now"). It returns the run's id
// at once; the work reports compaction:progress, message:saved (the
// summary node), context:measured and run:finished, and StopRun stops it
// (nothing is stored then).
func (c *Chat) CompactNow(sessionID string) (string, error) {
	id, _, err := c.launch(agent.RunInput{SessionID: sessionID}, compactRun)
	return id, err
}

func compactRun(a *agent.Agent, ctx context.Context, in agent.RunInput, sink agent.Sink) (agent.RunResult, error) {
	return a.Compact(ctx, agent.CompactInput{RunID: in.RunID, SessionID: in.SessionID}, sink)
}

// Regenerate answers again the turn of the assistant message seq (any reply
// of it: complete, stopped or failed) as a new branch; the old answer stays,
// one click away in the versions switcher. It returns the run's id at
// once; the new answer arrives as events.
func (c *Chat) Regenerate(sessionID string, seq uint64) (string, error) {
	if seq == 0 {
		return "", chat.E(chat.ErrInvalid, "name the answer to regenerate")
	}
	id, _, err := c.launch(agent.RunInput{SessionID: sessionID, Regenerate: seq}, (*agent.Agent).Run)
	return id, err
}
