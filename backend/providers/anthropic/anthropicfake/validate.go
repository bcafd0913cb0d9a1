package anthropicfake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"maestro/backend/providers/fakescript"
)

// Patterns the real service validates against.
var (
	toolNamePattern = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	toolIDPattern   = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)
)

const thinkingDocs = "https://docs.claude.com/en/docs/build-with-claude/extended-thinking"

// wireRequest is the body as the fake reads it: loosely, so that missing
// fields can be reported the way the real service reports them.
type wireRequest struct {
	Model       *string         `json:"model"`
	MaxTokens   *int            `json:"max_tokens"`
	System      json.RawMessage `json:"system"`
	Messages    []wireMessage   `json:"messages"`
	Tools       []wireTool      `json:"tools"`
	Thinking    *wireThinking   `json:"thinking"`
	Temperature *float64        `json:"temperature"`
	Stream      bool            `json:"stream"`

	oauth bool
	model servedModel
	// inputTokens is the prompt's size as the fake counts it.
	inputTokens int
}

type wireMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	blocks  []wireBlock
}

type wireTool struct {
	Name         string          `json:"name"`
	InputSchema  json.RawMessage `json:"input_schema"`
	CacheControl json.RawMessage `json:"cache_control"`
}

type wireThinking struct {
	Type         string `json:"type"`
	BudgetTokens *int   `json:"budget_tokens"`
}

type wireBlock struct {
	Type      string          `json:"type"`
	Text      *string         `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Thinking  *string         `json:"thinking"`
	Signature string          `json:"signature"`
	Data      string          `json:"data"`
	// Content is a tool_result's content: a string or blocks.
	Content json.RawMessage `json:"content"`
	// Source is an image's or a document's.
	Source       *wireSource     `json:"source"`
	CacheControl json.RawMessage `json:"cache_control"`
}

func invalid(rule, format string, args ...any) *rejection {
	return &rejection{status: http.StatusBadRequest, errType: "invalid_request_error", message: fmt.Sprintf(format, args...), rule: rule}
}

// check applies the service's rules in the order it applies them: auth,
// headers, the model, then the body; the subscription gate last.
func (s *Server) check(r *http.Request, body []byte) (*wireRequest, *rejection) {
	if rej := s.checkAuth(r); rej != nil {
		return nil, rej
	}
	req := &wireRequest{oauth: r.Header.Get("x-api-key") == ""}
	if r.Header.Get("anthropic-version") == "" {
		return nil, invalid("header: anthropic-version", MsgNoVersion)
	}
	if len(body) > maxBody {
		return nil, &rejection{http.StatusRequestEntityTooLarge, "request_too_large", "Request exceeds the maximum allowed number of bytes.", "body: too large"}
	}
	if err := json.Unmarshal(body, req); err != nil {
		return nil, invalid("body: json", "There was an error parsing the body of your request: %v", err)
	}
	if rej := req.checkFields(); rej != nil {
		return nil, rej
	}
	if rej := s.checkModel(req); rej != nil {
		return nil, rej
	}
	if req.oauth && !req.claudeCodeSystem() {
		return nil, invalid("oauth: system[0] is not the Claude Code line", MsgClaudeCodeOnly)
	}
	for _, check := range []func() *rejection{req.checkTools, req.checkThinkingConfig, req.checkSystem, req.checkMessages,
		req.checkPairing, req.checkFinalThinking, req.checkBreakpoints, req.checkMedia} {
		if rej := check(); rej != nil {
			return nil, rej
		}
	}
	if req.oauth {
		if rej := s.checkGate(); rej != nil {
			return nil, rej
		}
	}
	if rej := s.checkWindow(req, body); rej != nil {
		return nil, rej
	}
	return req, nil
}

// checkWindow counts the prompt (fakescript.CountJSON) and refuses it the
// way the real service does when it does not fit the model's context
// window (the Script's window when a test set one): a prompt over the
// window is "prompt is too long", and a prompt that fits but leaves less
// than max_tokens for the answer is "input length and `max_tokens` exceed
// context limit" (docs/providers/anthropic.md, "Errors"). The count is
// kept for the usage the reply reports.
func (s *Server) checkWindow(q *wireRequest, body []byte) *rejection {
	q.inputTokens = fakescript.CountJSON(body)
	window := s.Script.Window(q.model.maxInput)
	switch {
	case window <= 0:
	case q.inputTokens > window:
		return invalid("context: prompt too long", MsgPromptTooLongFormat, q.inputTokens, window)
	case q.inputTokens+*q.MaxTokens > window:
		return invalid("context: input and max_tokens over the window", MsgContextLimitFormat, q.inputTokens, *q.MaxTokens, window)
	}
	return nil
}

// checkAuth applies the credential rules shared by every endpoint: an API
// key, or an OAuth bearer with the OAuth beta (docs/providers/anthropic.md,
// "Endpoints and headers"). The URL's ?beta=true is not required: clients
// reach the real endpoint without it (pi's plain client.messages).
func (s *Server) checkAuth(r *http.Request) *rejection {
	apiKey := r.Header.Get("x-api-key")
	bearer, _ := strings.CutPrefix(r.Header.Get("authorization"), "Bearer ")
	bearer = strings.TrimSpace(bearer)
	oauth := apiKey == "" && bearer != ""
	switch {
	case apiKey == "" && bearer == "":
		return &rejection{http.StatusUnauthorized, "authentication_error", MsgNoAPIKey, "auth: no credentials"}
	case !oauth && s.apiKey != "" && apiKey != s.apiKey:
		return &rejection{http.StatusUnauthorized, "authentication_error", MsgBadAPIKey, "auth: wrong api key"}
	case oauth && s.token != "" && bearer != s.token:
		return &rejection{http.StatusUnauthorized, "authentication_error", MsgTokenExpired, "auth: expired or unknown token"}
	case oauth && !hasBeta(r.Header, BetaOAuth):
		return &rejection{http.StatusUnauthorized, "authentication_error", MsgOAuthUnsupported, "oauth: anthropic-beta lacks " + BetaOAuth}
	}
	return nil
}

// checkModel refuses a model the account is not served, and a max_tokens
// above the model's output limit, with the real messages.
func (s *Server) checkModel(q *wireRequest) *rejection {
	m, ok := s.served(*q.Model)
	if !ok {
		return &rejection{http.StatusNotFound, "not_found_error", "model: " + *q.Model, "model: not served"}
	}
	q.model = m
	switch {
	case *q.MaxTokens > m.maxTokens:
		return invalid("model: max_tokens above the output limit", "max_tokens: %d > %d, which is the maximum allowed number of output tokens for %s", *q.MaxTokens, m.maxTokens, m.id)
	case m.fixedSampling && q.Temperature != nil:
		return invalid("model: no sampling parameters", MsgTemperatureDeprecated)
	}
	return nil
}

func hasBeta(h http.Header, beta string) bool {
	for _, v := range h.Values("anthropic-beta") {
		for b := range strings.SplitSeq(v, ",") {
			if strings.TrimSpace(b) == beta {
				return true
			}
		}
	}
	return false
}

func (q *wireRequest) checkFields() *rejection {
	switch {
	case q.Model == nil || *q.Model == "":
		return invalid("body: model", "model: Field required")
	case q.MaxTokens == nil:
		return invalid("body: max_tokens", "max_tokens: Field required")
	case *q.MaxTokens < 1:
		return invalid("body: max_tokens", "max_tokens: Input should be greater than or equal to 1")
	case q.Messages == nil:
		return invalid("body: messages", "messages: Field required")
	case len(q.Messages) == 0:
		return invalid("body: messages", "messages: at least one message is required")
	case !q.Stream:
		// Not a rule of the real service: the fake only streams.
		return invalid("fake: stream", "fake: only stream:true is supported")
	}
	return nil
}

// claudeCodeSystem reports whether the first system block is exactly the
// Claude Code line.
func (q *wireRequest) claudeCodeSystem() bool {
	sys := bytes.TrimSpace(q.System)
	if len(sys) > 0 && sys[0] == '"' {
		var s string
		return json.Unmarshal(sys, &s) == nil && s == ClaudeCodeSystem
	}
	var blocks []wireBlock
	if json.Unmarshal(sys, &blocks) != nil || len(blocks) == 0 {
		return false
	}
	return blocks[0].Type == "text" && blocks[0].Text != nil && *blocks[0].Text == ClaudeCodeSystem
}

func (q *wireRequest) checkTools() *rejection {
	seen := map[string]bool{}
	for i, t := range q.Tools {
		if !toolNamePattern.MatchString(t.Name) {
			return invalid("tools: name pattern", "tools.%d.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'", i)
		}
		if seen[t.Name] {
			return invalid("tools: unique names", "tools: Tool names must be unique.")
		}
		seen[t.Name] = true
		var schema struct {
			Type string `json:"type"`
		}
		if len(t.InputSchema) == 0 {
			return invalid("tools: input_schema", "tools.%d.custom.input_schema: Field required", i)
		}
		if json.Unmarshal(t.InputSchema, &schema) != nil || schema.Type != "object" {
			return invalid("tools: input_schema type", "tools.%d.custom.input_schema.type: Input should be 'object'", i)
		}
	}
	return nil
}

// thinkingOn reports whether the request thinks: with a budget, or
// adaptively.
func (q *wireRequest) thinkingOn() bool {
	return q.Thinking != nil && (q.Thinking.Type == "enabled" || q.Thinking.Type == "adaptive")
}

func (q *wireRequest) checkThinkingConfig() *rejection {
	if !q.thinkingOn() {
		return nil
	}
	if q.Thinking.Type == "adaptive" {
		if q.Temperature != nil && *q.Temperature != 1 {
			return invalid("thinking: temperature", "`temperature` may only be set to 1 when thinking is enabled. Please consult our documentation at %s#feature-compatibility", thinkingDocs)
		}
		return nil
	}
	b := q.Thinking.BudgetTokens
	switch {
	case b == nil:
		return invalid("thinking: budget", "thinking.enabled.budget_tokens: Field required")
	case *b < 1024:
		return invalid("thinking: budget", "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024")
	case *q.MaxTokens <= *b:
		return invalid("thinking: max_tokens", "`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at %s#max-tokens-and-context-window-size", thinkingDocs)
	case q.Temperature != nil && *q.Temperature != 1:
		return invalid("thinking: temperature", "`temperature` may only be set to 1 when thinking is enabled. Please consult our documentation at %s#feature-compatibility", thinkingDocs)
	}
	return nil
}

// checkMessages validates roles, alternation and each content block.
func (q *wireRequest) checkMessages() *rejection {
	useIDs := map[string]bool{}
	for i := range q.Messages {
		m := &q.Messages[i]
		if m.Role != "user" && m.Role != "assistant" {
			return invalid("messages: role", "messages.%d.role: Input should be 'user' or 'assistant'", i)
		}
		if i > 0 && q.Messages[i-1].Role == m.Role {
			return invalid("messages: alternation", "messages: roles must alternate between \"user\" and \"assistant\", but found multiple %q roles in a row", m.Role)
		}
		blocks, ok := parseContent(m.Content)
		if !ok {
			return invalid("messages: content", "messages.%d.content: Input should be a valid list", i)
		}
		m.blocks = blocks
		if len(blocks) == 0 && (i != len(q.Messages)-1 || m.Role != "assistant") {
			return invalid("messages: empty content", "messages.%d: all messages must have non-empty content except for the optional final assistant message", i)
		}
		for k, b := range blocks {
			if rej := checkBlock(i, k, m.Role, b, useIDs); rej != nil {
				return rej
			}
		}
	}
	return nil
}

// parseContent reads a string or an array of blocks.
func parseContent(raw json.RawMessage) ([]wireBlock, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, false
		}
		if s == "" {
			return nil, true
		}
		return []wireBlock{{Type: "text", Text: &s}}, true
	}
	var blocks []wireBlock
	if json.Unmarshal(raw, &blocks) != nil {
		return nil, false
	}
	return blocks, true
}

func checkBlock(i, k int, role string, b wireBlock, useIDs map[string]bool) *rejection {
	at := fmt.Sprintf("messages.%d.content.%d", i, k)
	switch b.Type {
	case "text":
		if b.Text == nil || *b.Text == "" {
			if hasCacheControl(b.CacheControl) {
				return invalid("cache: empty text block", "%s.text: cache_control cannot be set for empty text blocks", at)
			}
			return invalid("block: empty text", "%s.text: text content blocks must be non-empty", at)
		}
	case "image", "document":
	case "tool_use":
		switch {
		case role != "assistant":
			return invalid("block: tool_use role", "%s: `tool_use` blocks can only be in `assistant` messages", at)
		case !toolIDPattern.MatchString(b.ID):
			return invalid("block: tool_use id", "%s.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'", at)
		case !toolNamePattern.MatchString(b.Name):
			return invalid("block: tool_use name", "%s.tool_use.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'", at)
		case !isObject(b.Input):
			return invalid("block: tool_use input", "%s.tool_use.input: Input should be a valid dictionary", at)
		case useIDs[b.ID]:
			return invalid("block: tool_use id unique", "%s: `tool_use` ids must be unique", at)
		}
		useIDs[b.ID] = true
	case "tool_result":
		if role != "user" {
			return invalid("block: tool_result role", "%s: `tool_result` blocks can only be in `user` messages", at)
		}
	case "thinking":
		switch {
		case hasCacheControl(b.CacheControl):
			return invalid("cache: thinking block", "%s.thinking.cache_control: Extra inputs are not permitted", at)
		case role != "assistant":
			return invalid("block: thinking role", "%s: `thinking` blocks can only be in `assistant` messages", at)
		case b.Signature == "":
			return invalid("block: thinking signature", "%s.thinking.signature: Field required", at)
		case b.Thinking == nil || Signature(*b.Thinking) != b.Signature:
			return invalid("block: thinking signature", "%s: Invalid `signature` in `thinking` block", at)
		}
	case "redacted_thinking":
		if hasCacheControl(b.CacheControl) {
			return invalid("cache: thinking block", "%s.redacted_thinking.cache_control: Extra inputs are not permitted", at)
		}
		if role != "assistant" || b.Data == "" {
			return invalid("block: redacted_thinking", "%s.redacted_thinking.data: Field required", at)
		}
	default:
		return invalid("block: type", "%s.type: Input tag '%s' found using 'type' does not match any of the expected tags", at, b.Type)
	}
	return nil
}

func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{' && json.Valid(raw)
}

// checkPairing enforces that the message after an assistant tool_use turn
// starts with a tool_result for every tool_use, and that every tool_result
// answers a tool_use of the message right before it.
func (q *wireRequest) checkPairing() *rejection {
	for i, m := range q.Messages {
		if m.Role == "user" {
			var prev []string
			if i > 0 {
				prev = toolUseIDs(q.Messages[i-1].blocks)
			}
			for k, b := range m.blocks {
				if b.Type == "tool_result" && !slices.Contains(prev, b.ToolUseID) {
					return invalid("pairing: unexpected tool_use_id", "messages.%d.content.%d: unexpected `tool_use_id` found in `tool_result` blocks: %s. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.", i, k, b.ToolUseID)
				}
			}
			continue
		}
		ids := toolUseIDs(m.blocks)
		if len(ids) == 0 {
			continue
		}
		var next []wireBlock
		if i+1 < len(q.Messages) {
			next = q.Messages[i+1].blocks
		}
		var missing []string
		for _, id := range ids {
			if !slices.ContainsFunc(next, func(b wireBlock) bool { return b.Type == "tool_result" && b.ToolUseID == id }) {
				missing = append(missing, id)
			}
		}
		if len(missing) > 0 {
			return invalid("pairing: tool_use without tool_result", "messages.%d: `tool_use` ids were found without `tool_result` blocks immediately after: %s. Each `tool_use` block must have a corresponding `tool_result` block in the next message.", i, strings.Join(missing, ", "))
		}
		lead := 0
		for lead < len(next) && next[lead].Type == "tool_result" {
			lead++
		}
		if lead < len(ids) {
			return invalid("pairing: tool_result first", "messages.%d: Did not find %d `tool_result` block(s) at the beginning of this message. Messages following `tool_use` blocks must begin with a matching number of `tool_result` blocks.", i+1, len(ids)-lead)
		}
	}
	return nil
}

func toolUseIDs(blocks []wireBlock) []string {
	var ids []string
	for _, b := range blocks {
		if b.Type == "tool_use" {
			ids = append(ids, b.ID)
		}
	}
	return ids
}

// checkFinalThinking enforces the thinking rules about the last turn.
func (q *wireRequest) checkFinalThinking() *rejection {
	n := len(q.Messages)
	last := q.Messages[n-1]
	if !q.thinkingOn() {
		if last.Role == "assistant" {
			for k, b := range last.blocks {
				if b.Type == "thinking" || b.Type == "redacted_thinking" {
					return invalid("thinking: final assistant", "messages.%d.content.%d: When thinking is disabled, an `assistant` message in the final position cannot contain `thinking`. To use thinking blocks, enable `thinking` in your request.", n-1, k)
				}
			}
		}
		return nil
	}
	if n < 2 || last.Role != "user" || len(last.blocks) == 0 || last.blocks[0].Type != "tool_result" {
		return nil
	}
	prev := q.Messages[n-2].blocks
	if len(prev) > 0 && (prev[0].Type == "thinking" || prev[0].Type == "redacted_thinking") {
		return nil
	}
	found := "nothing"
	if len(prev) > 0 {
		found = "`" + prev[0].Type + "`"
	}
	return invalid("thinking: final assistant must start with thinking", "messages.%d.content.0.type: Expected `thinking` or `redacted_thinking`, but found %s. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at %s", n-2, found, thinkingDocs)
}
