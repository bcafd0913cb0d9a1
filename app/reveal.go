package app

import (
	"context"

	"maestro/backend/store"
)

// OpenSessionAt opens a session showing its message seq, for a search hit:
// if the message is on another branch (an edited-away version), that
// branch becomes the one shown, and the view holds the branch from its
// latest message back to seq and a few older ones (a full page at least).
// seq 0 opens the session as OpenSession does.
func (a *App) OpenSessionAt(id string, seq uint64) (SessionViewDTO, error) {
	if seq == 0 {
		return a.OpenSession(id)
	}
	st, ctx, cancel, err := a.ready()
	if err != nil {
		return SessionViewDTO{}, err
	}
	defer cancel()
	on, err := st.OnActivePath(ctx, id, seq)
	if err != nil {
		return SessionViewDTO{}, err
	}
	if !on {
		// A hit on a message no longer shown: show its branch.
		if _, err := st.Message(ctx, id, seq); err != nil {
			return SessionViewDTO{}, err
		}
		if err := a.whileIdle(id, func() error {
			_, err := st.SwitchBranch(ctx, id, seq)
			return err
		}); err != nil {
			return SessionViewDTO{}, err
		}
		a.emit(EventSessionsChanged)
	}
	s, err := st.Session(ctx, id)
	if err != nil {
		return SessionViewDTO{}, err
	}
	page, err := a.pagesDownTo(ctx, st, id, seq)
	if err != nil {
		return SessionViewDTO{}, err
	}
	if err := st.PutSetting(ctx, settingLastSession, id); err != nil {
		a.log.Warn("remember last session", "err", err)
	}
	return sessionView(s, page), nil
}

// hitContext is how many messages older than a search hit are loaded with
// it, so the hit does not sit at the very top of what can be scrolled.
const hitContext = 10

// pagesDownTo reads the active branch from its latest message back to seq
// and a few older ones, in one walk, settled (see settled).
func (a *App) pagesDownTo(ctx context.Context, st *store.Store, id string, seq uint64) (store.Page, error) {
	return a.settled(ctx, st, id, func() (store.Page, error) {
		p, err := st.ActivePathTo(ctx, id, seq, hitContext)
		if err != nil || len(p.Messages) >= pageSize {
			return p, err
		}
		// A hit among the latest messages: open on a full page, as OpenSession does.
		return st.ActivePathPage(ctx, id, 0, pageSize)
	})
}
