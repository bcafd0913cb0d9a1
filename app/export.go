package app

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"maestro/backend/chat"
	"maestro/backend/export"
)

// searchLimit bounds the hits SearchSessions returns.
const searchLimit = 50

// SearchHitDTO is one session matching a sidebar search.
type SearchHitDTO struct {
	SessionID string `json:"sessionId"`
	Title     string `json:"title"`
	// Snippet is the match with some context around it.
	Snippet string `json:"snippet"`
	// Seq is the matching message; 0 when only the title matched.
	Seq       uint64 `json:"seq"`
	UpdatedAt int64  `json:"updatedAt"`
}

// SearchSessions finds sessions whose title or messages contain query
// (case-insensitively): title matches first, then the most recent, at most 50.
func (a *App) SearchSessions(query string) ([]SearchHitDTO, error) {
	st, ctx, cancel, err := a.ready()
	if err != nil {
		return nil, err
	}
	defer cancel()
	hits, err := st.Search(ctx, query, searchLimit)
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

// ExportSession renders a session as "markdown" or "json" (backend/export):
// what the conversation said, never a secret.
func (a *App) ExportSession(sessionID, format string) (string, error) {
	var b strings.Builder
	if _, err := a.exportTo(&b, sessionID, format); err != nil {
		return "", err
	}
	return b.String(), nil
}

// exportTo writes the export of a session to w and returns the session.
func (a *App) exportTo(w io.Writer, sessionID, format string) (chat.Session, error) {
	f, err := export.ParseFormat(format)
	if err != nil {
		return chat.Session{}, err
	}
	st, ctx, cancel, err := a.ready()
	if err != nil {
		return chat.Session{}, err
	}
	defer cancel()
	s, err := st.Session(ctx, sessionID)
	if err != nil {
		return chat.Session{}, err
	}
	msgs, err := st.Messages(ctx, sessionID)
	if err != nil {
		return chat.Session{}, err
	}
	return s, export.Write(w, f, s, slices.Values(msgs))
}

// ExportSessionToFile asks where to save and writes the export there. It
// returns the path, or "" when the user cancelled.
func (a *App) ExportSessionToFile(sessionID, format string) (string, error) {
	var b bytes.Buffer
	s, err := a.exportTo(&b, sessionID, format)
	if err != nil {
		return "", err
	}
	f := export.Format(format)
	path, err := a.dialog(a.cfg.Runtime.SaveFileDialog, FileDialog{
		Title: "Export chat", DefaultFilename: export.FileName(s.Title, f),
		Filters: []FileFilter{{DisplayName: f.Description(), Pattern: "*." + f.Ext()}},
	})
	if err != nil || path == "" {
		return "", err
	}
	if filepath.Ext(path) == "" {
		path += "." + f.Ext() // the dialog does not add one
	}
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		return "", chat.E(chat.ErrInvalid, "could not write %s: %v", path, err)
	}
	return path, nil
}
