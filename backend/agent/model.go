package agent

import (
	"context"
	"iter"

	"maestro/backend/chat"
)

// Model is a provider adapter as the agent uses it. Stream returns an error
// when the request cannot be sent or is rejected before streaming starts;
// failures after that are yielded inside the sequence, which then ends.
// Stopping the range stops the HTTP read and releases the connection.
type Model interface {
	Stream(ctx context.Context, req chat.Request) (iter.Seq2[chat.Event, error], error)
}

// Models picks the adapter for a provider. The agent asks at every
// attempt, with the session's current provider, so a provider switch takes
// effect at the next request and a refreshed credential is picked up after
// Reauthorize.
type Models interface {
	Model(ctx context.Context, provider string) (Model, error)
}

// ModelsFunc adapts a function to Models.
type ModelsFunc func(ctx context.Context, provider string) (Model, error)

// Model calls f.
func (f ModelsFunc) Model(ctx context.Context, provider string) (Model, error) {
	return f(ctx, provider)
}

// Reauthorizer refreshes a provider's credential (an OAuth refresh forced
// even if the token has not expired yet). The agent calls it once per step
// after a 401, then retries; a second 401 ends the turn asking for a
// sign-in.
type Reauthorizer interface {
	Reauthorize(ctx context.Context, provider string) error
}
