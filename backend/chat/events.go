package chat

import "encoding/json"

// Event is one item of a provider stream. Adapters yield them in order; the
// set is sealed.
type Event interface{ isEvent() }

// TextDelta is a piece of visible text. ProviderData, when set, belongs to
// the text part being built (Gemini can sign text parts).
type TextDelta struct {
	Text         string
	ProviderData ProviderData
}

// ReasoningDelta is a piece of the model's thinking.
type ReasoningDelta struct{ Text string }

// ReasoningDone closes a reasoning block and carries the opaque state the
// producing provider needs replayed (a signature or an encrypted item).
type ReasoningDone struct{ ProviderData ProviderData }

// ToolCallStart announces a tool call. ID is the provider's id, or "" when
// the provider gives none (Gemini).
type ToolCallStart struct {
	Index int
	ID    string
	Name  string
}

// ToolCallDelta is a fragment of a call's JSON arguments, for display. The
// complete arguments arrive in ToolCallDone.
type ToolCallDelta struct {
	Index    int
	Fragment string
}

// ToolCallDone is a complete tool call, as the provider named it. Index is
// the call's place among the response's calls in the order the provider
// output them (the order of their ToolCallStart), whatever order they
// complete in. Arguments is always a JSON object ("{}" when the model sent
// nothing).
//
// A model can get a call wrong: arguments that are not JSON (cut off, or
// simply malformed) or another JSON value than an object. That is the
// model's mistake, not a broken stream: the call is still done, with
// Arguments "{}" and RawArguments holding the text as the model wrote it,
// so the agent can answer it with an error result the model can act on.
type ToolCallDone struct {
	Index        int
	ID           string
	Name         string
	Arguments    json.RawMessage
	RawArguments string
	ProviderData ProviderData
}

// Finish ends a successful stream.
type Finish struct {
	// Reason is the provider's stop reason, normalised: "stop", "tool_calls",
	// "max_tokens", or the provider's own word for anything else.
	Reason string
	Usage  Usage
	// ResponseID is the provider's id for the response, if any.
	ResponseID string
}

func (TextDelta) isEvent()      {}
func (ReasoningDelta) isEvent() {}
func (ReasoningDone) isEvent()  {}
func (ToolCallStart) isEvent()  {}
func (ToolCallDelta) isEvent()  {}
func (ToolCallDone) isEvent()   {}
func (Finish) isEvent()         {}
