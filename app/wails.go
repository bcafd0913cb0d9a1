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
		OpenURL: runtime.BrowserOpenURL,
		Show: func(ctx context.Context) {
			runtime.WindowUnminimise(ctx)
			runtime.WindowShow(ctx)
		},
	}
}
