// Package fakes holds the authorization-server core that the three provider
// fakes (geminifake, anthropicfake, openaifake) share: authorization codes
// bound to a PKCE challenge, access tokens with a lifetime, refresh tokens
// that rotate and refuse reuse, and the control endpoints under
// /_fake/oauth/ that let a test expire or revoke what was issued. Each
// provider fake wraps an Issuer with its own wire format (form or JSON
// bodies, error shapes, token formats); the standalone command
// fakes/cmd/maestro-fakes mounts all three on one origin. The model side
// the fakes share (scripted replies, the request recorder) is in
// backend/providers/fakescript.
//
// The Issuer checks what a real server checks (the client id, the
// redirect URI, the S256 verifier, single use of codes and rotated refresh
// tokens) and reports a failure as an *Error carrying the OAuth error code;
// the provider fake decides the status and body.
//
// Concurrency: an Issuer is safe for concurrent use; mu guards every map
// and counter. Nothing here starts a goroutine.
package fakes
