package gemini

import "maestro/backend/chat"

// ToolRules are the rules Gemini sets for declared tools (backend/tools
// applies them):
//
//   - Names: ^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$. gemini-cli's mcp-tool.ts
//     replaces invalid characters with '_', prefixes names that do not
//     start with a letter or '_', and caps names at 63 characters by
//     replacing the middle with "..." (docs/providers/gemini.md §Tool
//     names). We follow gemini-cli exactly, 63 characters included,
//     although the regex would allow 64; "..." reads as an ellipsis, where
//     the others take "_".
//   - At most 128 tools. The API rejects more than 512 ("At most 512
//     function declarations can be specified",
//     google-gemini/gemini-cli#19083); Vertex documented 128
//     (googleapis/google-cloud-dotnet#13783). 128 is safe for both and
//     keeps requests small.
//   - functionDeclarations[].parametersJsonSchema, as gemini-cli sends
//     (docs/providers/gemini.md §Tool schemas), is mapped onto the
//     OpenAPI-style Schema proto (ai.google.dev/api/caching#Schema), so
//     schemas keep to what that proto can hold: chat.SchemaOpenAPI.
func ToolRules() chat.ToolRules {
	return chat.ToolRules{
		Provider:        chat.ProviderGemini,
		MaxTools:        128,
		MaxNameLen:      63,
		NameExtra:       ".:",
		NameLetterFirst: true,
		NameEllipsis:    "...",
		Schema:          chat.SchemaOpenAPI,
	}
}
