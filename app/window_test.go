package app

import (
	"testing"

	"maestro/backend/desktop"
)

func TestRecord(t *testing.T) {
	t.Parallel()
	normal := desktop.Window{Width: 900, Height: 600, X: 123, Y: 77, Placed: true, Dark: true}
	tests := []struct {
		name string
		from desktop.Window
		g    geometry
		want desktop.Window
	}{
		{
			name: "normal window records size and place",
			from: desktop.Defaults(),
			g:    geometry{x: 40, y: 50, width: 1000, height: 700},
			want: desktop.Window{Width: 1000, Height: 700, X: 40, Y: 50, Placed: true},
		},
		{
			name: "maximised keeps the normal size and place",
			from: normal,
			g:    geometry{x: 0, y: 0, width: 1600, height: 1000, maximised: true},
			want: desktop.Window{Width: 900, Height: 600, X: 123, Y: 77, Placed: true, Maximised: true, Dark: true},
		},
		{
			name: "unmaximised clears the flag",
			from: desktop.Window{Width: 900, Height: 600, Maximised: true},
			g:    geometry{x: 5, y: 6, width: 900, height: 600},
			want: desktop.Window{Width: 900, Height: 600, X: 5, Y: 6, Placed: true},
		},
		{
			name: "full screen is not remembered",
			from: normal,
			g:    geometry{width: 1600, height: 1000, fullscreen: true},
			want: normal,
		},
		{
			name: "minimised is not remembered",
			from: normal,
			g:    geometry{x: -32000, y: -32000, width: 160, height: 28, minimised: true},
			want: normal,
		},
		{
			name: "a size below the minimum falls back to the default",
			from: normal,
			g:    geometry{x: 1, y: 2, width: 100, height: 100},
			want: desktop.Window{Width: desktop.DefaultWidth, Height: desktop.DefaultHeight, X: 1, Y: 2, Placed: true, Dark: true},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := record(tt.from, tt.g); got != tt.want {
				t.Errorf("record(%+v, %+v) = %+v, want %+v", tt.from, tt.g, got, tt.want)
			}
		})
	}
}

func TestMenu(t *testing.T) {
	t.Parallel()
	ui := map[MenuCommand]bool{CommandNewChat: true, CommandSearch: true, CommandSettings: true, CommandAbout: true}
	seen := map[string]string{}
	for _, s := range appMenu {
		for _, it := range s.items {
			if it.label == "" {
				continue
			}
			if (it.run == nil) == (it.command == "") {
				t.Errorf("%s → %s: set exactly one of run and command", s.label, it.label)
			}
			if it.command != "" && !ui[it.command] {
				t.Errorf("%s → %s: command %q is not one the UI handles", s.label, it.label, it.command)
			}
			if it.accel == "" {
				continue
			}
			if prev, dup := seen[it.accel]; dup {
				t.Errorf("%s is the shortcut of both %q and %q", it.accel, prev, it.label)
			}
			seen[it.accel] = it.label
			if a := accelerator(it.accel); a == nil || a.Key == "" {
				t.Errorf("%s → %s: accelerator %q parsed to %+v", s.label, it.label, it.accel, a)
			}
		}
	}
	for _, want := range []string{"ctrl+q", "ctrl+,", "ctrl+n", "ctrl+k", "f11"} {
		if seen[want] == "" {
			t.Errorf("no menu item has the shortcut %s", want)
		}
	}
	if m := buildMenu(&Window{}, func(MenuCommand) {}); len(m.Items) != len(appMenu) {
		t.Errorf("Menu has %d top-level items, want %d", len(m.Items), len(appMenu))
	}
}
