package chat

import (
	"encoding/json"
	"time"
)

// Role says who wrote a message.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	// RoleTool messages carry the results of the previous assistant
	// message's tool calls.
	RoleTool Role = "tool"
	// RoleSummary marks a summary node: the text a model wrote about the
	// older part of the branch, which stands in for that part in requests
	// (Message.Summary says which part). It is never sent as a message of
	// its own, and the messages it stands for stay stored and shown.
	RoleSummary Role = "summary"
)

// Status records how far a message got. Every intermediate message of a turn
// is persisted, so a killed or stopped turn leaves its partial state visible.
type Status string

const (
	StatusComplete Status = "complete"
	// StatusStreaming marks a checkpoint of an assistant message that is
	// still being received (at most a second behind the stream).
	StatusStreaming Status = "streaming"
	StatusCanceled  Status = "canceled"
	StatusFailed    Status = "failed"
)

// Message is one entry of a session's history: a role and ordered parts.
type Message struct {
	// Seq orders messages inside a session; the store assigns it.
	Seq uint64 `json:"seq"`
	// Parent is the Seq of the message before this one on its branch (0
	// for the first message). Messages form a tree: editing a message
	// adds a sibling with the same Parent and keeps the old continuation.
	// The store assigns it.
	Parent uint64 `json:"parent,omitempty"`
	ID     string `json:"id"`
	Role   Role   `json:"role"`
	// Parts are kept in the order they were produced.
	Parts Parts `json:"parts"`

	// Provider and Model name who produced an assistant message.
	Provider string `json:"provider,omitempty"`
	Model    string `json:"model,omitempty"`
	// RunID ties the message to the agent run that wrote it.
	RunID  string `json:"runId,omitempty"`
	Status Status `json:"status,omitempty"`
	// Error is the failure shown for a failed turn, in plain words.
	Error string `json:"error,omitempty"`
	// Failure classifies Error, so the failure reads the same after a
	// restart as when it happened. Nil on messages stored before it
	// existed, and on turns that did not fail.
	Failure *Failure `json:"failure,omitempty"`
	// Usage is what the provider reported for the request that produced
	// this message (assistant messages; summary nodes add up the requests
	// that wrote them).
	Usage *Usage `json:"usage,omitempty"`
	// Tokens estimates how many tokens this message adds to a request
	// (EstimateTokens), set when the agent stores it, so a session's context
	// can be sized without reading every message again. 0 on messages
	// stored before it existed; readers estimate those themselves.
	Tokens int64 `json:"tokens,omitempty"`
	// Summary is set on a summary node (RoleSummary).
	Summary *Summary `json:"summary,omitempty"`

	CreatedAt time.Time `json:"createdAt"`
}

// Failure is why a turn failed, as classified when it happened.
type Failure struct {
	// Kind is the chat kind (Kind(err)), or "interrupted" for a reply the
	// app's exit cut short.
	Kind string `json:"kind"`
	// Provider, Reason and Code are set when a provider refused the
	// request: which one, what to do about it (the provider error kind:
	// rate_limit, entitlement, model_unavailable…) and its own code.
	Provider string `json:"provider,omitempty"`
	Reason   string `json:"reason,omitempty"`
	Code     string `json:"code,omitempty"`
	// Detail is the provider's own message.
	Detail string `json:"detail,omitempty"`
	// RetryAt is when a limit that ended the turn resets.
	RetryAt time.Time `json:"retryAt,omitzero"`
}

// KindInterrupted marks a reply that stopped because Maestro exited.
const KindInterrupted = "interrupted"

// Text joins the message's text parts.
func (m Message) Text() string {
	var s string
	for _, p := range m.Parts {
		if t, ok := p.(TextPart); ok {
			s += t.Text
		}
	}
	return s
}

// ToolCalls returns the message's tool calls in order.
func (m Message) ToolCalls() []ToolCall {
	var calls []ToolCall
	for _, p := range m.Parts {
		if c, ok := p.(ToolCallPart); ok {
			calls = append(calls, c.Call)
		}
	}
	return calls
}

// Summary describes a summary node: which part of its branch it stands
// for in requests, and why it was made.
type Summary struct {
	// Through is the Seq of the last message it stands for: every message
	// of the branch from the first one up to Through (an earlier summary
	// and what that stood for included) is replaced by the summary's text
	// in requests. Messages after Through on the branch are sent as they
	// are.
	Through uint64 `json:"through"`
	// Messages counts the messages of the branch up to Through.
	Messages int `json:"messages"`
	// Replaced estimates the tokens of what it stands for, as the requests
	// carried them before; the summary's own size is its message's Tokens.
	Replaced int64 `json:"replaced,omitempty"`
	// Reason says what started it: SummaryThreshold, SummaryManual or
	// SummaryTooLong.
	Reason string `json:"reason"`
	// Window, when set, is the context window of the node's Provider and
	// Model as a refusal showed it: the provider refused a request of this
	// session as too long, and Window is the window it gave scaled to
	// Maestro's estimate of that request (estimate units, the ones
	// budgets are checked in). Later summaries made with the same model
	// carry it on, so later requests stay under it.
	Window int64 `json:"window,omitempty"`
}

// Why a summary was made.
const (
	// SummaryThreshold: the context passed the compaction threshold.
	SummaryThreshold = "threshold"
	// SummaryManual: the user asked ("Compact now").
	SummaryManual = "manual"
	// SummaryTooLong: the provider refused a request as too long.
	SummaryTooLong = "too_long"
)

// Usage counts tokens for one model response, the same way for every
// provider (each adapter maps its own fields onto these):
//
//   - InputTokens is every token of the request's prompt, those read from
//     or written to the provider's prompt cache included: the context the
//     request took. CacheReadTokens and CacheWriteTokens are parts of it.
//   - OutputTokens is every token the response generated, thinking
//     included; ReasoningTokens is the thinking part of it.
type Usage struct {
	InputTokens      int64 `json:"inputTokens,omitempty"`
	OutputTokens     int64 `json:"outputTokens,omitempty"`
	ReasoningTokens  int64 `json:"reasoningTokens,omitempty"`
	CacheReadTokens  int64 `json:"cacheReadTokens,omitempty"`
	CacheWriteTokens int64 `json:"cacheWriteTokens,omitempty"`
}

// IsZero reports whether nothing was counted.
func (u Usage) IsZero() bool { return u == Usage{} }

// Add accumulates u2 into u.
func (u *Usage) Add(u2 Usage) {
	u.InputTokens += u2.InputTokens
	u.OutputTokens += u2.OutputTokens
	u.ReasoningTokens += u2.ReasoningTokens
	u.CacheReadTokens += u2.CacheReadTokens
	u.CacheWriteTokens += u2.CacheWriteTokens
}

// Sub takes u2 out of u (a message's usage replaced by a later write).
func (u *Usage) Sub(u2 Usage) {
	u.InputTokens -= u2.InputTokens
	u.OutputTokens -= u2.OutputTokens
	u.ReasoningTokens -= u2.ReasoningTokens
	u.CacheReadTokens -= u2.CacheReadTokens
	u.CacheWriteTokens -= u2.CacheWriteTokens
}

// ProviderData holds opaque provider state keyed by provider name
// ("gemini", "anthropic", "openai"). It is replayed only to that provider.
type ProviderData map[string]json.RawMessage

// ToolCall is one call the model asked for.
type ToolCall struct {
	// ID is minted by Maestro and stable forever.
	ID string `json:"id"`
	// Name is the canonical tool name, server.tool.
	Name string `json:"name"`
	// Arguments is the JSON object the model produced.
	Arguments json.RawMessage `json:"arguments,omitempty"`
	// InvalidArguments is set when what the model produced was not a JSON
	// object (ToolCallDone.RawArguments): the text as it came, with
	// Arguments "{}". Such a call is never run; its result says why.
	InvalidArguments string `json:"invalidArguments,omitempty"`
	// ProviderIDs maps provider → the id that provider gave the call
	// (toolu_…, call_…, or a Gemini id). A provider that gave none is absent.
	ProviderIDs  map[string]string `json:"providerIds,omitempty"`
	ProviderData ProviderData      `json:"providerData,omitempty"`
}

// InvalidArgumentsKey names the member under which ReplayArguments puts a
// call's invalid arguments text.
const InvalidArgumentsKey = "INVALID_JSON"

// ReplayArguments is the JSON object to send back to a model for this call
// in history: Arguments, or, for a call whose arguments were not a JSON
// object, {"INVALID_JSON": "<the text>"}. Every provider takes that (a
// tool_use input and a functionCall args must be objects, and OpenAI's
// arguments string is best kept JSON), and the model sees what it sent
// next to the error result (docs/providers/anthropic.md §Broken tool-call
// arguments).
func (c ToolCall) ReplayArguments() json.RawMessage {
	if c.InvalidArguments == "" {
		return c.Arguments
	}
	b, _ := json.Marshal(map[string]string{InvalidArgumentsKey: c.InvalidArguments}) // a string map: cannot fail
	return b
}

// Attachment types.
const (
	AttachmentImage = "image"
	AttachmentAudio = "audio"
	// AttachmentResource is an embedded resource: its Text, or its bytes
	// in Data.
	AttachmentResource = "resource"
	// AttachmentResourceLink is a link to a resource the server serves
	// (resources/read fetches it on demand); Text is its description.
	AttachmentResourceLink = "resource_link"
)

// Attachment is a non-text item of a tool result or a message: an image,
// audio, or an embedded or linked resource.
type Attachment struct {
	Type     string `json:"type"` // one of the Attachment* types
	MIMEType string `json:"mimeType,omitempty"`
	// Data is base64 for images and audio, as MCP sends it. An attachment
	// Maestro refused (too large) has none, and Text says why; a downscaled
	// image has a Text note too.
	Data string `json:"data,omitempty"`
	URI  string `json:"uri,omitempty"`
	Text string `json:"text,omitempty"`
	Name string `json:"name,omitempty"`
}

// ToolResult is the normalised outcome of one tool call: the envelope
// {successful, data, error} sent to the model, plus what the UI shows.
type ToolResult struct {
	CallID     string          `json:"callId"`
	Name       string          `json:"name"`
	Successful bool            `json:"successful"`
	Data       json.RawMessage `json:"data,omitempty"`
	Error      string          `json:"error,omitempty"`
	// Attachments are images and resources, kept as parts rather than text.
	Attachments []Attachment `json:"attachments,omitempty"`
	// Truncated is set when any copy was cut: Data to the model's cap, Raw
	// to the stored cap, or the server's text as it was read.
	Truncated bool `json:"truncated,omitempty"`
	// Size is the size of the server's text and data before any cut, in
	// bytes, set when Truncated (the UI says "truncated, 50 MB").
	Size int64 `json:"size,omitempty"`
	// Raw is the server's result for the UI only, bounded (long texts cut,
	// base64 data left out: it is in Attachments).
	Raw        json.RawMessage `json:"raw,omitempty"`
	DurationMS int64           `json:"durationMs,omitempty"`
	// App names the tool's MCP App UI when its connector has Apps on: the
	// card renders it from Raw, now and when the chat is reopened (app.go).
	App *ToolApp `json:"app,omitempty"`
}
