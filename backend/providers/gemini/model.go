package gemini

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"sync/atomic"

	"maestro/backend/chat"
)

// Default endpoints.
const (
	CodeAssistBaseURL = "https://cloudcode-pa.googleapis.com"
	APIKeyBaseURL     = "https://generativelanguage.googleapis.com"
)

// Model streams Gemini responses. Build it with New.
type Model struct {
	client  *http.Client
	baseURL string
	apiKey  string
	project string
	version string
	log     *slog.Logger
}

// Option configures a Model.
type Option func(*Model)

// New returns a Model in Code Assist mode unless WithAPIKey is given.
func New(opts ...Option) *Model {
	m := &Model{client: http.DefaultClient, version: "dev"}
	for _, o := range opts {
		o(m)
	}
	if m.baseURL == "" {
		m.baseURL = CodeAssistBaseURL
		if m.apiKey != "" {
			m.baseURL = APIKeyBaseURL
		}
	}
	return m
}

// WithBaseURL points the Model at another server (a fake, a proxy).
func WithBaseURL(u string) Option {
	return func(m *Model) { m.baseURL = trimSlash(u) }
}

// WithHTTPClient sets the client. In Code Assist mode it must add the
// Authorization header itself (an oauth2 client); the Model adds none.
func WithHTTPClient(c *http.Client) Option {
	return func(m *Model) { m.client = c }
}

// WithAPIKey switches to the public Generative Language API with this key.
func WithAPIKey(key string) Option {
	return func(m *Model) { m.apiKey = key }
}

// WithProject sets the Code Assist project (the envelope's "project").
func WithProject(id string) Option {
	return func(m *Model) { m.project = id }
}

// WithVersion sets the version in the User-Agent, Maestro/<version>.
func WithVersion(v string) Option {
	return func(m *Model) { m.version = v }
}

// WithLogger receives render warnings (history that had to be repaired).
func WithLogger(l *slog.Logger) Option {
	return func(m *Model) { m.log = l }
}

func trimSlash(s string) string {
	for len(s) > 0 && s[len(s)-1] == '/' {
		s = s[:len(s)-1]
	}
	return s
}

// userAgent identifies Maestro honestly; the service does not require
// gemini-cli's User-Agent.
func (m *Model) userAgent() string {
	return fmt.Sprintf("Maestro/%s (%s; %s)", m.version, runtime.GOOS, runtime.GOARCH)
}

// body renders req for this Model's mode: the Code Assist envelope with its
// project and the model's Code Assist name, or the bare request for the
// public API (which has no session_id field and would reject it).
func (m *Model) body(req chat.Request) (any, []string) {
	env, warns := toRequest(req)
	if m.apiKey != "" {
		env.Request.SessionID = ""
		return env.Request, warns
	}
	env.Project = m.project
	env.Model = wireModel(env.Model, true)
	return env, warns
}

func (m *Model) endpoint(model string) string {
	if m.apiKey != "" {
		return m.baseURL + "/v1beta/models/" + url.PathEscape(model) + ":streamGenerateContent?alt=sse"
	}
	return m.baseURL + "/v1internal:streamGenerateContent?alt=sse"
}

// Stream sends req and returns its events. Errors before the stream starts
// (including every non-2xx answer, classified) are returned; errors after
// it starts end the sequence. The caller must range over the sequence: the
// response body is closed when the range ends or is stopped.
func (m *Model) Stream(ctx context.Context, req chat.Request) (iter.Seq2[chat.Event, error], error) {
	rules := m.AttachmentRules(req.Info)
	msgs, fitWarns, err := rules.Fit(req.Messages)
	if err != nil {
		return nil, fmt.Errorf("gemini: %w", err)
	}
	req.Messages = msgs
	body, warns := m.body(req)
	warns = append(fitWarns, warns...)
	if m.log != nil {
		for _, w := range warns {
			m.log.WarnContext(ctx, "gemini: render request", "warning", w)
		}
	}
	if len(req.Messages) == 0 {
		return nil, fmt.Errorf("gemini: request has no messages: %w", chat.ErrInvalid)
	}
	model := strings.TrimPrefix(req.Model, "models/")
	if model == "" {
		return nil, fmt.Errorf("gemini: request names no model: %w", chat.ErrInvalid)
	}
	if m.apiKey == "" && m.project == "" {
		// Code Assist rejects an envelope without a project; say why here
		// rather than relay its bare "invalid argument".
		return nil, fmt.Errorf("gemini: no Code Assist project configured: %w", chat.ErrInvalid)
	}
	b, err := encodeBody(body)
	if err != nil {
		return nil, fmt.Errorf("gemini: encode request: %w", err)
	}
	if err := rules.CheckRequestSize(len(b)); err != nil {
		return nil, fmt.Errorf("gemini: %w", err)
	}
	resp, err := m.send(ctx, http.MethodPost, m.endpoint(model), b)
	if err != nil {
		if _, ok := chat.AsProviderError(err); ok {
			return nil, err
		}
		return nil, fmt.Errorf("gemini: send request: %w", err)
	}
	if resp.StatusCode/100 != 2 {
		defer resp.Body.Close()
		eb, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		return nil, classifyModelCall(resp.StatusCode, resp.Header, eb)
	}
	return m.events(ctx, resp.Body), nil
}

// send issues one request with this Model's headers (JSON body when body
// is not nil). A transport failure is a server-kind *chat.ProviderError; a
// cancelled context is returned as the context's error.
func (m *Model) send(ctx context.Context, method, target string, body []byte) (*http.Response, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	hr, err := http.NewRequestWithContext(ctx, method, target, rd)
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	if body != nil {
		hr.Header.Set("Content-Type", "application/json")
	}
	hr.Header.Set("User-Agent", m.userAgent())
	if m.apiKey != "" {
		hr.Header.Set("x-goog-api-key", m.apiKey)
	}
	resp, err := m.client.Do(hr)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &chat.ProviderError{Provider: chat.ProviderGemini, Kind: chat.ProviderKindServer,
			Message: "send request", Err: err}
	}
	return resp, nil
}

// events wraps the parser: it closes the body when the range ends and
// reports a cancelled context as such rather than as a broken stream.
func (m *Model) events(ctx context.Context, body io.ReadCloser) iter.Seq2[chat.Event, error] {
	var used atomic.Bool
	return func(yield func(chat.Event, error) bool) {
		defer body.Close()
		if !used.CompareAndSwap(false, true) {
			yield(nil, errors.New("gemini: stream already consumed"))
			return
		}
		for ev, err := range parseStream(body) {
			if err != nil && ctx.Err() != nil {
				err = fmt.Errorf("gemini: read stream: %w", ctx.Err())
			}
			if !yield(ev, err) {
				return
			}
		}
	}
}
