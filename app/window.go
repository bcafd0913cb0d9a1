package app

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"sync"

	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/runtime"

	"maestro/backend/desktop"
)

// Window backgrounds, the --bg token of each theme in
// frontend/src/styles/tokens.css: the webview shows this colour until the
// page paints, so a dark theme never flashes white.
var (
	backgroundLight = options.NewRGB(0xff, 0xff, 0xff)
	backgroundDark  = options.NewRGB(0x17, 0x18, 0x1c)
)

// Window is the bound service for the window itself: its place on screen
// between runs (docs/DESKTOP.md), full screen, quitting, and the theme's
// background. Its methods are safe for concurrent use.
type Window struct {
	file *desktop.WindowFile
	log  *slog.Logger

	mu    sync.Mutex
	state desktop.Window // as loaded at start, then as last saved
	ctx   context.Context
}

// LoadWindow reads the window state in dir. A broken file is logged and
// replaced by the defaults.
func LoadWindow(dir string, log *slog.Logger) *Window {
	if log == nil {
		log = slog.Default()
	}
	f := desktop.NewWindowFile(dir)
	st, err := f.Load()
	if err != nil {
		log.Warn("window state", "err", err)
	}
	if _, statErr := os.Stat(f.Path()); errors.Is(statErr, fs.ErrNotExist) {
		// A first run: the UI has not said which theme it shows yet.
		st.Dark = desktop.DesktopPrefersDark(context.Background(), os.Getenv)
	}
	return &Window{file: f, log: log, state: st}
}

// apply sets o's size and background from the saved state.
func (w *Window) apply(o *options.App) {
	w.mu.Lock()
	st := w.state
	w.mu.Unlock()
	o.Width, o.Height = st.Width, st.Height
	o.MinWidth, o.MinHeight = desktop.MinWidth, desktop.MinHeight
	o.BackgroundColour = backgroundLight
	if st.Dark {
		o.BackgroundColour = backgroundDark
	}
}

// startup records the Wails context and puts the window back in place, in
// the background. Wails centres a new window on the GTK main loop's first
// turn, so the move must be queued after that: the first synchronous call
// returns only once the loop runs, by which time the centring is queued.
// A maximised window is moved first and maximised after (a window manager
// ignores moves of a maximised window), so unmaximising restores its place.
// Each step is flushed by a synchronous call because Wails's SetPosition
// takes two hops to the main thread and Maximise one. All this happens
// before the page's first paint. (StartHidden does not help: GTK maps the
// window before Wails hides it.)
func (w *Window) startup(ctx context.Context) {
	w.mu.Lock()
	w.ctx = ctx
	st := w.state
	w.mu.Unlock()
	if !st.Placed && !st.Maximised {
		return
	}
	go func() {
		runtime.WindowGetPosition(ctx)
		if st.Placed {
			runtime.WindowSetPosition(ctx, st.X, st.Y)
			runtime.WindowGetPosition(ctx)
		}
		if st.Maximised {
			runtime.WindowMaximise(ctx)
		}
	}()
}

// beforeClose saves where the window is; it never stops the close. Wails
// calls it for the close button and for runtime.Quit (Ctrl+Q) alike.
func (w *Window) beforeClose(ctx context.Context) bool {
	w.remember(ctx)
	return false
}

// Remember saves the window's size and place now. The UI calls it when the
// window is resized or loses focus: Wails reports no moves, and a window
// that is maximised before it closes must still know its normal size.
func (w *Window) Remember() {
	if ctx := w.context(); ctx != nil {
		w.remember(ctx)
	}
}

func (w *Window) remember(ctx context.Context) {
	g := geometry{
		maximised:  runtime.WindowIsMaximised(ctx),
		fullscreen: runtime.WindowIsFullscreen(ctx),
		minimised:  runtime.WindowIsMinimised(ctx),
	}
	g.width, g.height = runtime.WindowGetSize(ctx)
	g.x, g.y = runtime.WindowGetPosition(ctx)
	w.save(g)
}

// geometry is what the window reported as it closed.
type geometry struct {
	x, y, width, height              int
	maximised, fullscreen, minimised bool
}

// record folds g into st: a maximised or full-screen window keeps the size
// and place it had before, so unmaximising after a restart restores them.
func record(st desktop.Window, g geometry) desktop.Window {
	switch {
	case g.fullscreen, g.minimised:
		// Neither is restored, and neither reports the normal size and
		// place: the window reopens as it was before.
	case g.maximised:
		st.Maximised = true
	default:
		st.Maximised = false
		st.Width, st.Height = g.width, g.height
		st.X, st.Y, st.Placed = g.x, g.y, true
	}
	return st.Sane()
}

// save records g; it writes the file only when something changed.
func (w *Window) save(g geometry) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if record(w.state, g) == w.state {
		return
	}
	var next desktop.Window
	if err := w.file.Update(func(st *desktop.Window) {
		st.Dark = w.state.Dark
		*st = record(*st, g)
		next = *st
	}); err != nil {
		w.log.Warn("save window state", "err", err)
		return
	}
	w.state = next
}

// SetDark is called by the UI whenever the theme it shows changes between
// light and dark: the window's background follows at once, and the next
// launch starts with it.
func (w *Window) SetDark(dark bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ctx != nil {
		c := backgroundLight
		if dark {
			c = backgroundDark
		}
		runtime.WindowSetBackgroundColour(w.ctx, c.R, c.G, c.B, c.A)
	}
	if w.state.Dark == dark {
		return
	}
	w.state.Dark = dark
	if err := w.file.Update(func(st *desktop.Window) { st.Dark = dark }); err != nil {
		w.log.Warn("save window theme", "err", err)
	}
}

// ToggleFullscreen enters full screen, or leaves it (F11).
func (w *Window) ToggleFullscreen() {
	ctx := w.context()
	if ctx == nil {
		return
	}
	if runtime.WindowIsFullscreen(ctx) {
		runtime.WindowUnfullscreen(ctx)
		return
	}
	runtime.WindowFullscreen(ctx)
}

// Quit closes the window and the app, saving the window state on the way
// (Ctrl+Q).
func (w *Window) Quit() {
	if ctx := w.context(); ctx != nil {
		runtime.Quit(ctx)
	}
}

func (w *Window) context() context.Context {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.ctx
}
