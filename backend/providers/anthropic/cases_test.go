package anthropic

import (
	"encoding/json"
	"fmt"

	"maestro/backend/chat"
	"maestro/backend/chat/chattest"
	"maestro/backend/providers/anthropic/anthropicfake"
)

// renderCase is one canonical request rendered to a golden body. The same
// table drives the golden test and the fake-server cross-check.
type renderCase struct {
	name   string
	opts   []Option
	req    chat.Request
	warns  []string // substrings every one of which must appear in a warning
	thinks bool     // the rendered body must enable thinking
}

func raw(s string) json.RawMessage { return json.RawMessage(s) }

// modes are the Model's two modes, for tests that run in both.
var modes = []struct {
	name string
	opts []Option
}{{"oauth", nil}, {"api key", []Option{WithAPIKey("sk-ant-test")}}}

func user(text string) chat.Message {
	return chat.Message{ID: "u-" + text, Role: chat.RoleUser, Parts: chat.Parts{chat.TextPart{Text: text}}}
}

func assistant(provider string, parts ...chat.Part) chat.Message {
	return chat.Message{ID: "a", Role: chat.RoleAssistant, Provider: provider, Parts: parts}
}

func toolMsg(results ...chat.ToolResult) chat.Message {
	m := chat.Message{ID: "t", Role: chat.RoleTool}
	for _, r := range results {
		m.Parts = append(m.Parts, chat.ToolResultPart{Result: r})
	}
	return m
}

func call(id, name, args string, providerIDs map[string]string) chat.ToolCallPart {
	return chat.ToolCallPart{Call: chat.ToolCall{ID: id, Name: name, Arguments: raw(args), ProviderIDs: providerIDs}}
}

func ok(callID, name, data string) chat.ToolResult {
	return chat.ToolResult{CallID: callID, Name: name, Successful: true, Data: raw(data)}
}

func anthropicID(id string) map[string]string { return map[string]string{chat.ProviderAnthropic: id} }

// weatherTools are the tools most cases declare, with their exposed names.
func weatherTools() ([]chat.Tool, map[string]string) {
	tools := []chat.Tool{
		{Name: "weather__get_forecast", Canonical: "weather.get_forecast", Description: "Forecast for a city (via weather)",
			InputSchema: raw(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)},
		{Name: "everything__echo", Canonical: "everything.echo", Description: "Echoes a message (via everything)",
			InputSchema: raw(`{"type":"object","properties":{"message":{"type":"string"}}}`)},
		{Name: "clock__now", Canonical: "clock.now", Description: "Current time (via clock)"},
	}
	names := map[string]string{}
	for _, t := range tools {
		names[t.Canonical] = t.Name
	}
	return tools, names
}

func withTools(req chat.Request) chat.Request {
	req.Tools, req.ToolNames = weatherTools()
	if req.Model == "" {
		req.Model = "claude-sonnet-4-5"
	}
	return req
}

// thinkingPart is a reasoning part as this adapter stores it, signed the
// way the fake signs, so the fake accepts its replay.
func thinkingPart(text string) chat.ReasoningPart {
	st, _ := json.Marshal(thinkingState{Signature: anthropicfake.Signature(text), Thinking: &text})
	return chat.ReasoningPart{Text: text, ProviderData: chat.ProviderData{chat.ProviderAnthropic: st}}
}

func manyTools(n int) chat.Request {
	req := chat.Request{Model: "claude-sonnet-4-5", ToolNames: map[string]string{}, Messages: []chat.Message{user("Which tool?")}}
	for i := range n {
		canonical := fmt.Sprintf("server%03d.tool_%04d", i%100, i)
		exposed := fmt.Sprintf("server%03d__tool_%04d", i%100, i)
		req.Tools = append(req.Tools, chat.Tool{Name: exposed, Canonical: canonical,
			Description: fmt.Sprintf("Tool number %d does one small thing (via server%03d)", i, i%100),
			InputSchema: raw(fmt.Sprintf(`{"type":"object","properties":{"query":{"type":"string","description":"what to look up for tool %d"},"limit":{"type":"integer","minimum":1}},"required":["query"]}`, i))})
		req.ToolNames[canonical] = exposed
	}
	return req
}

func renderCases() []renderCase {
	weatherCall := call("c1", "weather.get_forecast", `{"city":"Paris"}`, anthropicID("toolu_01A"))
	return []renderCase{
		{name: "plain_text", req: chat.Request{Model: "claude-sonnet-4-5", Messages: []chat.Message{user("Hello!")}}},
		{name: "system_prompt", req: chat.Request{Model: "claude-sonnet-4-5", System: "You are terse.", Messages: []chat.Message{user("Hi")}}},
		{name: "system_prompt_apikey", opts: []Option{WithAPIKey("sk-ant-test")},
			req: chat.Request{Model: "claude-sonnet-4-5", System: "You are terse.", MaxOutputTokens: 1024, Temperature: new(0.2), Messages: []chat.Message{user("Hi")}}},
		{name: "tool_call_and_result", req: withTools(chat.Request{System: "Use tools.", Messages: []chat.Message{
			user("Weather in Paris?"),
			assistant(chat.ProviderAnthropic, chat.TextPart{Text: "I'll check."}, weatherCall),
			toolMsg(ok("c1", "weather.get_forecast", `{"temp_c": 21, "sky": "<sunny> & calm"}`)),
		}})},
		{name: "parallel_tool_calls", req: withTools(chat.Request{Messages: []chat.Message{
			user("Weather in Paris and Rome, and echo hi"),
			assistant(chat.ProviderAnthropic,
				call("c1", "weather.get_forecast", `{"city":"Paris"}`, anthropicID("toolu_01A")),
				call("c2", "weather.get_forecast", `{"city":"Rome"}`, anthropicID("toolu_01B")),
				call("c3", "everything.echo", `{"message":"hi"}`, anthropicID("toolu_01C"))),
			// Results arrive out of order and split over two messages; the
			// user typed while the tools ran.
			toolMsg(ok("c3", "everything.echo", `{"text":"Echo: hi"}`), ok("c1", "weather.get_forecast", `{"temp_c":21}`)),
			user("also, be brief"),
			toolMsg(ok("c2", "weather.get_forecast", `{"temp_c":25}`)),
		}})},
		{name: "error_tool_result", req: withTools(chat.Request{Messages: []chat.Message{
			user("Weather?"),
			assistant(chat.ProviderAnthropic, weatherCall),
			toolMsg(chat.ToolResult{CallID: "c1", Name: "weather.get_forecast", Successful: false, Error: "denied by user"}),
		}})},
		{name: "call_without_provider_id", req: withTools(chat.Request{Messages: []chat.Message{
			user("What time is it?"),
			assistant("", call("0190f3b2-canonical", "clock.now", ``, nil)),
			toolMsg(ok("0190f3b2-canonical", "clock.now", `{"time":"09:30"}`)),
		}})},
		{name: "cross_provider", req: withTools(chat.Request{Messages: []chat.Message{
			user("Weather in Paris?"),
			assistant(chat.ProviderGemini,
				chat.ReasoningPart{Text: "**Planning** the lookup", ProviderData: chat.ProviderData{chat.ProviderGemini: raw(`{"thoughtSignature":"CiQB"}`)}},
				chat.ToolCallPart{Call: chat.ToolCall{ID: "g1", Name: "weather.get_forecast", Arguments: raw(`{"city":"Paris"}`),
					ProviderData: chat.ProviderData{chat.ProviderGemini: raw(`{"thoughtSignature":"CiQB"}`)}}}),
			toolMsg(ok("g1", "weather.get_forecast", `{"temp_c":21}`)),
			assistant(chat.ProviderGemini, chat.TextPart{Text: "It is 21°C in Paris."}),
			user("Echo hi, then tell me the time"),
			assistant(chat.ProviderOpenAI,
				chat.ReasoningPart{ProviderData: chat.ProviderData{chat.ProviderOpenAI: raw(`{"id":"rs_1","encrypted_content":"gAAA"}`)}},
				call("o1", "everything.echo", `{"message":"hi"}`, map[string]string{chat.ProviderOpenAI: "call_abc"}),
				call("o2", "removed.tool", `{}`, map[string]string{chat.ProviderOpenAI: "call_def"})),
			toolMsg(ok("o1", "everything.echo", `{"text":"Echo: hi"}`),
				chat.ToolResult{CallID: "o2", Name: "removed.tool", Successful: false, Error: "tool removed"}),
		}}), warns: []string{"2 reasoning part(s)"}},
		{name: "reasoning_replay", thinks: true, req: withTools(chat.Request{
			Reasoning: &chat.Reasoning{Effort: "high"}, Temperature: new(0.5), Messages: []chat.Message{
				user("Plan a trip"),
				assistant(chat.ProviderGemini,
					chat.ReasoningPart{Text: "gemini thoughts", ProviderData: chat.ProviderData{chat.ProviderGemini: raw(`{"thoughtSignature":"CiQB"}`)}},
					chat.TextPart{Text: "Where to?"}),
				user("Paris"),
				assistant(chat.ProviderAnthropic,
					thinkingPart("The user wants Paris weather."),
					chat.ReasoningPart{ProviderData: chat.ProviderData{chat.ProviderAnthropic: raw(`{"type":"redacted_thinking","data":"EmwKAhgBEgy3va"}`)}},
					chat.ReasoningPart{Text: "openai summary", ProviderData: chat.ProviderData{chat.ProviderOpenAI: raw(`{"id":"rs_2"}`)}},
					weatherCall),
				toolMsg(ok("c1", "weather.get_forecast", `{"temp_c":21}`)),
			}}), warns: []string{"temperature dropped", "2 reasoning part(s)"}},
		{name: "thinking_off_for_foreign_tool_loop", req: withTools(chat.Request{
			Reasoning: &chat.Reasoning{BudgetTokens: 4000}, Messages: []chat.Message{
				user("Weather?"),
				assistant(chat.ProviderOpenAI, call("o1", "weather.get_forecast", `{"city":"Oslo"}`, map[string]string{chat.ProviderOpenAI: "call_x"})),
				toolMsg(ok("o1", "weather.get_forecast", `{"temp_c":3}`)),
			}}), warns: []string{"thinking turned off"}},
		{name: "repair_pairing", req: withTools(chat.Request{Messages: []chat.Message{
			toolMsg(ok("ghost", "everything.echo", `{}`)), // a result before any call
			user("Weather in Paris and Rome?"),
			assistant(chat.ProviderAnthropic, weatherCall,
				call("c2", "weather.get_forecast", `{"city":"Rome"}`, anthropicID("toolu_01B"))),
			// The turn was stopped: c2 never got a result; c1 got two.
			toolMsg(ok("c1", "weather.get_forecast", `{"temp_c":21}`), ok("c1", "weather.get_forecast", `{"temp_c":22}`)),
			assistant(chat.ProviderAnthropic, chat.TextPart{Text: ""}),
			user("Never mind."),
			assistant(chat.ProviderAnthropic, call("c3", "everything.echo", `"not an object"`, anthropicID("toolu_01C"))),
		}}), warns: []string{"no matching tool call", "duplicate tool result", "toolu_01B has no result", "toolu_01C has no result", "not a JSON object"}},
		// The recording was sent to another provider before the session
		// switched: it stays in history, and Claude gets a note instead.
		{name: "attachments", req: withTools(chat.Request{Messages: []chat.Message{
			{ID: "u0", Role: chat.RoleUser, Parts: chat.Parts{chat.TextPart{Text: "An old recording"},
				chat.FilePart{Name: "d.wav", MIMEType: "audio/wav", Data: "UklGRg=="}}},
			assistant(chat.ProviderGemini, chat.TextPart{Text: "Noted."}),
			{ID: "u1", Role: chat.RoleUser, Parts: chat.Parts{
				chat.TextPart{Text: "What is in these?"},
				chat.FilePart{Name: "a.png", MIMEType: "image/png", Data: "iVBORw0KGgo="},
				chat.FilePart{Name: "b.pdf", MIMEType: "application/pdf", URI: "https://example.com/b.pdf"},
				chat.FilePart{Name: "c.txt", MIMEType: "text/plain", Data: "aGVsbG8="},
			}},
			assistant(chat.ProviderAnthropic, call("c3", "everything.echo", `{"message":"screenshot"}`, anthropicID("toolu_01C"))),
			toolMsg(chat.ToolResult{CallID: "c3", Name: "everything.echo", Successful: true, Data: raw(`{"text":"ok"}`),
				Attachments: []chat.Attachment{{Type: "image", MIMEType: "image/png", Data: "iVBORw0KGgo="},
					{Type: "resource", URI: "file:///a.txt", Text: "resource text"},
					{Type: "image", MIMEType: "image/svg+xml", Data: "PHN2Zz4="}}}),
		}}), warns: []string{"audio/wav"}},
		// Resources and a prompt's content in the latest user message, and
		// a tool result with a resource link and an embedded resource
		// (chattest.AttachmentTurn): text with a line naming each, images
		// as images; the gzip resource, which Claude cannot take, only
		// named.
		{name: "resources", req: withTools(chat.Request{Messages: chattest.AttachmentTurn()})},
		{name: "tools_1000", req: manyTools(1000)},
		// Opus 4.7 thinks adaptively, takes the effort as output_config and
		// rejects sampling parameters.
		{name: "adaptive_thinking", thinks: true, req: withTools(chat.Request{Model: "claude-opus-4-7",
			Reasoning: &chat.Reasoning{Effort: "high"}, Temperature: new(0.5), Messages: []chat.Message{user("Plan a trip")}}),
			warns: []string{"temperature dropped: claude-opus-4-7"}},
		// Haiku 4.5 allows 64,000 output tokens: max_tokens is lowered to
		// it and the budget to fit under it.
		{name: "output_limit", thinks: true, req: withTools(chat.Request{Model: "claude-haiku-4-5", MaxOutputTokens: 100000,
			Reasoning: &chat.Reasoning{BudgetTokens: 80000}, Messages: []chat.Message{user("Write a lot")}}),
			warns: []string{"max_tokens 100000 lowered to 64000", "thinking budget 80000 lowered to 59904"}},
		// What the catalog knows (the live list) wins over the built-in table.
		{name: "catalog_info", thinks: true, opts: []Option{WithAPIKey("sk-ant-test")}, req: withTools(chat.Request{Model: "claude-sonnet-4-6",
			Info:      chat.ModelInfo{ID: "claude-sonnet-4-6", MaxOutputTokens: 32000, Thinking: chat.ThinkingAdaptive, Efforts: []string{"low", "medium", "high"}},
			Reasoning: &chat.Reasoning{Effort: "low"}, MaxOutputTokens: 50000, System: "Be brief.", Messages: []chat.Message{user("Hi")}}),
			warns: []string{"max_tokens 50000 lowered to 32000"}},
	}
}
