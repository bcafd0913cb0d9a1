package auth

import (
	"net"
	"os"
	"strings"

	"maestro/backend/chat"
)

// Endpoints holds every OAuth and API base URL Maestro talks to, so that
// tests and the end-to-end suite can point the real app at local fakes.
// Each is a root URL (scheme://host[:port][/prefix]) without a trailing
// slash; the paths of each provider's docs/providers/<provider>.md
// §Sign-in: constants are appended to it, so a root with a path prefix
// (http://127.0.0.1:PORT/openai) works as well as a host.
//
// The zero value of a field means its default (DefaultEndpoints).
type Endpoints struct {
	// OpenAIAuth is the ChatGPT sign-in issuer: {}/oauth/authorize and
	// {}/oauth/token (MAESTRO_OPENAI_AUTH_URL).
	OpenAIAuth string
	// OpenAIBase is the ChatGPT backend host: {}/backend-api/codex/responses
	// (MAESTRO_OPENAI_BASE_URL).
	OpenAIBase string
	// OpenAIAPI is the public API host used with an API key: {}/v1/responses
	// (MAESTRO_OPENAI_API_URL).
	OpenAIAPI string

	// AnthropicAuth is the Claude authorize host: {}/oauth/authorize
	// (MAESTRO_ANTHROPIC_AUTH_URL).
	AnthropicAuth string
	// AnthropicToken is the Claude token host: {}/v1/oauth/token, and the
	// manual (paste) redirect {}/oauth/code/callback
	// (MAESTRO_ANTHROPIC_TOKEN_URL).
	AnthropicToken string
	// AnthropicBase is the Messages API host: {}/v1/messages, for both
	// sign-in and API key (MAESTRO_ANTHROPIC_BASE_URL).
	AnthropicBase string

	// GeminiAuth is Google's consent host: {}/o/oauth2/v2/auth
	// (MAESTRO_GEMINI_AUTH_URL).
	GeminiAuth string
	// GeminiToken is Google's token host: {}/token
	// (MAESTRO_GEMINI_TOKEN_URL).
	GeminiToken string
	// GeminiUserinfo is {}/oauth2/v2/userinfo (MAESTRO_GEMINI_USERINFO_URL).
	GeminiUserinfo string
	// GeminiCodeAssist is the Code Assist host used with a Google sign-in:
	// {}/v1internal:… (MAESTRO_GEMINI_CODE_ASSIST_URL).
	GeminiCodeAssist string
	// GeminiBase is the public Generative Language API host used with an
	// API key (MAESTRO_GEMINI_BASE_URL).
	GeminiBase string

	// CallbackHost is the address the sign-in listener binds. It must be a
	// loopback address; anything else is refused (MAESTRO_OAUTH_CALLBACK_HOST,
	// for tests only).
	CallbackHost string
	// GoogleCloudProject is the Code Assist project the user chose, if any
	// (GOOGLE_CLOUD_PROJECT, else GOOGLE_CLOUD_PROJECT_ID). It is not a URL,
	// but it is configuration of the same kind: settings may set it too.
	GoogleCloudProject string
}

// DefaultEndpoints returns the real services.
func DefaultEndpoints() Endpoints {
	return Endpoints{
		OpenAIAuth:       "https://auth.openai.com",
		OpenAIBase:       "https://chatgpt.com",
		OpenAIAPI:        "https://api.openai.com",
		AnthropicAuth:    "https://claude.ai",
		AnthropicToken:   "https://console.anthropic.com",
		AnthropicBase:    "https://api.anthropic.com",
		GeminiAuth:       "https://accounts.google.com",
		GeminiToken:      "https://oauth2.googleapis.com",
		GeminiUserinfo:   "https://www.googleapis.com",
		GeminiCodeAssist: "https://cloudcode-pa.googleapis.com",
		GeminiBase:       "https://generativelanguage.googleapis.com",
		CallbackHost:     "127.0.0.1",
	}
}

// envVars maps each field to its environment variable.
var envVars = []struct {
	name  string
	field func(*Endpoints) *string
}{
	{"MAESTRO_OPENAI_AUTH_URL", func(e *Endpoints) *string { return &e.OpenAIAuth }},
	{"MAESTRO_OPENAI_BASE_URL", func(e *Endpoints) *string { return &e.OpenAIBase }},
	{"MAESTRO_OPENAI_API_URL", func(e *Endpoints) *string { return &e.OpenAIAPI }},
	{"MAESTRO_ANTHROPIC_AUTH_URL", func(e *Endpoints) *string { return &e.AnthropicAuth }},
	{"MAESTRO_ANTHROPIC_TOKEN_URL", func(e *Endpoints) *string { return &e.AnthropicToken }},
	{"MAESTRO_ANTHROPIC_BASE_URL", func(e *Endpoints) *string { return &e.AnthropicBase }},
	{"MAESTRO_GEMINI_AUTH_URL", func(e *Endpoints) *string { return &e.GeminiAuth }},
	{"MAESTRO_GEMINI_TOKEN_URL", func(e *Endpoints) *string { return &e.GeminiToken }},
	{"MAESTRO_GEMINI_USERINFO_URL", func(e *Endpoints) *string { return &e.GeminiUserinfo }},
	{"MAESTRO_GEMINI_CODE_ASSIST_URL", func(e *Endpoints) *string { return &e.GeminiCodeAssist }},
	{"MAESTRO_GEMINI_BASE_URL", func(e *Endpoints) *string { return &e.GeminiBase }},
	{"MAESTRO_OAUTH_CALLBACK_HOST", func(e *Endpoints) *string { return &e.CallbackHost }},
}

// EndpointsFromEnv returns DefaultEndpoints overridden by the environment
// variables named on each field. Empty variables are ignored.
func EndpointsFromEnv() Endpoints { return endpointsFrom(os.Getenv) }

func endpointsFrom(getenv func(string) string) Endpoints {
	e := DefaultEndpoints()
	for _, v := range envVars {
		if s := strings.TrimSpace(getenv(v.name)); s != "" {
			*v.field(&e) = s
		}
	}
	e.GoogleCloudProject = strings.TrimSpace(getenv("GOOGLE_CLOUD_PROJECT"))
	if e.GoogleCloudProject == "" {
		e.GoogleCloudProject = strings.TrimSpace(getenv("GOOGLE_CLOUD_PROJECT_ID"))
	}
	return e.withDefaults()
}

// withDefaults fills empty fields from DefaultEndpoints and trims trailing
// slashes, so paths can be appended with +.
func (e Endpoints) withDefaults() Endpoints {
	d := DefaultEndpoints()
	for _, v := range envVars {
		p := v.field(&e)
		if *p == "" {
			*p = *v.field(&d)
		}
		*p = strings.TrimRight(*p, "/")
	}
	return e
}

// callbackBindHost returns the host the sign-in listener binds: a loopback
// IP. "localhost" means 127.0.0.1; anything that is not loopback is
// refused, so a misconfiguration can never expose the listener.
func (e Endpoints) callbackBindHost() (string, error) {
	h := strings.Trim(e.CallbackHost, "[]")
	if h == "" || h == "localhost" {
		return "127.0.0.1", nil
	}
	if ip := net.ParseIP(h); ip != nil && ip.IsLoopback() {
		return ip.String(), nil
	}
	return "", chat.E(chat.ErrInvalid,
		"the sign-in callback host %q is not a loopback address; set MAESTRO_OAUTH_CALLBACK_HOST to 127.0.0.1 or unset it", e.CallbackHost)
}
