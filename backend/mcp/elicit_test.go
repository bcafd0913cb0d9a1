package mcp

import (
	"context"
	"strings"
	"testing"
	"time"

	"maestro/backend/chat"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// everythingForm is the schema of server-everything's
// trigger-elicitation-request, trimmed: every kind a form can hold.
var everythingForm = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"name":      map[string]any{"type": "string", "minLength": 2, "maxLength": 20},
		"check":     map[string]any{"type": "boolean"},
		"firstLine": map[string]any{"type": "string", "default": "It was a dark and stormy night."},
		"email":     map[string]any{"type": "string", "format": "email"},
		"homepage":  map[string]any{"type": "string", "format": "uri"},
		"birthdate": map[string]any{"type": "string", "format": "date"},
		"integer":   map[string]any{"type": "integer", "minimum": 1, "maximum": 100, "default": 42},
		"number":    map[string]any{"type": "number", "minimum": 0, "maximum": 1000, "default": 3.14},
		"friend":    map[string]any{"type": "string", "enum": []any{"Monica", "Joey"}, "default": "Monica"},
		"hero": map[string]any{"type": "string", "oneOf": []any{
			map[string]any{"const": "hero-1", "title": "Superman"}, map[string]any{"const": "hero-2", "title": "Wonder Woman"}}},
		"pet": map[string]any{"type": "string", "enum": []any{"pet-1", "pet-2"}, "enumNames": []any{"Cats", "Dogs"}},
		"instruments": map[string]any{"type": "array", "minItems": 1, "maxItems": 2,
			"items": map[string]any{"type": "string", "enum": []any{"Guitar", "Piano", "Drums"}}, "default": []any{"Guitar"}},
		"fish": map[string]any{"type": "array", "items": map[string]any{"anyOf": []any{
			map[string]any{"const": "fish-1", "title": "Tuna"}, map[string]any{"const": "fish-2", "title": "Salmon"}}}},
	},
	"required": []any{"name"},
}

func TestFormValidation(t *testing.T) {
	t.Parallel()
	form, err := ParseForm(everythingForm)
	if err != nil {
		t.Fatal(err)
	}
	if len(form.Fields) != 13 {
		t.Fatalf("fields = %d", len(form.Fields))
	}
	tests := []struct {
		name    string
		content map[string]any
		problem string // "" when valid
	}{
		{"minimal", map[string]any{"name": "Ada"}, ""},
		{"everything", map[string]any{"name": "Ada", "check": true, "email": "ada@example.com", "homepage": "https://ada.dev",
			"birthdate": "1815-12-10", "integer": 7.0, "number": 2.5, "friend": "Joey", "hero": "hero-2", "pet": "pet-2",
			"instruments": []any{"Piano", "Drums"}, "fish": []any{"fish-1"}}, ""},
		{"required missing", map[string]any{}, "name is required"},
		{"too short", map[string]any{"name": "A"}, "at least 2 characters"},
		{"bad email", map[string]any{"name": "Ada", "email": "ada at example"}, "email address"},
		{"bad uri", map[string]any{"name": "Ada", "homepage": "ada.dev"}, "must be a URL"},
		{"bad date", map[string]any{"name": "Ada", "birthdate": "10/12/1815"}, "YYYY-MM-DD"},
		{"not whole", map[string]any{"name": "Ada", "integer": 7.5}, "whole number"},
		{"over max", map[string]any{"name": "Ada", "integer": 101}, "at most 100"},
		{"not in enum", map[string]any{"name": "Ada", "friend": "Ross"}, `one of "Monica", "Joey"`},
		{"oneOf const", map[string]any{"name": "Ada", "hero": "Superman"}, "must be one of"},
		{"too many choices", map[string]any{"name": "Ada", "instruments": []any{"Piano", "Drums", "Guitar"}}, "at most 2 choices"},
		{"bad choice", map[string]any{"name": "Ada", "fish": []any{"shark"}}, `"shark"`},
		{"wrong type", map[string]any{"name": "Ada", "check": "yes"}, "true or false"},
		{"unknown field", map[string]any{"name": "Ada", "age": 3}, `"age" is not a field`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := form.Validate(form.WithDefaults(tt.content))
			if tt.problem == "" {
				if err != nil {
					t.Fatalf("err = %v", err)
				}
				if got["firstLine"] != "It was a dark and stormy night." || got["integer"] == nil {
					t.Fatalf("defaults not filled in: %v", got)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.problem) {
				t.Fatalf("err = %v, want %q", err, tt.problem)
			}
		})
	}
	defaults := form.WithDefaults(nil)
	if defaults["integer"] != int64(42) || defaults["number"] != 3.14 || defaults["friend"] != "Monica" {
		t.Errorf("defaults = %v", defaults)
	}
	for _, f := range form.Fields {
		if f.Name == "pet" && (len(f.Labels) != 2 || f.Labels[1] != "Dogs") {
			t.Errorf("pet labels = %q", f.Labels)
		}
	}
}

func TestParseFormRefuses(t *testing.T) {
	t.Parallel()
	for _, schema := range []map[string]any{
		{"type": "array"},
		{"type": "object", "properties": map[string]any{"nested": map[string]any{"type": "object"}}},
		{"type": "object", "properties": map[string]any{"list": map[string]any{"type": "array", "items": map[string]any{"type": "string"}}}},
	} {
		if _, err := ParseForm(schema); err == nil {
			t.Errorf("ParseForm(%v) accepted it", schema)
		}
	}
}

func TestURLElicitationOpensAfterConsent(t *testing.T) {
	t.Parallel()
	srv := server.NewMCPServer("url", "1.0.0", server.WithToolCapabilities(true))
	srv.AddTool(mcpgo.NewTool("login"), func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		res, err := srv.RequestElicitation(ctx, mcpgo.ElicitationRequest{Params: mcpgo.ElicitationParams{
			Mode: mcpgo.ElicitationModeURL, Message: "Sign in to the service", ElicitationID: "e1", URL: "https://example.com/login"}})
		if err != nil {
			return mcpgo.NewToolResultError(err.Error()), nil
		}
		return mcpgo.NewToolResultText(string(res.Action)), nil
	})
	for _, tt := range []struct {
		action string
		opened bool
	}{{ActionAccept, true}, {ActionDecline, false}} {
		t.Run(tt.action, func(t *testing.T) {
			eli := &fakeElicitor{answer: ElicitationAnswer{Action: tt.action}, got: make(chan ElicitationRequest, 1)}
			opener := &fakeOpener{opened: make(chan string, 1)}
			h := newHarness(t, WithInProcessServer("url", srv), WithElicitor(eli, opener))
			c := h.add(Connector{Name: "URL", Transport: TransportInProcess, Command: "url"})
			if got := text(t, h.call(t.Context(), h.session(c.ID), "url.login", `{}`, nil)); got != tt.action {
				t.Fatalf("answer = %q", got)
			}
			req := <-eli.got
			if req.Mode != ElicitURL || req.URL != "https://example.com/login" || req.ElicitationID != "e1" {
				t.Fatalf("request = %+v", req)
			}
			select {
			case u := <-opener.opened:
				if !tt.opened || u != "https://example.com/login" {
					t.Fatalf("opened %q", u)
				}
			default:
				if tt.opened {
					t.Fatal("the page was not opened")
				}
			}
		})
	}
}

// The schema's property order is lost in transit, so a form lists its
// required fields first, then the rest, each group by name.
func TestParseFormOrdersRequiredFirst(t *testing.T) {
	t.Parallel()
	f, err := ParseForm(everythingForm)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, fl := range f.Fields {
		names = append(names, fl.Name)
	}
	want := "name birthdate check email firstLine fish friend hero homepage instruments integer number pet"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("field order = %s\nwant           %s", got, want)
	}
}

// waitingElicitor never answers: it reports the request, then how its
// context ended.
type waitingElicitor struct {
	got   chan ElicitationRequest
	ended chan error
}

func (w *waitingElicitor) Elicit(ctx context.Context, req ElicitationRequest) (ElicitationAnswer, error) {
	w.got <- req
	<-ctx.Done()
	w.ended <- context.Cause(ctx)
	return ElicitationAnswer{Action: ActionCancel}, ctx.Err()
}

// A question a stdio server asks during a call is withdrawn when the call
// ends, by Stop or by its timeout, so the user is not left with a dialog
// nobody waits for.
func TestElicitationEndsWithItsCall(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		timeout int // the connector's call timeout, seconds
		stop    bool
	}{
		{name: "stopped", timeout: 60, stop: true},
		{name: "timed out", timeout: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			eli := &waitingElicitor{got: make(chan ElicitationRequest, 1), ended: make(chan error, 1)}
			h := newHarness(t, WithElicitor(eli, nil))
			cfg := selfServer(t, "Asker", "serve")
			cfg.CallTimeoutSeconds = tc.timeout
			c := h.add(cfg)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			res := make(chan chat.ToolResult, 1)
			go func() { res <- h.call(ctx, h.session(c.ID), "asker.ask", `{}`, nil) }()
			select {
			case req := <-eli.got:
				if req.CallID != "call-1" {
					t.Errorf("request origin = %+v, want call-1", req.Origin)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("no elicitation request within 20 s")
			}
			if tc.stop {
				cancel()
			}
			select {
			case cause := <-eli.ended:
				if cause == nil {
					t.Error("the question ended without a cause")
				}
			case <-time.After(20 * time.Second):
				t.Fatal("the question still waits after its call ended")
			}
			if r := <-res; r.Successful {
				t.Errorf("the call succeeded: %+v", r)
			}
		})
	}
}
