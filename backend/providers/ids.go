package providers

import (
	"crypto/sha256"
	"encoding/base64"
	"strings"

	"maestro/backend/chat"
)

// CallID is the id to render for call when talking to provider: the id that
// provider gave the call if it produced it, otherwise an id derived from the
// canonical id, stable forever and valid for the provider
// (Anthropic: toolu_…, OpenAI: call_…, both ^[a-zA-Z0-9_-]+$). Gemini accepts
// any id string or none; it gets the canonical id.
func CallID(provider string, call chat.ToolCall) string {
	if id := call.ProviderIDs[provider]; id != "" {
		return id
	}
	switch provider {
	case chat.ProviderAnthropic:
		return "toolu_" + derive(call.ID)
	case chat.ProviderOpenAI:
		return "call_" + derive(call.ID)
	default:
		return call.ID
	}
}

// derive maps any string to 22 URL-safe characters, so a canonical id of
// any shape yields a valid provider id.
func derive(id string) string {
	sum := sha256.Sum256([]byte(id))
	return base64.RawURLEncoding.EncodeToString(sum[:16])
}

// FallbackToolName turns a canonical server.tool name into a name every
// provider accepts (^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$), for tools the session's
// registry has no exposed name for (e.g. a tool removed since it was called).
func FallbackToolName(canonical string) string {
	var b strings.Builder
	for _, r := range strings.Replace(canonical, ".", "__", 1) {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	s := b.String()
	if s == "" || !(s[0] == '_' || s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
		s = "_" + s // Gemini names must start with a letter or underscore
	}
	if len(s) > 64 {
		s = s[:55] + "_" + derive(canonical)[:8]
	}
	return s
}

// ToolName returns the name req declares for canonical, or the fallback.
func ToolName(req chat.Request, canonical string) string {
	if n := req.ToolNames[canonical]; n != "" {
		return n
	}
	return FallbackToolName(canonical)
}
