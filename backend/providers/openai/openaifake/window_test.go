package openaifake

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"maestro/backend/providers/fakescript"
)

// TestContextWindow: a prompt over the window is refused as each endpoint
// refuses it (a 400 on the API, response.failed in a 200 stream on the
// ChatGPT backend), logged as refused either way, and a prompt that fits
// reports the fake's count as its input tokens.
func TestContextWindow(t *testing.T) {
	t.Parallel()
	b := body(nil)
	count := fakescript.CountJSON(b)
	const tooLong = "Your input exceeds the context window of this model. Please adjust your input and try again."
	tests := []struct {
		name   string
		path   string
		window int
		status int
		want   []string
	}{
		{"backend fits", ChatGPTPath, count, 200, []string{fmt.Sprintf(`"input_tokens":%d`, count), "response.completed"}},
		{"backend too long", ChatGPTPath, count - 1, 200, []string{"response.failed", `"code":"context_length_exceeded"`, tooLong}},
		{"api fits", APIPath, count, 200, []string{fmt.Sprintf(`"input_tokens":%d`, count)}},
		{"api too long", APIPath, count - 1, 400, []string{`"code":"context_length_exceeded"`, `"param":"input"`, tooLong}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := New()
			f.Script.SetWindow(tt.window)
			f.Script.Push(fakescript.Reply{Text: "scripted"})
			srv := httptest.NewServer(f)
			defer srv.Close()
			resp, got := post(t, srv.URL+tt.path, backendHeader(), b)
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d; want %d (%s)", resp.StatusCode, tt.status, got)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("answer lacks %s: %s", w, got)
				}
			}
			refused := strings.Contains(tt.name, "too long")
			recs := f.Script.Requests()
			if len(recs) != 1 || (recs[0].Rejection != "") != refused {
				t.Errorf("request log %+v; want one entry, refused: %v", recs, refused)
			}
			if refused && f.Script.Next().Text != "scripted" {
				t.Error("a refused request used up the scripted reply")
			}
		})
	}
}

// TestCodexListReportsWindow: the ChatGPT model list carries the window a
// test set.
func TestCodexListReportsWindow(t *testing.T) {
	t.Parallel()
	f := New()
	f.Script.SetWindow(4321)
	srv := httptest.NewServer(f)
	defer srv.Close()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+ChatGPTModelsPath+"?client_version=0.0.0", nil)
	req.Header = backendHeader()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var sb strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		sb.Write(buf[:n])
		if err != nil {
			break
		}
	}
	if got := sb.String(); !strings.Contains(got, `"context_window":4321`) || strings.Contains(got, `"context_window":272000`) {
		t.Errorf("list %s; want every context_window 4321", got)
	}
}
