package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strings"
)

// PKCE is an RFC 7636 code verifier and its S256 challenge, the one PKCE
// of every sign-in: the providers' and the MCP servers'.
type PKCE struct {
	Verifier  string
	Challenge string
}

// s256 is base64url-without-padding(SHA-256(verifier)), the challenge every
// provider here uses.
func s256(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	// crypto/rand.Read never fails (Go 1.24+): it crashes the program
	// rather than return predictable bytes.
	_, _ = rand.Read(b)
	return b
}

// NewPKCE returns a verifier of n random bytes, base64url without
// padding, and its S256 challenge. Codex uses 64 bytes, an 86-character
// verifier (docs/providers/openai.md §Sign-in: PKCE and state); MCP
// sign-ins use 36, a 48-character one.
func NewPKCE(n int) PKCE {
	v := base64.RawURLEncoding.EncodeToString(randomBytes(n))
	return PKCE{Verifier: v, Challenge: s256(v)}
}

// newPKCEGoogle follows google-auth-library (docs/providers/gemini.md
// §Sign-in: PKCE and state): 96 random bytes in standard base64 with + → ~,
// = → _ and / → -, a 128-character verifier.
func newPKCEGoogle() PKCE {
	v := base64.StdEncoding.EncodeToString(randomBytes(96))
	v = strings.NewReplacer("+", "~", "=", "_", "/", "-").Replace(v)
	return PKCE{Verifier: v, Challenge: s256(v)}
}

// NewState is an OAuth state of n random bytes, base64url without padding
// (Codex, Maestro's independent Claude state, and MCP sign-ins).
func NewState(n int) string { return base64.RawURLEncoding.EncodeToString(randomBytes(n)) }

// stateHex is 32 random bytes, hex-encoded (gemini-cli).
func stateHex() string { return hex.EncodeToString(randomBytes(32)) }
