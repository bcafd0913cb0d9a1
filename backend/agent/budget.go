package agent

import (
	"math"

	"maestro/backend/chat"
)

// Context budget defaults (docs/CONTEXT.md).
const (
	// DefaultCompactThreshold is the share of a request's limit past which
	// the agent compacts the conversation before sending.
	DefaultCompactThreshold = 0.8
	// MinCompactThreshold and MaxCompactThreshold bound the setting.
	MinCompactThreshold = 0.3
	MaxCompactThreshold = 0.95
	// DefaultWindow stands in for a model whose window nobody knows (not
	// in its provider's list, not in the adapter's table): most models
	// take at least this much, and a window too small only compacts sooner.
	DefaultWindow = 128_000
	// keepShare is the most of the limit the turns kept verbatim by a
	// compaction may take; the rest is the summary's and room to grow.
	keepShare = 0.3
	// chunkShare is the most of the limit one summarising request's
	// transcript may take.
	chunkShare = 0.5
)

// Budget is what one request of a session may carry, in tokens.
type Budget struct {
	// Window is the model's context window: its provider's list, else the
	// adapter's table, else DefaultWindow, and lower when a provider's
	// refusal taught the session a smaller one (Summary.Window).
	Window int64
	// Reserve is left for the answer: a quarter of the window, at most the
	// model's output limit. Requests ask for no more (MaxOutputTokens).
	Reserve int64
	// Limit is the most a request's input may take: Window minus Reserve.
	// The agent never sends a request it estimates above it.
	Limit int64
	// Threshold is where compaction starts: the compaction threshold's
	// share of Limit.
	Threshold int64
}

// budgetFor sizes requests to a model. learnt is a window a refusal of
// this model taught the session (0: none); it wins when smaller.
func budgetFor(info chat.ModelInfo, threshold float64, learnt int64) Budget {
	window := int64(info.ContextWindow)
	if window <= 0 {
		window = DefaultWindow
	}
	if learnt > 0 && learnt < window {
		window = learnt
	}
	reserve := window / 4
	if out := int64(info.MaxOutputTokens); out > 0 && out < reserve {
		reserve = out
	}
	limit := window - reserve
	return Budget{Window: window, Reserve: reserve, Limit: limit, Threshold: int64(math.Round(float64(limit) * threshold))}
}

// ContextUse is how full a session's context is: what its next request
// would carry, estimated before sending, against the budget of the
// session's current model. The app shows it in the chat's header.
type ContextUse struct {
	SessionID string
	Provider  string
	Model     string
	// Tokens is the estimated input of the next request: the system
	// prompt, the declared tools and the messages (after compaction).
	Tokens int64
	// ToolTokens and SystemTokens are the parts of Tokens the tool
	// declarations and the system prompt take.
	ToolTokens, SystemTokens int64
	// Reported is set when Tokens rests on the usage the provider
	// reported for this model's last reply (then only what came after it
	// is estimated).
	Reported bool
	Budget
	// Summary describes the latest summary node, when the conversation was
	// compacted: its Seq, and the messages it stands for.
	Summary *SummaryInfo
}

// SummaryInfo locates a summary node for the UI.
type SummaryInfo struct {
	Seq       uint64
	MessageID string
	// Through and Messages are the node's Summary: the last message it
	// stands for, and how many.
	Through  uint64
	Messages int
}

// Share is Tokens as a share of Window (0 when unknown).
func (u ContextUse) Share() float64 {
	if u.Window <= 0 {
		return 0
	}
	return float64(u.Tokens) / float64(u.Window)
}

// toolTokens estimates the declarations of an overlay.
func toolTokens(tools []chat.Tool) int64 {
	var n int64
	for _, t := range tools {
		n += chat.EstimateTool(t)
	}
	return n
}

// tokensOf is a message's stored estimate, or a fresh one for a message
// stored before estimates were.
func tokensOf(m chat.Message) int64 {
	if m.Tokens > 0 {
		return m.Tokens
	}
	return chat.EstimateTokens(m)
}
