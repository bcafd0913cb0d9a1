package agent

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"maestro/backend/chat"
)

// A compaction asks the session's model to summarise the oldest part of
// the conversation. The part is sent as a plain transcript inside one user
// message, not as the conversation itself: every provider takes that, no
// tool pairing or signature rule applies, and the model reads what it has
// to summarise rather than continuing it. Large tool results and long
// arguments are cut in the transcript; the summary needs their gist, not
// their bytes.

// Transcript limits, in bytes.
const (
	transcriptResult = 2000
	transcriptArgs   = 1000
)

// compactSystem is the instruction of every summarising request.
const compactSystem = `You write the running summary of a conversation between a user and an AI assistant that uses tools, so that the assistant can carry on without the messages you summarise, which it will no longer see.

Keep what later work depends on: what the user wants and why, the constraints and preferences they gave, decisions taken and the reasons, facts learnt from tool results (names of files, functions, commands, identifiers, numbers, error messages), what was done, and what was still open or promised at the end. Drop greetings, repetition and detail nobody will need. Quote exact names and values.

Write plain notes in the user's language, without a preamble. When a summary so far is given, fold it in: your text replaces it and must stand alone.`

// transcriptEntry renders one message of the span. The summary a span
// starts with (a summary message of the view) is marked as such.
func transcriptEntry(m chat.Message, earlierSummary bool) string {
	var b strings.Builder
	switch {
	case earlierSummary:
		b.WriteString("[Summary so far]\n")
		b.WriteString(strings.TrimPrefix(m.Text(), summaryPrefix))
	case m.Role == chat.RoleUser:
		b.WriteString("[User]\n")
	case m.Role == chat.RoleAssistant:
		b.WriteString("[Assistant]\n")
	}
	if earlierSummary {
		return b.String()
	}
	for _, p := range m.Parts {
		switch p := p.(type) {
		case chat.TextPart:
			b.WriteString(p.Text)
			b.WriteByte('\n')
		case chat.FilePart:
			fmt.Fprintf(&b, "[attached file %s (%s)]\n", p.Name, p.MIMEType)
		case chat.ToolCallPart:
			fmt.Fprintf(&b, "[called %s with %s]\n", p.Call.Name, cut(string(p.Call.ReplayArguments()), transcriptArgs))
		case chat.ToolResultPart:
			b.WriteString(resultLine(p.Result))
		}
	}
	return b.String()
}

func resultLine(r chat.ToolResult) string {
	outcome, body := "ok", string(r.Data)
	if !r.Successful {
		outcome, body = "error", r.Error
	}
	line := fmt.Sprintf("[result of %s: %s] %s", r.Name, outcome, cut(body, transcriptResult))
	if n := len(r.Attachments); n > 0 {
		line += fmt.Sprintf(" (+%d attachment(s))", n)
	}
	return line + "\n"
}

// cut shortens s to at most n bytes, on a rune boundary, saying how much
// was left out.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	head := s[:n]
	for !utf8.ValidString(head) {
		head = head[:len(head)-1]
	}
	return fmt.Sprintf("%s… [%d more bytes]", head, len(s)-len(head))
}

// transcriptChunks splits the span's transcript into pieces of at most
// limit estimated tokens, whole messages each (a single message larger
// than that is cut to fit). The first message is the earlier summary when
// hasSummary.
func transcriptChunks(span []chat.Message, hasSummary bool, limit int64) []string {
	var (
		chunks []string
		cur    strings.Builder
		size   int64
	)
	maxBytes := int(limit) * chat.BytesPerToken
	for i, m := range span {
		e := transcriptEntry(m, hasSummary && i == 0)
		if len(e) > maxBytes {
			e = cut(e, maxBytes)
		}
		n := chat.EstimateText(e)
		if size > 0 && size+n > limit {
			chunks = append(chunks, cur.String())
			cur.Reset()
			size = 0
		}
		cur.WriteString(e)
		cur.WriteByte('\n')
		size += n
	}
	if cur.Len() > 0 {
		chunks = append(chunks, cur.String())
	}
	return chunks
}

// compactPrompt is the user message of one summarising request: the
// summary so far (from an earlier chunk) and the next piece of the
// conversation.
func compactPrompt(soFar, chunk string, part, parts int) string {
	var b strings.Builder
	if soFar != "" {
		b.WriteString("Summary so far:\n\n")
		b.WriteString(soFar)
		b.WriteString("\n\n")
	}
	if parts > 1 {
		fmt.Fprintf(&b, "Conversation, part %d of %d:\n\n", part, parts)
	} else {
		b.WriteString("Conversation:\n\n")
	}
	b.WriteString(chunk)
	b.WriteString("\nWrite the summary now.")
	return b.String()
}
