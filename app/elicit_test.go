package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"maestro/backend/chat"
	"maestro/backend/mcp"
	"maestro/backend/providers/fakescript"
)

// askServer is an in-process server whose read-only tools ask the client:
// ask (a form), visit (a URL) and sample (the client's model).
func askServer() *server.MCPServer {
	srv := server.NewMCPServer("asker", "1.0.0", server.WithToolCapabilities(true))
	srv.AddTool(mcpgo.NewTool("ask", mcpgo.WithReadOnlyHintAnnotation(true)),
		func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			res, err := srv.RequestElicitation(ctx, mcpgo.ElicitationRequest{Params: mcpgo.ElicitationParams{
				Message: "Who are you?",
				RequestedSchema: map[string]any{
					"type": "object",
					"properties": map[string]any{
						"name":  map[string]any{"type": "string", "minLength": 1},
						"age":   map[string]any{"type": "integer", "minimum": 0, "default": 30},
						"color": map[string]any{"type": "string", "enum": []any{"red", "blue"}, "default": "blue"},
					},
					"required": []any{"name"},
				},
			}})
			if err != nil {
				return mcpgo.NewToolResultError("elicitation failed: " + err.Error()), nil
			}
			b, _ := json.Marshal(res.Content)
			return mcpgo.NewToolResultText(fmt.Sprintf("action=%s content=%s", res.Action, b)), nil
		})
	srv.AddTool(mcpgo.NewTool("visit", mcpgo.WithReadOnlyHintAnnotation(true)),
		func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			res, err := srv.RequestElicitation(ctx, mcpgo.ElicitationRequest{Params: mcpgo.ElicitationParams{
				Mode: mcpgo.ElicitationModeURL, Message: "Sign in to the service", ElicitationID: "v1", URL: "https://example.com/login"}})
			if err != nil {
				return mcpgo.NewToolResultError("elicitation failed: " + err.Error()), nil
			}
			return mcpgo.NewToolResultText("action=" + string(res.Action)), nil
		})
	srv.AddTool(mcpgo.NewTool("sample", mcpgo.WithReadOnlyHintAnnotation(true)),
		func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			res, err := srv.RequestSampling(ctx, mcpgo.CreateMessageRequest{CreateMessageParams: mcpgo.CreateMessageParams{
				Messages:     []mcpgo.SamplingMessage{{Role: mcpgo.RoleUser, Content: mcpgo.NewTextContent("say hi")}},
				SystemPrompt: "Be brief.",
				MaxTokens:    10,
			}})
			if err != nil {
				return mcpgo.NewToolResultError("sampling failed: " + err.Error()), nil
			}
			return mcpgo.NewToolResultText(fmt.Sprintf("model %s said %v", res.Model, res.Content)), nil
		})
	return srv
}

// startAskApp runs the app with chat (the Gemini fake) and the asker
// connector enabled on a fresh session.
func startAskApp(t *testing.T, opened ...chan string) (*connApp, *fakescript.Script, string) {
	t.Helper()
	rt := Runtime{}
	if len(opened) > 0 {
		rt.OpenURL = func(_ context.Context, u string) error { opened[0] <- u; return nil }
	}
	ca, srv := startToolChat(t, rt, mcp.WithInProcessServer("asker", askServer()))
	run, ctx := ca.running(t)
	var err error
	// The user trusts this connector's read-only hints: its tools run without a question.
	c := mcp.Connector{ID: chat.NewID(), Name: "Asker", Transport: mcp.TransportInProcess, Command: "asker", LogLevel: "info", TrustReadOnlyHints: true}
	ca.Connectors.remember(c)
	if c, err = run.sup.Add(ctx, c); err != nil {
		t.Fatal(err)
	}
	ca.ev.wait(t, EventConnectorState, stateIs(c.ID, "ready"))
	return ca, srv, ca.chatWith(t, c.ID)
}

func runTool(t *testing.T, a *connApp, sessionID, runID string) ToolEventDTO {
	t.Helper()
	fin := a.ev.wait(t, EventRunFinished, func(d any) bool { f, ok := d.(FinishedDTO); return ok && f.RunID == runID }).(FinishedDTO)
	if fin.Error != nil {
		t.Fatalf("run failed: %+v", fin.Error)
	}
	return a.ev.wait(t, EventToolFinished, nil).(ToolEventDTO)
}

func TestElicitationThroughUI(t *testing.T) {
	t.Parallel()
	a, srv, sid := startAskApp(t)
	srv.Push(
		fakescript.Reply{ToolCalls: []fakescript.ToolCall{{Name: "asker__ask", Args: json.RawMessage(`{}`)}}},
		fakescript.Reply{Text: "Thanks."},
	)
	sent, err := a.Chat.SendMessage(sid, "Ask me", nil)
	if err != nil {
		t.Fatal(err)
	}
	req := a.ev.wait(t, EventElicitation, nil).(ElicitationDTO)
	if req.SessionID != sid || req.Connector != "Asker" || req.Mode != "form" || req.Message != "Who are you?" {
		t.Errorf("elicitation:needed = %+v", req)
	}
	var form mcp.Form
	if err := json.Unmarshal([]byte(req.Schema), &form); err != nil || len(form.Fields) != 3 {
		t.Fatalf("schema %s: %v", req.Schema, err)
	}
	// An invalid answer is rejected and the request keeps waiting.
	err = a.Connectors.AnswerElicitation(req.RequestID, "accept", `{"age":-1}`)
	if !errors.Is(err, chat.ErrInvalid) || !strings.Contains(err.Error(), "required") {
		t.Fatalf("invalid answer: err = %v", err)
	}
	if err := a.Connectors.AnswerElicitation(req.RequestID, "maybe", ""); !errors.Is(err, chat.ErrInvalid) {
		t.Errorf("unknown action: err = %v", err)
	}
	if err := a.Connectors.AnswerElicitation(req.RequestID, "accept", `{"name":"Ada"}`); err != nil {
		t.Fatal(err)
	}
	done := runTool(t, a, sid, sent.RunID)
	if done.Result == nil || !strings.Contains(done.Result.Data, `action=accept content={\"age\":30,\"color\":\"blue\",\"name\":\"Ada\"}`) {
		t.Errorf("tool result = %+v", done.Result)
	}
	if err := a.Connectors.AnswerElicitation(req.RequestID, "decline", ""); !errors.Is(err, chat.ErrNotFound) {
		t.Errorf("answer after the end: err = %v", err)
	}
}

func TestElicitationDeclined(t *testing.T) {
	t.Parallel()
	a, srv, sid := startAskApp(t)
	srv.Push(
		fakescript.Reply{ToolCalls: []fakescript.ToolCall{{Name: "asker__ask", Args: json.RawMessage(`{}`)}}},
		fakescript.Reply{Text: "OK."},
	)
	sent, err := a.Chat.SendMessage(sid, "Ask me", nil)
	if err != nil {
		t.Fatal(err)
	}
	req := a.ev.wait(t, EventElicitation, nil).(ElicitationDTO)
	if err := a.Connectors.AnswerElicitation(req.RequestID, "decline", ""); err != nil {
		t.Fatal(err)
	}
	done := runTool(t, a, sid, sent.RunID)
	if done.Result == nil || !strings.Contains(done.Result.Data, "action=decline") {
		t.Errorf("tool result = %+v", done.Result)
	}
}

func TestURLElicitationOpensThroughRuntime(t *testing.T) {
	t.Parallel()
	opened := make(chan string, 1)
	a, srv, sid := startAskApp(t, opened)
	srv.Push(
		fakescript.Reply{ToolCalls: []fakescript.ToolCall{{Name: "asker__visit", Args: json.RawMessage(`{}`)}}},
		fakescript.Reply{Text: "Signed in."},
	)
	sent, err := a.Chat.SendMessage(sid, "Sign in", nil)
	if err != nil {
		t.Fatal(err)
	}
	req := a.ev.wait(t, EventElicitation, nil).(ElicitationDTO)
	if req.Mode != "url" || req.URL != "https://example.com/login" || req.Schema != "" || req.Message != "Sign in to the service" {
		t.Errorf("elicitation:needed = %+v", req)
	}
	if err := a.Connectors.AnswerElicitation(req.RequestID, "accept", ""); err != nil {
		t.Fatal(err)
	}
	// A 2026-07-28 server learns of completion by a retry: Maestro waits
	// for the user's Continue.
	wait := a.ev.wait(t, EventElicitation, func(p any) bool { return p.(ElicitationDTO).Phase == phaseWaiting }).(ElicitationDTO)
	if err := a.Connectors.AnswerElicitation(wait.RequestID, "accept", ""); err != nil {
		t.Fatal(err)
	}
	done := runTool(t, a, sid, sent.RunID)
	if done.Result == nil || !strings.Contains(done.Result.Data, "action=accept") {
		t.Errorf("tool result = %+v", done.Result)
	}
	select {
	case u := <-opened:
		if u != "https://example.com/login" {
			t.Errorf("opened %q", u)
		}
	default:
		t.Error("the page was not opened through Runtime.OpenURL")
	}
}

func TestSamplingThroughUI(t *testing.T) {
	t.Parallel()
	a, srv, sid := startAskApp(t)
	srv.Push(
		fakescript.Reply{ToolCalls: []fakescript.ToolCall{{Name: "asker__sample", Args: json.RawMessage(`{}`)}}},
		fakescript.Reply{Text: "Hi there"},
		fakescript.Reply{Text: "Done."},
	)
	sent, err := a.Chat.SendMessage(sid, "Sample", nil)
	if err != nil {
		t.Fatal(err)
	}
	req := a.ev.wait(t, EventSampling, nil).(SamplingDTO)
	if req.SessionID != sid || req.Connector != "Asker" || req.SystemPrompt != "Be brief." || req.MaxTokens != 10 ||
		len(req.Messages) != 1 || req.Messages[0].Text != "say hi" || req.Messages[0].Role != "user" {
		t.Errorf("sampling:needed = %+v", req)
	}
	if err := a.Connectors.AnswerSampling(req.RequestID, true); err != nil {
		t.Fatal(err)
	}
	res := a.ev.wait(t, EventSamplingResult, nil).(SamplingResultDTO)
	if res.RequestID != req.RequestID || res.Text != "Hi there" || res.Error != "" {
		t.Errorf("sampling:result = %+v", res)
	}
	done := runTool(t, a, sid, sent.RunID)
	if done.Result == nil || !strings.Contains(done.Result.Data, "model gemini-2.5-pro said") {
		t.Errorf("tool result = %+v", done.Result)
	}
}

func TestSamplingDenied(t *testing.T) {
	t.Parallel()
	a, srv, sid := startAskApp(t)
	srv.Push(
		fakescript.Reply{ToolCalls: []fakescript.ToolCall{{Name: "asker__sample", Args: json.RawMessage(`{}`)}}},
		fakescript.Reply{Text: "OK."},
	)
	sent, err := a.Chat.SendMessage(sid, "Sample", nil)
	if err != nil {
		t.Fatal(err)
	}
	req := a.ev.wait(t, EventSampling, nil).(SamplingDTO)
	if err := a.Connectors.AnswerSampling(req.RequestID, false); err != nil {
		t.Fatal(err)
	}
	done := runTool(t, a, sid, sent.RunID)
	if done.Result == nil || !strings.Contains(done.Result.Error, "sampling failed: the user declined") {
		t.Errorf("tool result = %+v", done.Result)
	}
	if err := a.Connectors.AnswerSampling("nope", true); !errors.Is(err, chat.ErrNotFound) {
		t.Errorf("unknown request: err = %v", err)
	}
}

// Stopping the turn while a form waits withdraws the question: the dialog
// gets elicitation:closed, and a late answer finds nothing waiting.
func TestElicitationWithdrawnWhenTheCallStops(t *testing.T) {
	t.Parallel()
	a, srv, sid := startAskApp(t)
	srv.Push(fakescript.Reply{ToolCalls: []fakescript.ToolCall{{Name: "asker__ask", Args: json.RawMessage(`{}`)}}})
	sent, err := a.Chat.SendMessage(sid, "Ask me", nil)
	if err != nil {
		t.Fatal(err)
	}
	req := a.ev.wait(t, EventElicitation, nil).(ElicitationDTO)
	if err := a.Chat.StopRun(sent.RunID); err != nil {
		t.Fatal(err)
	}
	closed := a.ev.wait(t, EventElicitationClosed, nil).(ElicitationClosedDTO)
	if closed.RequestID != req.RequestID || closed.Reason == "" {
		t.Errorf("elicitation:closed = %+v, want request %s with a reason", closed, req.RequestID)
	}
	if err := a.Connectors.AnswerElicitation(req.RequestID, "accept", `{"name":"Ada"}`); !errors.Is(err, chat.ErrNotFound) {
		t.Errorf("answer after the withdrawal: err = %v, want not found", err)
	}
}
