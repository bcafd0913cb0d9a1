package chattest

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"maestro/backend/chat"
)

// Conversation returns the first n messages of a long working session, the
// same every time, for benchmarks and for seeding data dirs to measure. It
// repeats turns of three shapes:
//
//   - a question and a Markdown answer of a few hundred bytes (lists, inline
//     code, now and then a fenced code block or a table);
//   - the same with the model's reasoning before the answer;
//   - a tool round: the user asks, the assistant says what it will do and
//     calls a tool, a tool message carries the result (envelope data and the
//     server's raw result, about 0.5–1 KB), and the assistant answers.
//
// Seq and ID are left for the store to assign. CreatedAt starts at a fixed
// date and moves forward 7 s per message.
func Conversation(n int) []chat.Message {
	out := make([]chat.Message, 0, n+4)
	at := time.Date(2026, 10, 1, 9, 0, 0, 0, time.UTC)
	add := func(m chat.Message) {
		m.CreatedAt = at
		at = at.Add(7 * time.Second)
		out = append(out, m)
	}
	for t := 0; len(out) < n; t++ {
		topic := topics[t%len(topics)]
		runID := fmt.Sprintf("run-%05d", t)
		add(chat.Message{Role: chat.RoleUser, Status: chat.StatusComplete,
			Parts: chat.Parts{chat.TextPart{Text: question(t, topic)}}})
		reply := func(parts ...chat.Part) chat.Message {
			return chat.Message{Role: chat.RoleAssistant, Status: chat.StatusComplete,
				Provider: "anthropic", Model: "claude-sonnet-4-5", RunID: runID,
				Usage: &chat.Usage{InputTokens: int64(12_000 + 37*t), OutputTokens: int64(180 + t%250)},
				Parts: parts}
		}
		switch t % 3 {
		case 0:
			add(reply(chat.TextPart{Text: answer(t, topic)}))
		case 1:
			add(reply(
				chat.ReasoningPart{Text: fmt.Sprintf("The user wants %s. I should check how %s handles it before suggesting a change.", topic.what, topic.file),
					ProviderData: chat.ProviderData{"anthropic": json.RawMessage(`{"signature":"` + signature + `"}`)}},
				chat.TextPart{Text: answer(t, topic)}))
		case 2:
			callID := fmt.Sprintf("call-%05d", t)
			args := fmt.Sprintf(`{"path":%q,"pattern":%q,"maxResults":20}`, topic.file, topic.symbol)
			add(reply(
				chat.TextPart{Text: fmt.Sprintf("Let me search `%s` for `%s` first.", topic.file, topic.symbol)},
				chat.ToolCallPart{Call: chat.ToolCall{ID: callID, Name: "files.search", Arguments: json.RawMessage(args),
					ProviderIDs: map[string]string{"anthropic": fmt.Sprintf("toolu_01%020d", t)}}}))
			data := toolData(t, topic)
			add(chat.Message{Role: chat.RoleTool, Status: chat.StatusComplete, Parts: chat.Parts{
				chat.ToolResultPart{Result: chat.ToolResult{CallID: callID, Name: "files.search", Successful: true,
					Data:       data,
					Raw:        json.RawMessage(`{"content":[{"type":"text","text":` + quote(string(data)) + `}]}`),
					DurationMS: int64(20 + t%90)}},
			}})
			add(reply(chat.TextPart{Text: answer(t, topic)}))
		}
	}
	return out[:n]
}

// signature stands in for the opaque reasoning signature a provider sends
// (about 300 bytes of base64).
var signature = strings.Repeat("EqQBCkgIARABGAIiQHk3", 15)

type topic struct{ what, file, symbol, lang, code string }

var topics = []topic{
	{"the retry loop to back off on 429s", "backend/providers/http.go", "RetryAfter", "go",
		"if d := err.RetryAfter; d > 0 {\n\tselect {\n\tcase <-time.After(d):\n\tcase <-ctx.Done():\n\t\treturn ctx.Err()\n\t}\n}"},
	{"the session list to sort by last activity", "frontend/src/stores/sessions.ts", "neighbourOf", "ts",
		"sessions.sort((a, b) => b.updatedAt - a.updatedAt)"},
	{"a migration that adds the settings bucket", "backend/store/migrations.go", "migrations", "go",
		"{version: 3, migrate: func(tx *bolt.Tx) error {\n\t_, err := tx.CreateBucketIfNotExists(bucketSettings)\n\treturn err\n}},"},
	{"the build to cache node_modules", ".ci/deps.sh", "npm install", "bash",
		"if [ ! -d frontend/node_modules ]; then\n  (cd frontend && npm install --no-audit --no-fund)\nfi"},
	{"tool names to fit the 64-character limit", "backend/mcp/names.go", "sanitize", "go",
		"name = invalid.ReplaceAllString(name, \"_\")\nif len(name) > 64 {\n\tname = name[:55] + \"_\" + hash(name)[:8]\n}"},
	{"the composer to keep drafts per chat", "frontend/src/lib/drafts.ts", "setDraft", "ts",
		"export function setDraft(d: Drafts, id: string, text: string): Drafts {\n  return text ? {...d, [id]: text} : removeDraft(d, id)\n}"},
}

func question(t int, tp topic) string {
	switch t % 4 {
	case 0:
		return fmt.Sprintf("Can you change %s? It lives in %s.", tp.what, tp.file)
	case 1:
		return fmt.Sprintf("That mostly works, but the test for `%s` still fails on the second run. Any idea why?", tp.symbol)
	case 2:
		return fmt.Sprintf("Look at %s and tell me where %s is used.", tp.file, tp.symbol)
	default:
		return fmt.Sprintf("OK. Before we move on: is there anything in %s we should clean up while we are here? I'd rather keep the diff small, but if the naming is confusing say so.", tp.file)
	}
}

func answer(t int, tp topic) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Here is what I found about **%s** (turn %d).\n\n", tp.what, t+1)
	fmt.Fprintf(&b, "1. `%s` is defined in `%s` and called from two places.\n", tp.symbol, tp.file)
	b.WriteString("2. The second caller passes its own context, so cancelling the first does not stop it.\n")
	b.WriteString("3. The test shares a temporary directory between runs, which explains the flaky second run.\n\n")
	switch t % 4 {
	case 0:
		fmt.Fprintf(&b, "The smallest change is this:\n\n```%s\n%s\n```\n\n", tp.lang, tp.code)
	case 2:
		b.WriteString("| option | effect | risk |\n| --- | --- | --- |\n| keep it | nothing changes | the flake stays |\n| move it | one call site | low |\n\n")
	}
	fmt.Fprintf(&b, "I would keep the rest as it is: the naming is consistent with the package, and the doc comment on `%s` already explains the contract. Run `go test ./...` once more after the change to be sure.", tp.symbol)
	return b.String()
}

func toolData(t int, tp topic) json.RawMessage {
	type match struct {
		Line int    `json:"line"`
		Text string `json:"text"`
	}
	ms := make([]match, 0, 6)
	for i := range 3 + t%4 {
		ms = append(ms, match{Line: 12 + 17*i + t%11, Text: fmt.Sprintf("\t%s(ctx, %d) // %s", tp.symbol, i, tp.what)})
	}
	raw, _ := json.Marshal(map[string]any{"path": tp.file, "matches": ms, "truncated": false})
	return raw
}

func quote(s string) string {
	raw, _ := json.Marshal(s)
	return string(raw)
}
