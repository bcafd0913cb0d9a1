package app

import (
	"context"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

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
