package openai

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"maestro/backend/chat"
	"maestro/backend/providers"
)

// MaxTools is OpenAI's function budget: more than 128 tools is a 400
// array_above_max_length, so toRequest sends the first 128 and warns.
const MaxTools = 128

// request is the Responses body (docs/providers/openai.md §Request rules).
// The fields are in the order they are written: everything that stays the
// same for the steps of a turn first and input last, so consecutive
// requests share a byte-identical prefix for the service's prompt cache
// (§Caching).
type request struct {
	Model             string           `json:"model"`
	Instructions      string           `json:"instructions"`
	Tools             []tool           `json:"tools"`
	ToolChoice        string           `json:"tool_choice"`
	ParallelToolCalls bool             `json:"parallel_tool_calls"`
	Reasoning         *reasoningConfig `json:"reasoning,omitempty"`
	Store             bool             `json:"store"`
	Stream            bool             `json:"stream"`
	Include           []string         `json:"include,omitempty"`
	PromptCacheKey    string           `json:"prompt_cache_key,omitempty"`
	// API-key mode only (apiOnly); the ChatGPT backend rejects both.
	MaxOutputTokens int      `json:"max_output_tokens,omitempty"`
	Temperature     *float64 `json:"temperature,omitempty"`
	Input           []any    `json:"input"`
}

type reasoningConfig struct {
	Effort  string `json:"effort"`
	Summary string `json:"summary"`
}

type tool struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Strict      bool            `json:"strict"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Input items (docs/providers/openai.md §Input items). Item ids are never sent: under store:false the server
// answers 404 "Item with id … not found" for any id.
type message struct {
	Type    string        `json:"type"`
	Role    string        `json:"role"`
	Content []contentPart `json:"content"`
}

type contentPart struct {
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	ImageURL string `json:"image_url,omitempty"`
	Filename string `json:"filename,omitempty"`
	FileData string `json:"file_data,omitempty"`
	FileURL  string `json:"file_url,omitempty"`
}

type functionCall struct {
	Type      string `json:"type"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	CallID    string `json:"call_id"`
}

type functionCallOutput struct {
	Type   string `json:"type"`
	CallID string `json:"call_id"`
	// Output is the envelope text, or []contentPart when the result has
	// images.
	Output any `json:"output"`
}

// emptySchema stands in for a tool without an input schema.
const emptySchema = `{"type":"object","properties":{}}`

// toRequest renders req for the Responses API. It is pure: the same request
// always gives the same body. Warnings name what was dropped or changed.
func toRequest(req chat.Request) (request, []string) {
	r := renderer{req: req}
	info := modelInfo(req)
	body := request{
		Model:        req.Model,
		Instructions: strings.TrimSpace(req.System),
		Tools:        r.tools(),
		ToolChoice:   "auto",
		// A per-model constant, as Codex sends it: a value that changed
		// between the steps of a turn would break the cached prefix.
		ParallelToolCalls: !info.NoParallelToolCalls,
		Store:             false,
		Stream:            true,
		PromptCacheKey:    req.SessionID,
		Input:             r.input(),
	}
	if body.Instructions == "" {
		body.Instructions = DefaultInstructions
	}
	body.Reasoning = r.reasoning(info)
	if body.Reasoning != nil {
		// Under store:false the reasoning of one step reaches the next
		// only as encrypted_content, which must be asked for.
		body.Include = []string{"reasoning.encrypted_content"}
	}
	return body, r.warns
}

// reasoning is the reasoning config for a reasoning model, sent whether or
// not the caller asked for thinking: the effort asked for, else the
// model's default, else medium, moved to the nearest effort the model
// offers. Other models get none: they reject reasoning.effort.
func (r *renderer) reasoning(info chat.ModelInfo) *reasoningConfig {
	asked := ""
	if r.req.Reasoning != nil {
		asked = r.req.Reasoning.Effort
	}
	if !info.Reasoning {
		if asked != "" {
			r.warnf("reasoning effort not sent: %s is not a reasoning model", r.req.Model)
		}
		return nil
	}
	effort := cmp.Or(asked, info.DefaultEffort, "medium")
	if near := nearestEffort(effort, info.Efforts); near != effort {
		r.warnf("reasoning effort %q is not offered by %s; sent %q", effort, r.req.Model, near)
		effort = near
	}
	return &reasoningConfig{Effort: effort, Summary: "auto"}
}

// effortRank orders the efforts OpenAI's models take, least first.
var effortRank = map[string]int{"none": 0, "minimal": 1, "low": 2, "medium": 3, "high": 4, "xhigh": 5, "max": 6, "ultra": 7}

// nearestEffort is effort if offered (or nothing is known), else the
// offered effort closest to it, the lower one on a tie (Codex's
// nearest_effort does the same).
func nearestEffort(effort string, offered []string) string {
	if len(offered) == 0 || slices.Contains(offered, effort) {
		return effort
	}
	want, ok := effortRank[effort]
	if !ok {
		want = effortRank["medium"]
	}
	best, bestDist := offered[0], -1
	for _, o := range offered {
		rank, ok := effortRank[o]
		if !ok {
			continue
		}
		d := rank - want
		if d < 0 {
			d = -d
		}
		if bestDist < 0 || d < bestDist {
			best, bestDist = o, d
		}
	}
	return best
}

type renderer struct {
	req   chat.Request
	warns []string
	// answered holds canonical call ids that have a result in the history.
	answered map[string]bool
	// callIDs maps canonical call ids to the call_id rendered for them.
	callIDs map[string]string
	// outputs holds call_ids whose output is already rendered.
	outputs map[string]bool
}

func (r *renderer) warnf(format string, args ...any) {
	r.warns = append(r.warns, fmt.Sprintf(format, args...))
}

func (r *renderer) tools() []tool {
	out := make([]tool, 0, min(len(r.req.Tools), MaxTools))
	seen := make(map[string]bool, cap(out))
	over := 0
	for _, t := range r.req.Tools {
		switch {
		case !validToolName(t.Name):
			r.warnf("tool %q dropped: name must match ^[a-zA-Z0-9_-]{1,64}$", t.Name)
			continue
		case seen[t.Name]:
			r.warnf("tool %q dropped: duplicate name", t.Name)
			continue
		case len(out) == MaxTools:
			over++
			continue
		}
		seen[t.Name] = true
		params := t.InputSchema
		if len(params) == 0 || string(params) == "null" {
			params = json.RawMessage(emptySchema)
		} else if !json.Valid(params) {
			r.warnf("tool %q: invalid input schema replaced by an empty object schema", t.Name)
			params = json.RawMessage(emptySchema)
		}
		out = append(out, tool{Type: "function", Name: t.Name, Description: t.Description, Parameters: params})
	}
	if over > 0 {
		r.warnf("%d tools over openai's limit of %d were not sent", over, MaxTools)
	}
	return out
}

// validToolName reports whether name matches ^[a-zA-Z0-9_-]{1,64}$
// (docs/providers/openai.md §Request rules).
func validToolName(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// toolName is the exposed name for a canonical name, made valid if the
// registry's exposed name is not.
func (r *renderer) toolName(canonical string) string {
	if n := providers.ToolName(r.req, canonical); validToolName(n) {
		return n
	}
	return providers.FallbackToolName(canonical)
}

func (r *renderer) input() []any {
	r.answered = make(map[string]bool)
	r.callIDs = make(map[string]string)
	r.outputs = make(map[string]bool)
	for _, m := range r.req.Messages {
		for _, p := range m.Parts {
			if tr, ok := p.(chat.ToolResultPart); ok {
				r.answered[tr.Result.CallID] = true
			}
		}
	}
	items := make([]any, 0, len(r.req.Messages)+4)
	for i, m := range r.req.Messages {
		switch m.Role {
		case chat.RoleUser, chat.RoleTool:
			items = r.user(items, m)
		case chat.RoleAssistant:
			items = r.assistant(items, m)
		default:
			r.warnf("message %d dropped: unknown role %q", i, m.Role)
		}
	}
	return items
}

// user renders a user or tool message: text and files as one user message,
// tool results as function_call_output items, in order.
func (r *renderer) user(items []any, m chat.Message) []any {
	var content []contentPart
	flush := func() {
		if len(content) > 0 {
			items = append(items, message{Type: "message", Role: "user", Content: content})
			content = nil
		}
	}
	for _, p := range m.Parts {
		switch p := p.(type) {
		case chat.TextPart:
			if p.Text != "" {
				content = append(content, contentPart{Type: "input_text", Text: p.Text})
			}
		case chat.FilePart:
			if c, ok := r.file(p); ok {
				content = append(content, c)
			}
		case chat.ResourcePart:
			content = append(content, r.resource(p)...)
		case chat.ToolResultPart:
			flush()
			items = r.result(items, p.Result)
		default:
			r.warnf("%s part in a %s message dropped", p.PartType(), m.Role)
		}
	}
	flush()
	return items
}

// assistant renders text, replayable reasoning and tool calls in order. A
// reasoning item is sent only when an output item follows it in the same
// message: a turn cut off after thinking leaves one that carries nothing
// the model can use, and the API pairs reasoning with its following item
// ([unconfirmed] whether it rejects a trailing one without ids). A call
// with no result anywhere in the history gets a synthetic error output
// right after the message: the API rejects a function_call without one.
func (r *renderer) assistant(items []any, m chat.Message) []any {
	var content []contentPart
	var reasoning []any
	var pending []string
	flush := func() {
		if len(content) > 0 {
			items = append(items, reasoning...)
			items = append(items, message{Type: "message", Role: "assistant", Content: content})
			content, reasoning = nil, nil
		}
	}
	for _, p := range m.Parts {
		switch p := p.(type) {
		case chat.TextPart:
			if p.Text != "" {
				content = append(content, contentPart{Type: "output_text", Text: p.Text})
			}
		case chat.ReasoningPart:
			// Only our own encrypted items are replayed. Reasoning from
			// another provider (or without state) is dropped rather than
			// sent as text: as assistant text the model would take it for
			// something it said, and there is no input item for foreign
			// thinking.
			raw, ok := p.ProviderData[chat.ProviderOpenAI]
			if !ok {
				continue
			}
			item, ok := normalizeReasoning(raw)
			if !ok {
				r.warnf("openai reasoning part without encrypted_content dropped")
				continue
			}
			flush()
			reasoning = append(reasoning, item)
		case chat.ToolCallPart:
			flush()
			items = append(items, reasoning...)
			reasoning = nil
			id := providers.CallID(chat.ProviderOpenAI, p.Call)
			r.callIDs[p.Call.ID] = id
			items = append(items, functionCall{Type: "function_call", Name: r.toolName(p.Call.Name),
				Arguments: r.arguments(p.Call), CallID: id})
			if !r.answered[p.Call.ID] {
				pending = append(pending, id)
			}
		default:
			r.warnf("%s part in an assistant message dropped", p.PartType())
		}
	}
	flush()
	if len(reasoning) > 0 {
		r.warnf("%d trailing openai reasoning items dropped", len(reasoning))
	}
	for _, id := range pending {
		r.warnf("tool call %s has no result; sent as interrupted", id)
		r.outputs[id] = true
		items = append(items, functionCallOutput{Type: "function_call_output", CallID: id,
			Output: r.envelope(chat.ToolResult{Error: "the tool call was interrupted before it returned a result"})})
	}
	return items
}

// arguments is the call's JSON arguments as compact text ("{}" when none);
// invalid arguments the model sent are replayed wrapped as
// {"INVALID_JSON": "…"} (chat.ToolCall.ReplayArguments).
func (r *renderer) arguments(c chat.ToolCall) string {
	args := c.ReplayArguments()
	if len(args) == 0 || string(args) == "null" {
		return "{}"
	}
	b, err := marshal(args)
	if err != nil {
		r.warnf("tool call %s: arguments are not valid JSON; sent as is", c.ID)
		return string(args)
	}
	return string(b)
}

func (r *renderer) result(items []any, res chat.ToolResult) []any {
	id, ok := r.callIDs[res.CallID]
	switch {
	case !ok:
		r.warnf("tool result for unknown call %s dropped", res.CallID)
		return items
	case r.outputs[id]:
		r.warnf("duplicate tool result for call %s dropped", res.CallID)
		return items
	}
	r.outputs[id] = true
	env := r.envelope(res)
	var output any = env
	if parts := r.attachments(res.Attachments); len(parts) > 0 {
		output = append([]contentPart{{Type: "input_text", Text: env}}, parts...)
	}
	return append(items, functionCallOutput{Type: "function_call_output", CallID: id, Output: output})
}

// envelope is the result as {"successful":…,"data":…,"error":…} text. The
// Responses API has no error flag on outputs; successful:false says it.
func (r *renderer) envelope(res chat.ToolResult) string {
	type env struct {
		Successful bool            `json:"successful"`
		Data       json.RawMessage `json:"data,omitempty"`
		Error      string          `json:"error,omitempty"`
	}
	e := env{Successful: res.Successful, Data: res.Data, Error: res.Error}
	if string(e.Data) == "null" {
		e.Data = nil
	}
	b, err := marshal(e)
	if err != nil {
		r.warnf("tool result %s: data is not valid JSON; sent as a string", res.CallID)
		e.Data, _ = marshal(string(res.Data))
		b, _ = marshal(e)
	}
	return string(b)
}

func dataURL(mime, b64 string) string { return "data:" + mime + ";base64," + b64 }
