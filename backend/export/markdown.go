package export

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"maestro/backend/chat"
)

// markdown writes the Markdown export: a heading per message, text as it
// is, reasoning folded in a <details>, tool calls and results as fenced
// JSON.
type markdown struct {
	w *bufio.Writer
}

func (e *markdown) begin(s chat.Session) error {
	fmt.Fprintf(e.w, "# %s\n\n", s.Title)
	if s.Provider != "" || s.Model != "" {
		fmt.Fprintf(e.w, "_Model: %s_  \n", strings.Trim(s.Provider+" / "+s.Model, " /"))
	}
	if !s.Usage.IsZero() {
		fmt.Fprintf(e.w, "_Tokens, every reply: %s_  \n", usageText(s.Usage))
	}
	_, err := fmt.Fprintf(e.w, "_Exported from Maestro — created %s_\n", timestamp(s.CreatedAt))
	if strings.TrimSpace(s.SystemPrompt) != "" {
		fmt.Fprintf(e.w, "\n**Instructions**\n\n%s\n", quote(s.SystemPrompt))
	}
	return err
}

// usageText is a usage as a line: "1,234 in (1,000 cached), 56 out".
func usageText(u chat.Usage) string {
	in := thousands(u.InputTokens) + " in"
	if u.CacheReadTokens > 0 {
		in += " (" + thousands(u.CacheReadTokens) + " cached)"
	}
	out := thousands(u.OutputTokens) + " out"
	if u.ReasoningTokens > 0 {
		out += " (" + thousands(u.ReasoningTokens) + " reasoning)"
	}
	return in + ", " + out
}

// thousands writes n with comma separators.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return s
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// quote makes text a Markdown block quote, line by line.
func quote(text string) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight("> "+l, " ")
	}
	return strings.Join(lines, "\n")
}

var headings = map[chat.Role]string{chat.RoleUser: "User", chat.RoleAssistant: "Assistant", chat.RoleTool: "Tool"}

func (e *markdown) message(m chat.Message) error {
	heading := headings[m.Role]
	if heading == "" {
		heading = string(m.Role)
	}
	fmt.Fprintf(e.w, "\n## %s\n", heading)
	if m.Status != "" && m.Status != chat.StatusComplete {
		fmt.Fprintf(e.w, "\n_(%s)_\n", m.Status)
	}
	for _, p := range m.Parts {
		e.part(p)
	}
	if m.Error != "" {
		fmt.Fprintf(e.w, "\n> Error: %s\n", m.Error)
	}
	if m.Usage != nil && !m.Usage.IsZero() {
		fmt.Fprintf(e.w, "\n_Tokens: %s_\n", usageText(*m.Usage))
	}
	return nil // bufio.Writer keeps the first error for Flush
}

func (e *markdown) part(p chat.Part) {
	switch p := p.(type) {
	case chat.TextPart:
		fmt.Fprintf(e.w, "\n%s\n", strings.TrimRight(p.Text, "\n"))
	case chat.ReasoningPart:
		if strings.TrimSpace(p.Text) != "" {
			fmt.Fprintf(e.w, "\n<details>\n<summary>Reasoning</summary>\n\n%s\n\n</details>\n", strings.TrimRight(p.Text, "\n"))
		}
	case chat.ToolCallPart:
		fmt.Fprintf(e.w, "\n**Tool call:** `%s`\n\n%s", p.Call.Name, fence(prettyJSON(p.Call.ReplayArguments())))
	case chat.ToolResultPart:
		body, _ := json.MarshalIndent(envelopeOf(p.Result), "", "  ")
		fmt.Fprintf(e.w, "\n**Tool result:** `%s`\n\n%s", p.Result.Name, fence(string(body)))
	case chat.FilePart:
		e.file(p)
	case chat.ResourcePart:
		from := ""
		if p.Server != "" {
			from = " from " + p.Server
		}
		fmt.Fprintf(e.w, "\n_Resource: %s <%s>%s_\n", resourceName(p), p.URI, from)
	}
}

// file writes an attached file so the export keeps it: an image inline as
// a data: URI, a text file's text in a fence, anything else (a PDF) named,
// its bytes being in the JSON export.
func (e *markdown) file(p chat.FilePart) {
	mt := chat.BaseType(p.MIMEType)
	if text, ok := p.TextContent(); ok {
		fmt.Fprintf(e.w, "\n_Attachment: %s (%s)_\n\n%s", p.Name, mt, textFence(text))
		return
	}
	if p.Data != "" && markdownImage[mt] {
		fmt.Fprintf(e.w, "\n![%s](data:%s;base64,%s)\n", strings.NewReplacer("[", "(", "]", ")").Replace(p.Name), mt, p.Data)
		return
	}
	fmt.Fprintf(e.w, "\n_Attachment: %s (%s, %s; its bytes are in the JSON export)_\n", p.Name, mt, chat.HumanSize(p.Size))
}

// markdownImage are the image types Markdown readers draw from a data: URI.
var markdownImage = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

func (e *markdown) end() error { return nil }

// fence wraps JSON in a fenced block long enough not to be closed by the
// content.
func fence(body string) string { return fenced("json", body) }

// textFence wraps a text file's content in a fenced block.
func textFence(body string) string { return fenced("text", body) }

func fenced(lang, body string) string {
	ticks := "```"
	for strings.Contains(body, ticks) {
		ticks += "`"
	}
	return ticks + lang + "\n" + strings.TrimRight(body, "\n") + "\n" + ticks + "\n"
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
