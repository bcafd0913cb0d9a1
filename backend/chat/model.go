package chat

import (
	"context"
	"iter"
	"strings"
)

// Model is a provider adapter: the gemini, anthropic and openai packages
// under backend/providers satisfy it, the agent streams from it. It sits in
// this package, below both, so that no provider package imports the agent
// (as fantasy keeps LanguageModel in its core package). Stream returns an
// error when the request cannot be sent or is rejected before streaming
// starts; failures after that are yielded inside the sequence, which then
// ends. Stopping the range stops the HTTP read and releases the connection.
type Model interface {
	Stream(ctx context.Context, req Request) (iter.Seq2[Event, error], error)
}

// Thinking styles: how a model's thinking is configured on the wire.
const (
	// ThinkingNone: the model does not think, or how is unknown.
	ThinkingNone = ""
	// ThinkingBudget: a token budget (Anthropic budget_tokens, Gemini 2.5
	// thinkingBudget), clamped to [MinThinkingBudget, MaxThinkingBudget].
	ThinkingBudget = "budget"
	// ThinkingLevel: a named level (Gemini 3 thinkingLevel).
	ThinkingLevel = "level"
	// ThinkingAdaptive: the model decides (Anthropic adaptive thinking).
	ThinkingAdaptive = "adaptive"
	// ThinkingEffort: a reasoning effort (OpenAI reasoning.effort).
	ThinkingEffort = "effort"
)

// ModelInfo is what Maestro knows about one model of one provider: its name
// for the picker, its limits and how it thinks. The provider's own model list
// is the first source; each adapter's built-in table (with its sources in
// docs/providers/) fills what the list does not say. Zero fields are unknown.
type ModelInfo struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
	// ContextWindow is the most input tokens a request may carry.
	ContextWindow int `json:"contextWindow,omitempty"`
	// MaxOutputTokens is the most tokens one response may produce (on
	// Anthropic, thinking included).
	MaxOutputTokens int `json:"maxOutputTokens,omitempty"`
	// Reasoning is set for models that think before answering. OpenAI's
	// reasoning models reject sampling parameters such as temperature.
	Reasoning bool `json:"reasoning,omitempty"`
	// Thinking is how thinking is configured: one of the Thinking* styles.
	Thinking string `json:"thinking,omitempty"`
	// MinThinkingBudget and MaxThinkingBudget bound a ThinkingBudget model's
	// budget; 0 where unknown.
	MinThinkingBudget int `json:"minThinkingBudget,omitempty"`
	MaxThinkingBudget int `json:"maxThinkingBudget,omitempty"`
	// Efforts are the reasoning efforts the model accepts, DefaultEffort the
	// one the provider picks (OpenAI).
	Efforts       []string `json:"efforts,omitempty"`
	DefaultEffort string   `json:"defaultEffort,omitempty"`
	// Preview marks a model the provider labels preview or experimental.
	Preview bool `json:"preview,omitempty"`
	// NoParallelToolCalls is set when the provider says the model takes one
	// tool call per step (OpenAI's supports_parallel_tool_calls: false). The
	// zero value lets the model call several tools at once.
	NoParallelToolCalls bool `json:"noParallelToolCalls,omitempty"`
}

// Known reports whether m describes a model (rather than being the zero
// value a caller gets for an unknown one).
func (m ModelInfo) Known() bool { return m.ID != "" }

// Fill returns m with each unknown field taken from base: a provider's list
// names its models, a built-in table knows their limits.
func (m ModelInfo) Fill(base ModelInfo) ModelInfo {
	if m.ID == "" {
		m.ID = base.ID
	}
	if m.Name == "" || m.Name == m.ID {
		if base.Name != "" {
			m.Name = base.Name
		}
	}
	if m.ContextWindow == 0 {
		m.ContextWindow = base.ContextWindow
	}
	if m.MaxOutputTokens == 0 {
		m.MaxOutputTokens = base.MaxOutputTokens
	}
	if !m.Reasoning {
		m.Reasoning = base.Reasoning
	}
	if m.Thinking == "" {
		m.Thinking = base.Thinking
	}
	if m.MinThinkingBudget == 0 {
		m.MinThinkingBudget = base.MinThinkingBudget
	}
	if m.MaxThinkingBudget == 0 {
		m.MaxThinkingBudget = base.MaxThinkingBudget
	}
	if len(m.Efforts) == 0 {
		m.Efforts = base.Efforts
	}
	if m.DefaultEffort == "" {
		m.DefaultEffort = base.DefaultEffort
	}
	m.Preview = m.Preview || base.Preview
	m.NoParallelToolCalls = m.NoParallelToolCalls || base.NoParallelToolCalls
	return m
}

// ModelFamily is one row of a built-in model table: every model whose id
// starts with Prefix shares Info (except Info.ID and Info.Name). Tables are
// ordered most specific prefix first.
type ModelFamily struct {
	Prefix string
	Info   ModelInfo
}

// LookupFamily returns what the first family whose prefix matches id knows
// about it, with ID set to id; the zero ModelInfo when none matches.
func LookupFamily(families []ModelFamily, id string) ModelInfo {
	for _, f := range families {
		if strings.HasPrefix(id, f.Prefix) {
			info := f.Info
			info.ID = id
			if info.Name == "" {
				info.Name = id
			}
			return info
		}
	}
	return ModelInfo{}
}
