package anthropic

import (
	"fmt"
	"slices"

	"maestro/backend/chat"
)

// Defaults for max_tokens and thinking (docs/providers/anthropic.md,
// "Request rules").
const (
	defaultMaxTokens = 8192
	// thinkingHeadroom is what a default max_tokens leaves for the answer
	// after the thinking budget.
	thinkingHeadroom = 4096
	// minThinkingBudget is the smallest budget_tokens the API accepts.
	minThinkingBudget  = 1024
	defaultEffortLevel = "medium"
)

// effortBudgets size thinking for an effort: the budget_tokens of a
// budget model, and the default max_tokens of an adaptive one.
var effortBudgets = map[string]int{"low": 2048, "medium": 8192, "high": 24576, "xhigh": 32768, "max": 49152}

// plan sets max_tokens, thinking and output_config from the request and
// what is known of the model (info): thinking is adaptive where the model
// thinks that way and a token budget otherwise; max_tokens, which counts
// the thinking, never exceeds the model's output limit, and a budget stays
// in [1024, max_tokens).
func (r *renderer) plan(body *request, info chat.ModelInfo) {
	think := r.req.Reasoning != nil
	if think && !finalAssistantThinks(body.Messages) {
		r.warn("thinking turned off for this request: the assistant turn being continued has tool calls but no anthropic thinking block")
		think = false
	}
	switch {
	case think && info.Thinking == chat.ThinkingAdaptive:
		r.planAdaptive(body, info, r.thinkingBudget())
	case think:
		r.planBudget(body, info, r.thinkingBudget())
	default:
		def := defaultMaxTokens
		if inFamilies(r.req.Model, thinksByDefault) {
			def = max(def, effortBudgets[defaultEffortLevel]+thinkingHeadroom)
		}
		body.MaxTokens = r.capMax(r.requestedMax(def), info)
	}
}

// planAdaptive asks for {"type":"adaptive"} thinking, with the effort as
// output_config.effort when the model is known to offer it. budget only
// sizes the default max_tokens.
func (r *renderer) planAdaptive(body *request, info chat.ModelInfo, budget int) {
	body.Thinking = &thinkingConfig{Type: "adaptive"}
	if e := r.req.Reasoning.Effort; e != "" {
		switch {
		case slices.Contains(info.Efforts, e):
			body.OutputConfig = &outputConfig{Effort: e}
		case len(info.Efforts) > 0:
			r.warn(fmt.Sprintf("reasoning effort %q is not offered by %s; the model's default effort is used", e, r.req.Model))
		}
	}
	body.MaxTokens = r.capMax(r.requestedMax(max(defaultMaxTokens, budget+thinkingHeadroom)), info)
}

// planBudget asks for {"type":"enabled","budget_tokens":N}.
func (r *renderer) planBudget(body *request, info chat.ModelInfo, budget int) {
	lo := max(minThinkingBudget, info.MinThinkingBudget)
	if hi := info.MaxThinkingBudget; hi > 0 && budget > hi {
		r.warn(fmt.Sprintf("thinking budget %d lowered to %d, the most %s accepts", budget, hi, r.req.Model))
		budget = hi
	}
	budget = max(budget, lo)
	maxTokens := r.req.MaxOutputTokens
	switch {
	case maxTokens <= 0:
		maxTokens = max(defaultMaxTokens, budget+thinkingHeadroom)
	case maxTokens <= budget:
		r.warn(fmt.Sprintf("max_tokens %d raised to %d: it must exceed the thinking budget", maxTokens, budget+maxTokens))
		maxTokens += budget
	}
	maxTokens = r.capMax(maxTokens, info)
	if budget >= maxTokens {
		fit := maxTokens - min(thinkingHeadroom, maxTokens/4)
		if fit < lo {
			r.warn(fmt.Sprintf("thinking turned off: max_tokens %d leaves no room for the minimum thinking budget %d", maxTokens, lo))
			body.MaxTokens = maxTokens
			return
		}
		r.warn(fmt.Sprintf("thinking budget %d lowered to %d to fit max_tokens %d", budget, fit, maxTokens))
		budget = fit
	}
	body.MaxTokens = maxTokens
	body.Thinking = &thinkingConfig{Type: "enabled", BudgetTokens: budget}
}

// requestedMax is the caller's MaxOutputTokens, or def when unset.
func (r *renderer) requestedMax(def int) int {
	if r.req.MaxOutputTokens > 0 {
		return r.req.MaxOutputTokens
	}
	return def
}

// capMax bounds max_tokens by the model's output limit, when known.
func (r *renderer) capMax(n int, info chat.ModelInfo) int {
	if limit := info.MaxOutputTokens; limit > 0 && n > limit {
		r.warn(fmt.Sprintf("max_tokens %d lowered to %d, the output limit of %s", n, limit, r.req.Model))
		return limit
	}
	return n
}

// thinkingBudget is the budget the request asks for: BudgetTokens, or the
// budget of its effort, at least minThinkingBudget.
func (r *renderer) thinkingBudget() int {
	rs := r.req.Reasoning
	budget := rs.BudgetTokens
	if budget <= 0 {
		effort := rs.Effort
		if effort == "" {
			effort = defaultEffortLevel
		}
		b, ok := effortBudgets[effort]
		if !ok {
			r.warn(fmt.Sprintf("unknown reasoning effort %q treated as %s", effort, defaultEffortLevel))
			b = effortBudgets[defaultEffortLevel]
		}
		budget = b
	}
	if budget < minThinkingBudget {
		r.warn(fmt.Sprintf("thinking budget %d raised to the minimum %d", budget, minThinkingBudget))
		budget = minThinkingBudget
	}
	return budget
}

// temperature sends the caller's temperature unless the model or thinking
// forbids it: Opus 4.7 and later reject sampling parameters, and thinking
// accepts only the default temperature.
func (r *renderer) temperature(body *request) {
	t := r.req.Temperature
	switch {
	case t == nil:
	case inFamilies(r.req.Model, fixedSampling):
		r.warn(fmt.Sprintf("temperature dropped: %s does not accept sampling parameters", r.req.Model))
	case body.Thinking != nil && *t != 1:
		r.warn("temperature dropped: thinking requires the default temperature")
	default:
		body.Temperature = t
	}
}
