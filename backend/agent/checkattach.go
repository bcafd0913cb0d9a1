package agent

import (
	"context"
	"fmt"

	"maestro/backend/chat"
)

// CheckAttachments says whether the session's model would take these
// files and resources in the next user message, while the user composes:
// the adapter's AttachmentRules (chat.AttachmentChecker) fit a message of
// them alone, and what breaks a rule is a *chat.AttachmentError with the
// sentence to show. A session without a model, or a model that declares no
// rules, takes everything here; the run checks again before it sends.
func (a *Agent) CheckAttachments(ctx context.Context, sessionID string, files []chat.FilePart, resources []chat.ResourcePart) error {
	if len(files) == 0 && len(resources) == 0 {
		return nil
	}
	sess, err := a.store.Session(ctx, sessionID)
	if err != nil {
		return fmt.Errorf("agent: load session: %w", err)
	}
	if sess.Provider == "" || sess.Model == "" {
		return nil
	}
	model, err := a.models.Model(ctx, sess.Provider)
	if err != nil {
		return nil //nolint:nilerr // no model to ask: sending will say why
	}
	checker, ok := model.(chat.AttachmentChecker)
	if !ok {
		return nil
	}
	var parts chat.Parts
	for _, f := range files {
		parts = append(parts, f)
	}
	for _, r := range resources {
		parts = append(parts, r)
	}
	rules := checker.AttachmentRules(a.models.Info(ctx, sess.Provider, sess.Model))
	_, _, err = rules.Fit([]chat.Message{{Role: chat.RoleUser, Parts: parts}})
	return err
}
