package chat

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
)

func TestEstimateTokens(t *testing.T) {
	t.Parallel()
	text := strings.Repeat("abc", 100) // 300 bytes: 100 tokens
	tests := []struct {
		name string
		m    Message
		want int64
	}{
		{"empty", Message{Role: RoleUser}, MessageOverheadTokens},
		{"text", Message{Role: RoleUser, Parts: Parts{TextPart{Text: text}}}, MessageOverheadTokens + PartOverheadTokens + 100},
		{"reasoning is free", Message{Role: RoleAssistant, Parts: Parts{ReasoningPart{Text: text}}}, MessageOverheadTokens + PartOverheadTokens},
		{"tool call", Message{Role: RoleAssistant, Parts: Parts{ToolCallPart{Call: ToolCall{Name: "abc.def", Arguments: json.RawMessage(`{"x":1}`)}}}},
			MessageOverheadTokens + PartOverheadTokens + CallOverheadTokens + 3 + 3},
		{"invalid arguments as replayed", Message{Role: RoleAssistant, Parts: Parts{ToolCallPart{Call: ToolCall{Name: "abc",
			Arguments: json.RawMessage(`{}`), InvalidArguments: "[1]"}}}},
			MessageOverheadTokens + PartOverheadTokens + CallOverheadTokens + 1 + 8}, // {"INVALID_JSON":"[1]"}
		{"tool result with an image", Message{Role: RoleTool, Parts: Parts{ToolResultPart{Result: ToolResult{Name: "abc", Data: json.RawMessage(text),
			Attachments: []Attachment{{Type: "image", Data: "AAAA"}, {Type: "image", Text: "too large: left out"}}}}}},
			MessageOverheadTokens + PartOverheadTokens + CallOverheadTokens + 1 + 100 + 2*PartOverheadTokens + ImageTokens + 7},
		{"image file", Message{Role: RoleUser, Parts: Parts{FilePart{MIMEType: "image/png", Data: "AAAA"}}}, MessageOverheadTokens + PartOverheadTokens + ImageTokens},
		{"text file by its decoded size", Message{Role: RoleUser, Parts: Parts{FilePart{MIMEType: "text/plain",
			Data: base64.StdEncoding.EncodeToString([]byte(text))}}}, MessageOverheadTokens + PartOverheadTokens + 100},
	}
	for _, tt := range tests {
		if got := EstimateTokens(tt.m); got != tt.want {
			t.Errorf("%s: EstimateTokens = %d; want %d", tt.name, got, tt.want)
		}
	}
	tool := Tool{Name: "abc", Description: text, InputSchema: json.RawMessage(`{"type":"object"}`)}
	if got, want := EstimateTool(tool), int64(CallOverheadTokens+1+100+6); got != want {
		t.Errorf("EstimateTool = %d; want %d", got, want)
	}
}
