package agent

import (
	"context"
	"errors"
	"fmt"

	"maestro/backend/chat"
)

// ErrContextFull ends a turn whose latest messages do not fit the model's
// context window even after compaction. It wraps chat.ErrInvalid: the
// user has to start a new chat or pick a model with a larger window.
var ErrContextFull = errors.New("the context is full")

// measure sizes the next request of the session against the budget of its
// current model (docs/CONTEXT.md): the larger of the estimate of
// everything it carries (system prompt, tool declarations, the view) and
// the usage the provider reported for this model's latest reply plus the
// estimates of what came after it. Taking the larger keeps a reply whose
// usage is missing, old or wrong from making the request look smaller
// than it is.
func (r *run) measure(sess chat.Session, info chat.ModelInfo, ov Overlay) ContextUse {
	v := &r.entry.view
	v.update(r.history)
	b := budgetFor(info, r.a.CompactThreshold(), learntWindow(r.history, sess.Provider, sess.Model))
	tools := r.entry.toolTokens(sess.Provider, ov)
	system := chat.EstimateText(sess.SystemPrompt)
	use := ContextUse{SessionID: sess.ID, Provider: sess.Provider, Model: sess.Model,
		Tokens: system + tools + v.tokens, ToolTokens: tools, SystemTokens: system, Budget: b}
	if n, ok := v.anchored(sess.Provider, sess.Model, v.staleBefore(r.history)); ok {
		use.Reported = true
		use.Tokens = max(use.Tokens, n)
	}
	if s, _ := latestSummary(r.history); s != nil {
		use.Summary = &SummaryInfo{Seq: s.Seq, MessageID: s.ID, Through: s.Summary.Through, Messages: s.Summary.Messages}
	}
	return use
}

// toolTokens estimates the overlay's declarations, once per revision.
func (e *histEntry) toolTokens(provider string, ov Overlay) int64 {
	t := &e.tools
	if t.provider != provider || t.revision != ov.Revision || t.count != len(ov.Tools) {
		t.provider, t.revision, t.count, t.tokens = provider, ov.Revision, len(ov.Tools), toolTokens(ov.Tools)
	}
	return t.tokens
}

// prepare measures the next request and, when it passes the compaction
// threshold, compacts first. A request still over the limit is not sent.
func (r *run) prepare(ctx context.Context, sess chat.Session, info chat.ModelInfo, ov Overlay) (ContextUse, error) {
	use := r.measure(sess, info, ov)
	if use.Tokens > use.Threshold {
		err := r.compact(ctx, sess, info, compaction{reason: chat.SummaryThreshold, budget: use.Budget})
		switch {
		case err == nil:
			use = r.measure(sess, info, ov)
		case ctx.Err() != nil:
			return use, stopped(ctx)
		case errors.Is(err, ErrNothingToCompact):
		case use.Tokens <= use.Limit:
			// It still fits: answer now, compact next time.
			r.a.log.WarnContext(ctx, "agent: compaction failed; sending the request as it is", "session", sess.ID, "error", err)
		default:
			return use, err
		}
	}
	if use.Tokens > use.Limit {
		return use, chat.E(chat.ErrInvalid, "%w: the latest messages of this chat (about %d tokens) do not fit %s's context "+
			"(at most %d tokens a request), even with what came before them summarised; start a new chat, or switch to a model "+
			"with a larger context window", ErrContextFull, use.Tokens, sess.Model, use.Limit)
	}
	r.emit(ContextMeasured{RunID: r.in.RunID, Use: use})
	r.a.hist.remember(r.entry, use)
	return use, nil
}

// compactTooLong answers a provider's refusal of a request as too long:
// once per step it learns the window the refusal shows, compacts to fit it
// and asks for the step again (reason "context_too_large"). A second
// refusal, nothing left to compact or a failed compaction end the turn
// with the refusal. The summary node records the window, so the turns
// after it do not send what was refused.
func (r *run) compactTooLong(ctx context.Context, at *attempt, err error, st *stepState) (string, error) {
	pe, ok := chat.AsProviderError(err)
	if !ok || pe.Kind != chat.ProviderKindContextTooLarge || st.compacted || at == nil {
		return "", err
	}
	st.compacted = true
	learnt := learnFromRefusal(pe, at.use, at.info)
	b := budgetFor(at.info, r.a.CompactThreshold(), learnt)
	cerr := r.compact(ctx, at.sess, at.info, compaction{reason: chat.SummaryTooLong, budget: b, learnt: learnt})
	if cerr != nil {
		if ctx.Err() == nil {
			r.a.log.WarnContext(ctx, "agent: could not compact after a too-long refusal", "session", at.sess.ID, "error", cerr)
		}
		return "", err
	}
	return "context_too_large", err
}

// learnFromRefusal is the window, in the agent's estimate, that a refusal
// of a request estimated at use.Tokens shows. A refusal that gives the
// provider's count and window scales the window by how the two counts
// compare (the provider counted Tokens where the agent estimated
// use.Tokens), never up: the answer's reserve is in the provider's
// tokens, and a window scaled up would leave it short. One that gives no
// numbers (OpenAI) yields the window whose limit is a tenth below what was
// refused.
func learnFromRefusal(pe *chat.ProviderError, use ContextUse, info chat.ModelInfo) int64 {
	if pe.Tokens > 0 && pe.Window > 0 && use.Tokens > 0 {
		return max(pe.Window*min(use.Tokens, pe.Tokens)/pe.Tokens, 1)
	}
	limit := use.Tokens * 9 / 10
	window := limit * 4 / 3 // a quarter of it for the answer (budgetFor)
	if out := int64(info.MaxOutputTokens); out > 0 && window/4 > out {
		window = limit + out
	}
	return max(window, 1)
}

// Context measures what the session's next request would carry against
// the budget of its current model: the numbers of the chat's context
// meter. While a run holds the session it returns the run's latest
// measurement instead of waiting.
func (a *Agent) Context(ctx context.Context, sessionID string) (ContextUse, error) {
	e := a.hist.entry(sessionID)
	if !e.mu.TryLock() {
		if u, ok := a.hist.lastUse(e); ok {
			return u, nil
		}
		e.mu.Lock()
	}
	defer e.mu.Unlock()
	sess, err := a.load(ctx, e, sessionID)
	if err != nil {
		return ContextUse{}, err
	}
	if sess.Provider == "" || sess.Model == "" {
		return ContextUse{SessionID: sessionID}, nil
	}
	ov, err := a.tools.Overlay(ctx, sess.ID, sess.Provider, nil)
	if err != nil {
		return ContextUse{}, fmt.Errorf("agent: tools for session %s: %w", sess.ID, err)
	}
	r := &run{a: a, entry: e, history: e.tail}
	use := r.measure(sess, a.models.Info(ctx, sess.Provider, sess.Model), ov)
	a.hist.remember(e, use)
	return use, nil
}

// CompactInput asks for a compaction now ("Compact now" in the chat menu).
type CompactInput struct {
	// RunID is the app's id for the work; every event carries it.
	RunID     string
	SessionID string
}

// Compact summarises the session's conversation now, keeping only its
// latest turn verbatim, with the session's current model. It is a run as
// far as events go: RunStarted first, CompactionStarted, a
// CompactionProgress per summarising request, MessageSaved and
// CompactionFinished, a ContextMeasured with the new size, and exactly one
// RunFinished last. Cancelling ctx stops it and stores nothing. A
// conversation with nothing before its latest turn (or already compacted
// up to it) gives an error wrapping ErrNothingToCompact and chat.ErrInvalid.
// Like Run, it must not overlap a run of the same session.
func (a *Agent) Compact(ctx context.Context, in CompactInput, sink Sink) (RunResult, error) {
	return a.do(ctx, RunInput{RunID: in.RunID, SessionID: in.SessionID}, sink, (*run).compactNow)
}

func (r *run) compactNow(ctx context.Context) error {
	if err := r.open(ctx); err != nil {
		return err
	}
	defer r.close(ctx)
	sess, err := r.a.store.Session(ctx, r.in.SessionID)
	if err != nil {
		return fmt.Errorf("agent: load session: %w", err)
	}
	if sess.Provider == "" || sess.Model == "" {
		return chat.E(chat.ErrInvalid, "the session has no provider and model selected")
	}
	info := r.a.models.Info(ctx, sess.Provider, sess.Model)
	r.entry.view.update(r.history)
	ov, err := r.a.tools.Overlay(ctx, sess.ID, sess.Provider, r.entry.view.usedTools())
	if err != nil {
		return fmt.Errorf("agent: tools for session %s: %w", sess.ID, err)
	}
	use := r.measure(sess, info, ov)
	err = r.compact(ctx, sess, info, compaction{reason: chat.SummaryManual, budget: use.Budget, lastTurn: true})
	switch {
	case errors.Is(err, ErrNothingToCompact):
		return chat.E(chat.ErrInvalid, "%w: the conversation has nothing before its latest turn that is not summarised already", ErrNothingToCompact)
	case err != nil && ctx.Err() != nil:
		return stopped(ctx)
	case err != nil:
		return err
	}
	use = r.measure(sess, info, ov)
	r.emit(ContextMeasured{RunID: r.in.RunID, Use: use})
	r.a.hist.remember(r.entry, use)
	return nil
}
