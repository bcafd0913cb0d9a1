package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/export"
	"maestro/backend/prefs"
	"maestro/backend/store"
)

// DefaultTitle names a session the user has not named.
const DefaultTitle = "New chat"

// settingLastSession is the session to reopen at launch.
const settingLastSession = "lastSession"

// pageSize is how many stored messages Open and EarlierMessages return at
// a time. Eighty fill the chat pane many times over; opening a
// 10,000-message session therefore reads 1% of it, and the list renders
// what it shows (the rest comes a page at a time as the user scrolls up).
const pageSize = 80

// searchLimit bounds the hits Search returns.
const searchLimit = 50

// Sessions is the bound service of the sidebar and the chat pane's
// history: the list, opening a session a page at a time, search and
// export.
type Sessions struct {
	core    *core
	chat    *Chat
	conns   *Connectors
	catalog ModelCatalog
}

// List returns every session, most recently active first.
func (s *Sessions) List() ([]SessionDTO, error) {
	run, ctx, cancel, err := s.core.call()
	if err != nil {
		return nil, err
	}
	defer cancel()
	sessions, err := run.store.Sessions(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]SessionDTO, 0, len(sessions))
	for _, x := range sessions {
		out = append(out, sessionDTO(x))
	}
	return out, nil
}

// Create makes a session. An empty title gives DefaultTitle. The session
// starts on the starting model (Settings, else the one last used, else the
// first usable one) with the connectors that are on in new chats.
func (s *Sessions) Create(title string) (SessionDTO, error) {
	if strings.TrimSpace(title) == "" {
		title = DefaultTitle
	}
	title, err := chat.NormalizeTitle(title)
	if err != nil {
		return SessionDTO{}, err
	}
	run, ctx, cancel, err := s.core.call()
	if err != nil {
		return SessionDTO{}, err
	}
	defer cancel()
	c := startingModel(ctx, run.store, s.catalog.Providers(ctx))
	p, _ := prefs.Load(ctx, run.store) // a damaged row reads as its default
	sess, err := run.store.CreateSession(ctx, chat.Session{Title: title, EnabledConnectors: s.conns.forNewChats(run),
		Provider: c.Provider, Model: c.Model, SystemPrompt: p.Instructions})
	if err != nil {
		return SessionDTO{}, err
	}
	s.core.events.emit(EventSessionsChanged, nil)
	return sessionDTO(sess), nil
}

// Rename sets a session's title.
func (s *Sessions) Rename(id, title string) (SessionDTO, error) {
	title, err := chat.NormalizeTitle(title)
	if err != nil {
		return SessionDTO{}, err
	}
	run, ctx, cancel, err := s.core.call()
	if err != nil {
		return SessionDTO{}, err
	}
	defer cancel()
	sess, err := run.store.UpdateSession(ctx, id, func(x *chat.Session) error {
		x.Title = title
		return nil
	})
	if err != nil {
		return SessionDTO{}, err
	}
	s.core.events.emit(EventSessionsChanged, nil)
	return sessionDTO(sess), nil
}

// Delete removes a session and its history; its reply, if one runs, is
// stopped, and its folders stop being offered to the connectors' servers.
func (s *Sessions) Delete(id string) error {
	run, ctx, cancel, err := s.core.call()
	if err != nil {
		return err
	}
	defer cancel()
	s.chat.stopSession(id) // its reply would write to a chat that is gone
	if err := run.store.DeleteSession(ctx, id); err != nil {
		return err
	}
	if err := run.sup.SetRoots(ctx, id, nil); err != nil {
		s.core.log.Warn("withdraw a deleted chat's folders", "session", id, "err", err)
	}
	if err := run.sup.UnsubscribeSession(ctx, id); err != nil {
		s.core.log.Warn("unsubscribe a deleted chat's resources", "session", id, "err", err)
	}
	s.core.events.emit(EventSessionsChanged, nil)
	return nil
}

// Open returns a session with the latest messages of its active branch
// (each edited message with its place among its versions; EarlierBefore
// says how to get the ones before) and remembers it as the one to reopen
// at the next launch.
func (s *Sessions) Open(id string) (SessionViewDTO, error) {
	run, ctx, cancel, err := s.core.call()
	if err != nil {
		return SessionViewDTO{}, err
	}
	defer cancel()
	sess, err := run.store.Session(ctx, id)
	if err != nil {
		return SessionViewDTO{}, err
	}
	page, err := s.chat.latestPage(ctx, run.store, id)
	if err != nil {
		return SessionViewDTO{}, err
	}
	s.remember(ctx, run.store, id)
	return sessionView(sess, page), nil
}

// OpenAt opens a session showing its message seq, for a search hit: if
// the message is on another branch (an edited-away version), that branch
// becomes the one shown, and the view holds the branch from its latest
// message back to seq and a few older ones (a full page at least). seq 0
// opens the session as Open does.
func (s *Sessions) OpenAt(id string, seq uint64) (SessionViewDTO, error) {
	if seq == 0 {
		return s.Open(id)
	}
	run, ctx, cancel, err := s.core.call()
	if err != nil {
		return SessionViewDTO{}, err
	}
	defer cancel()
	st := run.store
	on, err := st.OnActivePath(ctx, id, seq)
	if err != nil {
		return SessionViewDTO{}, err
	}
	if !on {
		// A hit on a message no longer shown: show its branch.
		if _, err := st.Message(ctx, id, seq); err != nil {
			return SessionViewDTO{}, err
		}
		if err := s.chat.whileIdle(id, func() error {
			_, err := st.SwitchBranch(ctx, id, seq)
			return err
		}); err != nil {
			return SessionViewDTO{}, err
		}
		s.core.events.emit(EventSessionsChanged, nil)
	}
	sess, err := st.Session(ctx, id)
	if err != nil {
		return SessionViewDTO{}, err
	}
	page, err := s.chat.pagesDownTo(ctx, st, id, seq)
	if err != nil {
		return SessionViewDTO{}, err
	}
	s.remember(ctx, st, id)
	return sessionView(sess, page), nil
}

func (s *Sessions) remember(ctx context.Context, st *store.Store, id string) {
	if err := st.PutSetting(ctx, settingLastSession, id); err != nil {
		s.core.log.Warn("remember last session", "err", err)
	}
}

// EarlierMessages returns the page of the active branch's messages before
// the message seq: pass the EarlierBefore of Open or of the previous page.
func (s *Sessions) EarlierMessages(sessionID string, before uint64) (MessagePageDTO, error) {
	if before == 0 {
		return MessagePageDTO{}, fmt.Errorf("no message comes before the first: %w", chat.ErrInvalid)
	}
	run, ctx, cancel, err := s.core.call()
	if err != nil {
		return MessagePageDTO{}, err
	}
	defer cancel()
	page, err := run.store.ActivePathPage(ctx, sessionID, before, pageSize)
	if err != nil {
		return MessagePageDTO{}, err
	}
	return messagePage(page), nil
}

// Search finds sessions whose title or messages contain query
// (case-insensitively): title matches first, then the most recent, at
// most 50.
func (s *Sessions) Search(query string) ([]SearchHitDTO, error) {
	run, ctx, cancel, err := s.core.call()
	if err != nil {
		return nil, err
	}
	defer cancel()
	hits, err := run.store.Search(ctx, query, searchLimit)
	if err != nil {
		return nil, err
	}
	out := make([]SearchHitDTO, 0, len(hits))
	for _, h := range hits {
		out = append(out, SearchHitDTO{
			SessionID: h.SessionID, Title: h.Title, Snippet: h.Snippet, Seq: h.Seq, UpdatedAt: millis(h.UpdatedAt),
		})
	}
	return out, nil
}

// ExportFormat is a format of Export (export.Formats).
type ExportFormat string

// Export renders a session as "markdown" or "json" (backend/export): what
// the conversation said, never a secret.
func (s *Sessions) Export(sessionID string, format ExportFormat) (string, error) {
	var b strings.Builder
	if _, err := s.exportTo(&b, sessionID, format); err != nil {
		return "", err
	}
	return b.String(), nil
}

// ExportToFile asks where to save and writes the export there. It returns
// the path, or "" when the user cancelled.
func (s *Sessions) ExportToFile(sessionID string, format ExportFormat) (string, error) {
	var b strings.Builder
	sess, err := s.exportTo(&b, sessionID, format)
	if err != nil {
		return "", err
	}
	return saveExport(s.core, export.Format(format), sess.Title, b.String())
}

// exportTo writes the export of a session to w and returns the session.
func (s *Sessions) exportTo(w io.Writer, sessionID string, format ExportFormat) (chat.Session, error) {
	f, err := export.ParseFormat(string(format))
	if err != nil {
		return chat.Session{}, err
	}
	run, ctx, cancel, err := s.core.call()
	if err != nil {
		return chat.Session{}, err
	}
	defer cancel()
	sess, err := run.store.Session(ctx, sessionID)
	if err != nil {
		return chat.Session{}, err
	}
	msgs, err := run.store.Messages(ctx, sessionID)
	if err != nil {
		return chat.Session{}, err
	}
	return sess, export.Write(w, f, sess, slices.Values(msgs))
}

// titleFrom makes a title from the start of a message: its first line, cut
// at a word boundary near 60 characters.
func titleFrom(text string) string {
	line := strings.TrimSpace(strings.SplitN(strings.TrimSpace(text), "\n", 2)[0])
	const max = 60
	if utf8.RuneCountInString(line) <= max {
		if t, err := chat.NormalizeTitle(line); err == nil {
			return t
		}
		return DefaultTitle
	}
	runes := []rune(line)[:max]
	cut := string(runes)
	if i := strings.LastIndexByte(cut, ' '); i > max/2 {
		cut = cut[:i]
	}
	t, err := chat.NormalizeTitle(cut + "…")
	if err != nil {
		return DefaultTitle
	}
	return t
}

var errUnchanged = errors.New("unchanged")

// titleFromFirstMessage names a session still called DefaultTitle after
// its first message.
func titleFromFirstMessage(ctx context.Context, c *core, st *store.Store, sessionID, text string) {
	_, err := st.UpdateSession(ctx, sessionID, func(s *chat.Session) error {
		if s.Title != DefaultTitle {
			return errUnchanged
		}
		s.Title = titleFrom(text)
		return nil
	})
	if err != nil && !errors.Is(err, errUnchanged) {
		c.log.Warn("title session from first message", "session", sessionID, "err", err)
	}
}

// sessionView is a session with its active branch as the chat pane shows
// it: abandoned attempts left out, versioned messages with their Branch.
func sessionView(s chat.Session, p store.Page) SessionViewDTO {
	page := messagePage(p)
	return SessionViewDTO{Session: sessionDTO(s), Messages: page.Messages, EarlierBefore: page.EarlierBefore}
}

// messagePage converts a page of stored messages, leaving out superseded
// attempts (never shown, never sent). The cursor is the oldest stored
// message read, shown or not, so a page of superseded messages does not
// end the paging.
func messagePage(p store.Page) MessagePageDTO {
	page := MessagePageDTO{Messages: make([]MessageDTO, 0, len(p.Messages))}
	for _, m := range p.Messages {
		if m.Status == agent.StatusSuperseded {
			continue
		}
		dto := messageDTO(m)
		if br, ok := p.Branches[m.Seq]; ok {
			dto.Branch = branchDTO(br)
		}
		page.Messages = append(page.Messages, dto)
	}
	if p.More && len(p.Messages) > 0 {
		page.EarlierBefore = p.Messages[0].Seq
	}
	return page
}

// Instructions are a chat's own instructions (its system prompt), copied
// from Settings' default ones when it was made.
func (s *Sessions) Instructions(id string) (string, error) {
	run, ctx, cancel, err := s.core.call()
	if err != nil {
		return "", err
	}
	defer cancel()
	sess, err := run.store.Session(ctx, id)
	if err != nil {
		return "", err
	}
	return sess.SystemPrompt, nil
}

// SetInstructions sets a chat's instructions, sent with its requests from
// the next one on; "" sends none.
func (s *Sessions) SetInstructions(id, text string) (string, error) {
	text = strings.TrimSpace(text)
	check := prefs.Defaults()
	check.Instructions = text
	if err := check.Validate(); err != nil {
		return "", err
	}
	run, ctx, cancel, err := s.core.call()
	if err != nil {
		return "", err
	}
	defer cancel()
	sess, err := run.store.UpdateSession(ctx, id, func(sess *chat.Session) error {
		sess.SystemPrompt = text
		return nil
	})
	if err != nil {
		return "", err
	}
	return sess.SystemPrompt, nil
}
