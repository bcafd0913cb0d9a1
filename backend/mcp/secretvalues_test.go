package mcp

import (
	"slices"
	"testing"
)

func TestSecretValues(t *testing.T) {
	t.Parallel()
	sec := NewMemorySecrets()
	ctx := t.Context()
	c := Connector{ID: "c1"}
	if err := sec.Set(ctx, secretsAccount("c1"), `{"env":{"API_TOKEN":"tok-123456"},"headers":{"X-Key":"hdr-abcdef"},"args":["arg-secret-1"],"short":"abc"}`); err != nil {
		t.Fatal(err)
	}
	if err := sec.Set(ctx, oauthAccount("c1"), `{"clientSecret":"cs-987654","token":{"access_token":"at-111111","expires_in":3600}}`); err != nil {
		t.Fatal(err)
	}
	got := SecretValues(ctx, sec, c)
	slices.Sort(got)
	want := []string{"arg-secret-1", "at-111111", "cs-987654", "hdr-abcdef", "tok-123456"}
	if !slices.Equal(got, want) {
		t.Errorf("SecretValues = %q; want %q", got, want)
	}
	if got := SecretValues(ctx, sec, Connector{ID: "none"}); len(got) != 0 {
		t.Errorf("SecretValues of a connector with nothing stored = %q; want none", got)
	}
	if got := SecretValues(ctx, nil, c); got != nil {
		t.Errorf("SecretValues without a store = %q", got)
	}
}
