package app

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/store"
)

// Event names.
const (
	// EventSessionsChanged tells the sidebar to reload the session list.
	EventSessionsChanged = "sessions:changed"
)

// DefaultTitle names a session the user has not named.
const DefaultTitle = "New chat"

const settingLastSession = "lastSession"

// settled returns the page read reads, with the checkpoints of a turn
// whose process died (still marked streaming with no run of ours writing
// them) settled by agent.Recover, so they show as failed and retryable.
// Only then does it take the run table's lock, so no run can start in
// between, and read the page again under it, since a run may have finished
// after the first read.
func (a *App) settled(ctx context.Context, st *store.Store, id string, read func() (store.Page, error)) (store.Page, error) {
	page, err := read()
	streaming := func(m chat.Message) bool { return m.Status == chat.StatusStreaming }
	if err != nil || a.chat == nil || !slices.ContainsFunc(page.Messages, streaming) {
		return page, err
	}
	a.chat.mu.Lock()
	defer a.chat.mu.Unlock()
	if a.chat.runningLocked(id) {
		return page, nil
	}
	if page, err = read(); err != nil {
		return page, err
	}
	if page.Messages, _, err = agent.Recover(ctx, st, id, page.Messages); err != nil {
		a.log.Warn("settle an interrupted turn", "session", id, "err", err)
	}
	return page, nil
}

// Status reports the version, the data location and whether it opened.
func (a *App) Status() StatusDTO {
	dto := StatusDTO{
		Version: a.cfg.Version, DataDir: a.cfg.DataDir,
		DataFile: filepath.Join(a.cfg.DataDir, store.FileName),
	}
	st, ctx, cancel, err := a.ready()
	if err != nil {
		dto.StoreError = errorDTO(err)
		return dto
	}
	defer cancel()
	var last string
	if err := st.Setting(ctx, settingLastSession, &last); err == nil {
		if _, err := st.Session(ctx, last); err == nil {
			dto.LastSessionID = last
		}
	}
	return dto
}

// ListSessions returns every session, most recently active first.
func (a *App) ListSessions() ([]SessionDTO, error) {
	st, ctx, cancel, err := a.ready()
	if err != nil {
		return nil, err
	}
	defer cancel()
	sessions, err := st.Sessions(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]SessionDTO, 0, len(sessions))
	for _, s := range sessions {
		out = append(out, sessionDTO(s))
	}
	return out, nil
}

// CreateSession makes a session. An empty title gives DefaultTitle. The
// session starts on the starting model (Settings, else the one last used,
// else the first usable one).
func (a *App) CreateSession(title string) (SessionDTO, error) {
	if strings.TrimSpace(title) == "" {
		title = DefaultTitle
	}
	title, err := chat.NormalizeTitle(title)
	if err != nil {
		return SessionDTO{}, err
	}
	st, ctx, cancel, err := a.ready()
	if err != nil {
		return SessionDTO{}, err
	}
	defer cancel()
	sess := chat.Session{Title: title, EnabledConnectors: a.newChatConnectors()}
	if a.chat != nil && a.chat.deps.Catalog != nil {
		c := startingModel(ctx, st, a.chat.deps.Catalog.Providers(ctx))
		sess.Provider, sess.Model = c.Provider, c.Model
	}
	s, err := st.CreateSession(ctx, sess)
	if err != nil {
		return SessionDTO{}, err
	}
	a.emit(EventSessionsChanged)
	return sessionDTO(s), nil
}

// RenameSession sets a session's title.
func (a *App) RenameSession(id, title string) (SessionDTO, error) {
	title, err := chat.NormalizeTitle(title)
	if err != nil {
		return SessionDTO{}, err
	}
	st, ctx, cancel, err := a.ready()
	if err != nil {
		return SessionDTO{}, err
	}
	defer cancel()
	s, err := st.UpdateSession(ctx, id, func(s *chat.Session) error {
		s.Title = title
		return nil
	})
	if err != nil {
		return SessionDTO{}, err
	}
	a.emit(EventSessionsChanged)
	return sessionDTO(s), nil
}

// DeleteSession removes a session and its history.
func (a *App) DeleteSession(id string) error {
	st, ctx, cancel, err := a.ready()
	if err != nil {
		return err
	}
	defer cancel()
	if a.chat != nil {
		a.chat.stopSession(id) // its reply would write to a chat that is gone
	}
	if err := st.DeleteSession(ctx, id); err != nil {
		return err
	}
	// The chat's folders stop being offered to the connectors' servers.
	if a.conns != nil {
		if sup, _ := a.conns.current(); sup != nil {
			if err := sup.SetRoots(ctx, id, nil); err != nil {
				a.log.Warn("withdraw a deleted chat's folders", "session", id, "err", err)
			}
		}
	}
	a.emit(EventSessionsChanged)
	return nil
}

// pageSize is how many stored messages OpenSession and EarlierMessages
// return at a time. Eighty fill the chat pane many times over; opening a
// 10,000-message session therefore reads 1% of it, and the list renders
// what it shows (the rest comes a page at a time as the user scrolls up).
const pageSize = 80

// OpenSession returns a session with the latest messages of its active
// branch (each edited message with its place among its versions;
// EarlierBefore says how to get the ones before) and remembers it as the
// one to reopen at the next launch.
func (a *App) OpenSession(id string) (SessionViewDTO, error) {
	st, ctx, cancel, err := a.ready()
	if err != nil {
		return SessionViewDTO{}, err
	}
	defer cancel()
	s, err := st.Session(ctx, id)
	if err != nil {
		return SessionViewDTO{}, err
	}
	page, err := a.latestPage(ctx, st, id)
	if err != nil {
		return SessionViewDTO{}, err
	}
	if err := st.PutSetting(ctx, settingLastSession, id); err != nil {
		a.log.Warn("remember last session", "err", err)
	}
	return sessionView(s, page), nil
}

// EarlierMessages returns the page of the active branch's messages before
// the message seq: pass the EarlierBefore of OpenSession or of the previous
// page.
func (a *App) EarlierMessages(sessionID string, before uint64) (MessagePageDTO, error) {
	if before == 0 {
		return MessagePageDTO{}, fmt.Errorf("no message comes before the first: %w", chat.ErrInvalid)
	}
	st, ctx, cancel, err := a.ready()
	if err != nil {
		return MessagePageDTO{}, err
	}
	defer cancel()
	page, err := st.ActivePathPage(ctx, sessionID, before, pageSize)
	if err != nil {
		return MessagePageDTO{}, err
	}
	return messagePage(page), nil
}

// latestPage reads the active branch's last page, settled (see settled).
func (a *App) latestPage(ctx context.Context, st *store.Store, id string) (store.Page, error) {
	return a.settled(ctx, st, id, func() (store.Page, error) { return st.ActivePathPage(ctx, id, 0, pageSize) })
}

// maxMessageLen bounds one typed message (1 MiB of text).
const maxMessageLen = 1 << 20

// SendMessage stores the user's message and starts a reply. It returns once
// the message is stored; the reply streams as events. A chat without a usable
// provider still keeps the message: the run then fails with a sign-in hint.
func (a *App) SendMessage(sessionID, text string) (SendResultDTO, error) {
	if err := checkText(text); err != nil {
		return SendResultDTO{}, err
	}
	if a.chat != nil {
		runID, m, err := a.chat.startRun(agent.RunInput{SessionID: sessionID, Text: text})
		if err != nil {
			return SendResultDTO{}, err
		}
		return SendResultDTO{RunID: runID, Message: *m}, nil
	}
	st, ctx, cancel, err := a.ready()
	if err != nil {
		return SendResultDTO{}, err
	}
	defer cancel()
	m, err := st.AppendMessage(ctx, sessionID, chat.Message{
		Role: chat.RoleUser, Status: chat.StatusComplete,
		Parts: chat.Parts{chat.TextPart{Text: text}},
	})
	if err != nil {
		return SendResultDTO{}, err
	}
	a.titleFromFirstMessage(ctx, st, sessionID, text)
	a.emit(EventSessionsChanged)
	return SendResultDTO{Message: messageDTO(m)}, nil
}

// checkText refuses a typed message that is empty or too long.
func checkText(text string) error {
	if strings.TrimSpace(text) == "" {
		return fmt.Errorf("the message is empty: %w", chat.ErrInvalid)
	}
	if len(text) > maxMessageLen {
		return fmt.Errorf("the message is %d bytes, at most %d allowed: %w", len(text), maxMessageLen, chat.ErrInvalid)
	}
	return nil
}

var errUnchanged = errors.New("unchanged")

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

// KeychainStatus probes the OS keychain for the Settings page.
func (a *App) KeychainStatus() KeychainDTO {
	if a.cfg.Keychain == nil {
		return KeychainDTO{Message: "no keychain configured"}
	}
	a.mu.RLock()
	root := a.root
	a.mu.RUnlock()
	if root == nil {
		return KeychainDTO{Message: "maestro is still starting"}
	}
	if err := a.cfg.Keychain.Probe(root); err != nil {
		return KeychainDTO{Message: err.Error()}
	}
	return KeychainDTO{Available: true, Message: "The system keychain is available."}
}
