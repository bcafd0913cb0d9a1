// Command maestro is the Maestro desktop app: chat with Gemini, Claude and
// ChatGPT through MCP tools that can be switched per session, live.
package main

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"

	"maestro/app"
	"maestro/backend/auth"
	"maestro/backend/providers/catalog"
	"maestro/backend/store"
)

//go:embed all:frontend/dist
var assets embed.FS

//go:embed build/appicon.png
var icon []byte

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "maestro:", err)
		os.Exit(1)
	}
}

func run() error {
	dir, err := store.DataDir()
	if err != nil {
		return err
	}
	logger, closeLog := app.OpenLog(dir)
	defer closeLog()
	slog.SetDefault(logger)

	kc := auth.New("Maestro")
	// The manager reports to the app through hooks, which exist only once
	// the app does; no sign-in can start before wails.Run.
	var hooks app.Lifecycle
	accounts := auth.NewManager(kc, auth.ManagerConfig{
		OpenURL:   func(url string) error { return hooks.OpenURL(url) },
		Notify:    func(u auth.LoginUpdate) { hooks.LoginUpdate(u) },
		Endpoints: auth.EndpointsFromEnv(),
		Logger:    logger,
	})
	// Runs after wails.Run returns, that is after the app's shutdown has
	// canceled and waited for its sign-ins.
	defer accounts.Close()

	rt := app.WailsRuntime()
	if browser := os.Getenv("MAESTRO_BROWSER"); browser != "" {
		rt.OpenURL = app.BrowserCommand(browser)
	}
	a := app.New(app.Config{
		Version:  version,
		DataDir:  dir,
		Runtime:  rt,
		Keychain: kc,
		Accounts: accounts,
		Logger:   logger,
	})
	models := catalog.New(accounts, catalog.WithVersion(version), catalog.WithLogger(logger))
	// MCP connectors: the supervisor and registry are built on the store at
	// startup (servers start in the background) and closed before it.
	app.EnableConnectors(a, app.ConnectorsDeps{Secrets: kc})
	// Runs after the app's shutdown: a model list being fetched is let finish.
	defer models.Close()
	app.EnableChat(a, app.ChatDeps{Models: models, Tools: app.AgentTools(a), Catalog: models})
	hooks = app.Hooks(a)
	// The window's size, place and theme background come from the last run.
	win := app.LoadWindow(dir, logger)
	winHooks := app.WindowHooks(win)
	opts := &options.App{
		Title:       "Maestro",
		AssetServer: &assetserver.Options{Assets: assets},
		Menu:        app.Menu(win, app.EmitEvent),
		OnStartup: func(ctx context.Context) {
			winHooks.Startup(ctx)
			hooks.Startup(ctx)
		},
		OnBeforeClose:  winHooks.BeforeClose,
		OnShutdown:     hooks.Shutdown,
		Bind:           []any{a, win},
		ErrorFormatter: app.FormatError,
		// One window per data dir: a second launch on the same dir raises
		// the first window instead of racing it for the data file.
		SingleInstanceLock: &options.SingleInstanceLock{
			UniqueId:               instanceID(dir),
			OnSecondInstanceLaunch: func(options.SecondInstanceData) { hooks.SecondInstance() },
		},
		Linux: &linux.Options{Icon: icon, ProgramName: "maestro", WebviewGpuPolicy: gpuPolicy()},
	}
	winHooks.Apply(opts)
	return wails.Run(opts)
}

// gpuPolicy keeps WebKitGTK out of accelerated compositing by default: a
// chat UI gains nothing visible from it, and it costs about 75 MiB of PSS
// (measured: 296 vs 221 MiB for the idle window, docs/PERFORMANCE.md) and
// is the usual cause of blank WebKitGTK windows on some GPU drivers.
// MAESTRO_WEBVIEW_GPU=on-demand or =always turns it back on.
func gpuPolicy() linux.WebviewGpuPolicy {
	switch os.Getenv("MAESTRO_WEBVIEW_GPU") {
	case "on-demand":
		return linux.WebviewGpuPolicyOnDemand
	case "always":
		return linux.WebviewGpuPolicyAlways
	}
	return linux.WebviewGpuPolicyNever
}

// instanceID names the single-instance lock after the data dir.
func instanceID(dir string) string {
	sum := sha256.Sum256([]byte(dir))
	return "maestro-" + hex.EncodeToString(sum[:8])
}
