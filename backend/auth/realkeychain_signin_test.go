package auth

import (
	"errors"
	"testing"

	"maestro/backend/chat"
)

// TestRealKeychainSignIn runs a ChatGPT sign-in, a rotating refresh, an API
// key and a sign-out against the real OS keychain (skipped without one,
// unless MAESTRO_REQUIRE_KEYRING=1; see realKeychain).
func TestRealKeychainSignIn(t *testing.T) {
	t.Parallel()
	kc := realKeychain(t)
	for _, p := range allProviders {
		cleanupAccount(t, kc, oauthEntryName(p))
		cleanupAccount(t, kc, apiKeyEntryName(p))
	}
	e := newEnv(t, envConfig{kc: kc})
	ctx := t.Context()

	acct := e.mustSignIn(chat.ProviderOpenAI)
	if acct.AccountID != "acc_fake0001" {
		t.Errorf("account = %+v", acct)
	}
	first := e.entry(chat.ProviderOpenAI)

	c, err := e.m.Credentials(ctx, chat.ProviderOpenAI)
	if err != nil {
		t.Fatal(err)
	}
	e.oa.OAuth().ExpireAll()
	if _, err := stream(ctx, c, chat.ProviderOpenAI); err != nil {
		t.Fatalf("stream after expiry = %v", e.noteErr(err))
	}
	second := e.entry(chat.ProviderOpenAI)
	if second.RefreshToken == first.RefreshToken {
		t.Errorf("the rotated refresh token was not written to the keychain")
	}

	const key = "sk-real-keychain-test-0123456789"
	e.keys = append(e.keys, key)
	if _, err := e.m.SetAPIKey(ctx, chat.ProviderGemini, key); err != nil {
		t.Fatal(err)
	}
	if got, err := kc.Get(ctx, "apikey:gemini"); err != nil || got != key {
		t.Errorf("apikey:gemini = %q, %v", got, err)
	}
	accts, err := e.m.Accounts(ctx)
	if err != nil || len(accts) != 2 {
		t.Errorf("Accounts() = %+v, %v; want gemini (key) and openai (sign-in)", accts, err)
	}
	if err := e.m.SignOut(ctx, chat.ProviderOpenAI); err != nil {
		t.Fatal(err)
	}
	if _, err := kc.Get(ctx, "oauth:openai"); !errors.Is(err, ErrNotFound) {
		t.Errorf("oauth:openai after SignOut: %v", err)
	}
	if err := e.m.RemoveAPIKey(ctx, chat.ProviderGemini); err != nil {
		t.Fatal(err)
	}
}
