package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"maestro/backend/agent"
	"maestro/backend/chat"
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

// Export formats.
const (
	ExportMarkdown = "markdown"
	ExportJSON     = "json"
)

// ExportSession renders a session as "markdown" or "json". Secrets never
// appear: no provider data (signatures, encrypted reasoning), no raw tool
// results beyond the {successful, data, error} envelope, no connector config.
func (a *App) ExportSession(sessionID, format string) (string, error) {
	st, ctx, cancel, err := a.ready()
	if err != nil {
		return "", err
	}
	defer cancel()
	s, err := st.Session(ctx, sessionID)
	if err != nil {
		return "", err
	}
	msgs, err := st.Messages(ctx, sessionID)
	if err != nil {
		return "", err
	}
	kept := msgs[:0:0]
	for _, m := range msgs {
		if m.Status != agent.StatusSuperseded {
			kept = append(kept, m)
		}
	}
	switch format {
	case ExportMarkdown:
		return exportMarkdown(s, kept), nil
	case ExportJSON:
		return exportJSON(s, kept)
	default:
		return "", chat.E(chat.ErrInvalid, "unknown export format %q (want markdown or json)", format)
	}
}

// ExportSessionToFile asks where to save and writes the export there. It
// returns the path, or "" when the user cancelled.
func (a *App) ExportSessionToFile(sessionID, format string) (string, error) {
	content, err := a.ExportSession(sessionID, format)
	if err != nil {
		return "", err
	}
	ext, name := "md", "Markdown files (*.md)"
	if format == ExportJSON {
		ext, name = "json", "JSON files (*.json)"
	}
	title := "chat"
	if st, ctx, cancel, err := a.ready(); err == nil {
		if s, err := st.Session(ctx, sessionID); err == nil {
			title = s.Title
		}
		cancel()
	}
	path, err := a.dialog(a.cfg.Runtime.SaveFileDialog, FileDialog{
		Title: "Export chat", DefaultFilename: withExt(safeFilename(title), ext),
		Filters: []FileFilter{{DisplayName: name, Pattern: "*." + ext}},
	})
	if err != nil || path == "" {
		return "", err
	}
	if filepath.Ext(path) == "" {
		path += "." + ext // the dialog does not add one
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		return "", chat.E(chat.ErrInvalid, "could not write %s: %v", path, err)
	}
	return path, nil
}

// safeFilename turns a title into a file name without path separators or
// characters that some systems refuse.
func safeFilename(title string) string {
	name := strings.Map(func(r rune) rune {
		if strings.ContainsRune(`/\:*?"<>|`, r) || r < 0x20 {
			return '-'
		}
		return r
	}, strings.TrimSpace(title))
	if name == "" || name == "." || name == ".." {
		return "chat"
	}
	return name
}

// withExt gives name the extension ext, unless it has it already (a
// chat titled "Summarise notes.md" exports as "Summarise notes.md").
func withExt(name, ext string) string {
	if strings.EqualFold(filepath.Ext(name), "."+ext) {
		return name
	}
	return strings.TrimRight(name, ".") + "." + ext
}

// exportEnvelope is what a tool result exports: what the model saw.
type exportEnvelope struct {
	Successful bool            `json:"successful"`
	Data       json.RawMessage `json:"data,omitempty"`
	Error      string          `json:"error,omitempty"`
	Truncated  bool            `json:"truncated,omitempty"`
}

func envelope(r chat.ToolResult) exportEnvelope {
	e := exportEnvelope{Successful: r.Successful, Error: r.Error, Truncated: r.Truncated}
	if len(r.Data) > 0 {
		if json.Valid(r.Data) {
			e.Data = r.Data
		} else {
			e.Data, _ = json.Marshal(string(r.Data))
		}
	}
	return e
}

func exportTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

func exportMarkdown(s chat.Session, msgs []chat.Message) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", s.Title)
	if s.Provider != "" || s.Model != "" {
		fmt.Fprintf(&b, "_Model: %s_  \n", strings.Trim(s.Provider+" / "+s.Model, " /"))
	}
	fmt.Fprintf(&b, "_Exported from Maestro — created %s_\n", exportTime(s.CreatedAt))
	for _, m := range msgs {
		heading := map[chat.Role]string{chat.RoleUser: "User", chat.RoleAssistant: "Assistant", chat.RoleTool: "Tool"}[m.Role]
		if heading == "" {
			heading = string(m.Role)
		}
		fmt.Fprintf(&b, "\n## %s\n", heading)
		if m.Status != "" && m.Status != chat.StatusComplete {
			fmt.Fprintf(&b, "\n_(%s)_\n", m.Status)
		}
		for _, p := range m.Parts {
			switch p := p.(type) {
			case chat.TextPart:
				fmt.Fprintf(&b, "\n%s\n", strings.TrimRight(p.Text, "\n"))
			case chat.ReasoningPart:
				if strings.TrimSpace(p.Text) != "" {
					fmt.Fprintf(&b, "\n<details>\n<summary>Reasoning</summary>\n\n%s\n\n</details>\n", strings.TrimRight(p.Text, "\n"))
				}
			case chat.ToolCallPart:
				fmt.Fprintf(&b, "\n**Tool call:** `%s`\n\n%s", p.Call.Name, fence(prettyJSON(p.Call.ReplayArguments())))
			case chat.ToolResultPart:
				body, _ := json.MarshalIndent(envelope(p.Result), "", "  ")
				fmt.Fprintf(&b, "\n**Tool result:** `%s`\n\n%s", p.Result.Name, fence(string(body)))
			case chat.FilePart:
				fmt.Fprintf(&b, "\n_Attachment: %s (%s)_\n", p.Name, p.MIMEType)
			}
		}
		if m.Error != "" {
			fmt.Fprintf(&b, "\n> Error: %s\n", m.Error)
		}
	}
	return b.String()
}

// fence wraps JSON in a fenced block long enough not to be closed by the
// content.
func fence(body string) string {
	ticks := "```"
	for strings.Contains(body, ticks) {
		ticks += "`"
	}
	return ticks + "json\n" + strings.TrimRight(body, "\n") + "\n" + ticks + "\n"
}

func prettyJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "{}"
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		return string(raw)
	}
	return buf.String()
}

// The JSON export: the session and its messages, minus secrets.
type exportDoc struct {
	Format   string          `json:"format"`
	Session  exportSession   `json:"session"`
	Messages []exportMessage `json:"messages"`
}

type exportSession struct {
	ID           string `json:"id"`
	Title        string `json:"title"`
	Provider     string `json:"provider,omitempty"`
	Model        string `json:"model,omitempty"`
	SystemPrompt string `json:"systemPrompt,omitempty"`
	CreatedAt    string `json:"createdAt"`
	UpdatedAt    string `json:"updatedAt"`
	// Connectors, tool grants and roots are left out on purpose.
}

type exportMessage struct {
	Seq       uint64       `json:"seq"`
	ID        string       `json:"id"`
	Role      string       `json:"role"`
	Status    string       `json:"status,omitempty"`
	Error     string       `json:"error,omitempty"`
	Provider  string       `json:"provider,omitempty"`
	Model     string       `json:"model,omitempty"`
	Usage     *chat.Usage  `json:"usage,omitempty"`
	CreatedAt string       `json:"createdAt"`
	Parts     []exportPart `json:"parts"`
}

type exportPart struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	CallID    string          `json:"callId,omitempty"`
	Name      string          `json:"name,omitempty"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Result    *exportEnvelope `json:"result,omitempty"`
	MIMEType  string          `json:"mimeType,omitempty"`
}

func exportJSON(s chat.Session, msgs []chat.Message) (string, error) {
	doc := exportDoc{
		Format: "maestro.session.v1",
		Session: exportSession{
			ID: s.ID, Title: s.Title, Provider: s.Provider, Model: s.Model, SystemPrompt: s.SystemPrompt,
			CreatedAt: exportTime(s.CreatedAt), UpdatedAt: exportTime(s.UpdatedAt),
		},
		Messages: make([]exportMessage, 0, len(msgs)),
	}
	for _, m := range msgs {
		em := exportMessage{
			Seq: m.Seq, ID: m.ID, Role: string(m.Role), Status: string(m.Status), Error: m.Error,
			Provider: m.Provider, Model: m.Model, Usage: m.Usage, CreatedAt: exportTime(m.CreatedAt),
			Parts: make([]exportPart, 0, len(m.Parts)),
		}
		for _, p := range m.Parts {
			ep := exportPart{Type: p.PartType()}
			switch p := p.(type) {
			case chat.TextPart:
				ep.Text = p.Text
			case chat.ReasoningPart:
				ep.Text = p.Text
			case chat.ToolCallPart:
				ep.CallID, ep.Name = p.Call.ID, p.Call.Name
				if args := p.Call.ReplayArguments(); json.Valid(args) {
					ep.Arguments = args
				}
			case chat.ToolResultPart:
				e := envelope(p.Result)
				ep.CallID, ep.Name, ep.Result = p.Result.CallID, p.Result.Name, &e
			case chat.FilePart:
				ep.Name, ep.MIMEType = p.Name, p.MIMEType
			}
			em.Parts = append(em.Parts, ep)
		}
		doc.Messages = append(doc.Messages, em)
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return "", fmt.Errorf("export: %w", err)
	}
	return string(out) + "\n", nil
}
