package auth

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"

	"golang.org/x/oauth2"
)

// Transport is an http.RoundTripper that authorizes each request with a
// token from Source and, when the server answers 401, refreshes once and
// sends the request again with the new token. The request body is
// replayed from GetBody when the request has one (every body built from
// bytes does) and is buffered in memory otherwise.
//
// When the refresh fails the first 401 response is returned untouched, so
// the adapter classifies it as the provider's own expired-token error; the
// refresh failure itself is logged (and, if permanent, returned by every
// later TokenContext). A second 401 is returned as it is: one refresh per
// request.
type Transport struct {
	Source *SavingTokenSource
	// Base sends the requests (http.DefaultTransport when nil).
	Base http.RoundTripper
	Log  *slog.Logger
}

func (t *Transport) base() http.RoundTripper {
	if t.Base != nil {
		return t.Base
	}
	return http.DefaultTransport
}

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	body, err := replayableBody(req)
	if err != nil {
		return nil, err
	}
	tok, err := t.Source.TokenContext(req.Context())
	if err != nil {
		return nil, err
	}
	first, err := authorize(req, tok, body)
	if err != nil {
		return nil, err
	}
	resp, err := t.base().RoundTrip(first)
	if err != nil || resp.StatusCode != http.StatusUnauthorized {
		return resp, err
	}
	fresh, rerr := t.Source.RefreshAfter(req.Context(), tok)
	if rerr != nil {
		if t.Log != nil {
			t.Log.Warn("auth: refresh after 401", "url", req.URL.Redacted(), "err", rerr)
		}
		return resp, nil
	}
	second, err := authorize(req, fresh, body)
	if err != nil {
		return resp, nil
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	return t.base().RoundTrip(second)
}

// replayableBody returns a function yielding a fresh copy of req's body
// (nil when it has none), closing req.Body as a RoundTripper must.
func replayableBody(req *http.Request) (func() (io.ReadCloser, error), error) {
	if req.Body == nil || req.Body == http.NoBody {
		return nil, nil
	}
	if req.GetBody != nil {
		req.Body.Close()
		return req.GetBody, nil
	}
	b, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, err
	}
	return func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }, nil
}

// authorize clones req with tok's Authorization header and a fresh body.
// A RoundTripper must not modify the request it was given.
func authorize(req *http.Request, tok *oauth2.Token, body func() (io.ReadCloser, error)) (*http.Request, error) {
	r := req.Clone(req.Context())
	tok.SetAuthHeader(r)
	if body != nil {
		b, err := body()
		if err != nil {
			return nil, err
		}
		r.Body, r.GetBody = b, body
	}
	return r, nil
}
