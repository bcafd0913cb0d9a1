package openai

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"maestro/backend/chat"
	"maestro/backend/chat/chattest"
)

var update = flag.Bool("update", false, "rewrite golden files")

var _ chat.Model = (*Model)(nil)

const schema = `{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`

func user(text string) chat.Message {
	return chat.Message{Role: chat.RoleUser, Parts: chat.Parts{chat.TextPart{Text: text}}}
}

func assistant(provider string, parts ...chat.Part) chat.Message {
	return chat.Message{Role: chat.RoleAssistant, Provider: provider, Parts: parts}
}

func results(rs ...chat.ToolResult) chat.Message {
	m := chat.Message{Role: chat.RoleTool}
	for _, r := range rs {
		m.Parts = append(m.Parts, chat.ToolResultPart{Result: r})
	}
	return m
}

func call(id, name, args string, providerIDs map[string]string) chat.ToolCallPart {
	return chat.ToolCallPart{Call: chat.ToolCall{ID: id, Name: name, Arguments: json.RawMessage(args), ProviderIDs: providerIDs}}
}

func ok(callID, name, data string) chat.ToolResult {
	return chat.ToolResult{CallID: callID, Name: name, Successful: true, Data: json.RawMessage(data)}
}

func baseRequest(msgs ...chat.Message) chat.Request {
	return chat.Request{
		Model: "gpt-5.5", SessionID: "sess-1", Messages: msgs,
		Tools: []chat.Tool{
			{Name: "fs__read_file", Canonical: "fs.read_file", Description: "Read a file.", InputSchema: json.RawMessage(schema)},
			{Name: "fs__list", Canonical: "fs.list", Description: "List a directory.", InputSchema: json.RawMessage(schema)},
		},
		ToolNames: map[string]string{"fs.read_file": "fs__read_file", "fs.list": "fs__list"},
	}
}

func manyTools(n int) chat.Request {
	req := baseRequest(user("hi"))
	req.Tools = make([]chat.Tool, n)
	req.ToolNames = make(map[string]string, n)
	for i := range n {
		name := fmt.Sprintf("srv%d__tool_%d", i/50, i)
		req.Tools[i] = chat.Tool{Name: name, Canonical: fmt.Sprintf("srv%d.tool_%d", i/50, i),
			Description: fmt.Sprintf("Tool number %d.", i), InputSchema: json.RawMessage(schema)}
		req.ToolNames[req.Tools[i].Canonical] = name
	}
	return req
}

type renderCase struct {
	name  string
	req   chat.Request
	warns []string
}

func renderCases() []renderCase {
	withSystem := baseRequest(user("What is in /tmp?"))
	withSystem.System = "You are Maestro, a desktop assistant. Use <tools> when useful."

	oneCall := baseRequest(user("Read /etc/hosts"),
		assistant("openai", chat.TextPart{Text: "Reading it."},
			call("c1", "fs.read_file", `{"path": "/etc/hosts"}`, map[string]string{"openai": "call_abc123"})),
		results(ok("c1", "fs.read_file", `{"text":"127.0.0.1 localhost"}`)))

	parallel := baseRequest(user("Read a and list b"),
		assistant("openai",
			call("c1", "fs.read_file", `{"path":"a"}`, map[string]string{"openai": "call_a"}),
			call("c2", "fs.list", `{"path":"b"}`, map[string]string{"openai": "call_b"})),
		results(ok("c1", "fs.read_file", `{"text":"A"}`), ok("c2", "fs.list", `["x","y"]`)))

	errResult := baseRequest(user("Read /root/secret"),
		assistant("openai", call("c1", "fs.read_file", `{"path":"/root/secret"}`, map[string]string{"openai": "call_err"})),
		results(chat.ToolResult{CallID: "c1", Name: "fs.read_file", Successful: false, Error: "permission denied"}))

	noID := baseRequest(user("List /"),
		assistant("", call("c-no-id", "fs.list", `{"path":"/"}`, nil)),
		results(ok("c-no-id", "fs.list", `[]`)))

	cross := baseRequest(user("Read a"),
		assistant("anthropic",
			chat.ReasoningPart{Text: "I should read a.", ProviderData: chat.ProviderData{"anthropic": json.RawMessage(`{"signature":"EqQBCkYIBxgCKkB"}`)}},
			chat.TextPart{Text: "Reading."},
			call("c1", "fs.read_file", `{"path":"a"}`, map[string]string{"anthropic": "toolu_01A"})),
		results(ok("c1", "fs.read_file", `{"text":"A"}`)),
		assistant("gemini",
			chat.ReasoningPart{Text: "Now list.", ProviderData: chat.ProviderData{"gemini": json.RawMessage(`{"thoughtSignature":"CiQB"}`)}},
			chat.ToolCallPart{Call: chat.ToolCall{ID: "c2", Name: "fs.list", Arguments: json.RawMessage(`{"path":"."}`),
				ProviderData: chat.ProviderData{"gemini": json.RawMessage(`{"thoughtSignature":"CiQB"}`)}}}),
		results(ok("c2", "fs.list", `["a"]`)),
		assistant("gemini", chat.TextPart{Text: "Done."}),
		user("Thanks; and now?"))

	reasoning := baseRequest(user("Compute 12+7"),
		assistant("openai",
			chat.ReasoningPart{Text: "**Adding**", ProviderData: chat.ProviderData{"openai": json.RawMessage(
				`{"id":"rs_1","type":"reasoning","status":"completed","summary":[{"type":"summary_text","text":"**Adding**"}],"encrypted_content":"gAAAAABown"}`)}},
			chat.TextPart{Text: "19"}),
		assistant("gemini",
			chat.ReasoningPart{Text: "foreign thought", ProviderData: chat.ProviderData{"gemini": json.RawMessage(`{"thoughtSignature":"CiQB"}`)}},
			chat.ReasoningPart{Text: "stale", ProviderData: chat.ProviderData{"openai": json.RawMessage(`{"id":"rs_2","summary":[]}`)}},
			chat.TextPart{Text: "Still 19."}),
		assistant("openai", chat.ReasoningPart{Text: "cut off", ProviderData: chat.ProviderData{"openai": json.RawMessage(
			`{"type":"reasoning","summary":[],"encrypted_content":"gAAAAABcut"}`)}}),
		user("Times 3?"))
	reasoning.Reasoning = &chat.Reasoning{Effort: "high"}

	files := baseRequest(
		chat.Message{Role: chat.RoleUser, Parts: chat.Parts{
			chat.TextPart{Text: "What is in these?"},
			chat.FilePart{Name: "a.png", MIMEType: "image/png", Data: "iVBORw0KGgo="},
			chat.FilePart{Name: "b.pdf", MIMEType: "application/pdf", Data: "JVBERi0x"},
			chat.FilePart{Name: "c.zip", MIMEType: "application/zip", Data: "UEsDBA=="},
		}},
		assistant("openai", call("c1", "fs.read_file", `{"path":"shot.png"}`, map[string]string{"openai": "call_img"})),
		results(chat.ToolResult{CallID: "c1", Name: "fs.read_file", Successful: true, Data: json.RawMessage(`{"bytes":8}`),
			Attachments: []chat.Attachment{{Type: "image", MIMEType: "image/png", Data: "iVBORw0KGgo="}}}))

	interrupted := baseRequest(user("Read a"),
		assistant("openai", call("c1", "fs.read_file", `{"path":"a"}`, map[string]string{"openai": "call_cut"})),
		results(ok("c-gone", "fs.list", `[]`)),
		user("Never mind."))

	return []renderCase{
		{name: "plain_text", req: baseRequest(user("Hello"), assistant("openai", chat.TextPart{Text: "Hi! How can I help?"}), user("Say it again"))},
		{name: "system_prompt", req: withSystem},
		{name: "tool_call_result", req: oneCall},
		{name: "parallel_tool_calls", req: parallel},
		{name: "error_tool_result", req: errResult},
		{name: "call_without_provider_id", req: noID},
		{name: "cross_provider", req: cross},
		{name: "reasoning_replay", req: reasoning, warns: []string{"openai reasoning part without encrypted_content dropped",
			"1 trailing openai reasoning items dropped"}},
		{name: "files_and_images", req: files, warns: []string{`file "c.zip" (application/zip) dropped: openai takes images, PDFs and text`}},
		// Resources and a prompt's content, and a tool result with a link
		// and an embedded resource (chattest.AttachmentTurn); the gzip
		// resource, which ChatGPT cannot take, only named.
		{name: "resources", req: baseRequest(chattest.AttachmentTurn()...)},
		{name: "interrupted_call", req: interrupted, warns: []string{
			"tool call call_cut has no result; sent as interrupted", "tool result for unknown call c-gone dropped"}},
		{name: "tools_1000", req: manyTools(1000), warns: []string{"872 tools over openai's limit of 128 were not sent"}},
	}
}

// indent renders v as the golden files store it.
func indent(t testing.TB, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestRenderGolden(t *testing.T) {
	t.Parallel()
	for _, tc := range renderCases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			body, warns := toRequest(tc.req)
			got := indent(t, body)
			path := filepath.Join("testdata", "golden", tc.name+".json")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("read golden (run go test -update): %v", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("toRequest(%s) differs from %s; got:\n%s", tc.name, path, got)
			}
			if !reflect.DeepEqual(warns, tc.warns) {
				t.Errorf("warnings = %q; want %q", warns, tc.warns)
			}
			again, _ := toRequest(tc.req)
			if !bytes.Equal(indent(t, again), got) {
				t.Errorf("toRequest(%s) is not deterministic", tc.name)
			}
		})
	}
}

func TestRenderRules(t *testing.T) {
	t.Parallel()
	first := baseRequest(user("hi"))
	follow := first
	serial := first
	serial.Info = chat.ModelInfo{ID: "gpt-5.5", Reasoning: true, NoParallelToolCalls: true}
	nonReasoning := first
	nonReasoning.Model = "gpt-4.1"
	nonReasoning.Reasoning = &chat.Reasoning{Effort: "high"}
	clamped := first
	clamped.Reasoning = &chat.Reasoning{Effort: "minimal"}
	listed := first
	listed.Info = chat.ModelInfo{ID: "gpt-5.5", Reasoning: true, Efforts: []string{"low", "medium"}, DefaultEffort: "low"}
	stale := first
	stale.Info = chat.ModelInfo{ID: "gpt-5.4", Reasoning: false} // for another model: ignored
	bad := baseRequest(user("hi"))
	bad.Tools = append(bad.Tools, chat.Tool{Name: "has.dot", Canonical: "x.has.dot"},
		chat.Tool{Name: "fs__list", Canonical: "fs.list"})
	effort := func(b request) string {
		if b.Reasoning == nil {
			return ""
		}
		return b.Reasoning.Effort
	}
	tests := []struct {
		name  string
		req   chat.Request
		check func(request, []string) string
	}{
		{"parallel tool calls on a first request", first, func(b request, _ []string) string {
			return cond(b.ParallelToolCalls, "parallel_tool_calls = false; want true")
		}},
		{"the same on a follow-up", follow, func(b request, _ []string) string {
			return cond(b.ParallelToolCalls, "parallel_tool_calls = false on a follow-up; want the model's constant true")
		}},
		{"none for a model that says so", serial, func(b request, _ []string) string {
			return cond(!b.ParallelToolCalls, "parallel_tool_calls = true; want false from the model info")
		}},
		{"default instructions", first, func(b request, _ []string) string {
			return cond(b.Instructions == DefaultInstructions, "instructions = "+b.Instructions)
		}},
		{"reasoning models always get reasoning and encrypted content", first, func(b request, _ []string) string {
			return cond(!b.Store && b.Stream && effort(b) == "medium" && b.Reasoning.Summary == "auto" &&
				reflect.DeepEqual(b.Include, []string{"reasoning.encrypted_content"}),
				fmt.Sprintf("store %v stream %v reasoning %+v include %v; want false, true, medium/auto, encrypted content",
					b.Store, b.Stream, b.Reasoning, b.Include))
		}},
		{"other models get neither", nonReasoning, func(b request, w []string) string {
			return cond(b.Reasoning == nil && b.Include == nil && len(w) == 1,
				fmt.Sprintf("reasoning %+v include %v warnings %q; want none and one warning", b.Reasoning, b.Include, w))
		}},
		{"an effort the model lacks moves to the nearest", clamped, func(b request, w []string) string {
			return cond(effort(b) == "low" && len(w) == 1, fmt.Sprintf("effort %q warnings %q; want low and a warning", effort(b), w))
		}},
		{"the list's default effort", listed, func(b request, _ []string) string {
			return cond(effort(b) == "low", "effort = "+effort(b)+"; want the list's default low")
		}},
		{"info for another model is ignored", stale, func(b request, _ []string) string {
			return cond(effort(b) == "medium", "effort = "+effort(b)+"; want gpt-5.5's from the table")
		}},
		{"invalid and duplicate tool names dropped", bad, func(b request, w []string) string {
			return cond(len(b.Tools) == 2 && len(w) == 2, fmt.Sprintf("got %d tools, warnings %q; want 2 tools, 2 warnings", len(b.Tools), w))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			body, warns := toRequest(tt.req)
			if msg := tt.check(body, warns); msg != "" {
				t.Error(msg)
			}
		})
	}
}

// API-key mode sends max_output_tokens (bounded) and temperature, the latter
// only to models that are not reasoning models; ChatGPT mode sends neither.
func TestModeOnlyFields(t *testing.T) {
	t.Parallel()
	temp := 0.3
	tests := []struct {
		name    string
		apiKey  string
		model   string
		maxOut  int
		wantMax int
		wantT   bool
	}{
		{"api, reasoning model", "sk", "gpt-5.5", 1000, 1000, false},
		{"api, o-series", "sk", "o3", 1000, 1000, false},
		{"api, not reasoning", "sk", "gpt-4.1", 1000, 1000, true},
		{"api, over the model's limit", "sk", "gpt-4.1", 100000, 32768, true},
		{"chatgpt", "", "gpt-5.5", 1000, 0, false},
		{"chatgpt, not reasoning", "", "gpt-4.1", 1000, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			req := baseRequest(user("hi"))
			req.Model, req.MaxOutputTokens, req.Temperature = tt.model, tt.maxOut, &temp
			m := New(WithAPIKey(tt.apiKey), WithAccountID("acc"), WithBaseURL("http://127.0.0.1:9"))
			hr, err := m.newRequest(t.Context(), req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(hr.Body)
			var got struct {
				MaxOutputTokens int      `json:"max_output_tokens"`
				Temperature     *float64 `json:"temperature"`
				TopP            *float64 `json:"top_p"`
			}
			_ = json.Unmarshal(b, &got)
			if got.MaxOutputTokens != tt.wantMax || (got.Temperature != nil) != tt.wantT || got.TopP != nil {
				t.Errorf("max_output_tokens %d, temperature %v; want %d, sent %v", got.MaxOutputTokens, got.Temperature, tt.wantMax, tt.wantT)
			}
		})
	}
}

func cond(ok bool, msg string) string {
	if ok {
		return ""
	}
	return msg
}

// The body never carries item ids, system messages or max_output_tokens.
func TestRenderNoForbiddenFields(t *testing.T) {
	t.Parallel()
	for _, tc := range renderCases() {
		body, _ := toRequest(tc.req)
		b, err := marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{`"id":`, `"role":"system"`, `"max_output_tokens"`, `"status"`} {
			if strings.Contains(string(b), bad) {
				t.Errorf("%s: body contains %s", tc.name, bad)
			}
		}
	}
}
