package anthropic

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"net/http"
	"strings"

	"maestro/backend/chat"
)

// Wire constants (docs/providers/anthropic.md, "Endpoints and headers").
const (
	// DefaultBaseURL is the Messages API host.
	DefaultBaseURL = "https://api.anthropic.com"
	// APIVersion is sent as anthropic-version on every request.
	APIVersion = "2023-06-01"
	// BetaOAuth must be in anthropic-beta when a subscription token is used.
	BetaOAuth = "oauth-2025-04-20"
	// BetaInterleavedThinking lets the model think between tool calls.
	BetaInterleavedThinking = "interleaved-thinking-2025-05-14"
	// ClaudeCodeSystem is the first system block a subscription token
	// requires; the session's own prompt follows it as the next block.
	ClaudeCodeSystem = "You are Claude Code, Anthropic's official CLI for Claude."
	// DefaultOAuthUserAgent is the user-agent reimplementations send with a
	// subscription token.
	DefaultOAuthUserAgent = "claude-cli/2.1.2 (external, cli)"
)

// maxErrorBody bounds how much of an error response is read.
const maxErrorBody = 1 << 20

// Model streams Messages API responses. Build it with New.
type Model struct {
	baseURL   string
	client    *http.Client
	apiKey    string
	userAgent string
	logger    *slog.Logger
	schemas   *schemaCache
}

// Option configures a Model.
type Option func(*Model)

// New returns a Model in OAuth mode against DefaultBaseURL using
// http.DefaultClient, adjusted by opts.
func New(opts ...Option) *Model {
	m := &Model{baseURL: DefaultBaseURL, client: http.DefaultClient, schemas: &schemaCache{}}
	for _, o := range opts {
		o(m)
	}
	return m
}

// WithBaseURL points the Model at another host (a fake server, a proxy).
func WithBaseURL(u string) Option {
	return func(m *Model) { m.baseURL = strings.TrimRight(u, "/") }
}

// WithHTTPClient sets the client. In OAuth mode it must add the bearer
// token itself (an oauth2 client); the Model never adds auth in that mode.
func WithHTTPClient(c *http.Client) Option {
	return func(m *Model) {
		if c != nil {
			m.client = c
		}
	}
}

// WithAPIKey switches to API-key mode: x-api-key, no ?beta=true, no OAuth
// beta, and the system prompt sent as it is.
func WithAPIKey(key string) Option {
	return func(m *Model) { m.apiKey = key }
}

// WithUserAgent overrides the user-agent header. OAuth mode defaults to
// DefaultOAuthUserAgent; API-key mode to Go's default.
func WithUserAgent(ua string) Option {
	return func(m *Model) { m.userAgent = ua }
}

// WithLogger receives a warning for every lossy rendering decision (a
// dropped orphan result, foreign reasoning left out, thinking turned off).
// Without it warnings are discarded.
func WithLogger(l *slog.Logger) Option {
	return func(m *Model) { m.logger = l }
}

func (m *Model) oauth() bool { return m.apiKey == "" }

func (m *Model) renderOptions() renderOptions {
	return renderOptions{oauth: m.oauth(), schemas: m.schemas}
}

// Stream sends req and returns its events. A non-2xx answer is returned as
// a *chat.ProviderError; failures after the stream started are the
// sequence's last item. The sequence may be ranged once.
func (m *Model) Stream(ctx context.Context, req chat.Request) (iter.Seq2[chat.Event, error], error) {
	if req.Model == "" {
		return nil, fmt.Errorf("anthropic: stream messages: no model: %w", chat.ErrInvalid)
	}
	msgs, fitWarnings, err := AttachmentRules(modelInfo(req)).Fit(req.Messages)
	if err != nil {
		return nil, fmt.Errorf("anthropic: %w", err)
	}
	req.Messages = msgs
	body, warnings := toRequest(req, m.renderOptions())
	warnings = append(fitWarnings, warnings...)
	if m.logger != nil {
		for _, w := range warnings {
			m.logger.WarnContext(ctx, "anthropic: render request", "warning", w, "model", req.Model, "session", req.SessionID)
		}
	}
	if len(body.Messages) == 0 {
		return nil, fmt.Errorf("anthropic: stream messages: nothing to send: %w", chat.ErrInvalid)
	}
	hreq, err := m.newHTTPRequest(ctx, body)
	if err != nil {
		return nil, err
	}
	resp, err := m.client.Do(hreq)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("anthropic: send messages request: %w", ctx.Err())
		}
		return nil, &chat.ProviderError{Provider: chat.ProviderAnthropic, Kind: chat.ProviderKindServer,
			Message: "send messages request", Err: err}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		defer resp.Body.Close()
		data, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		return nil, classify(resp.StatusCode, resp.Header, data)
	}
	return m.events(ctx, resp.Body), nil
}

// events wraps the parser so that the body is closed when the range ends,
// and a second range reports an error instead of reading a closed body.
func (m *Model) events(ctx context.Context, body io.ReadCloser) iter.Seq2[chat.Event, error] {
	used := false
	return func(yield func(chat.Event, error) bool) {
		if used {
			yield(nil, errors.New("anthropic: stream already consumed"))
			return
		}
		used = true
		defer body.Close()
		for ev, err := range parseStream(body) {
			if err != nil && ctx.Err() != nil {
				err = fmt.Errorf("anthropic: read stream: %w", ctx.Err())
			}
			if !yield(ev, err) || err != nil {
				return
			}
		}
	}
}

// newHTTPRequest adds the URL and headers of the Model's mode to body.
func (m *Model) newHTTPRequest(ctx context.Context, body *request) (*http.Request, error) {
	data, err := encodeBody(body)
	if err != nil {
		return nil, err
	}
	if err := AttachmentRules(chat.ModelInfo{}).CheckRequestSize(len(data)); err != nil {
		return nil, fmt.Errorf("anthropic: %w", err)
	}
	u := m.baseURL + "/v1/messages"
	if m.oauth() {
		u += "?beta=true"
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("anthropic: build request: %w", err)
	}
	hreq.Header.Set("content-type", "application/json")
	m.setHeaders(hreq.Header, "text/event-stream", body.Thinking != nil)
	return hreq, nil
}

// setHeaders adds the headers every request of the Model's mode carries
// (docs/providers/anthropic.md, "Endpoints and headers"): the API version,
// x-api-key in API-key mode, the OAuth beta and user-agent in OAuth mode
// (the client adds the bearer), and the interleaved-thinking beta when the
// request thinks.
func (m *Model) setHeaders(h http.Header, accept string, thinking bool) {
	h.Set("anthropic-version", APIVersion)
	h.Set("accept", accept)
	var betas []string
	ua := m.userAgent
	if m.oauth() {
		betas = append(betas, BetaOAuth)
		if ua == "" {
			ua = DefaultOAuthUserAgent
		}
	} else {
		h.Set("x-api-key", m.apiKey)
	}
	if thinking {
		betas = append(betas, BetaInterleavedThinking)
	}
	if len(betas) > 0 {
		h.Set("anthropic-beta", strings.Join(betas, ","))
	}
	if ua != "" {
		h.Set("user-agent", ua)
	}
}
