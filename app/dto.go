package app

import (
	"time"

	"maestro/backend/chat"
)

// ErrorDTO is how an error reaches JavaScript: the rejected promise's value.
type ErrorDTO struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// FormatError is the ErrorFormatter given to Wails.
func FormatError(err error) any {
	if err == nil {
		return nil
	}
	return errorDTO(err)
}

func errorDTO(err error) *ErrorDTO {
	if err == nil {
		return nil
	}
	return &ErrorDTO{Kind: chat.Kind(err), Message: err.Error()}
}

// StatusDTO describes the running app for the shell and Settings.
type StatusDTO struct {
	Version  string `json:"version"`
	DataDir  string `json:"dataDir"`
	DataFile string `json:"dataFile"`
	// StoreError is set when the data file could not be opened; the UI shows
	// it in place of the sessions.
	StoreError    *ErrorDTO `json:"storeError,omitempty"`
	LastSessionID string    `json:"lastSessionId"`
}

// SessionDTO is a session as the sidebar and header show it.
type SessionDTO struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	Provider string `json:"provider"`
	Model    string `json:"model"`
	// Times are Unix milliseconds.
	CreatedAt int64 `json:"createdAt"`
	UpdatedAt int64 `json:"updatedAt"`
}

// PartDTO is one part of a message.
type PartDTO struct {
	Type string `json:"type"`
	Text string `json:"text,omitempty"`
}

// MessageDTO is a message as the chat pane shows it.
type MessageDTO struct {
	ID        string    `json:"id"`
	Seq       uint64    `json:"seq"`
	Role      string    `json:"role"`
	Status    string    `json:"status"`
	Error     string    `json:"error,omitempty"`
	Parts     []PartDTO `json:"parts"`
	CreatedAt int64     `json:"createdAt"`
}

// SessionViewDTO is everything the chat pane needs to open a session.
type SessionViewDTO struct {
	Session  SessionDTO   `json:"session"`
	Messages []MessageDTO `json:"messages"`
}

// KeychainDTO reports whether the OS keychain can be used.
type KeychainDTO struct {
	Available bool   `json:"available"`
	Message   string `json:"message"`
}

func millis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func sessionDTO(s chat.Session) SessionDTO {
	return SessionDTO{
		ID: s.ID, Title: s.Title, Provider: s.Provider, Model: s.Model,
		CreatedAt: millis(s.CreatedAt), UpdatedAt: millis(s.UpdatedAt),
	}
}

func messageDTO(m chat.Message) MessageDTO {
	parts := make([]PartDTO, 0, len(m.Parts))
	for _, p := range m.Parts {
		dto := PartDTO{Type: p.PartType()}
		switch p := p.(type) {
		case chat.TextPart:
			dto.Text = p.Text
		case chat.ReasoningPart:
			dto.Text = p.Text
		}
		parts = append(parts, dto)
	}
	status := string(m.Status)
	if status == "" {
		status = string(chat.StatusComplete)
	}
	return MessageDTO{
		ID: m.ID, Seq: m.Seq, Role: string(m.Role), Status: status, Error: m.Error,
		Parts: parts, CreatedAt: millis(m.CreatedAt),
	}
}
