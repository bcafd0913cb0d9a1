package gemini

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"maestro/backend/chat"
	"maestro/backend/chat/chattest"
)

var update = flag.Bool("update", false, "rewrite golden files")

var _ chat.Model = (*Model)(nil)

func raw(s string) json.RawMessage { return json.RawMessage(s) }

func sig(s string) chat.ProviderData {
	return chat.ProviderData{chat.ProviderGemini: raw(fmt.Sprintf(`{"thoughtSignature":%q}`, s))}
}

func user(id, text string) chat.Message {
	return chat.Message{ID: id, Role: chat.RoleUser, Parts: chat.Parts{chat.TextPart{Text: text}}}
}

func assistant(id, provider string, parts ...chat.Part) chat.Message {
	return chat.Message{ID: id, Role: chat.RoleAssistant, Provider: provider, Parts: parts}
}

func results(id string, rs ...chat.ToolResult) chat.Message {
	m := chat.Message{ID: id, Role: chat.RoleTool}
	for _, r := range rs {
		m.Parts = append(m.Parts, chat.ToolResultPart{Result: r})
	}
	return m
}

func ok(callID, name, data string) chat.ToolResult {
	return chat.ToolResult{CallID: callID, Name: name, Successful: true, Data: raw(data)}
}

func callPart(c chat.ToolCall) chat.ToolCallPart { return chat.ToolCallPart{Call: c} }

// toolset declares the tools the sample histories call.
func toolset() ([]chat.Tool, map[string]string) {
	tools := []chat.Tool{
		{Name: "files__read_file", Canonical: "files.read_file", Description: "Read a file.",
			InputSchema: raw(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)},
		{Name: "files__write_file", Canonical: "files.write_file", Description: "Write a file.",
			InputSchema: raw(`{"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"}}}`)},
		{Name: "clock__now", Canonical: "clock.now", Description: "Current time.", InputSchema: raw(`{"type":"object"}`)},
	}
	names := map[string]string{}
	for _, t := range tools {
		names[t.Canonical] = t.Name
	}
	return tools, names
}

func base(msgs ...chat.Message) chat.Request {
	tools, names := toolset()
	return chat.Request{Model: "gemini-2.5-pro", SessionID: "s-1", PromptID: "p-1",
		Messages: msgs, Tools: tools, ToolNames: names}
}

func manyTools(n int) chat.Request {
	req := chat.Request{Model: "gemini-2.5-pro", SessionID: "s-1", PromptID: "p-1",
		Messages: []chat.Message{user("u1", "hi")}, ToolNames: map[string]string{}}
	for i := range n {
		name := fmt.Sprintf("srv%02d__tool_%04d", i%50, i)
		req.Tools = append(req.Tools, chat.Tool{Name: name, Canonical: fmt.Sprintf("srv%02d.tool_%04d", i%50, i),
			Description: fmt.Sprintf("Tool number %d of the benchmark set.", i),
			InputSchema: raw(fmt.Sprintf(`{"type":"object","properties":{"arg%d":{"type":"string","description":"an argument"}},"required":["arg%d"]}`, i, i))})
		req.ToolNames[req.Tools[i].Canonical] = name
	}
	return req
}

type renderCase struct {
	name  string
	req   chat.Request
	warns []string // substrings, in order
}

func renderCases() []renderCase {
	read := chat.ToolCall{ID: "c1", Name: "files.read_file", Arguments: raw(`{"path":"a.txt"}`), ProviderData: sig("CiQBsig1")}
	temp := 0.2
	return []renderCase{
		{name: "plain_text", req: chat.Request{Model: "gemini-2.5-flash", SessionID: "s-1", PromptID: "p-1",
			Messages: []chat.Message{user("u1", "Hello there")}}},
		{name: "system_prompt", req: chat.Request{Model: "models/gemini-2.5-pro", System: "You are terse.", SessionID: "s-1",
			PromptID: "p-2", MaxOutputTokens: 2048, Temperature: &temp,
			Messages: []chat.Message{user("u1", "Hi"), assistant("a1", "gemini", chat.TextPart{Text: "Hello."}), user("u2", "Bye")}}},
		{name: "tool_call_and_result", req: base(
			user("u1", "Read a.txt"),
			assistant("a1", "gemini", chat.TextPart{Text: "Reading it."}, callPart(read)),
			results("t1", ok("c1", "files.read_file", `{"text":"hello"}`)))},
		{name: "parallel_calls", req: base(
			user("u1", "Read a and b, then write c"),
			assistant("a1", "gemini",
				callPart(chat.ToolCall{ID: "c1", Name: "files.read_file", Arguments: raw(`{"path":"a"}`), ProviderData: sig("CiQBpar")}),
				callPart(chat.ToolCall{ID: "c2", Name: "files.read_file", Arguments: raw(`{"path":"b"}`)}),
				callPart(chat.ToolCall{ID: "c3", Name: "files.write_file", Arguments: raw(`{"path":"c","content":"x"}`)})),
			// Results arrive out of order; they are rendered in call order.
			results("t1", ok("c3", "files.write_file", `"written"`), ok("c1", "files.read_file", `"A"`), ok("c2", "files.read_file", `"B"`)))},
		{name: "error_result", req: base(
			user("u1", "Read secret.txt"),
			assistant("a1", "gemini", callPart(chat.ToolCall{ID: "c1", Name: "files.read_file", Arguments: raw(`{"path":"secret.txt"}`), ProviderData: sig("CiQBerr")})),
			results("t1", chat.ToolResult{CallID: "c1", Name: "files.read_file", Successful: false, Error: "permission denied"}))},
		{name: "call_without_provider_id", req: base(
			// An old turn's unsigned call keeps no signature; the active
			// loop's unsigned call gets the skip sentinel.
			user("u1", "What time is it?"),
			assistant("a1", "gemini", callPart(chat.ToolCall{ID: "old", Name: "clock.now"})),
			results("t1", ok("old", "clock.now", `"09:00"`)),
			assistant("a2", "gemini", chat.TextPart{Text: "It is 09:00."}),
			user("u2", "And now?"),
			assistant("a3", "gemini", callPart(chat.ToolCall{ID: "c2", Name: "clock.now", Arguments: raw(`{}`)})),
			results("t2", ok("c2", "clock.now", `"09:05"`)))},
		{name: "gemini_ids", req: base(
			user("u1", "Read a.txt"),
			assistant("a1", "gemini", callPart(chat.ToolCall{ID: "c1", Name: "files.read_file", Arguments: raw(`{"path":"a.txt"}`),
				ProviderIDs: map[string]string{"gemini": "1zgnzmz8"}, ProviderData: sig("EpgDCpUD")})),
			results("t1", ok("c1", "files.read_file", `"A"`)))},
		{name: "cross_provider", req: base(
			user("u1", "Read a.txt"),
			assistant("a1", "anthropic",
				chat.ReasoningPart{Text: "I should read the file.", ProviderData: chat.ProviderData{"anthropic": raw(`{"signature":"EqQBsig"}`)}},
				chat.TextPart{Text: "Reading."},
				callPart(chat.ToolCall{ID: "c1", Name: "files.read_file", Arguments: raw(`{"path":"a.txt"}`),
					ProviderIDs: map[string]string{"anthropic": "toolu_01A"}})),
			results("t1", ok("c1", "files.read_file", `"A"`)),
			assistant("a2", "openai",
				chat.ReasoningPart{ProviderData: chat.ProviderData{"openai": raw(`{"id":"rs_1","encrypted_content":"gAAA"}`)}},
				callPart(chat.ToolCall{ID: "c2", Name: "files.write_file", Arguments: raw(`{"path":"b.txt","content":"A"}`),
					ProviderIDs: map[string]string{"openai": "call_abc"}})),
			results("t2", ok("c2", "files.write_file", `"ok"`)))},
		{name: "reasoning_replay", req: func() chat.Request {
			r := base(
				user("u1", "Think, then answer"),
				assistant("a1", "gemini",
					chat.ReasoningPart{Text: "**Planning**", ProviderData: sig("CiQBthought")},
					chat.ReasoningPart{Text: "unsigned gemini thought"},
					chat.TextPart{Text: "Answer one.", ProviderData: sig("CiQBtext")}),
				user("u2", "Again"),
				assistant("a2", "openai",
					chat.ReasoningPart{Text: "foreign summary", ProviderData: chat.ProviderData{"openai": raw(`{"id":"rs_2","encrypted_content":"gAAB"}`)}},
					chat.TextPart{Text: "Answer two."}),
				user("u3", "Once more"))
			r.Reasoning = &chat.Reasoning{Effort: "high"}
			return r
		}()},
		{name: "files_and_attachments", req: base(
			chat.Message{ID: "u1", Role: chat.RoleUser, Parts: chat.Parts{
				chat.TextPart{Text: "What is in these?"},
				chat.FilePart{Name: "a.png", MIMEType: "image/png", Data: "iVBORw0KGgo="},
				chat.FilePart{Name: "b.pdf", MIMEType: "application/pdf", URI: "https://example.com/b.pdf"}}},
			assistant("a1", "gemini", callPart(chat.ToolCall{ID: "c1", Name: "files.read_file", Arguments: raw(`{"path":"c.png"}`), ProviderData: sig("CiQBimg")})),
			results("t1", chat.ToolResult{CallID: "c1", Name: "files.read_file", Successful: true, Data: raw(`{"note":"image attached"}`),
				Attachments: []chat.Attachment{{Type: "image", MIMEType: "image/png", Data: "iVBORw0KGgo="}}}))},
		{name: "repaired_history", req: base(
			user("u1", "Do two things"),
			assistant("a1", "gemini",
				callPart(chat.ToolCall{ID: "c1", Name: "files.read_file", Arguments: raw(`{"path":"a"}`), ProviderData: sig("CiQBrep")}),
				callPart(chat.ToolCall{ID: "c2", Name: "removed.tool", Arguments: raw(`[1,2]`)})),
			results("t1", ok("c1", "files.read_file", `"A"`), ok("zz", "files.read_file", `"orphan"`)),
			results("t2", chat.ToolResult{CallID: "yy", Name: "x.y", Successful: true}),
			assistant("a2", "gemini", chat.TextPart{Text: "Done."}),
			assistant("a3", "gemini", chat.TextPart{Text: "Anything else?"}),
			chat.Message{ID: "u2", Role: chat.RoleUser, Parts: chat.Parts{chat.TextPart{}}},
			user("u3", "No")),
			warns: []string{"tool call c2: arguments are not a JSON object", "tool call c2: no result",
				"tool result yy: no matching tool call", "tool result zz: no matching tool call", "message u2: user message has nothing to send"}},
		// Resources and a prompt's content, and a tool result with a link
		// and an embedded resource (chattest.AttachmentTurn); the gzip
		// resource, which Gemini cannot take, only named.
		{name: "resources", req: base(chattest.AttachmentTurn()...)},
		{name: "tools_1000", req: manyTools(1000)},
		{name: "user_after_tool_results", req: base(
			// The turn ended after the tool results (a cancelled or failed
			// step); the next prompt must not merge into the response turn.
			user("u1", "Read a.txt"),
			assistant("a1", "gemini", callPart(read)),
			results("t1", ok("c1", "files.read_file", `"A"`)),
			user("u2", "Never mind, what time is it?"))},
		{name: "thought_signature_moves_to_call", req: base(
			user("u1", "Read a.txt"),
			assistant("a1", "gemini",
				chat.ReasoningPart{Text: "**Reading**", ProviderData: sig("CiQBthought")},
				callPart(chat.ToolCall{ID: "c1", Name: "files.read_file", Arguments: raw(`{"path":"a.txt"}`)}),
				callPart(chat.ToolCall{ID: "c2", Name: "clock.now"})),
			results("t1", ok("c1", "files.read_file", `"A"`), ok("c2", "clock.now", `"09:00"`)))},
		{name: "media_in_tool_results", req: base(
			user("u1", "Play and show"),
			assistant("a1", "gemini",
				callPart(chat.ToolCall{ID: "c1", Name: "files.read_file", Arguments: raw(`{"path":"a.mp3"}`), ProviderData: sig("CiQBav")}),
				callPart(chat.ToolCall{ID: "c2", Name: "files.read_file", Arguments: raw(`{"path":"b.png"}`)})),
			results("t1",
				chat.ToolResult{CallID: "c1", Name: "files.read_file", Successful: true, Attachments: []chat.Attachment{
					{Type: "audio", MIMEType: "audio/mpeg", Data: "SUQzBA=="}, {Type: "video", MIMEType: "video/mp4", Data: "AAAAGGZ0eXA="}}},
				chat.ToolResult{CallID: "c2", Name: "files.read_file", Successful: true, Attachments: []chat.Attachment{
					{Type: "image", MIMEType: "image/png", Data: "iVBORw0KGgo="}}}),
			assistant("a2", "gemini", callPart(chat.ToolCall{ID: "c3", Name: "clock.now"})),
			results("t2", ok("c3", "clock.now", `"09:00"`)))},
		{name: "gemini3_level_and_nested_image", req: func() chat.Request {
			r := base(
				user("u1", "Show c.png"),
				assistant("a1", "gemini", callPart(chat.ToolCall{ID: "c1", Name: "files.read_file", Arguments: raw(`{"path":"c.png"}`), ProviderData: sig("CiQBg3")})),
				results("t1", chat.ToolResult{CallID: "c1", Name: "files.read_file", Successful: true,
					Attachments: []chat.Attachment{{Type: "image", MIMEType: "image/png", Data: "iVBORw0KGgo="}}}))
			r.Model = "gemini-3-pro-preview"
			r.Reasoning = &chat.Reasoning{Effort: "low"}
			return r
		}()},
		{name: "budget_clamped", req: func() chat.Request {
			r := base(user("u1", "Think hard"))
			r.Model = "gemini-2.5-flash-lite"
			r.Reasoning = &chat.Reasoning{BudgetTokens: 100}
			return r
		}()},
		{name: "media_only_user_turn_keeps_loop", req: base(
			// An image-only user turn inside a tool loop does not start a
			// new active loop: the earlier unsigned call still gets the
			// sentinel.
			user("u1", "Describe what I send"),
			assistant("a1", "gemini", callPart(chat.ToolCall{ID: "c1", Name: "clock.now"})),
			results("t1", ok("c1", "clock.now", `"09:00"`)),
			assistant("a2", "gemini", chat.TextPart{Text: "Send it."}),
			chat.Message{ID: "u2", Role: chat.RoleUser, Parts: chat.Parts{chat.FilePart{Name: "x.png", MIMEType: "image/png", Data: "iVBORw0KGgo="}}})},
	}
}

func TestRenderGolden(t *testing.T) {
	t.Parallel()
	for _, tc := range renderCases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env, warns := toRequest(tc.req)
			got, err := json.MarshalIndent(env, "", "  ")
			if err != nil {
				t.Fatalf("marshal: %v", err)
			}
			got = append(got, '\n')
			golden := filepath.Join("testdata", "golden", tc.name+".json")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("read golden (run go test -update): %v", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("rendered body differs from %s (run go test -update and review the diff)\ngot:\n%s", golden, got)
			}
			if len(warns) != len(tc.warns) {
				t.Fatalf("got warnings %q; want %d matching %q", warns, len(tc.warns), tc.warns)
			}
			for i, w := range tc.warns {
				if !strings.Contains(warns[i], w) {
					t.Errorf("warning %d: got %q; want it to contain %q", i, warns[i], w)
				}
			}
		})
	}
}

// TestRenderInvariants: whatever the history, no two consecutive contents
// share a role, no part is a thought, no audio or video sits beside a
// function response, and tools are declared under one spelling.
func TestRenderInvariants(t *testing.T) {
	t.Parallel()
	for _, tc := range renderCases() {
		env, _ := toRequest(tc.req)
		cs := env.Request.Contents
		for i, c := range cs {
			if i > 0 && cs[i-1].Role == c.Role {
				t.Errorf("%s: contents %d and %d are both %s", tc.name, i-1, i, c.Role)
			}
			for _, p := range c.Parts {
				if p.Thought {
					t.Errorf("%s: content %d replays a thought part", tc.name, i)
				}
				if hasResponse(c) && p.InlineData != nil && audioOrVideo(p.InlineData.MIMEType) {
					t.Errorf("%s: content %d has %s beside a function response", tc.name, i, p.InlineData.MIMEType)
				}
			}
		}
		if b, _ := json.Marshal(env); bytes.Contains(b, []byte("function_declarations")) {
			t.Errorf("%s: body has function_declarations", tc.name)
		}
	}
}

// TestRenderIsPure: rendering twice gives the same bytes and leaves the
// request untouched.
func TestRenderIsPure(t *testing.T) {
	t.Parallel()
	for _, tc := range renderCases() {
		before, _ := json.Marshal(tc.req.Messages)
		a, _ := toRequest(tc.req)
		b, _ := toRequest(tc.req)
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		after, _ := json.Marshal(tc.req.Messages)
		if !bytes.Equal(ja, jb) || !bytes.Equal(before, after) {
			t.Errorf("%s: rendering is not pure", tc.name)
		}
	}
}

func TestModelBody(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		opts       []Option
		model      string
		wantKeys   []string // top-level keys of the body
		wantModel  string   // the envelope's model, Code Assist only
		wantTarget string
	}{
		{"code assist", []Option{WithProject("proj-1")}, "gemini-2.5-pro", []string{"model", "project", "request", "user_prompt_id"},
			"gemini-2.5-pro", CodeAssistBaseURL + "/v1internal:streamGenerateContent?alt=sse"},
		{"code assist 3.5 flash", []Option{WithProject("proj-1")}, "gemini-3.5-flash", []string{"model", "project", "request", "user_prompt_id"},
			"gemini-3-flash", CodeAssistBaseURL + "/v1internal:streamGenerateContent?alt=sse"},
		{"api key", []Option{WithAPIKey("k")}, "gemini-2.5-pro", []string{"contents", "generationConfig", "tools"}, "",
			APIKeyBaseURL + "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse"},
		{"api key 3.5 flash", []Option{WithAPIKey("k")}, "gemini-3.5-flash", []string{"contents", "generationConfig", "tools"}, "",
			APIKeyBaseURL + "/v1beta/models/gemini-3.5-flash:streamGenerateContent?alt=sse"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			req := base(user("u1", "hi"))
			req.Model = tt.model
			m := New(tt.opts...)
			body, _ := m.body(req)
			b, _ := json.Marshal(body)
			var top map[string]json.RawMessage
			if err := json.Unmarshal(b, &top); err != nil {
				t.Fatal(err)
			}
			keys := slices.Sorted(maps.Keys(top))
			if !slices.Equal(keys, tt.wantKeys) {
				t.Errorf("got top-level keys %v; want %v", keys, tt.wantKeys)
			}
			if tt.wantModel != "" && string(top["model"]) != strconv.Quote(tt.wantModel) {
				t.Errorf("got model %s; want %q", top["model"], tt.wantModel)
			}
			if bytes.Contains(b, []byte(`"function_declarations"`)) || !bytes.Contains(b, []byte(`"functionDeclarations"`)) {
				t.Errorf("got tools %s; want them under functionDeclarations only", b)
			}
			if bytes.Contains(b, []byte(`"session_id"`)) == (m.apiKey != "") {
				t.Errorf("session_id presence wrong for mode: %s", b)
			}
			if got := m.endpoint(tt.model); got != tt.wantTarget {
				t.Errorf("got endpoint %s; want %s", got, tt.wantTarget)
			}
		})
	}
}
