package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"golang.org/x/oauth2"

	"maestro/backend/chat"
)

// Keychain entries, one per provider and method. Their values are secrets:
// they never leave this package except inside Credentials.
func oauthEntryName(provider string) string  { return "oauth:" + provider }
func apiKeyEntryName(provider string) string { return "apikey:" + provider }

const entryVersion = 1

// tokenEntry is the JSON under oauth:<provider>: the tokens and what the
// sign-in learned about the account. It is always written whole, in one
// keychain Set, so a rotated refresh token and its access token can never
// be half written.
type tokenEntry struct {
	Version      int       `json:"version"`
	Provider     string    `json:"provider"`
	AccessToken  string    `json:"access_token"`
	RefreshToken string    `json:"refresh_token,omitempty"`
	IDToken      string    `json:"id_token,omitempty"`
	TokenType    string    `json:"token_type,omitempty"`
	Expiry       time.Time `json:"expiry,omitzero"`

	Email     string `json:"email,omitempty"`
	Plan      string `json:"plan,omitempty"`
	AccountID string `json:"account_id,omitempty"`
	Project   string `json:"project,omitempty"`

	SignedInAt  time.Time `json:"signed_in_at"`
	RefreshedAt time.Time `json:"refreshed_at,omitzero"`
	// APIKeyPreferred records that an API key was set after this sign-in:
	// the most recently set method wins (see Manager.Credentials).
	APIKeyPreferred bool `json:"api_key_preferred,omitempty"`
}

func (e *tokenEntry) token() *oauth2.Token {
	return &oauth2.Token{AccessToken: e.AccessToken, RefreshToken: e.RefreshToken, TokenType: e.TokenType, Expiry: e.Expiry}
}

// setToken copies a refreshed token in, keeping the refresh token when the
// answer had none.
func (e *tokenEntry) setToken(t *oauth2.Token, now time.Time) {
	e.AccessToken, e.Expiry = t.AccessToken, t.Expiry
	if t.RefreshToken != "" {
		e.RefreshToken = t.RefreshToken
	}
	if t.TokenType != "" {
		e.TokenType = t.TokenType
	}
	if id, ok := t.Extra("id_token").(string); ok && id != "" {
		e.IDToken = id
	}
	e.RefreshedAt = now
}

func (e *tokenEntry) account() Account {
	return Account{Provider: e.Provider, Method: MethodOAuth, Email: e.Email, Plan: e.Plan,
		AccountID: e.AccountID, Project: e.Project, ExpiresAt: e.Expiry}
}

// SecretStore is the keychain as a TokenStore uses it: *Keychain, or a
// stand-in kept in memory (backend/mcp's MemorySecrets). Get returns an
// error wrapping chat.ErrNotFound when there is no entry.
type SecretStore interface {
	Get(ctx context.Context, account string) (string, error)
	Set(ctx context.Context, account, secret string) error
	Delete(ctx context.Context, account string) error
}

// TokenStore keeps sign-ins in the keychain: one JSON record per account,
// always written whole in one Set, so a rotated refresh token and the
// access token that came with it are never half written. It is the one
// token store of both sign-ins: the providers' (oauth:<provider>, a
// tokenEntry) and the MCP servers' (mcp-oauth:<connector>, backend/mcp's
// record).
type TokenStore struct{ Secrets SecretStore }

// Load reads account's record into v. A missing record is an error
// wrapping chat.ErrNotFound; one that is not JSON is a
// chat.ErrAuthRequired (sign in again), whose text never quotes it.
func (s TokenStore) Load(ctx context.Context, account string, v any) error {
	raw, err := s.Secrets.Get(ctx, account)
	if err != nil {
		return err
	}
	if err := json.Unmarshal([]byte(raw), v); err != nil {
		// The error of Unmarshal may quote the secret; drop it.
		return chat.E(chat.ErrAuthRequired, "the saved sign-in %s is unreadable", account)
	}
	return nil
}

// Save writes v as account's record, whole, in one Set.
func (s TokenStore) Save(ctx context.Context, account string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode the sign-in %s: %w", account, err)
	}
	return s.Secrets.Set(ctx, account, string(b))
}

// Delete removes account's record; a missing one is not an error.
func (s TokenStore) Delete(ctx context.Context, account string) error {
	if err := s.Secrets.Delete(ctx, account); err != nil && !errors.Is(err, chat.ErrNotFound) {
		return err
	}
	return nil
}

// loadEntry reads oauth:<provider>. A missing entry is an error wrapping
// ErrNotFound; an unreadable one asks the user to sign in again.
func loadEntry(ctx context.Context, kc *Keychain, provider, display string) (*tokenEntry, error) {
	var e tokenEntry
	err := TokenStore{kc}.Load(ctx, oauthEntryName(provider), &e)
	switch {
	case errors.Is(err, chat.ErrAuthRequired), err == nil && e.AccessToken == "":
		return nil, chat.E(chat.ErrAuthRequired, "the saved %s sign-in is unreadable; sign in to %s again", display, display)
	case err != nil:
		return nil, err
	}
	e.Provider = provider
	return &e, nil
}

// saveEntry writes e whole in one Set.
func saveEntry(ctx context.Context, kc *Keychain, e *tokenEntry) error {
	e.Version = entryVersion
	return TokenStore{kc}.Save(ctx, oauthEntryName(e.Provider), e)
}

// deleteEntry removes an entry; a missing one is not an error.
func deleteEntry(ctx context.Context, kc *Keychain, name string) error {
	return TokenStore{kc}.Delete(ctx, name)
}
