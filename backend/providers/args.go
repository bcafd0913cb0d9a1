package providers

import (
	"bytes"
	"encoding/json"
)

// ToolArguments sorts a tool call's complete arguments text as a provider
// delivered it. A JSON object is returned as it is; nothing, or null, is
// "{}" (a call without arguments). Anything else — JSON cut off or
// malformed, or another JSON value than an object — is the model's
// mistake, not a broken stream: it is returned as "{}" plus the text
// itself, for chat.ToolCallDone.RawArguments, so the agent can tell the
// model what was wrong instead of retrying the request.
func ToolArguments(text []byte) (args json.RawMessage, raw string) {
	t := bytes.TrimSpace(text)
	switch {
	case len(t) == 0 || bytes.Equal(t, []byte("null")):
		return json.RawMessage("{}"), ""
	case t[0] == '{' && json.Valid(t):
		return json.RawMessage(t), ""
	}
	return json.RawMessage("{}"), string(t)
}
