package gemini

import (
	"strings"

	"maestro/backend/chat"
)

// Built-in model knowledge (docs/providers/gemini.md §Model list). Limits
// come from Google's model pages, thinking ranges from its thinking guide.
const (
	contextWindow = 1_048_576
	maxOutput25   = 65_536
	maxOutput20   = 8_192
)

// families is the built-in table, most specific prefix first.
var families = []chat.ModelFamily{
	{Prefix: "gemini-2.5-flash-lite", Info: chat.ModelInfo{ContextWindow: contextWindow, MaxOutputTokens: maxOutput25,
		Reasoning: true, Thinking: chat.ThinkingBudget, MinThinkingBudget: 512, MaxThinkingBudget: 24_576}},
	{Prefix: "gemini-2.5-flash", Info: chat.ModelInfo{ContextWindow: contextWindow, MaxOutputTokens: maxOutput25,
		Reasoning: true, Thinking: chat.ThinkingBudget, MinThinkingBudget: 1, MaxThinkingBudget: 24_576}},
	{Prefix: "gemini-2.5-pro", Info: chat.ModelInfo{ContextWindow: contextWindow, MaxOutputTokens: maxOutput25,
		Reasoning: true, Thinking: chat.ThinkingBudget, MinThinkingBudget: 128, MaxThinkingBudget: 32_768}},
	{Prefix: "gemini-2.0-flash", Info: chat.ModelInfo{ContextWindow: contextWindow, MaxOutputTokens: maxOutput20}},
	{Prefix: "gemini-3", Info: chat.ModelInfo{ContextWindow: contextWindow, MaxOutputTokens: maxOutput25,
		Reasoning: true, Thinking: chat.ThinkingLevel}},
}

// codeAssistModel is one entry of the list gemini-cli ships
// (packages/core/src/config/defaultModelConfigs.ts, modelDefinitions: the
// visible concrete Gemini models; the Gemma ones are for the Gemini API).
type codeAssistModel struct {
	id      string
	preview bool
}

// codeAssistModels: gemini-cli's default model (DEFAULT_GEMINI_MODEL)
// first, then modelDefinitions' order.
var codeAssistModels = []codeAssistModel{
	{"gemini-2.5-pro", false},
	{"gemini-3.1-flash-lite", false},
	{"gemini-3.1-pro-preview", true},
	{"gemini-3-pro-preview", true},
	{"gemini-3-flash-preview", true},
	{"gemini-3.5-flash", false},
	{"gemini-2.5-flash", false},
	{"gemini-2.5-flash-lite", false},
}

// codeAssistWireNames are gemini-cli's CCPA_AI_MODEL_MAPPINGS
// (config/models.ts): the name Code Assist knows a model by, where it
// differs. retrieveUserQuota reports the same names.
var codeAssistWireNames = map[string]string{"gemini-3.5-flash": "gemini-3-flash"}

// wireModel is the model name to send in the given mode.
func wireModel(model string, codeAssist bool) string {
	if w, ok := codeAssistWireNames[model]; ok && codeAssist {
		return w
	}
	return model
}

// userModel is the name a Code Assist wire name stands for.
func userModel(wire string) string {
	for m, w := range codeAssistWireNames {
		if w == wire {
			return m
		}
	}
	return wire
}

// Lookup returns what the built-in table knows about a Gemini model id;
// the zero ModelInfo when it knows nothing.
func Lookup(id string) chat.ModelInfo {
	id = strings.TrimPrefix(id, "models/")
	info := chat.LookupFamily(families, id)
	if !info.Known() {
		return info
	}
	info.Name = displayName(id)
	info.Preview = strings.Contains(id, "-preview") || strings.Contains(id, "-exp")
	for _, m := range codeAssistModels {
		if m.id == id {
			info.Preview = m.preview
		}
	}
	return info
}

// Builtin is the fallback picker list: the models gemini-cli offers every
// Code Assist account (no previews), which the Gemini API serves too,
// default first.
func Builtin() []chat.ModelInfo {
	return codeAssistList(false)
}

func codeAssistList(previews bool) []chat.ModelInfo {
	var out []chat.ModelInfo
	for _, m := range codeAssistModels {
		if m.preview && !previews {
			continue
		}
		out = append(out, Lookup(m.id))
	}
	return out
}

// displayName turns an id into a picker label: gemini-2.5-flash-lite is
// "Gemini 2.5 Flash-Lite".
func displayName(id string) string {
	words := strings.Split(id, "-")
	for i, w := range words {
		if w != "" && w[0] >= 'a' && w[0] <= 'z' {
			words[i] = string(w[0]-'a'+'A') + w[1:]
		}
	}
	return strings.ReplaceAll(strings.Join(words, " "), "Flash Lite", "Flash-Lite")
}
