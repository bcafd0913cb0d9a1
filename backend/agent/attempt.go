package agent

import (
	"context"
	"errors"
	"fmt"
	"time"

	"maestro/backend/chat"
)

// attempt is one model request of a step and the assistant message it is
// building.
type attempt struct {
	sess chat.Session
	ov   Overlay
	info chat.ModelInfo
	// use is the context the request was measured at.
	use ContextUse
	asm *assembler
	// msg is the message as last stored; Seq is 0 until the first write.
	msg            chat.Message
	lastCheckpoint time.Time
}

// attempt reads the session, its overlay and its provider just before the
// request, streams the reply and persists it complete. On failure it
// returns the partial attempt (nil if nothing was sent) for the caller to
// settle.
func (r *run) attempt(ctx context.Context, step, n int) (*attempt, error) {
	gen := r.ctl.begin()
	defer r.ctl.end()
	sess, err := r.a.store.Session(ctx, r.in.SessionID)
	if err != nil {
		return nil, fmt.Errorf("agent: load session: %w", err)
	}
	if sess.Provider == "" || sess.Model == "" {
		return nil, chat.E(chat.ErrInvalid, "the session has no provider and model selected")
	}
	r.entry.view.update(r.history)
	ov, err := r.a.tools.Overlay(ctx, sess.ID, sess.Provider, r.entry.view.usedTools())
	if err != nil {
		return nil, fmt.Errorf("agent: tools for session %s: %w", sess.ID, err)
	}
	model, err := r.a.models.Model(ctx, sess.Provider)
	if err != nil {
		return nil, fmt.Errorf("agent: model for %s: %w", sess.Provider, err)
	}
	info := r.a.models.Info(ctx, sess.Provider, sess.Model)
	use, err := r.prepare(ctx, sess, info, ov)
	if err != nil {
		return nil, err
	}
	view := r.entry.view.msgs
	req := chat.Request{
		Model: sess.Model, Info: info, System: sess.SystemPrompt,
		Messages: view[:len(view):len(view)], Tools: ov.Tools, ToolNames: ov.Names,
		SessionID: sess.ID, PromptID: r.promptID, MaxOutputTokens: int(use.Reserve),
	}
	at := &attempt{sess: sess, ov: ov, info: info, use: use, asm: newAssembler(r.in.RunID, sess.Provider, ov, r.emit),
		msg: chat.Message{ID: chat.NewID(), Role: chat.RoleAssistant, Provider: sess.Provider, Model: sess.Model, RunID: r.in.RunID}}
	r.emit(StepStarted{RunID: r.in.RunID, Step: step, Attempt: n, MessageID: at.msg.ID, Provider: sess.Provider,
		Model: sess.Model, ToolsRevision: ov.Revision, ToolCount: len(ov.Tools)})
	r.a.log.InfoContext(ctx, "agent: model request", "provider", sess.Provider, "model", sess.Model, "session", sess.ID,
		"tools_revision", ov.Revision, "tools", len(ov.Tools), "step", step, "attempt", n, "messages", len(view))

	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	r.ctl.attach(gen, cancel)
	at.lastCheckpoint = r.a.clock.Now()
	err = r.stream(ctx, actx, model, req, at)
	r.ctl.end()
	if err != nil {
		if ctx.Err() == nil && errors.Is(context.Cause(actx), ErrApplyNow) {
			return at, ErrApplyNow
		}
		return at, err
	}
	r.usage.Add(at.asm.finish.Usage)
	if err := r.save(ctx, at, chat.StatusComplete, nil); err != nil {
		return nil, err
	}
	return at, nil
}

// stream ranges over the model's reply, checkpointing as it goes. A reply
// that ends without its Finish event is a cut-off stream.
func (r *run) stream(ctx, actx context.Context, model chat.Model, req chat.Request, at *attempt) error {
	seq, err := model.Stream(actx, req)
	if err != nil {
		return err
	}
	for ev, err := range seq {
		if err != nil {
			return err
		}
		at.asm.add(ev)
		r.checkpoint(ctx, at)
	}
	if at.asm.finish == nil {
		if actx.Err() != nil {
			return actx.Err()
		}
		return &chat.ProviderError{Provider: at.sess.Provider, Status: 200, Kind: chat.ProviderKindStream,
			Message: "the reply ended before it was complete"}
	}
	return nil
}

// checkpoint writes the partial reply if it changed and the last write is
// at least checkpointEvery old. A failed checkpoint is only logged: the
// final write reports store failures.
func (r *run) checkpoint(ctx context.Context, at *attempt) {
	if !at.asm.changed {
		return
	}
	now := r.a.clock.Now()
	if now.Sub(at.lastCheckpoint) < r.a.checkpointEvery {
		return
	}
	at.lastCheckpoint = now
	at.asm.changed = false
	m := at.msg
	m.Parts, m.Status = at.asm.message(), chat.StatusStreaming
	if err := r.write(ctx, &m); err != nil {
		r.a.log.WarnContext(ctx, "agent: checkpoint the reply", "session", r.in.SessionID, "error", err)
		return
	}
	at.msg = m
}

// write appends m (Seq 0; the store mints CreatedAt) or replaces it,
// surviving the user's Stop.
func (r *run) write(ctx context.Context, m *chat.Message) error {
	wctx := context.WithoutCancel(ctx)
	if m.Seq != 0 {
		return r.a.store.PutMessage(wctx, r.in.SessionID, *m)
	}
	var (
		stored chat.Message
		err    error
	)
	if r.forkAt != 0 {
		stored, err = r.a.store.ForkMessage(wctx, r.in.SessionID, r.forkAt, *m)
	} else {
		stored, err = r.a.store.AppendMessage(wctx, r.in.SessionID, *m)
	}
	if err != nil {
		return err
	}
	r.forkAt = 0
	*m = stored
	return nil
}

// save stores the attempt's message in its final state and adds it to the
// run's history.
func (r *run) save(ctx context.Context, at *attempt, status chat.Status, cause error) error {
	m := at.msg
	m.Parts, m.Status = at.asm.message(), status
	if cause != nil {
		m.Error, m.Failure = cause.Error(), failureOf(cause, r.a.clock.Now())
	}
	if f := at.asm.finish; f != nil {
		u := f.Usage
		m.Usage = &u
	}
	m.Tokens = chat.EstimateTokens(m)
	if err := r.write(ctx, &m); err != nil {
		return fmt.Errorf("agent: save the reply: %w", err)
	}
	at.msg = m
	r.history = append(r.history, m)
	r.emit(MessageSaved{RunID: r.in.RunID, MessageID: m.ID, Seq: m.Seq, Role: m.Role, Status: m.Status})
	return nil
}

// supersede marks an abandoned attempt's checkpoint, if it wrote one, so it
// is never sent again. An attempt that wrote nothing leaves no trace.
func (r *run) supersede(ctx context.Context, at *attempt) {
	if at == nil || at.msg.Seq == 0 {
		return
	}
	if err := r.save(ctx, at, StatusSuperseded, nil); err != nil {
		r.a.log.WarnContext(ctx, "agent: mark an abandoned reply", "session", r.in.SessionID, "error", err)
	}
}

// settleStopped keeps what a stopped attempt received, as a canceled reply
// that stays in history, and answers its complete tool calls with
// "stopped" results so history stays well-formed.
func (r *run) settleStopped(ctx context.Context, at *attempt) {
	if at == nil || at.msg.Seq == 0 && len(at.asm.message()) == 0 {
		return
	}
	if err := r.save(ctx, at, chat.StatusCanceled, nil); err != nil {
		r.a.log.WarnContext(ctx, "agent: save a stopped reply", "session", r.in.SessionID, "error", err)
		return
	}
	if calls := at.msg.ToolCalls(); len(calls) > 0 {
		rec := r.newRecorder(ctx, calls)
		rec.fill(stoppedResult)
		r.keep(rec)
	}
}

// settleFailed records a failed turn: the attempt's partial reply marked
// failed with the error, or a bare failure marker. Neither is sent to a
// model again; a retry starts from the history before it.
func (r *run) settleFailed(ctx context.Context, at *attempt, cause error) {
	if at == nil {
		r.failMarker(ctx, cause)
		return
	}
	if err := r.save(ctx, at, chat.StatusFailed, cause); err != nil {
		r.a.log.WarnContext(ctx, "agent: save a failed reply", "session", r.in.SessionID, "error", err)
	}
}

// failMarker appends an empty failed assistant message carrying the error,
// so the failure is visible in history after a restart.
func (r *run) failMarker(ctx context.Context, cause error) {
	m := chat.Message{ID: chat.NewID(), Role: chat.RoleAssistant, RunID: r.in.RunID, Status: chat.StatusFailed,
		Error: cause.Error(), Failure: failureOf(cause, r.a.clock.Now())}
	if err := r.write(ctx, &m); err != nil {
		r.a.log.WarnContext(ctx, "agent: record a failed turn", "session", r.in.SessionID, "error", err)
		return
	}
	r.history = append(r.history, m)
	r.emit(MessageSaved{RunID: r.in.RunID, MessageID: m.ID, Seq: m.Seq, Role: m.Role, Status: m.Status})
}
