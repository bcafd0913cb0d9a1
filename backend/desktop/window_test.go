package desktop

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoad(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		file    string // "" means no file
		want    Window
		wantErr string
	}{
		{name: "first run", want: Defaults()},
		{
			name: "saved",
			file: `{"width":900,"height":600,"x":123,"y":77,"placed":true,"maximised":true,"dark":true}`,
			want: Window{Width: 900, Height: 600, X: 123, Y: 77, Placed: true, Maximised: true, Dark: true},
		},
		{name: "not JSON", file: "{{{", want: Defaults(), wantErr: "not valid window state"},
		{name: "too small", file: `{"width":10,"height":10,"dark":true}`, want: Window{Width: DefaultWidth, Height: DefaultHeight, Dark: true}},
		{name: "absurd size", file: `{"width":2000000000,"height":600}`, want: Defaults()},
		{
			name: "off every screen",
			file: `{"width":900,"height":600,"x":-99999,"y":5,"placed":true}`,
			want: Window{Width: 900, Height: 600},
		},
		{name: "missing fields keep defaults", file: `{"dark":true}`, want: Window{Width: DefaultWidth, Height: DefaultHeight, Dark: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if tt.file != "" {
				if err := os.WriteFile(filepath.Join(dir, FileName), []byte(tt.file), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			got, err := NewWindowFile(dir).Load()
			if tt.wantErr == "" && err != nil {
				t.Fatalf("Load: %v", err)
			}
			if tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("Load error = %v, want one containing %q", err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("Load = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestUpdate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	f := NewWindowFile(dir)
	if err := os.WriteFile(f.Path(), []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := f.Update(func(w *Window) { w.Width, w.Height, w.Dark = 1000, 700, true }); err != nil {
		t.Fatalf("Update over a broken file: %v", err)
	}
	got, err := f.Load()
	if err != nil {
		t.Fatalf("Load after Update: %v", err)
	}
	if want := (Window{Width: 1000, Height: 700, Dark: true}); got != want {
		t.Errorf("after Update: %+v, want %+v", got, want)
	}
	info, err := os.Stat(f.Path())
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o600 {
		t.Errorf("window.json mode = %o, want 600", perm)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the data dir holds %d entries after Update, want only window.json: no temporary file left", len(entries))
	}
}

func TestUpdateUnwritableDir(t *testing.T) {
	t.Parallel()
	f := NewWindowFile(filepath.Join(t.TempDir(), "missing"))
	if err := f.Update(func(w *Window) { w.Dark = true }); err == nil {
		t.Fatal("Update into a missing dir succeeded")
	}
}
