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
	_, err := fmt.Fprintf(e.w, "_Exported from Maestro — created %s_\n", timestamp(s.CreatedAt))
	return err
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
		fmt.Fprintf(e.w, "\n_Attachment: %s (%s)_\n", p.Name, p.MIMEType)
	}
}

func (e *markdown) end() error { return nil }

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
