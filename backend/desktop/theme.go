package desktop

import (
	"context"
	"os/exec"
	"strings"
	"time"
)

// DesktopPrefersDark guesses, before any window exists, whether the desktop
// uses a dark theme; main asks only on a first run, when window.json has no
// answer from the UI yet. It reads GTK_THEME ("Adwaita:dark", "Yaru-dark"),
// then GNOME's settings (color-scheme, gtk-theme) through gsettings, with a
// short timeout: a wrong guess costs one frame of the wrong background.
func DesktopPrefersDark(ctx context.Context, getenv func(string) string) bool {
	if t := getenv("GTK_THEME"); t != "" {
		return darkThemeName(t)
	}
	ctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	if v, ok := gsetting(ctx, "color-scheme"); ok && strings.Contains(v, "prefer-dark") {
		return true
	}
	v, ok := gsetting(ctx, "gtk-theme")
	return ok && darkThemeName(strings.Trim(v, "'\n "))
}

// darkThemeName reports whether a GTK theme name names a dark variant.
func darkThemeName(name string) bool {
	n := strings.ToLower(strings.TrimSpace(name))
	return strings.HasSuffix(n, ":dark") || strings.HasSuffix(n, "-dark")
}

func gsetting(ctx context.Context, key string) (string, bool) {
	out, err := exec.CommandContext(ctx, "gsettings", "get", "org.gnome.desktop.interface", key).Output()
	return string(out), err == nil
}
