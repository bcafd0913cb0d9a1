// Package diagnostics assembles what a user pastes into a bug report:
// versions (app, Go, Wails, WebKitGTK, OS), the data folder, the keychain's
// state, each connector's state and negotiated protocol, each provider's
// sign-in state, and the tail of the log, as plain text with every secret
// removed (docs/SECURITY.md, "Diagnostics").
//
// The package collects nothing itself but the log tail and the build's
// module versions: the app passes in what it knows (a Report) and the
// secret values it holds, and Text renders and redacts. Redaction is two
// layers: the exact values the app passes (API keys, tokens, connector
// env, header and argument secrets), then patterns for credentials whose
// value the app does not know (bearer tokens, provider key formats, JWTs,
// token-like JSON fields and URL parameters).
//
// Concurrency: all functions are safe for concurrent use; a Report is a
// value.
package diagnostics
