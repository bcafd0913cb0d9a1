package agent

import (
	"context"
	"fmt"
	"time"

	"maestro/backend/chat"
)

// verdict is how the approval step answered one call: whether it runs (or
// msg says why not), who decided and how, for the audit log.
type verdict struct {
	run        bool
	msg        string
	by, how    string
	definition string // the hash of the definition decided on
}

// approve applies the session's policy to one call (docs/SECURITY.md). err
// is the Approver's or Trust's failure (ctx's error on Stop). The order
// matters:
//
//  1. Maestro's own search_tools, which reaches no server, runs.
//  2. "Deny all" denies every other call.
//  3. A tool whose definition changed since the user allowed it asks
//     again, whatever grants and policies say, and shows the diff.
//  4. "Allow all" for the session, a grant in this chat or in every chat:
//     runs.
//  5. The connector's policy (the chat's override first): read_only runs
//     the tools the server marks read-only; all runs every tool that may
//     not destroy. A hint grants nothing under ask.
//  6. Otherwise the user is asked.
//
// A call that runs pins its tool's definition (Trust.Allowed) when it is not
// pinned yet.
func (r *run) approve(ctx context.Context, sess chat.Session, grants map[string]bool, call chat.ToolCall, info callInfo) (verdict, error) {
	switch {
	case !info.known:
		return verdict{msg: fmt.Sprintf("unknown tool %q: it is not among this session's tools", info.exposed)}, nil
	case info.Builtin:
		return verdict{run: true}, nil
	case sess.Approval == chat.ApprovalDenyAll:
		return verdict{msg: msgDenyAll, by: chat.ApprovedByPolicy, how: chat.HowSessionDeny}, nil
	}
	def := info.Definition
	pinned := r.a.trust != nil && def.Name != ""
	var standing chat.ToolStanding
	if pinned {
		var err error
		if standing, err = r.a.trust.Standing(ctx, def); err != nil {
			return verdict{}, err
		}
	}
	v := verdict{run: true}
	if pinned {
		v.definition = def.Hash()
	}
	hints := info.hints()
	switch policy := info.policy(sess, r.a.ApprovalDefault()); {
	case standing.Changed != nil:
		return r.ask(ctx, sess, grants, call, info, standing.Changed)
	case sess.Approval == chat.ApprovalAllowAll:
		v.by, v.how = chat.ApprovedByPolicy, chat.HowSessionAllow
	case grants[call.Name]:
		v.by, v.how = chat.ApprovedByGrant, chat.HowAlwaysThisChat
	case standing.AllChats:
		v.by, v.how = chat.ApprovedByGrant, chat.HowAlwaysAllChats
	case policy == chat.PolicyReadOnly && hints.IsReadOnly():
		v.by, v.how = chat.ApprovedByPolicy, chat.HowReadOnly
	case policy == chat.PolicyAll && !hints.MayDestroy():
		v.by, v.how = chat.ApprovedByPolicy, chat.HowConnectorAll
	default:
		return r.ask(ctx, sess, grants, call, info, nil)
	}
	return v, r.pin(ctx, info, false)
}

// ask puts the call to the user and applies the answer.
func (r *run) ask(ctx context.Context, sess chat.Session, grants map[string]bool, call chat.ToolCall, info callInfo, change *chat.DefinitionChange) (verdict, error) {
	v := verdict{by: chat.ApprovedByUser}
	if r.a.trust != nil && info.Definition.Name != "" {
		v.definition = info.Definition.Hash()
	}
	if r.a.approver == nil {
		v.msg, v.how = msgNoApprover, chat.HowNoApprover
		return v, nil
	}
	hints := info.hints()
	r.emit(ApprovalNeeded{RunID: r.in.RunID, CallID: call.ID, Name: call.Name, Server: info.Server,
		Arguments: call.Arguments, ReadOnlyHint: hints.IsReadOnly(), Hints: hints, Destructive: hints.MayDestroy(), Change: change,
		RequestedBy: r.requestedBy})
	d, err := r.a.approver.Approve(ctx, ApprovalRequest{RunID: r.in.RunID, SessionID: sess.ID, Call: call,
		Server: info.Server, ReadOnlyHint: hints.IsReadOnly(), Hints: hints, Destructive: hints.MayDestroy(), Change: change,
		RequestedBy: r.requestedBy})
	if err != nil {
		return verdict{}, err
	}
	v.run = true
	switch d {
	case AllowOnce:
		v.how = chat.HowAllowOnce
	case AlwaysAllow:
		v.how = chat.HowAlwaysThisChat
		grants[call.Name] = true
		if err := r.grantInSession(ctx, sess.ID, call.Name); err != nil {
			return verdict{}, err
		}
	case AlwaysAllowAllChats:
		v.how = chat.HowAlwaysAllChats
		return v, r.pin(ctx, info, true)
	default:
		return verdict{msg: msgDenied, by: chat.ApprovedByUser, how: chat.HowDenied, definition: v.definition}, nil
	}
	return v, r.pin(ctx, info, false)
}

// grantInSession adds the tool to the session's grants. The user's
// decision stands even if they stop the turn right after.
func (r *run) grantInSession(ctx context.Context, sessionID, name string) error {
	_, err := r.a.store.UpdateSession(context.WithoutCancel(ctx), sessionID, func(s *chat.Session) error {
		for _, g := range s.Grants {
			if g == name {
				return nil
			}
		}
		s.Grants = append(s.Grants, name)
		return nil
	})
	if err != nil {
		return fmt.Errorf("save the grant: %w", err)
	}
	return nil
}

// pin records the definition of a tool about to run (and, with allChats,
// the user's grant for every chat).
func (r *run) pin(ctx context.Context, info callInfo, allChats bool) error {
	if r.a.trust == nil || info.Definition.Name == "" {
		return nil
	}
	if err := r.a.trust.Allowed(context.WithoutCancel(ctx), info.Definition, allChats); err != nil {
		return fmt.Errorf("pin %s: %w", info.Definition.Name, err)
	}
	return nil
}

// auditCalls writes one audit record per call that reached approval, with
// its outcome. It runs once the step's calls are answered (or stopped).
func (r *run) auditCalls(ctx context.Context, sessionID string, calls []chat.ToolCall, infos []callInfo, verdicts []*verdict, rec *recorder) {
	if r.a.audit == nil {
		return
	}
	ctx = context.WithoutCancel(ctx)
	now := r.a.clock.Now().UTC()
	rec.mu.Lock()
	results := make([]*chat.ToolResult, len(rec.results))
	copy(results, rec.results)
	rec.mu.Unlock()
	for i, v := range verdicts {
		r.audit1(ctx, now, sessionID, calls[i], infos[i], v, results[i])
	}
}

// audit1 writes the audit record of one call that reached approval.
func (r *run) audit1(ctx context.Context, now time.Time, sessionID string, call chat.ToolCall, info callInfo, v *verdict, res *chat.ToolResult) {
	if v == nil || v.by == "" || info.Definition.ConnectorID == "" {
		return // never reached approval, Maestro's own, or no connector to file it under
	}
	ar := chat.AuditRecord{Time: now, SessionID: sessionID, ConnectorID: info.Definition.ConnectorID,
		Connector: info.ConnectorName, Tool: call.Name, CallID: call.ID, Arguments: call.Arguments,
		ApprovedBy: v.by, How: v.how, DefinitionHash: v.definition, RequestedBy: r.requestedBy}
	ar.Outcome, ar.Error, ar.DurationMS = outcome(v, res)
	if err := r.a.audit.Record(ctx, ar); err != nil {
		r.a.log.WarnContext(ctx, "agent: audit a tool call", "tool", call.Name, "err", err)
	}
}

// outcome reads a call's result for the audit log.
func outcome(v *verdict, res *chat.ToolResult) (string, string, int64) {
	switch {
	case !v.run:
		return chat.OutcomeDenied, v.msg, 0
	case res == nil || res.Error == msgStopped:
		return chat.OutcomeStopped, "", 0
	case res.Successful:
		return chat.OutcomeOK, "", res.DurationMS
	}
	return chat.OutcomeError, res.Error, res.DurationMS
}
