package agent

import (
	"context"

	"maestro/backend/chat"
)

// Models picks the adapter for a provider. The agent asks at every
// attempt, with the session's current provider, so a provider switch takes
// effect at the next request and a new sign-in or key is picked up.
//
// Info says what is known about one model (its limits and how it thinks);
// the agent puts it on every request so adapters bound max_tokens and
// thinking by it. The zero ModelInfo means unknown.
type Models interface {
	Model(ctx context.Context, provider string) (chat.Model, error)
	Info(ctx context.Context, provider, model string) chat.ModelInfo
}

// ModelsFunc adapts a function to Models. It knows nothing about models:
// Info returns the zero ModelInfo, and adapters use their built-in tables.
type ModelsFunc func(ctx context.Context, provider string) (chat.Model, error)

// Model calls f.
func (f ModelsFunc) Model(ctx context.Context, provider string) (chat.Model, error) {
	return f(ctx, provider)
}

// Info returns the zero ModelInfo.
func (f ModelsFunc) Info(context.Context, string, string) chat.ModelInfo { return chat.ModelInfo{} }
