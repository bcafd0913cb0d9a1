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
