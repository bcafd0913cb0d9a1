package mcp

import (
	"context"
	"encoding/json"
)

// minSecretLen is the shortest stored value SecretValues returns: shorter
// ones (a "1", a "true") would blank ordinary words in a report.
const minSecretLen = 6

// SecretValues returns the secret values the keychain holds for c: its
// env and header values and hidden arguments, its OAuth client secret and
// tokens. Diagnostics removes each of them from the report it copies
// (backend/diagnostics). A keychain that cannot be read gives nothing:
// the report's shape-based redaction still applies.
func SecretValues(ctx context.Context, sec SecretStore, c Connector) []string {
	if sec == nil {
		return nil
	}
	var out []string
	for _, account := range []string{secretsAccount(c.ID), oauthAccount(c.ID)} {
		raw, err := sec.Get(ctx, account)
		if err != nil || raw == "" {
			continue
		}
		var v any
		if json.Unmarshal([]byte(raw), &v) != nil {
			out = appendSecret(out, raw)
			continue
		}
		out = stringLeaves(out, v)
	}
	return out
}

// stringLeaves appends every string in v (keys excepted) long enough to
// be a secret.
func stringLeaves(out []string, v any) []string {
	switch v := v.(type) {
	case string:
		return appendSecret(out, v)
	case []any:
		for _, e := range v {
			out = stringLeaves(out, e)
		}
	case map[string]any:
		for _, e := range v {
			out = stringLeaves(out, e)
		}
	}
	return out
}

func appendSecret(out []string, s string) []string {
	if len(s) >= minSecretLen {
		out = append(out, s)
	}
	return out
}
