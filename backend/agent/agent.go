package agent

import (
	"errors"
	"log/slog"
	"math"
	"sync/atomic"
	"time"

	"maestro/backend/chat"
)

// Defaults.
const (
	DefaultMaxSteps        = 25
	DefaultParallelTools   = 4
	DefaultCheckpointEvery = time.Second
)

// Statuses the agent stores besides chat's own. A superseded message is an
// attempt that was abandoned (Apply now, or a failure that was retried): it
// stays in the store for the record but is never sent to a model again.
const StatusSuperseded chat.Status = "superseded"

// ErrStepLimit ends a turn that reached the step cap without a final
// answer. Retrying the turn lets the agent continue where it stopped.
var ErrStepLimit = errors.New("step limit reached")

// Agent runs turns. It holds only its dependencies and settings, so one
// Agent serves any number of concurrent runs (on different sessions: two
// runs on one session would interleave their messages; the app prevents
// that).
type Agent struct {
	store    Store
	models   Models
	tools    Tools
	approver Approver
	trust    Trust
	audit    AuditLog

	maxSteps        int
	parallel        int
	retry           RetryPolicy
	clock           Clock
	checkpointEvery time.Duration
	log             *slog.Logger

	// hist keeps the open sessions' decoded histories (cache.go).
	hist *histories
	// threshold is the compaction threshold, a float64's bits: the app
	// changes it from its settings while runs read it.
	threshold atomic.Uint64
	// approvalDefault is the policy of connectors that set none
	// (a chat.ToolPolicy; SetApprovalDefault).
	approvalDefault atomic.Value
}

// Option configures an Agent.
type Option func(*Agent)

// WithMaxSteps sets the step cap (model requests per turn, default 25).
func WithMaxSteps(n int) Option { return func(a *Agent) { a.maxSteps = n } }

// WithParallelTools bounds how many tool calls of one step run at once
// (default 4).
func WithParallelTools(n int) Option { return func(a *Agent) { a.parallel = n } }

// WithRetry sets the retry policy (default DefaultRetry).
func WithRetry(p RetryPolicy) Option { return func(a *Agent) { a.retry = p } }

// WithClock replaces the real clock (tests).
func WithClock(c Clock) Option { return func(a *Agent) { a.clock = c } }

// WithCheckpointEvery sets how often partial text is written while a reply
// streams (default one second).
func WithCheckpointEvery(d time.Duration) Option { return func(a *Agent) { a.checkpointEvery = d } }

// WithTrust keeps pins and grants for every chat (tools.Trust). Without it
// calls are neither pinned nor checked against a pin.
func WithTrust(t Trust) Option { return func(a *Agent) { a.trust = t } }

// WithAuditLog records every tool call that reached approval.
func WithAuditLog(l AuditLog) Option { return func(a *Agent) { a.audit = l } }

// WithLogger receives one line per model request and per tool call.
func WithLogger(l *slog.Logger) Option { return func(a *Agent) { a.log = l } }

// WithCompactThreshold sets the share of a request's limit past which the
// conversation is compacted before sending (default 0.8; see
// SetCompactThreshold).
func WithCompactThreshold(share float64) Option {
	return func(a *Agent) { _ = a.SetCompactThreshold(share) }
}

// WithOpenSessions sets how many sessions' histories the agent keeps
// decoded between runs (default DefaultOpenSessions).
func WithOpenSessions(n int) Option { return func(a *Agent) { a.hist = newHistories(n) } }

// SetCompactThreshold changes the compaction threshold for the requests
// that follow, in every session: the share of what a request may carry
// past which the oldest part of the conversation is summarised first. It
// must be within [MinCompactThreshold, MaxCompactThreshold]. It is safe
// to call while runs stream.
func (a *Agent) SetCompactThreshold(share float64) error {
	if math.IsNaN(share) || share < MinCompactThreshold || share > MaxCompactThreshold {
		return chat.E(chat.ErrInvalid, "the compaction threshold must be between %.0f%% and %.0f%% of the context window, not %.0f%%",
			100*MinCompactThreshold, 100*MaxCompactThreshold, 100*share)
	}
	a.threshold.Store(math.Float64bits(share))
	return nil
}

// SetApprovalDefault sets the policy of the connectors that set none of
// their own (Settings' approval default, docs/SETTINGS.md), for the calls
// that follow. A chat's override and a connector's own policy still win,
// and destructive tools still ask. Safe to call while runs stream.
func (a *Agent) SetApprovalDefault(p chat.ToolPolicy) error {
	if !p.Valid() {
		return chat.E(chat.ErrInvalid, "the approval default is ask, read_only or all, not %.40q", p)
	}
	a.approvalDefault.Store(p)
	return nil
}

// ApprovalDefault is the policy SetApprovalDefault set, else ask.
func (a *Agent) ApprovalDefault() chat.ToolPolicy {
	if p, ok := a.approvalDefault.Load().(chat.ToolPolicy); ok {
		return p
	}
	return chat.PolicyAsk
}

// CompactThreshold returns the compaction threshold.
func (a *Agent) CompactThreshold() float64 { return math.Float64frombits(a.threshold.Load()) }

// New returns an Agent. approver may be nil only if every session allows
// or denies all tools; a call that needs asking is then denied.
func New(st Store, models Models, tools Tools, approver Approver, opts ...Option) *Agent {
	a := &Agent{
		store: st, models: models, tools: tools, approver: approver,
		maxSteps:        DefaultMaxSteps,
		parallel:        DefaultParallelTools,
		retry:           DefaultRetry,
		clock:           realClock{},
		checkpointEvery: DefaultCheckpointEvery,
		log:             slog.New(slog.DiscardHandler),
		hist:            newHistories(DefaultOpenSessions),
	}
	a.threshold.Store(math.Float64bits(DefaultCompactThreshold))
	for _, o := range opts {
		o(a)
	}
	a.maxSteps = max(a.maxSteps, 1)
	a.parallel = max(a.parallel, 1)
	return a
}
