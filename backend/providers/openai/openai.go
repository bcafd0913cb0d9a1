package openai

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"net/http"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"maestro/backend/chat"
)

const (
	// DefaultChatGPTBaseURL is the host of the ChatGPT sign-in backend.
	DefaultChatGPTBaseURL = "https://chatgpt.com"
	// DefaultAPIBaseURL is the host of the public API (API-key mode).
	DefaultAPIBaseURL = "https://api.openai.com"
	// ChatGPTPath and APIPath are appended to the base URL.
	ChatGPTPath = "/backend-api/codex/responses"
	APIPath     = "/v1/responses"

	// DefaultOriginator names Maestro in the originator header and the
	// User-Agent. Reimplementations send their own name
	// (docs/providers/openai.md §Endpoints and headers).
	DefaultOriginator = "maestro"
	// DefaultIdleTimeout is Codex's stream idle timeout
	// (DEFAULT_STREAM_IDLE_TIMEOUT_MS).
	DefaultIdleTimeout = 300 * time.Second
	// DefaultInstructions is sent when the session has no system prompt:
	// the ChatGPT backend answers 400 "Instructions are required" without.
	DefaultInstructions = "You are a helpful assistant."

	maxErrorBody = 1 << 20
)

// Model streams responses from OpenAI. Build it with New.
type Model struct {
	baseURL    string
	client     *http.Client
	apiKey     string
	accountID  string
	originator string
	version    string
	// clientVersion is the Codex version the ChatGPT backend gates models
	// by (models.go).
	clientVersion string
	idle          time.Duration
	log           *slog.Logger
	now           func() time.Time
}

// Option configures a Model.
type Option func(*Model)

// WithBaseURL sets the host root (see the package doc).
func WithBaseURL(u string) Option { return func(m *Model) { m.baseURL = u } }

// WithHTTPClient sets the client. In ChatGPT mode it must add the bearer
// itself (an oauth2 client); the adapter never adds auth in that mode.
func WithHTTPClient(c *http.Client) Option { return func(m *Model) { m.client = c } }

// WithAPIKey switches to API-key mode: {base}/v1/responses with the key as
// bearer.
func WithAPIKey(key string) Option { return func(m *Model) { m.apiKey = key } }

// WithAccountID sets the ChatGPT account id (the chatgpt_account_id claim
// of the id_token), sent as ChatGPT-Account-ID. ChatGPT mode requires it.
func WithAccountID(id string) Option { return func(m *Model) { m.accountID = id } }

// WithVersion sets the version in the User-Agent (default "dev").
func WithVersion(v string) Option { return func(m *Model) { m.version = v } }

// WithOriginator overrides the originator header (default "maestro").
func WithOriginator(o string) Option { return func(m *Model) { m.originator = o } }

// WithClientVersion sets the Codex client version sent to the ChatGPT
// backend (default: $MAESTRO_CODEX_CLIENT_VERSION, else
// DefaultClientVersion).
func WithClientVersion(v string) Option { return func(m *Model) { m.clientVersion = v } }

// WithIdleTimeout ends a stream that sends nothing for d (0 disables).
func WithIdleTimeout(d time.Duration) Option { return func(m *Model) { m.idle = d } }

// WithLogger receives rendering warnings (dropped parts, tool budget).
func WithLogger(l *slog.Logger) Option { return func(m *Model) { m.log = l } }

// New returns a Model in ChatGPT mode unless WithAPIKey is given.
func New(opts ...Option) *Model {
	m := &Model{
		client:        http.DefaultClient,
		originator:    DefaultOriginator,
		version:       "dev",
		clientVersion: cmp.Or(strings.TrimSpace(os.Getenv(ClientVersionEnv)), DefaultClientVersion),
		idle:          DefaultIdleTimeout,
		log:           slog.New(slog.DiscardHandler),
		now:           time.Now,
	}
	for _, o := range opts {
		o(m)
	}
	return m
}

// URL is the endpoint the Model posts to.
func (m *Model) URL() string {
	if m.apiKey != "" {
		return m.apiBase() + APIPath
	}
	return m.chatgptBase() + ChatGPTPath
}

// apiBase is the API host root, without a trailing /v1.
func (m *Model) apiBase() string {
	return strings.TrimSuffix(cmp.Or(strings.TrimRight(m.baseURL, "/"), DefaultAPIBaseURL), "/v1")
}

// chatgptBase is the ChatGPT host root, without /backend-api[/codex].
func (m *Model) chatgptBase() string {
	base := cmp.Or(strings.TrimRight(m.baseURL, "/"), DefaultChatGPTBaseURL)
	return strings.TrimSuffix(strings.TrimSuffix(base, "/codex"), "/backend-api")
}

// setClientHeaders sets what both endpoints of a mode want: the
// User-Agent, and the API key or the Codex identity headers
// (docs/providers/openai.md §Endpoints and headers).
func (m *Model) setClientHeaders(h http.Header) {
	h.Set("User-Agent", fmt.Sprintf("%s/%s (%s %s)", m.originator, m.version, runtime.GOOS, runtime.GOARCH))
	if m.apiKey != "" {
		h.Set("Authorization", "Bearer "+m.apiKey)
		return
	}
	// Assigned directly to keep Codex's spelling; Set would canonicalise.
	h["ChatGPT-Account-ID"] = []string{m.accountID}
	h["originator"] = []string{m.originator}
	h["version"] = []string{m.clientVersion}
}

// newRequest renders req into an HTTP request for this mode.
func (m *Model) newRequest(ctx context.Context, req chat.Request) (*http.Request, error) {
	if m.apiKey == "" && m.accountID == "" {
		return nil, fmt.Errorf("openai: chatgpt sign-in has no account id: %w", chat.ErrAuthRequired)
	}
	msgs, fitWarns, err := AttachmentRules().Fit(req.Messages)
	if err != nil {
		return nil, fmt.Errorf("openai: %w", err)
	}
	req.Messages = msgs
	body, warns := toRequest(req)
	warns = append(fitWarns, warns...)
	if m.apiKey != "" {
		warns = append(warns, apiOnly(&body, req, modelInfo(req))...)
	} else if req.Temperature != nil {
		// MaxOutputTokens goes unsaid without a warning: the agent sets it
		// on every request (the answer's share of the context budget), and
		// the backend, which refuses it, bounds the answer itself.
		warns = append(warns, "temperature is not sent to the chatgpt backend")
	}
	for _, w := range warns {
		m.log.WarnContext(ctx, "openai: render request", "warning", w)
	}
	b, err := marshal(body)
	if err != nil {
		return nil, fmt.Errorf("openai: encode request: %w", err)
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, m.URL(), bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("openai: build request: %w", err)
	}
	h := hr.Header
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "text/event-stream")
	m.setClientHeaders(h)
	if m.apiKey != "" {
		return hr, nil
	}
	h.Set("OpenAI-Beta", "responses=experimental")
	if req.SessionID != "" {
		h["session_id"] = []string{req.SessionID}
	}
	return hr, nil
}

// apiOnly sets the fields only the public API takes (the ChatGPT backend
// rejects both, docs/providers/openai.md §Request rules): max_output_tokens,
// bounded by the model's limit, and temperature, which reasoning models
// reject.
func apiOnly(body *request, req chat.Request, info chat.ModelInfo) []string {
	var warns []string
	body.MaxOutputTokens = req.MaxOutputTokens
	if limit := info.MaxOutputTokens; limit > 0 && body.MaxOutputTokens > limit {
		warns = append(warns, fmt.Sprintf("max output tokens %d lowered to %s's limit of %d", body.MaxOutputTokens, req.Model, limit))
		body.MaxOutputTokens = limit
	}
	if req.Temperature != nil {
		if info.Reasoning {
			warns = append(warns, fmt.Sprintf("temperature not sent: %s is a reasoning model", req.Model))
		} else {
			body.Temperature = req.Temperature
		}
	}
	return warns
}

// marshal encodes compactly without HTML escaping, so "<" in a prompt
// reaches the model as "<".
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Stream sends req and returns its events. A non-2xx answer is returned as
// a *chat.ProviderError; failures inside the stream end the sequence with
// (nil, err).
func (m *Model) Stream(ctx context.Context, req chat.Request) (iter.Seq2[chat.Event, error], error) {
	hr, err := m.newRequest(ctx, req)
	if err != nil {
		return nil, err
	}
	resp, err := m.do(ctx, hr, "send request")
	if err != nil {
		return nil, err
	}
	return m.events(ctx, resp), nil
}

// do sends hr. A transport failure and a non-2xx answer (classified, its
// body read and closed) come back as errors; what names the call in them.
func (m *Model) do(ctx context.Context, hr *http.Request, what string) (*http.Response, error) {
	resp, err := m.client.Do(hr)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("openai: %s: %w", what, ctx.Err())
		}
		return nil, &chat.ProviderError{Provider: chat.ProviderOpenAI, Kind: chat.ProviderKindServer,
			Message: what, Err: err}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		defer resp.Body.Close()
		body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		return nil, classifyHTTP(resp.StatusCode, resp.Header, body, m.now())
	}
	return resp, nil
}

// events ranges over the response body, closing it when the range ends.
func (m *Model) events(ctx context.Context, resp *http.Response) iter.Seq2[chat.Event, error] {
	return func(yield func(chat.Event, error) bool) {
		defer resp.Body.Close()
		var body io.Reader = resp.Body
		var idled atomic.Bool
		if m.idle > 0 {
			t := time.AfterFunc(m.idle, func() {
				idled.Store(true)
				resp.Body.Close()
			})
			defer t.Stop()
			body = &idleReader{r: resp.Body, t: t, d: m.idle}
		}
		for ev, err := range parseStream(body) {
			if err != nil {
				switch {
				case ctx.Err() != nil:
					err = fmt.Errorf("openai: read stream: %w", ctx.Err())
				case idled.Load():
					err = &chat.ProviderError{Provider: chat.ProviderOpenAI, Status: resp.StatusCode,
						Kind: chat.ProviderKindStream, Message: fmt.Sprintf("no data for %s", m.idle), Err: err}
				}
				if he, ok := chat.AsProviderError(err); ok && he.RequestID == "" {
					he.RequestID = requestID(resp.Header)
				}
				yield(nil, err)
				return
			}
			if !yield(ev, nil) {
				return
			}
		}
	}
}

// idleReader pushes the idle deadline back on every read that returns data.
type idleReader struct {
	r io.Reader
	t *time.Timer
	d time.Duration
}

func (ir *idleReader) Read(p []byte) (int, error) {
	n, err := ir.r.Read(p)
	if n > 0 {
		ir.t.Reset(ir.d)
	}
	return n, err
}
