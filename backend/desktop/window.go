// Package desktop keeps what the window needs before the app has started:
// its place on screen and whether the theme was dark, saved in a small
// window.json beside the data file. main reads it before the window exists
// (so the first frame has the right size and background) and the app writes
// it when the window closes and when the theme changes.
//
// The data file (bbolt) cannot hold this: it is locked by the running
// instance, and a second launch must decide nothing before its single-
// instance check. See docs/DESKTOP.md.
//
// Concurrency: WindowFile is safe for concurrent use; each Save replaces the
// file atomically.
package desktop

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// FileName is the window state file inside the data dir.
const FileName = "window.json"

// Default and minimum window sizes, in pixels.
const (
	DefaultWidth  = 1200
	DefaultHeight = 800
	MinWidth      = 760
	MinHeight     = 520
	// maxSide bounds a stored size: no screen is wider, and a corrupt file
	// must not ask GTK for a window of two billion pixels.
	maxSide = 16384
)

// Window is the saved window state.
type Window struct {
	// Width and Height are the size of the window when it was last not
	// maximised or full screen.
	Width  int `json:"width"`
	Height int `json:"height"`
	// X and Y are its position; Placed says they were recorded (a first run
	// lets the window manager place it).
	X      int  `json:"x"`
	Y      int  `json:"y"`
	Placed bool `json:"placed"`
	// Maximised is whether it was maximised when it closed.
	Maximised bool `json:"maximised"`
	// Dark is whether the theme the user last saw was dark, so the window's
	// background matches it from the first frame.
	Dark bool `json:"dark"`
}

// Defaults is the state of a first run.
func Defaults() Window {
	return Window{Width: DefaultWidth, Height: DefaultHeight}
}

// Sane returns w with a size the window can take and a position that is not
// absurdly far off screen; values it cannot trust become the defaults.
func (w Window) Sane() Window {
	if w.Width < MinWidth || w.Width > maxSide || w.Height < MinHeight || w.Height > maxSide {
		w.Width, w.Height = DefaultWidth, DefaultHeight
	}
	// A window whose top-left corner is more than a screen away from the
	// origin was on a monitor that is gone: let the window manager place it.
	if w.X < -maxSide || w.X > maxSide || w.Y < -maxSide || w.Y > maxSide {
		w.X, w.Y, w.Placed = 0, 0, false
	}
	return w
}

// WindowFile reads and writes window.json in one directory.
type WindowFile struct {
	path string
	mu   sync.Mutex
}

// NewWindowFile returns the window file in dir.
func NewWindowFile(dir string) *WindowFile {
	return &WindowFile{path: filepath.Join(dir, FileName)}
}

// Path is the file's path.
func (f *WindowFile) Path() string { return f.path }

// Load returns the saved state, made sane. A missing file is a first run and
// returns the defaults with a nil error; an unreadable or malformed file
// returns the defaults and an error saying why, for the log: a broken window
// file never stops the app.
func (f *WindowFile) Load() (Window, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	data, err := os.ReadFile(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return Defaults(), nil
	}
	if err != nil {
		return Defaults(), fmt.Errorf("read %s: %w", f.path, err)
	}
	w := Defaults()
	if err := json.Unmarshal(data, &w); err != nil {
		return Defaults(), fmt.Errorf("%s is not valid window state, using defaults: %w", f.path, err)
	}
	return w.Sane(), nil
}

// Update loads the state, applies change and saves the result.
func (f *WindowFile) Update(change func(*Window)) error {
	w, _ := f.Load() // a broken file is replaced by a good one
	change(&w)
	return f.save(w)
}

// save writes w through a temporary file and a rename, so a crash mid-write
// leaves the old file, never half of one.
func (f *WindowFile) save(w Window) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	data, err := json.MarshalIndent(w, "", "  ")
	if err != nil {
		return fmt.Errorf("encode window state: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(f.path), ".window-*.json")
	if err != nil {
		return fmt.Errorf("save window state: %w", err)
	}
	defer os.Remove(tmp.Name()) // after a successful rename there is nothing to remove
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("save window state: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("save window state: %w", err)
	}
	if err := os.Rename(tmp.Name(), f.path); err != nil {
		return fmt.Errorf("save window state: %w", err)
	}
	return nil
}
