package auth

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"html"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"maestro/backend/chat"
)

// ListenLoopback binds the first free port of ports on host (a loopback
// address; port 0 means any free port). Every sign-in listener, the
// providers' and the MCP servers', binds through it.
func ListenLoopback(host string, ports []int) (net.Listener, error) {
	var errs []error
	for _, p := range ports {
		ln, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(p)))
		if err == nil {
			return ln, nil
		}
		errs = append(errs, err)
	}
	return nil, errors.Join(errs...)
}

// CallbackConfig says what a Callback answers and to whom it hands the
// redirect.
type CallbackConfig struct {
	// Path is the one path answered; any other gets 404.
	Path string
	// State is the sign-in's state: a request whose state differs gets 400
	// "State mismatch" and is otherwise ignored (the sign-in keeps
	// waiting).
	State string
	// Display names the sign-in on the browser's page ("ChatGPT", a
	// connector's name).
	Display string
	Log     *slog.Logger
	// Deliver takes the redirect's query and returns once the sign-in has
	// used it. delivered is false when no sign-in is waiting any more; err
	// is shown on the page.
	Deliver func(ctx context.Context, q url.Values) (delivered bool, err error)
}

// Callback is the loopback listener of one sign-in (RFC 8252 §7.3): it
// answers CallbackConfig.Path, checks the state, hands the query to
// Deliver and shows the browser a page saying how it went. It is the one
// listener of both sign-ins: the Manager's and backend/mcp's.
type Callback struct {
	srv    *http.Server
	cfg    CallbackConfig
	served chan struct{}
}

// ServeCallback serves cfg on ln until Close.
func ServeCallback(ln net.Listener, cfg CallbackConfig) *Callback {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	c := &Callback{cfg: cfg, served: make(chan struct{})}
	c.srv = &http.Server{
		Handler:           http.HandlerFunc(c.serve),
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(cfg.Log.Handler(), slog.LevelDebug),
	}
	go func() {
		defer close(c.served)
		_ = c.srv.Serve(ln)
	}()
	return c
}

// Close stops the listener, letting a page being written finish.
func (c *Callback) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := c.srv.Shutdown(ctx); err != nil {
		_ = c.srv.Close()
	}
	<-c.served
}

func (c *Callback) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != c.cfg.Path {
		http.NotFound(w, r)
		return
	}
	q := r.URL.Query()
	if subtle.ConstantTimeCompare([]byte(q.Get("state")), []byte(c.cfg.State)) != 1 {
		c.cfg.Log.Warn("auth: sign-in callback with a wrong state", "provider", c.cfg.Display)
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintln(w, "State mismatch")
		return
	}
	ok, err := c.cfg.Deliver(r.Context(), q)
	switch {
	case !ok && err == nil:
		writePage(w, http.StatusConflict, false, c.cfg.Display, "This sign-in is no longer waiting. Return to Maestro and start it again.")
	case err != nil:
		writePage(w, http.StatusOK, false, c.cfg.Display, err.Error())
	default:
		writePage(w, http.StatusOK, true, c.cfg.Display, "")
	}
}

// RedirectError says, in plain words, why a sign-in redirect's query has
// no code: the provider refused (error=…), or the code is missing. It is
// nil when the query has a code.
func RedirectError(display string, q url.Values) error {
	switch {
	case q.Get("error") != "":
		return providerRefusal(display, q.Get("error"), q.Get("error_description"))
	case q.Get("code") == "":
		return chat.E(chat.ErrAuthRequired, "%s sign-in failed: the browser came back without a sign-in code", display)
	}
	return nil
}

// providerRefusal puts an OAuth error redirect into plain words.
func providerRefusal(display, code, desc string) error {
	code, desc = clean(code, 64), clean(desc, maxErrorDetail)
	switch {
	case code == "access_denied" && strings.Contains(desc, "missing_codex_entitlement"):
		return chat.E(chat.ErrAuthRequired, "%s sign-in failed: Codex is not enabled for your workspace; ask its admin to enable it", display)
	case code == "access_denied":
		return chat.E(chat.ErrAuthRequired, "%s sign-in failed: access was denied in the browser", display)
	case desc != "":
		return chat.E(chat.ErrAuthRequired, "%s sign-in failed: %s (%s)", display, desc, code)
	}
	return chat.E(chat.ErrAuthRequired, "%s sign-in failed: the sign-in page answered %q", display, code)
}

// writePage writes the small page the browser shows after the redirect.
func writePage(w http.ResponseWriter, status int, ok bool, display, detail string) {
	title, lead := "Signed in to "+display, "You can close this tab and return to Maestro."
	if !ok {
		title, lead = display+" sign-in failed", "Return to Maestro to try again."
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	w.WriteHeader(status)
	mark, color := "✓", "#1a7f37"
	if !ok {
		mark, color = "!", "#cf222e"
	}
	var d string
	if detail != "" {
		d = "<p class=d>" + html.EscapeString(detail) + "</p>"
	}
	fmt.Fprintf(w, pageHTML, html.EscapeString(title), color, mark, html.EscapeString(title), html.EscapeString(lead), d)
}

const pageHTML = `<!doctype html>
<html lang=en><head><meta charset=utf-8><meta name=viewport content="width=device-width,initial-scale=1">
<title>%s — Maestro</title>
<style>
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#f6f8fa;color:#1f2328;
font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{background:#fff;border:1px solid #d0d7de;border-radius:12px;padding:32px 40px;max-width:28rem;text-align:center}
.m{width:48px;height:48px;border-radius:50%%;margin:0 auto 12px;display:grid;place-items:center;
color:#fff;background:%s;font-size:26px;font-weight:700}
h1{font-size:20px;margin:0 0 8px}p{margin:0}.d{margin-top:12px;color:#59636e;font-size:14px}
@media (prefers-color-scheme:dark){body{background:#0d1117;color:#e6edf3}main{background:#161b22;border-color:#30363d}.d{color:#9198a1}}
</style></head>
<body><main><div class=m>%s</div><h1>%s</h1><p>%s</p>%s</main></body></html>
`
