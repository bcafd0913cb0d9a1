package chat

import "encoding/json"

// Provider names. They key ProviderData and ToolCall.ProviderIDs.
const (
	ProviderGemini    = "gemini"
	ProviderAnthropic = "anthropic"
	ProviderOpenAI    = "openai"
)

// Providers lists every provider Maestro talks to, in the order the app
// shows them (the model picker, the accounts): the one list of them on the
// Go side. The catalog builds an adapter for each, the app accepts no
// other, and the tool overlay gets each one's rules.
func Providers() []string {
	return []string{ProviderAnthropic, ProviderOpenAI, ProviderGemini}
}

// Request is what the agent hands a provider adapter for one model call. It
// is rendered just in time from canonical history; adapters never store it.
type Request struct {
	Model string
	// Info is what the catalog knows about Model (limits, how it thinks).
	// The zero value means unknown: the adapter then uses its own built-in
	// table for the model's family.
	Info   ModelInfo
	System string
	// Messages is the history to send (the context view already applied).
	Messages []Message
	// Tools is the session's overlay, already exposed for this provider:
	// valid names and normalised schemas.
	Tools []Tool
	// ToolNames maps canonical tool names (server.tool) to the names this
	// provider knows them by, for every name in Tools and in Messages. A
	// name missing here is rendered with the provider's default sanitising.
	ToolNames map[string]string
	// SessionID identifies the conversation (prompt caching, session headers).
	SessionID string
	// PromptID identifies this user turn (Gemini's user_prompt_id).
	PromptID string

	MaxOutputTokens int
	Temperature     *float64
	// Reasoning asks for thinking where the model supports it.
	Reasoning *Reasoning
}

// Reasoning configures model thinking.
type Reasoning struct {
	// Effort is "low", "medium" or "high" (OpenAI effort; mapped to budgets
	// elsewhere).
	Effort string
	// BudgetTokens bounds thinking tokens (Anthropic, Gemini); 0 lets the
	// adapter choose from Effort.
	BudgetTokens int
}

// Tool is one tool as declared to one provider.
type Tool struct {
	// Name is the exposed name, valid for the provider.
	Name string `json:"name"`
	// Canonical is server.tool.
	Canonical   string          `json:"canonical"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}
