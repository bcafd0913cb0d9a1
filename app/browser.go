package app

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	goruntime "runtime"
	"strings"
	"time"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"maestro/backend/chat"
)

// browserWait is how long an opener may take to fail. xdg-open exits at
// once when it hands the URL to a running browser or finds none; when it
// starts the browser itself it may keep running, which counts as opened.
const browserWait = 3 * time.Second

// linuxOpeners are tried in order; the first installed one opens the URL.
var linuxOpeners = []string{"xdg-open", "x-www-browser", "www-browser", "sensible-browser"}

// openBrowser opens url in the desktop's browser. On Linux it runs the
// opener itself, because the Wails runtime only logs a failure, and the
// sign-in must know at once that nobody will see its page.
func openBrowser(ctx context.Context, url string) error {
	if goruntime.GOOS != "linux" {
		runtime.BrowserOpenURL(ctx, url)
		return nil
	}
	for _, name := range linuxOpeners {
		if path, err := exec.LookPath(name); err == nil {
			return runOpener(path, url)
		}
	}
	return chat.E(chat.ErrUnavailable, "no browser could be opened: none of %s is installed", strings.Join(linuxOpeners, ", "))
}

// BrowserCommand returns an OpenURL that runs command with the URL as its
// only argument (MAESTRO_BROWSER: the end-to-end tests record the URLs).
func BrowserCommand(command string) func(context.Context, string) error {
	return func(_ context.Context, url string) error { return runOpener(command, url) }
}

// runOpener starts command url and reports a failure that shows within
// browserWait; a command still running then is left to finish and reaped.
func runOpener(command, url string) error {
	var stderr bytes.Buffer
	cmd := exec.Command(command, url)
	cmd.Stderr = &limitedWriter{buf: &stderr, max: 2048}
	if err := cmd.Start(); err != nil {
		return chat.E(chat.ErrUnavailable, "no browser could be opened: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err == nil {
			return nil
		}
		msg := strings.TrimSpace(stderr.String())
		var ee *exec.ExitError
		if errors.As(err, &ee) && msg != "" {
			return chat.E(chat.ErrUnavailable, "no browser could be opened: %s: %s", command, msg)
		}
		return chat.E(chat.ErrUnavailable, "no browser could be opened: %s: %w", command, err)
	case <-time.After(browserWait):
		return nil
	}
}

// limitedWriter keeps the first max bytes written to it.
type limitedWriter struct {
	buf *bytes.Buffer
	max int
}

func (w *limitedWriter) Write(p []byte) (int, error) {
	if room := w.max - w.buf.Len(); room > 0 {
		w.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
