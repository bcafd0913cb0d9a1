package openai

import "encoding/json"

// reasoningItem is a reasoning item as it is stored in
// ReasoningPart.ProviderData["openai"] and replayed in input (docs/providers/openai.md §Input items):
// {"type":"reasoning","summary":[…],"encrypted_content":"…"}. It has no id
// (store:false) and no status.
type reasoningItem struct {
	Type             string          `json:"type"`
	Summary          json.RawMessage `json:"summary"`
	Content          json.RawMessage `json:"content,omitempty"`
	EncryptedContent string          `json:"encrypted_content"`
}

// normalizeReasoning turns a reasoning item, as an older build may have
// stored it (with an id, a status, no type), into the replayable form. ok
// is false when there is no encrypted_content: under store:false such an
// item cannot be replayed.
func normalizeReasoning(raw []byte) (json.RawMessage, bool) {
	var in struct {
		Type             string          `json:"type"`
		Summary          json.RawMessage `json:"summary"`
		Content          json.RawMessage `json:"content"`
		EncryptedContent string          `json:"encrypted_content"`
	}
	if err := json.Unmarshal(raw, &in); err != nil || in.Type != "" && in.Type != "reasoning" {
		return nil, false
	}
	return reasoningData(in.Summary, in.Content, in.EncryptedContent)
}

// reasoningData builds the stored item from a reasoning item's fields.
func reasoningData(summary, content json.RawMessage, encrypted string) (json.RawMessage, bool) {
	if encrypted == "" {
		return nil, false
	}
	out := reasoningItem{Type: "reasoning", Summary: summary, EncryptedContent: encrypted}
	if len(out.Summary) == 0 || out.Summary[0] != '[' {
		out.Summary = json.RawMessage("[]")
	}
	// Raw reasoning text (reasoning_text parts) is kept when present, as
	// Codex does; null or [] is dropped.
	if len(content) > 0 && content[0] == '[' && string(content) != "[]" {
		out.Content = content
	}
	b, err := marshal(out)
	if err != nil {
		return nil, false
	}
	return b, true
}
