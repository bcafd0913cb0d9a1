package diagnostics

import (
	"regexp"
	"slices"
	"strings"
)

// Redacted replaces every secret in the text.
const Redacted = "[redacted]"

// minSecret is the shortest value removed by exact match: shorter ones
// ("1", "yes") would blank out ordinary words and prove nothing.
const minSecret = 6

// credentialPatterns match credentials whose value the app need not know.
// Each keeps its first group (the name or prefix) and replaces the rest.
var credentialPatterns = []*regexp.Regexp{
	// Authorization: Bearer …, Basic …
	regexp.MustCompile(`(?i)((?:bearer|basic)\s+)[A-Za-z0-9._~+/=-]{6,}`),
	// JSON or key=value fields whose name says secret.
	regexp.MustCompile(`(?i)("?[\w-]*(?:token|secret|password|passwd|api[_-]?key|apikey|authorization|auth[_-]?code|client[_-]?secret|cookie|session[_-]?id)[\w-]*"?\s*[:=]\s*"?)[^"\s,&}]{4,}`),
	// URL query parameters whose name says secret.
	regexp.MustCompile(`(?i)([?&](?:[\w-]*(?:token|secret|password|key|code|sig|signature)[\w-]*)=)[^&\s"]+`),
	// Command-line flags whose name says secret: --token abc, --api-key=abc.
	regexp.MustCompile(`(?i)(--?[\w-]*(?:token|secret|password|api[_-]?key|apikey)[\w-]*[= ])[^\s"]{4,}`),
}

// urlPassword matches the password in a URL: https://user:password@host.
var urlPassword = regexp.MustCompile(`(?i)([a-z][a-z0-9+.-]*://[^/\s:@]*:)[^@\s/]+@`)

// credentialShapes match well-known credential formats anywhere.
var credentialShapes = []*regexp.Regexp{
	regexp.MustCompile(`sk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}`),                          // Anthropic and OpenAI keys
	regexp.MustCompile(`AIza[0-9A-Za-z_-]{20,}`),                                        // Google API keys
	regexp.MustCompile(`ya29\.[0-9A-Za-z_-]{20,}`),                                      // Google access tokens
	regexp.MustCompile(`1//[0-9A-Za-z_-]{20,}`),                                         // Google refresh tokens
	regexp.MustCompile(`eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`), // JWTs
	regexp.MustCompile(`gh[pousr]_[A-Za-z0-9]{20,}`),                                    // GitHub tokens
	regexp.MustCompile(`xox[abprs]-[A-Za-z0-9-]{10,}`),                                  // Slack tokens
}

// Redact removes secrets from s: first every value in secrets (longest
// first, so a secret that contains another goes whole), then credentials
// by name and by shape.
func Redact(s string, secrets []string) string {
	vals := slices.Clone(secrets)
	slices.SortFunc(vals, func(a, b string) int { return len(b) - len(a) })
	for _, v := range vals {
		if v = strings.TrimSpace(v); len(v) >= minSecret {
			s = strings.ReplaceAll(s, v, Redacted)
		}
	}
	for _, re := range credentialPatterns {
		s = re.ReplaceAllStringFunc(s, func(m string) string {
			sub := re.FindStringSubmatch(m)
			switch value := m[len(sub[1]):]; {
			case allDigits(value):
				return m // a count ("input_tokens": 1234), not a credential
			case strings.EqualFold(value, "bearer"), strings.EqualFold(value, "basic"):
				return m // the scheme of "Authorization: Bearer …", whose token the first pattern took
			}
			return sub[1] + Redacted
		})
	}
	s = urlPassword.ReplaceAllString(s, "${1}"+Redacted+"@")
	for _, re := range credentialShapes {
		s = re.ReplaceAllString(s, Redacted)
	}
	return s
}

func allDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}
