package anthropic

import (
	"strings"

	"maestro/backend/chat"
)

// Context windows and output limits of the built-in table.
const (
	window1M   = 1_000_000
	window200K = 200_000
	out128K    = 128_000
	out64K     = 64_000
	out32K     = 32_000
)

// effortsLowToMax are the output_config.effort levels of Opus 4.7 and
// later, lowest first.
var effortsLowToMax = []string{"low", "medium", "high", "xhigh", "max"}

func adaptive(ctx, out int, efforts []string) chat.ModelInfo {
	return chat.ModelInfo{ContextWindow: ctx, MaxOutputTokens: out, Reasoning: true,
		Thinking: chat.ThinkingAdaptive, Efforts: efforts}
}

func budgeted(ctx, out int) chat.ModelInfo {
	return chat.ModelInfo{ContextWindow: ctx, MaxOutputTokens: out, Reasoning: true,
		Thinking: chat.ThinkingBudget, MinThinkingBudget: minThinkingBudget}
}

// families is the built-in knowledge of Claude models, most specific prefix
// first. Every number has its source in docs/providers/anthropic.md ("Model
// list"). Where sources disagree the lower output limit is kept: asking for
// less than a model allows is never rejected.
var families = []chat.ModelFamily{
	{Prefix: "claude-fable-5", Info: adaptive(window1M, out128K, nil)},
	{Prefix: "claude-mythos-5", Info: adaptive(window1M, out128K, nil)},
	{Prefix: "claude-opus-5", Info: adaptive(window1M, out128K, effortsLowToMax)},
	{Prefix: "claude-sonnet-5", Info: adaptive(window1M, out128K, nil)},
	{Prefix: "claude-haiku-5", Info: adaptive(window1M, out128K, nil)},
	{Prefix: "claude-opus-4-8", Info: adaptive(window1M, out128K, effortsLowToMax)},
	{Prefix: "claude-opus-4-7", Info: adaptive(window1M, out128K, effortsLowToMax)},
	{Prefix: "claude-opus-4-6", Info: adaptive(window1M, out128K, nil)},
	{Prefix: "claude-sonnet-4-6", Info: adaptive(window1M, out64K, nil)},
	{Prefix: "claude-opus-4-5", Info: budgeted(window200K, out64K)},
	{Prefix: "claude-sonnet-4-5", Info: budgeted(window200K, out64K)},
	{Prefix: "claude-haiku-4-5", Info: budgeted(window200K, out64K)},
	{Prefix: "claude-opus-4-1", Info: budgeted(window200K, out32K)},
	{Prefix: "claude-opus-4", Info: budgeted(window200K, out32K)},
	{Prefix: "claude-sonnet-4", Info: budgeted(window200K, out64K)},
	{Prefix: "claude-3-7-sonnet", Info: budgeted(window200K, out64K)},
}

// fixedSampling are the families that reject temperature, top_p and top_k
// with a 400 ("`temperature` is deprecated for this model"): Opus 4.7 and
// every later model (docs/providers/anthropic.md, "Request rules").
var fixedSampling = []string{
	"claude-fable-5", "claude-mythos-5", "claude-opus-5", "claude-sonnet-5", "claude-haiku-5",
	"claude-opus-4-8", "claude-opus-4-7",
}

// thinksByDefault are the families that think when the request says
// nothing about thinking (Claude 5 and later): their default max_tokens
// leaves room for it.
var thinksByDefault = []string{"claude-fable-5", "claude-mythos-5", "claude-opus-5", "claude-sonnet-5"}

// builtin is the fallback picker list, default first, with display names.
var builtin = []struct{ id, name string }{
	{"claude-sonnet-4-6", "Claude Sonnet 4.6"},
	{"claude-opus-5", "Claude Opus 5"},
	{"claude-sonnet-5", "Claude Sonnet 5"},
	{"claude-opus-4-8", "Claude Opus 4.8"},
	{"claude-opus-4-7", "Claude Opus 4.7"},
	{"claude-haiku-4-5", "Claude Haiku 4.5"},
}

// Builtin is the model list to offer when the service's own list cannot be
// had (offline, never fetched): the first is the default, each with its
// limits filled from Lookup.
func Builtin() []chat.ModelInfo {
	out := make([]chat.ModelInfo, 0, len(builtin))
	for _, b := range builtin {
		out = append(out, chat.ModelInfo{ID: b.id, Name: b.name}.Fill(Lookup(b.id)))
	}
	return out
}

// Lookup is what Maestro knows about a Claude model id from its built-in
// table: limits and how it thinks. It is the zero ModelInfo for an id no
// family matches.
func Lookup(id string) chat.ModelInfo {
	return chat.LookupFamily(families, id)
}

// modelInfo is what a request knows about its model: the catalog's Info,
// with what it leaves unknown filled from the built-in table.
func modelInfo(req chat.Request) chat.ModelInfo {
	if req.Info.ID != req.Model {
		return Lookup(req.Model)
	}
	return req.Info.Fill(Lookup(req.Model))
}

// inFamilies reports whether model starts with one of prefixes.
func inFamilies(model string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(model, p) {
			return true
		}
	}
	return false
}
