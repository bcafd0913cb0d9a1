package anthropic

import "maestro/backend/chat"

// ToolRules are the rules Anthropic's Messages API sets for declared tools
// (backend/tools applies them):
//
//   - Names: ^[a-zA-Z0-9_-]{1,64}$, quoted from
//     platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools
//     (docs/providers/anthropic.md §Tool names). No prefix: names go out as
//     server__tool in both modes. The middle of a longer name becomes "_"
//     ("…" is not allowed).
//   - No documented count limit found; 128 for parity with the others and
//     for the context window (every declaration costs input tokens on
//     every step).
//   - input_schema is JSON Schema draft 2020-12 with an object root;
//     nothing beyond the rules every provider shares.
func ToolRules() chat.ToolRules {
	return chat.ToolRules{
		Provider:     chat.ProviderAnthropic,
		MaxTools:     128,
		MaxNameLen:   64,
		NameEllipsis: "_",
		Schema:       chat.SchemaJSON,
	}
}
