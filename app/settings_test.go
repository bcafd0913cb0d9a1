package app

import (
	"context"
	"strings"
	"testing"

	"maestro/backend/chat"
)

func TestTheme(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, _ := startApp(t, dir)
	if got, err := a.Settings.Theme(); err != nil || got != ThemeSystem {
		t.Fatalf("Theme on a new data file = %q, %v; want system", got, err)
	}
	for _, theme := range []ThemeChoice{ThemeDark, ThemeLight, ThemeSystem, ThemeDark} {
		if got, err := a.Settings.SetTheme(theme); err != nil || got != theme {
			t.Fatalf("SetTheme(%q) = %q, %v", theme, got, err)
		}
	}
	_, err := a.Settings.SetTheme(ThemeChoice("solarized" + strings.Repeat("x", 200)))
	if chat.Kind(err) != chat.KindInvalid || !strings.Contains(err.Error(), "system, light or dark") || len(err.Error()) > 120 {
		t.Errorf("SetTheme(bad) error = %v (kind %q); want a short invalid error naming the choices", err, chat.Kind(err))
	}
	a.Shutdown(context.Background())

	b, _ := startApp(t, dir)
	if got, err := b.Settings.Theme(); err != nil || got != ThemeDark {
		t.Errorf("Theme after a restart = %q, %v; want dark kept", got, err)
	}
}
