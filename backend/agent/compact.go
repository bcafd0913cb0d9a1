package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"maestro/backend/chat"
)

// ErrNothingToCompact is returned by Compact when the conversation has no
// part older than what compaction keeps verbatim.
var ErrNothingToCompact = errors.New("nothing to compact")

// summaryMaxTokens bounds a summary's length.
const summaryMaxTokens = 8192

// Room in a summarising request: its framing besides the instruction, and
// the smallest piece of transcript worth a request.
const (
	promptOverhead = 64
	minChunk       = 128
)

// chunkLimit is the most transcript one summarising request carries: at
// most chunkShare of the limit, and no more than leaves room for the
// instruction and the summary so far within the limit.
func chunkLimit(b Budget) int64 {
	summary := min(b.Reserve, summaryMaxTokens)
	room := b.Limit - chat.EstimateText(compactSystem) - summary - promptOverhead
	return min(int64(float64(b.Limit)*chunkShare), room)
}

// compaction is one summary being made.
type compaction struct {
	reason string
	budget Budget
	// learnt is a window a refusal taught (0: none); it goes on the node.
	learnt int64
	// lastTurn keeps only the latest turn verbatim ("Compact now"),
	// whatever its size, rather than as many turns as fit.
	lastTurn bool
}

// keepFrom is the index in msgs (a view) of the first message compaction
// keeps verbatim: the start of the oldest turn such that it and the turns
// after it fit in keep tokens. When the current turn alone is larger, the
// cut moves inside it, to the start of the oldest step that fits (an
// assistant message right after a tool message), or of its last step when
// none does. A cut is never between a call and its result, and never at
// the first message. 0 means nothing can be cut.
func keepFrom(msgs []chat.Message, keep int64) int {
	last := lastUserMessage(msgs)
	var size int64
	cut, latest := 0, 0
	for i := len(msgs) - 1; i > 0; i-- {
		size += tokensOf(msgs[i])
		turn := msgs[i].Role == chat.RoleUser
		step := i > last && msgs[i].Role == chat.RoleAssistant && msgs[i-1].Role == chat.RoleTool
		if !turn && !step {
			continue
		}
		if latest == 0 {
			latest = i
		}
		if size > keep {
			break
		}
		cut = i
	}
	if cut == 0 {
		return latest
	}
	return cut
}

// compact summarises the oldest part of the view and stores the summary
// node, which stands in for that part from the next request on. It emits
// CompactionStarted, a CompactionProgress per summarising request and
// CompactionFinished; a failure or Stop stores nothing.
func (r *run) compact(ctx context.Context, sess chat.Session, info chat.ModelInfo, c compaction) error {
	v := &r.entry.view
	v.update(r.history)
	cut := keepFrom(v.msgs, int64(float64(c.budget.Limit)*keepShare))
	if last := lastUserMessage(v.msgs); c.lastTurn && last > 0 {
		cut = last
	}
	span := v.msgs[:cut]
	old, oldThrough := latestSummary(r.history)
	hasOld := old != nil
	if len(span) == 0 || hasOld && len(span) == 1 {
		return ErrNothingToCompact
	}
	through := span[len(span)-1].Seq
	var replaced int64
	for _, m := range span {
		replaced += tokensOf(m)
	}
	chunk := chunkLimit(c.budget)
	if chunk < minChunk {
		return fmt.Errorf("agent: compact the conversation: %s's window (%d tokens) leaves no room to summarise in", sess.Model, c.budget.Window)
	}
	chunks := transcriptChunks(span, hasOld, chunk)
	r.emit(CompactionStarted{RunID: r.in.RunID, SessionID: sess.ID, Reason: c.reason, Messages: len(span),
		Tokens: replaced, Requests: len(chunks)})
	text, usage, err := r.summarise(ctx, sess, info, c.budget, chunks)
	if err != nil {
		return fmt.Errorf("agent: compact the conversation: %w", err)
	}
	node := chat.Message{ID: chat.NewID(), Role: chat.RoleSummary, Status: chat.StatusComplete,
		Provider: sess.Provider, Model: sess.Model, RunID: r.in.RunID,
		Parts: chat.Parts{chat.TextPart{Text: text}}, Usage: &usage,
		Summary: &chat.Summary{Through: through, Messages: countThrough(r.history, old, oldThrough, through),
			Replaced: replaced, Reason: c.reason, Window: carriedWindow(old, sess, c.learnt)}}
	node.Tokens = chat.EstimateTokens(node)
	if err := r.write(ctx, &node); err != nil {
		return fmt.Errorf("agent: save the summary: %w", err)
	}
	r.usage.Add(usage)
	r.history = append(trimThrough(r.history, through), node)
	v.update(r.history)
	r.emit(MessageSaved{RunID: r.in.RunID, MessageID: node.ID, Seq: node.Seq, Role: node.Role, Status: node.Status})
	r.emit(CompactionFinished{RunID: r.in.RunID, MessageID: node.ID, Seq: node.Seq, Through: through,
		Messages: node.Summary.Messages, TokensBefore: replaced, TokensAfter: node.Tokens, Usage: usage})
	r.a.log.InfoContext(ctx, "agent: compacted", "session", sess.ID, "reason", c.reason, "messages", len(span),
		"tokens_before", replaced, "tokens_after", node.Tokens, "requests", len(chunks))
	return nil
}

// summarise runs one summarising request per chunk, each folding the
// summary so far into the next.
func (r *run) summarise(ctx context.Context, sess chat.Session, info chat.ModelInfo, b Budget, chunks []string) (string, chat.Usage, error) {
	var (
		soFar string
		total chat.Usage
	)
	for i, chunk := range chunks {
		req := chat.Request{Model: sess.Model, Info: info, System: compactSystem, SessionID: sess.ID, PromptID: chat.NewID(),
			MaxOutputTokens: int(min(b.Reserve, summaryMaxTokens)),
			Messages: []chat.Message{{ID: chat.NewID(), Role: chat.RoleUser,
				Parts: chat.Parts{chat.TextPart{Text: compactPrompt(soFar, chunk, i+1, len(chunks))}}}}}
		text, u, err := r.summaryRequest(ctx, sess.Provider, req)
		if err != nil {
			return "", total, err
		}
		total.Add(u)
		soFar = text
		r.emit(CompactionProgress{RunID: r.in.RunID, Done: i + 1, Requests: len(chunks)})
	}
	return soFar, total, nil
}

// summaryRequest streams one summarising request to its end, retrying
// what the retry policy retries.
func (r *run) summaryRequest(ctx context.Context, provider string, req chat.Request) (string, chat.Usage, error) {
	for attempt := 0; ; attempt++ {
		text, u, err := r.summaryOnce(ctx, provider, req)
		if err == nil {
			return text, u, nil
		}
		delay, ok := r.a.retry.Delay(err, attempt)
		if !ok || ctx.Err() != nil {
			return "", chat.Usage{}, err
		}
		if err := r.a.clock.Sleep(ctx, delay); err != nil {
			return "", chat.Usage{}, err
		}
	}
}

func (r *run) summaryOnce(ctx context.Context, provider string, req chat.Request) (string, chat.Usage, error) {
	model, err := r.a.models.Model(ctx, provider)
	if err != nil {
		return "", chat.Usage{}, fmt.Errorf("model for %s: %w", provider, err)
	}
	seq, err := model.Stream(ctx, req)
	if err != nil {
		return "", chat.Usage{}, err
	}
	var b strings.Builder
	for ev, err := range seq {
		if err != nil {
			return "", chat.Usage{}, err
		}
		switch ev := ev.(type) {
		case chat.TextDelta:
			b.WriteString(ev.Text)
		case chat.Finish:
			text := strings.TrimSpace(b.String())
			if text == "" {
				return "", ev.Usage, &chat.ProviderError{Provider: provider, Status: 200, Kind: chat.ProviderKindStream,
					Message: "the model wrote an empty summary"}
			}
			return text, ev.Usage, nil
		}
	}
	if ctx.Err() != nil {
		return "", chat.Usage{}, ctx.Err()
	}
	return "", chat.Usage{}, &chat.ProviderError{Provider: provider, Status: 200, Kind: chat.ProviderKindStream,
		Message: "the summary ended before it was complete"}
}

// countThrough is how many messages of the branch a summary through
// `through` stands for: those the earlier summary stood for, and the
// tail's messages after it up to through.
func countThrough(tail []chat.Message, old *chat.Message, oldThrough, through uint64) int {
	n := 0
	if old != nil {
		n = old.Summary.Messages
	}
	for _, m := range tail {
		if m.Seq > oldThrough && m.Seq <= through && m.Role != chat.RoleSummary {
			n++
		}
	}
	return n
}

// carriedWindow is the window a new summary node records: one just
// learnt, else the earlier node's when it was learnt with the same model.
func carriedWindow(old *chat.Message, sess chat.Session, learnt int64) int64 {
	if learnt > 0 {
		return learnt
	}
	if old != nil && old.Provider == sess.Provider && old.Model == sess.Model {
		return old.Summary.Window
	}
	return 0
}

// learntWindow is the window the tail's latest summary records for the
// session's model, or 0.
func learntWindow(tail []chat.Message, provider, model string) int64 {
	s, _ := latestSummary(tail)
	if s == nil || s.Provider != provider || s.Model != model {
		return 0
	}
	return s.Summary.Window
}

// trimThrough drops the messages a summary through `through` stands for
// from the tail; they are no longer needed for requests.
func trimThrough(tail []chat.Message, through uint64) []chat.Message {
	i := 0
	for i < len(tail) && tail[i].Seq <= through {
		i++
	}
	return append([]chat.Message(nil), tail[i:]...)
}
