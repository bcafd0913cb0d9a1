// Command maestro-fakes serves the fakes of all three providers — model
// API, sign-in server and Gemini Code Assist setup — on one local origin,
// for the end-to-end suite and for trying the app without real accounts.
//
//	go run ./backend/providers/fakes/cmd/maestro-fakes -addr 127.0.0.1:0
//
// Once listening it prints one JSON line on stdout, {"url":"http://127.0.0.1:PORT"},
// and it runs until SIGINT or SIGTERM, or until its stdin is closed when
// stdin is a pipe (so a harness that dies takes it along; a terminal or
// /dev/null on stdin is not watched).
//
// Each fake is mounted under its own prefix, so their paths cannot collide
// (OpenAI and Anthropic both have /oauth/authorize):
//
//	{url}/openai/…     oauth/authorize, oauth/token, backend-api/codex/responses, v1/responses
//	{url}/anthropic/…  oauth/authorize, oauth/code/callback, v1/oauth/token, v1/messages
//	{url}/gemini/…     o/oauth2/v2/auth, token, oauth2/v2/userinfo, v1internal:…, v1beta/models/…
//
// so every MAESTRO_<PROVIDER>_*_URL variable of one provider is set to
// {url}/<provider>. The control endpoints of each fake are at
// {url}/_fake/<provider>/…: replies, requests, reset (the script), oauth/state,
// oauth/expire, oauth/revoke, oauth/config (the sign-in server), and for
// Gemini codeassist (the account scenario).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"maestro/backend/providers/anthropic/anthropicfake"
	"maestro/backend/providers/gemini/geminifake"
	"maestro/backend/providers/openai/openaifake"
)

// config is the command line.
type config struct {
	addr          string
	openaiAnyPort bool
	accessTTL     time.Duration
	scenario      string
	onboardPolls  int
	strictTokens  bool
}

func main() {
	var c config
	flag.StringVar(&c.addr, "addr", "127.0.0.1:0", "address to listen on")
	flag.BoolVar(&c.openaiAnyPort, "openai-any-port", false,
		"accept any http://localhost port as the ChatGPT redirect (the real allow-list is 1455 and 1457)")
	flag.DurationVar(&c.accessTTL, "access-ttl", time.Hour, "lifetime of issued access tokens")
	flag.StringVar(&c.scenario, "gemini-scenario", string(geminifake.ScenarioFree),
		"Code Assist account: free, onboarded, standard, standard-new, validation or ineligible")
	flag.IntVar(&c.onboardPolls, "onboard-polls", 1, "operation polls before Gemini onboarding is done")
	flag.BoolVar(&c.strictTokens, "strict-tokens", false, "refuse bearer tokens the fakes did not issue")
	flag.Parse()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := run(c, os.Stdout, os.Stdin, log); err != nil {
		log.Error("maestro-fakes", "err", err)
		os.Exit(1)
	}
}

func run(c config, stdout io.Writer, stdin *os.File, log *slog.Logger) error {
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	srv := &http.Server{Handler: newHandler(c), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	line, _ := json.Marshal(map[string]string{"url": "http://" + ln.Addr().String()})
	if _, err := fmt.Fprintf(stdout, "%s\n", line); err != nil {
		return fmt.Errorf("print the URL: %w", err)
	}
	log.Info("maestro-fakes: listening", "url", "http://"+ln.Addr().String())

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if watchStdin(stdin) {
		go func() {
			_, _ = io.Copy(io.Discard, stdin)
			stop()
		}()
	}
	select {
	case <-ctx.Done():
	case err := <-served:
		return err
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

// watchStdin reports whether stdin is a pipe or socket, whose closing
// means the parent is gone.
func watchStdin(f *os.File) bool {
	if f == nil {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&(os.ModeNamedPipe|os.ModeSocket) != 0
}

// newHandler mounts the three fakes under their prefixes and their control
// endpoints under /_fake/<provider>/.
func newHandler(c config) http.Handler {
	oaOpts := []openaifake.Option{openaifake.WithAccessTokenTTL(c.accessTTL)}
	anOpts := []anthropicfake.Option{anthropicfake.WithAccessTokenTTL(c.accessTTL)}
	geOpts := []geminifake.Option{
		geminifake.WithAccessTokenTTL(c.accessTTL),
		geminifake.WithCodeAssistScenario(geminifake.Scenario(c.scenario)),
		geminifake.WithOnboardPolls(c.onboardPolls),
	}
	if c.openaiAnyPort {
		oaOpts = append(oaOpts, openaifake.WithOAuthAnyPort())
	}
	if c.strictTokens {
		oaOpts = append(oaOpts, openaifake.WithIssuedTokensOnly())
		anOpts = append(anOpts, anthropicfake.WithIssuedTokensOnly())
		geOpts = append(geOpts, geminifake.WithIssuedTokensOnly())
	}
	fakes := map[string]http.Handler{
		"openai":    openaifake.New(oaOpts...),
		"anthropic": anthropicfake.New(anOpts...),
		"gemini":    geminifake.New(geOpts...),
	}
	mux := http.NewServeMux()
	for name, h := range fakes {
		mux.Handle("/"+name+"/", http.StripPrefix("/"+name, h))
		mux.Handle("/_fake/"+name+"/", control(name, h))
	}
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "maestro-fakes: unknown path "+r.URL.Path+"; the fakes live under /openai/, /anthropic/ and /gemini/",
			http.StatusNotFound)
	})
	return mux
}

// control maps /_fake/<name>/rest to the fake's own /_fake/rest.
func control(name string, h http.Handler) http.Handler {
	prefix := "/_fake/" + name
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r2 := r.Clone(r.Context())
		r2.URL.Path = "/_fake" + strings.TrimPrefix(r.URL.Path, prefix)
		r2.URL.RawPath = ""
		h.ServeHTTP(w, r2)
	})
}
