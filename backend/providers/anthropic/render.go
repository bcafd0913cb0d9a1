package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"

	"maestro/backend/chat"
	"maestro/backend/providers"
)

// request is the Messages API body. Its fields are written in this order,
// what stays the same for a whole session first and messages last, so that
// consecutive requests of a turn share a byte-identical prefix
// (docs/providers/anthropic.md, "Caching").
type request struct {
	Model        string          `json:"model"`
	MaxTokens    int             `json:"max_tokens"`
	Stream       bool            `json:"stream"`
	Thinking     *thinkingConfig `json:"thinking,omitempty"`
	OutputConfig *outputConfig   `json:"output_config,omitempty"`
	Temperature  *float64        `json:"temperature,omitempty"`
	// System is a list of text blocks in both modes, so its last block can
	// carry a cache breakpoint.
	System []textBlock `json:"system,omitempty"`
	// Tools and Messages are written by encodeBody itself, after the other
	// fields: tool schemas are validated and compacted once, here, and
	// copied as they are rather than scanned again by encoding/json.
	Tools    []tool    `json:"-"`
	Messages []message `json:"-"`
}

type message struct {
	Role    string `json:"role"`
	Content []any  `json:"content"`
}

type tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema"`
	// cache marks the last tool as a cache breakpoint.
	cache bool
}

// thinkingConfig is {"type":"enabled","budget_tokens":N} or
// {"type":"adaptive"}.
type thinkingConfig struct {
	Type         string `json:"type"`
	BudgetTokens int    `json:"budget_tokens,omitempty"`
}

type outputConfig struct {
	Effort string `json:"effort"`
}

// cacheControl marks a block as a prompt-cache breakpoint.
type cacheControl struct {
	Type string `json:"type"`
}

// ephemeral is the only cache_control the API accepts. It is shared and
// never modified.
var ephemeral = &cacheControl{Type: "ephemeral"}

// Content blocks. Each has its type fixed by its constructor in history.go.
// Those that may carry a cache breakpoint have a Cache field.
type textBlock struct {
	Type  string        `json:"type"`
	Text  string        `json:"text"`
	Cache *cacheControl `json:"cache_control,omitempty"`
}

type mediaSource struct {
	Type      string `json:"type"` // base64 or url
	MediaType string `json:"media_type,omitempty"`
	Data      string `json:"data,omitempty"`
	URL       string `json:"url,omitempty"`
}

type mediaBlock struct {
	Type   string      `json:"type"` // image or document
	Source mediaSource `json:"source"`
	// Title names a document (a text file's name).
	Title string        `json:"title,omitempty"`
	Cache *cacheControl `json:"cache_control,omitempty"`
}

type toolUseBlock struct {
	Type  string          `json:"type"`
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

type toolResultBlock struct {
	Type      string `json:"type"`
	ToolUseID string `json:"tool_use_id"`
	// Content is the envelope text, or []any of a text block followed by
	// image blocks when the result has images.
	Content any           `json:"content"`
	IsError bool          `json:"is_error"`
	Cache   *cacheControl `json:"cache_control,omitempty"`
}

type thinkingBlock struct {
	Type      string `json:"type"`
	Thinking  string `json:"thinking"`
	Signature string `json:"signature"`
}

type redactedThinkingBlock struct {
	Type string `json:"type"`
	Data string `json:"data"`
}

// thinkingState is what ReasoningDone carries under ProviderData["anthropic"]:
// enough to replay the block byte for byte.
type thinkingState struct {
	// Type is "redacted_thinking" for a redacted block, else empty.
	Type      string  `json:"type,omitempty"`
	Signature string  `json:"signature,omitempty"`
	Thinking  *string `json:"thinking,omitempty"`
	Data      string  `json:"data,omitempty"`
}

// renderOptions are the Model settings rendering depends on.
type renderOptions struct {
	oauth bool
	// schemas caches compacted tool schemas (those that were not compact
	// already) across requests; nil disables it. It never changes what is
	// rendered.
	schemas *schemaCache
}

// toRequest renders req as a Messages API body for the mode in o (OAuth or
// API key; the schema cache only saves work). It is pure: the same input
// gives the same body. Warnings describe every lossy decision.
func toRequest(req chat.Request, o renderOptions) (*request, []string) {
	r := &renderer{opts: o, req: req}
	body := &request{Model: req.Model, Stream: true}
	body.System = r.system()
	body.Tools = r.tools()
	body.Messages = r.messages()
	r.plan(body, modelInfo(req))
	if body.Thinking == nil {
		body.Messages = stripFinalThinking(body.Messages)
	}
	if body.Messages == nil {
		body.Messages = []message{}
	}
	r.temperature(body)
	markBreakpoints(body)
	return body, r.warnings
}

// renderer carries the state of one toRequest call.
type renderer struct {
	opts     renderOptions
	req      chat.Request
	warnings []string
}

func (r *renderer) warn(s string) { r.warnings = append(r.warnings, s) }

// system is the system prompt as text blocks: in OAuth mode the Claude Code
// line first (the endpoint requires it), then the session's prompt.
func (r *renderer) system() []textBlock {
	if !r.opts.oauth {
		if r.req.System == "" {
			return nil
		}
		return []textBlock{{Type: "text", Text: r.req.System}}
	}
	blocks := []textBlock{{Type: "text", Text: ClaudeCodeSystem}}
	if r.req.System != "" {
		blocks = append(blocks, textBlock{Type: "text", Text: r.req.System})
	}
	return blocks
}

var emptySchema = json.RawMessage(`{"type":"object","properties":{}}`)

func (r *renderer) tools() []tool {
	if len(r.req.Tools) == 0 {
		return nil
	}
	out := make([]tool, 0, len(r.req.Tools))
	var buf []byte // compacted schemas of this request, when not cached
	for _, t := range r.req.Tools {
		schema, ok := r.schema(t.InputSchema, &buf)
		if !ok {
			r.warn(fmt.Sprintf("tool %s: input schema is not a JSON object, replaced by an empty object schema", t.Name))
		}
		out = append(out, tool{Name: t.Name, Description: t.Description, InputSchema: schema})
	}
	return out
}

// schema returns the compacted input schema, or the empty object schema
// when there is none (ok) or it is not a JSON object (!ok). Validating is
// most of the cost of a request with many tools. Schemas from the registry
// are already compact: providers.IsCompactJSON confirms that about as fast as a cache
// lookup, without filling the cache on a Model's first request, and they
// are used as they are. Any other schema is compacted by encoding/json and
// the result kept in the Model's cache.
func (r *renderer) schema(raw json.RawMessage, buf *[]byte) (json.RawMessage, bool) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return emptySchema, true
	}
	if trimmed[0] == '{' && providers.IsCompactJSON(trimmed, false) {
		return trimmed[:len(trimmed):len(trimmed)], true
	}
	cache := r.opts.schemas
	if v, ok := cache.get(trimmed); ok {
		if v == nil { // known not to be an object
			return emptySchema, false
		}
		return v, true
	}
	if *buf == nil {
		size := 0
		for _, t := range r.req.Tools {
			size += len(t.InputSchema)
		}
		// Compacting never grows a document: one allocation holds them all
		// and slices into it stay valid.
		*buf = make([]byte, 0, size)
	}
	b := bytes.NewBuffer((*buf)[len(*buf):])
	if err := json.Compact(b, trimmed); err != nil || trimmed[0] != '{' {
		cache.put(trimmed, nil)
		return emptySchema, false
	}
	start := len(*buf)
	if start+b.Len() > cap(*buf) { // cannot happen: compacting never grows
		return json.RawMessage(b.Bytes()), true
	}
	*buf = (*buf)[:start+b.Len()]
	v := json.RawMessage((*buf)[start:len(*buf):len(*buf)])
	cache.put(trimmed, v)
	return v, true
}
