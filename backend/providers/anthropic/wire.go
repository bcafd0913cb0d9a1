package anthropic

import "encoding/json"

// Wire shapes of the stream events (docs/providers/anthropic.md, "Endpoints
// and headers"). One wireEvent is
// decoded per SSE event. The hot fields (index, delta, content_block) are
// values rather than pointers, to keep allocations per event low; an
// absent index decodes as noIndex, an absent delta or block as an empty
// type. Rare fields stay pointers so absence can be told from zero.
type wireEvent struct {
	Type         tag          `json:"type"`
	Index        int          `json:"index"`
	Message      *wireMessage `json:"message"`
	ContentBlock wireBlock    `json:"content_block"`
	Delta        wireDelta    `json:"delta"`
	Usage        *wireUsage   `json:"usage"`
	Error        *wireError   `json:"error"`
}

// noIndex marks an event without an index.
const noIndex = -1

// tag is an event, block or delta type. Decoding interns the known names,
// so the common events allocate no string for their type.
type tag string

var knownTags = func() map[string]tag {
	m := map[string]tag{}
	for _, s := range []string{"ping", "error", "message_start", "message_delta", "message_stop",
		"content_block_start", "content_block_delta", "content_block_stop",
		"text", "thinking", "redacted_thinking", "tool_use",
		"text_delta", "thinking_delta", "signature_delta", "input_json_delta"} {
		m[s] = tag(s)
	}
	return m
}()

func (t *tag) UnmarshalJSON(b []byte) error {
	if len(b) >= 2 && b[0] == '"' {
		if known, ok := knownTags[string(b[1:len(b)-1])]; ok {
			*t = known
			return nil
		}
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*t = tag(s)
	return nil
}

type wireMessage struct {
	ID    string     `json:"id"`
	Usage *wireUsage `json:"usage"`
}

type wireBlock struct {
	Type      tag             `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	Signature string          `json:"signature"`
	Data      string          `json:"data"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
}

type wireDelta struct {
	Type        tag     `json:"type"`
	Text        string  `json:"text"`
	Thinking    string  `json:"thinking"`
	Signature   string  `json:"signature"`
	PartialJSON string  `json:"partial_json"`
	StopReason  *string `json:"stop_reason"`
}

type wireUsage struct {
	InputTokens              *int64 `json:"input_tokens"`
	OutputTokens             *int64 `json:"output_tokens"`
	CacheReadInputTokens     *int64 `json:"cache_read_input_tokens"`
	CacheCreationInputTokens *int64 `json:"cache_creation_input_tokens"`
}

type wireError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}
