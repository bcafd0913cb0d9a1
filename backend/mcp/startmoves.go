package mcp

import (
	"context"
	"fmt"
	"strings"
)

// Secrets a connector stored before Maestro kept them in the keychain are
// moved there once, at Start (docs/SECURITY.md): secret-looking arguments
// of a stdio connector (checkArgs) and the password in a remote
// connector's URL (checkURL).

// checkArgs moves the arguments that look secret of a stdio connector
// stored before secret arguments existed (ArgsChecked unset) into the
// keychain, once, and returns which it moved. Without a keychain, or when
// the save fails, the connector stays as it was.
func (s *Supervisor) checkArgs(ctx context.Context, c Connector) (Connector, []int) {
	if c.ArgsChecked || c.kind() != TransportStdio || s.secrets == nil {
		return c, nil
	}
	next := c.Clone()
	next.ArgsChecked = true
	moved, err := next.HideArgSecrets(SuggestSecretArgs(next.Args))
	if err != nil {
		return c, nil
	}
	if err := saveConnector(ctx, s.store, s.secrets, next); err != nil {
		s.logger.WarnContext(ctx, "mcp: move argument secrets to the keychain", "connector", c.DisplayName(), "err", err)
		return c, nil
	}
	return next, moved
}

// checkURL moves the credentials in the URL of a remote connector stored
// before they were moved on save (moveURLCredentials) into the keychain,
// once. Without a keychain, or when the move or the save fails, the
// connector stays as it was.
func (s *Supervisor) checkURL(ctx context.Context, c Connector) Connector {
	if s.secrets == nil || !strings.Contains(c.URL, "@") {
		return c
	}
	next := c.Clone()
	if err := next.moveURLCredentials(); err != nil || next.URL == c.URL {
		return c
	}
	if err := saveConnector(ctx, s.store, s.secrets, next); err != nil {
		s.logger.WarnContext(ctx, "mcp: move URL credentials to the keychain", "connector", c.DisplayName(), "err", err)
		return c
	}
	return next
}

// movedNote says which arguments were moved to the keychain.
func movedNote(moved []int) string {
	n := make([]int, len(moved))
	for i, m := range moved {
		n[i] = m + 1
	}
	if len(n) == 1 {
		return fmt.Sprintf("argument %d looked like a secret: its value is kept in the keychain", n[0])
	}
	return fmt.Sprintf("arguments %s looked like secrets: their values are kept in the keychain", joinInts(n))
}
