package desktop

import (
	"context"
	"testing"
)

func TestDesktopPrefersDarkFromGTKTheme(t *testing.T) {
	t.Parallel()
	tests := []struct {
		theme string
		want  bool
	}{
		{"Adwaita:dark", true},
		{"Yaru-dark", true},
		{"Adwaita", false},
		{"HighContrast", false},
		{" adwaita:DARK ", true},
	}
	for _, tt := range tests {
		env := func(k string) string {
			if k == "GTK_THEME" {
				return tt.theme
			}
			return ""
		}
		if got := DesktopPrefersDark(context.Background(), env); got != tt.want {
			t.Errorf("GTK_THEME=%q: DesktopPrefersDark = %v, want %v", tt.theme, got, tt.want)
		}
	}
}
