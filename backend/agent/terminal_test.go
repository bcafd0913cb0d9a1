package agent_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"maestro/backend/agent"
	"maestro/backend/chat"
)

// panicTools panics when asked for the overlay.
type panicTools struct{ *fakeTools }

func (panicTools) Overlay(context.Context, string, string, []string) (agent.Overlay, error) {
	panic("registry bug")
}

func TestTerminalEventOnEarlyFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      agent.RunInput
		tools   agent.Tools
		models  agent.Models
		wantErr string
	}{
		{name: "empty message", in: agent.RunInput{}, wantErr: "the message is empty"},
		{name: "retry without history", in: agent.RunInput{Retry: true}, wantErr: "no message to answer"},
		{name: "unknown session", in: agent.RunInput{SessionID: "nope", Text: "hi"}, wantErr: "not found"},
		{name: "overlay panics", in: user("hi"), tools: panicTools{newFakeTools()}, wantErr: "internal error: registry bug"},
		{name: "no model", in: user("hi"), wantErr: "model for gemini: no adapter",
			models: agent.ModelsFunc(func(context.Context, string) (chat.Model, error) { return nil, errors.New("no adapter") })},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, chat.ProviderGemini)
			tools, models := agent.Tools(h.tools), tt.models
			if tt.tools != nil {
				tools = tt.tools
			}
			if models == nil {
				models = agent.ModelsFunc(func(context.Context, string) (chat.Model, error) { return h.fakes[chat.ProviderGemini].model, nil })
			}
			a := agent.New(h.store, models, tools, nil)
			in := tt.in
			if in.SessionID == "" {
				in.SessionID = h.sessID
			}
			in.RunID = "run-1"
			sink := &recSink{}
			_, err := a.Run(t.Context(), in, sink)
			checkTerminal(t, sink, "run-1", err)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Run error = %v, want %q", err, tt.wantErr)
			}
		})
	}
}
