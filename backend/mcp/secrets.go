package mcp

import (
	"context"
	"sync"

	"maestro/backend/chat"
)

// MemorySecrets is a SecretStore kept in memory: for a connection test that
// must not touch the keychain, the conformance client, and tests. It is
// safe for concurrent use; mu guards m.
type MemorySecrets struct {
	mu sync.Mutex
	m  map[string]string
}

// NewMemorySecrets returns an empty MemorySecrets.
func NewMemorySecrets() *MemorySecrets { return &MemorySecrets{m: map[string]string{}} }

// Get returns the secret for account, or a chat.ErrNotFound error.
func (s *MemorySecrets) Get(_ context.Context, account string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[account]
	if !ok {
		return "", chat.E(chat.ErrNotFound, "no secret %q", account)
	}
	return v, nil
}

// Set stores secret for account.
func (s *MemorySecrets) Set(_ context.Context, account, secret string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[account] = secret
	return nil
}

// Delete removes account's secret, or returns a chat.ErrNotFound error.
func (s *MemorySecrets) Delete(_ context.Context, account string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.m[account]; !ok {
		return chat.E(chat.ErrNotFound, "no secret %q", account)
	}
	delete(s.m, account)
	return nil
}

var _ SecretStore = (*MemorySecrets)(nil)
