package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strings"
)

// pkce is an RFC 7636 verifier and its S256 challenge.
type pkce struct {
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

// newPKCEURLSafe follows Codex (docs/providers/openai.md §Sign-in: PKCE and
// state): n random bytes, base64url without padding; 64 bytes give an
// 86-character verifier.
func newPKCEURLSafe(n int) pkce {
	v := base64.RawURLEncoding.EncodeToString(randomBytes(n))
	return pkce{Verifier: v, Challenge: s256(v)}
}

// newPKCEGoogle follows google-auth-library (docs/providers/gemini.md
// §Sign-in: PKCE and state): 96 random bytes in standard base64 with + → ~,
// = → _ and / → -, a 128-character verifier.
func newPKCEGoogle() pkce {
	v := base64.StdEncoding.EncodeToString(randomBytes(96))
	v = strings.NewReplacer("+", "~", "=", "_", "/", "-").Replace(v)
	return pkce{Verifier: v, Challenge: s256(v)}
}

// stateURLSafe is n random bytes, base64url without padding (Codex, and
// Maestro's independent Claude state).
func stateURLSafe(n int) string { return base64.RawURLEncoding.EncodeToString(randomBytes(n)) }

// stateHex is 32 random bytes, hex-encoded (gemini-cli).
func stateHex() string { return hex.EncodeToString(randomBytes(32)) }
