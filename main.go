// Command maestro is the Maestro desktop app: chat with Gemini, Claude and
// ChatGPT through MCP tools that can be switched per session, live.
package main

import (
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
	// The sign-in manager reports to the app, and the app needs the
	// catalog the manager's credentials feed: a is set below, before
	// wails.Run, and no sign-in can start before then.
	var a *app.App
	accounts := auth.NewManager(kc, auth.ManagerConfig{
		OpenURL:   func(url string) error { return a.OpenURL(url) },
		Notify:    func(u auth.LoginUpdate) { a.LoginUpdate(u) },
		Endpoints: auth.EndpointsFromEnv(),
		Logger:    logger,
	})
	// Runs after wails.Run returns, that is after the app's shutdown has
	// canceled and waited for its sign-ins.
	defer accounts.Close()
	models := catalog.New(accounts, catalog.WithVersion(version), catalog.WithLogger(logger))
	// Runs after the app's shutdown: a model list being fetched is let finish.
	defer models.Close()

	rt := app.WailsRuntime()
	if browser := os.Getenv("MAESTRO_BROWSER"); browser != "" {
		rt.OpenURL = app.BrowserCommand(browser)
	}
	a = app.New(app.Deps{
		Version: version, DataDir: dir, Runtime: rt, Logger: logger,
		Keychain: kc, Secrets: kc, SignIns: accounts, Models: models, Catalog: models,
		// The window's size, place and theme background come from the last run.
		Window: app.LoadWindow(dir, logger),
	})
	opts := &options.App{
		Title:       "Maestro",
		AssetServer: &assetserver.Options{Assets: assets},
		// One window per data dir: a second launch raises the first window
		// instead of racing it for the data file.
		SingleInstanceLock: &options.SingleInstanceLock{UniqueId: instanceID(dir)},
		Linux:              &linux.Options{Icon: icon, ProgramName: "maestro", WebviewGpuPolicy: gpuPolicy()},
	}
	a.Configure(opts) // services, hooks, menu, window size and background
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
