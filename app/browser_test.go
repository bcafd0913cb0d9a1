package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"maestro/backend/chat"
)

// TestRunOpener runs real commands as the browser: one that fails at once
// (no browser), one that succeeds, one that keeps running (a browser it
// started), and one that does not exist.
func TestRunOpener(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name, command string
		wantErr       string
	}{
		{"fails", script("fails", `echo "xdg-open: no method available for opening '$1'" >&2; exit 3`), "no method available for opening"},
		{"opens", script("opens", "exit 0"), ""},
		{"keeps running", script("runs", "exec sleep 5"), ""},
		{"missing", filepath.Join(dir, "no-such-browser"), "no browser could be opened"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := BrowserCommand(tt.command)(t.Context(), "https://example.com/authorize")
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("err = %v; want the page opened", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("err = %v; want one saying %q", err, tt.wantErr)
			case tt.wantErr != "" && chat.Kind(err) != chat.KindUnavailable:
				t.Errorf("kind = %s; want unavailable", chat.Kind(err))
			}
		})
	}
}
