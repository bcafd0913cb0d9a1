// Package chattest holds canonical sample values shared by tests.
package chattest

import (
	"encoding/json"
	"time"

	"maestro/backend/chat"
)

// Messages returns one message of every shape the store must round-trip, so
// the chat and store tests check the same values.
func Messages() []chat.Message {
	at := time.Date(2026, 11, 21, 9, 30, 0, 123_000_000, time.UTC)
	return []chat.Message{
		{ID: "m1", Role: chat.RoleUser, CreatedAt: at, Status: chat.StatusComplete,
			Parts: chat.Parts{chat.TextPart{Text: "hello, ünïcode ✓\nline two"}}},
		{ID: "m2", Role: chat.RoleAssistant, CreatedAt: at, Provider: "gemini", Model: "gemini-2.5-pro", RunID: "r1",
			Usage: &chat.Usage{InputTokens: 12778, OutputTokens: 24, ReasoningTokens: 60},
			Parts: chat.Parts{
				chat.ReasoningPart{Text: "**Planning**", ProviderData: chat.ProviderData{"gemini": json.RawMessage(`{"thoughtSignature":"CiQB"}`)}},
				chat.TextPart{Text: "I'll check."},
				chat.ToolCallPart{Call: chat.ToolCall{ID: "c1", Name: "everything.echo", Arguments: json.RawMessage(`{"message":"hi"}`),
					ProviderData: chat.ProviderData{"gemini": json.RawMessage(`{"thoughtSignature":"CiQB"}`)}}},
				chat.ToolCallPart{Call: chat.ToolCall{ID: "c2", Name: "everything.get-sum", Arguments: json.RawMessage(`{"a":1,"b":2}`),
					ProviderIDs: map[string]string{"anthropic": "toolu_01A"}}},
			}},
		{ID: "m3", Role: chat.RoleTool, CreatedAt: at, Parts: chat.Parts{
			chat.ToolResultPart{Result: chat.ToolResult{CallID: "c1", Name: "everything.echo", Successful: true,
				Data: json.RawMessage(`{"text":"Echo: hi"}`), Raw: json.RawMessage(`{"content":[{"type":"text","text":"Echo: hi"}]}`), DurationMS: 3}},
			chat.ToolResultPart{Result: chat.ToolResult{CallID: "c2", Name: "everything.get-sum", Successful: false, Error: "denied by user",
				Attachments: []chat.Attachment{{Type: "image", MIMEType: "image/png", Data: "iVBORw0KGgo="}}, Truncated: true}},
		}},
		{ID: "m4", Role: chat.RoleAssistant, CreatedAt: at, Provider: "openai", Status: chat.StatusFailed, Error: "usage limit reached",
			Parts: chat.Parts{chat.ReasoningPart{ProviderData: chat.ProviderData{"openai": json.RawMessage(`{"id":"rs_1","encrypted_content":"gAAA"}`)}}}},
		{ID: "m5", Role: chat.RoleUser, CreatedAt: at, Parts: chat.Parts{chat.FilePart{Name: "a.png", MIMEType: "image/png", Size: 3, Data: "AAAA"},
			chat.ResourcePart{URI: "demo://resource/static/document/features.md", ConnectorID: "c1", Server: "Everything",
				Name: "features.md", MIMEType: "text/markdown", Text: "# Features", Size: 10},
			chat.ResourcePart{URI: "demo://resource/dynamic/blob/1", ConnectorID: "c1", Server: "Everything", Title: "Blob 1",
				MIMEType: "text/plain", Data: "aGk=", Size: 2, Truncated: true}}},
		{ID: "m6", Role: chat.RoleAssistant, CreatedAt: at, Status: chat.StatusStreaming, Parts: chat.Parts{}},
	}
}
