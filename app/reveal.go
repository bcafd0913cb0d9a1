package app

import (
	"context"
	"maps"
	"slices"

	"maestro/backend/chat"
	"maestro/backend/store"
)

// OpenSessionAt opens a session showing its message seq, for a search hit:
// if the message is on another branch (an edited-away version), that
// branch becomes the one shown, and the view holds every page from the
// latest message back to seq. seq 0 opens the session as OpenSession does.
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

// pagesDownTo reads the active branch a page at a time from its latest
// message until the pages hold seq (or the branch's start).
func (a *App) pagesDownTo(ctx context.Context, st *store.Store, id string, seq uint64) (store.Page, error) {
	page, err := a.latestPage(ctx, st, id)
	if err != nil {
		return store.Page{}, err
	}
	holds := func(m chat.Message) bool { return m.Seq <= seq }
	for page.More && len(page.Messages) > 0 && !slices.ContainsFunc(page.Messages, holds) {
		older, err := st.ActivePathPage(ctx, id, page.Messages[0].Seq, pageSize)
		if err != nil {
			return store.Page{}, err
		}
		page.Messages = append(older.Messages, page.Messages...)
		if len(older.Branches) > 0 {
			if page.Branches == nil {
				page.Branches = map[uint64]store.Branch{}
			}
			maps.Copy(page.Branches, older.Branches)
		}
		page.More = older.More
	}
	return page, nil
}
