package openai

import "maestro/backend/chat"

// ToolRules are the rules OpenAI's Responses and Chat Completions APIs set
// for declared tools (backend/tools applies them):
//
//   - Names: ^[a-zA-Z0-9_-]{1,64}$. Codex's mcp_connection_manager.rs says
//     "OpenAI requires tool names to conform to ^[a-zA-Z0-9_-]+$" with
//     MAX_TOOL_NAME_LENGTH 64 (docs/providers/openai.md §Tool names). The
//     middle of a longer name becomes "_" ("…" is not allowed).
//   - At most 128 tools, enforced: "Invalid 'tools': array too long.
//     Expected an array with maximum length 128" (code
//     array_above_max_length; e.g. vishalmysore/Tools4AI#16,
//     zed-industries/zed#32946).
//   - Function "parameters" (strict: false) are JSON Schema, and every
//     array schema needs "items": "array schema missing items" (e.g.
//     sigoden/aichat#1049, mark3labs/mcphost#35, also for type lists that
//     contain "array": tidewave-ai/tidewave_phoenix#224). A missing items
//     becomes {} (any), which OpenAI accepts (langchain4j/langchain4j#3452
//     verified it in an integration test).
func ToolRules() chat.ToolRules {
	return chat.ToolRules{
		Provider:     chat.ProviderOpenAI,
		MaxTools:     128,
		MaxNameLen:   64,
		NameEllipsis: "_",
		Schema:       chat.SchemaJSONArrayItems,
	}
}
