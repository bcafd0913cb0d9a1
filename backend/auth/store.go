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

// loadEntry reads oauth:<provider>. A missing entry is an error wrapping
// ErrNotFound; an unreadable one asks the user to sign in again.
func loadEntry(ctx context.Context, kc *Keychain, provider, display string) (*tokenEntry, error) {
	s, err := kc.Get(ctx, oauthEntryName(provider))
	if err != nil {
		return nil, err
	}
	var e tokenEntry
	if err := json.Unmarshal([]byte(s), &e); err != nil || e.AccessToken == "" {
		// The error of Unmarshal may quote the secret; drop it.
		return nil, chat.E(chat.ErrAuthRequired, "the saved %s sign-in is unreadable; sign in to %s again", display, display)
	}
	e.Provider = provider
	return &e, nil
}

// saveEntry writes e whole in one Set.
func saveEntry(ctx context.Context, kc *Keychain, e *tokenEntry) error {
	e.Version = entryVersion
	b, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("encode %s sign-in: %w", e.Provider, err)
	}
	return kc.Set(ctx, oauthEntryName(e.Provider), string(b))
}

// deleteEntry removes an entry; a missing one is not an error.
func deleteEntry(ctx context.Context, kc *Keychain, name string) error {
	if err := kc.Delete(ctx, name); err != nil && !errors.Is(err, ErrNotFound) {
		return err
	}
	return nil
}
