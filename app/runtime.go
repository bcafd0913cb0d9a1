package app

import (
	"context"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// Runtime is the set of Wails runtime calls the services make. main wires
// it to Wails (WailsRuntime); tests wire it to recorders, since a runtime
// call with a context that did not come from Wails kills the process.
type Runtime struct {
	// Emit sends an event to the frontend.
	Emit func(ctx context.Context, name string, data ...any)
	// OpenURL opens a URL in the system browser; an error says none could
	// be opened.
	OpenURL func(ctx context.Context, url string) error
	// Show brings the window to the front (a second launch does this).
	Show func(ctx context.Context)
	// OpenFileDialog, SaveFileDialog and OpenDirectoryDialog show the
	// system's file and folder pickers; they return "" when the user
	// cancels. Without them the pickers fail with ErrUnavailable.
	OpenFileDialog      func(ctx context.Context, d FileDialog) (string, error)
	SaveFileDialog      func(ctx context.Context, d FileDialog) (string, error)
	OpenDirectoryDialog func(ctx context.Context, d FileDialog) (string, error)
}

// FileDialog describes a file or folder picker.
type FileDialog struct {
	Title            string
	DefaultDirectory string
	DefaultFilename  string
	Filters          []FileFilter
}

// FileFilter is one choice of a picker's file type list, e.g.
// {"JSON files", "*.json"}.
type FileFilter struct {
	DisplayName string
	Pattern     string
}

// WailsRuntime returns the Runtime backed by the real Wails runtime. Only
// main uses it; every call needs the context Wails passed to startup.
func WailsRuntime() Runtime {
	return Runtime{
		Emit:    runtime.EventsEmit,
		OpenURL: openBrowser,
		Show: func(ctx context.Context) {
			runtime.WindowUnminimise(ctx)
			runtime.WindowShow(ctx)
		},
		OpenFileDialog: func(ctx context.Context, d FileDialog) (string, error) {
			return runtime.OpenFileDialog(ctx, openDialogOptions(d))
		},
		SaveFileDialog: func(ctx context.Context, d FileDialog) (string, error) {
			return runtime.SaveFileDialog(ctx, runtime.SaveDialogOptions{
				Title: d.Title, DefaultDirectory: d.DefaultDirectory, DefaultFilename: d.DefaultFilename,
				Filters: fileFilters(d.Filters), CanCreateDirectories: true,
			})
		},
		OpenDirectoryDialog: func(ctx context.Context, d FileDialog) (string, error) {
			o := openDialogOptions(d)
			o.CanCreateDirectories = true
			return runtime.OpenDirectoryDialog(ctx, o)
		},
	}
}

func openDialogOptions(d FileDialog) runtime.OpenDialogOptions {
	return runtime.OpenDialogOptions{
		Title: d.Title, DefaultDirectory: d.DefaultDirectory, DefaultFilename: d.DefaultFilename,
		Filters: fileFilters(d.Filters),
	}
}

func fileFilters(fs []FileFilter) []runtime.FileFilter {
	out := make([]runtime.FileFilter, 0, len(fs))
	for _, f := range fs {
		out = append(out, runtime.FileFilter{DisplayName: f.DisplayName, Pattern: f.Pattern})
	}
	return out
}
