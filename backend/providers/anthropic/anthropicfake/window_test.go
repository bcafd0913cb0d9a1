package anthropicfake

import (
	"bufio"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"maestro/backend/providers/fakescript"
)

// TestContextWindow: a window set on the Script refuses a prompt the way
// the real service does, with the prompt's count and the window in the
// message, and a prompt that fits reports that count as its input tokens.
func TestContextWindow(t *testing.T) {
	t.Parallel()
	body := validBody(nil)
	count := fakescript.CountJSON([]byte(body))
	tests := []struct {
		name   string
		window int
		status int
		want   string // the message, or the usage for a 200
	}{
		{"fits", count + 1024, http.StatusOK, fmt.Sprintf(`"input_tokens":%d`, count)},
		{"no room for max_tokens", count + 1023, http.StatusBadRequest,
			fmt.Sprintf("input length and `max_tokens` exceed context limit: %d + 1024 > %d, decrease input length or `max_tokens` and try again", count, count+1023)},
		{"prompt too long", count - 1, http.StatusBadRequest, fmt.Sprintf("prompt is too long: %d tokens > %d maximum", count, count-1)},
		{"model window", 0, http.StatusOK, fmt.Sprintf(`"input_tokens":%d`, count)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := New()
			f.Script.SetWindow(tt.window)
			srv := httptest.NewServer(f)
			defer srv.Close()
			resp := post(t, srv, "oauth", body, nil)
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d; want %d", resp.StatusCode, tt.status)
			}
			recs := f.Script.Requests()
			if resp.StatusCode != http.StatusOK {
				e := readError(t, resp)
				if e.Error.Type != "invalid_request_error" || e.Error.Message != tt.want {
					t.Errorf("got %s %q; want invalid_request_error %q", e.Error.Type, e.Error.Message, tt.want)
				}
				if len(recs) != 1 || !strings.HasPrefix(recs[0].Rejection, "context:") {
					t.Errorf("request log %+v; want one refusal by a context rule", recs)
				}
				return
			}
			sc := bufio.NewScanner(resp.Body)
			found := false
			for sc.Scan() {
				found = found || strings.Contains(sc.Text(), "message_start") && strings.Contains(sc.Text(), tt.want)
			}
			if !found {
				t.Errorf("message_start does not report %s", tt.want)
			}
		})
	}
}

// TestModelListReportsWindow: the served list carries the window a test
// set, so a client that reads it sizes its requests by it.
func TestModelListReportsWindow(t *testing.T) {
	t.Parallel()
	f := New()
	f.Script.SetWindow(12345)
	srv := httptest.NewServer(f)
	defer srv.Close()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+"/v1/models?limit=1000", nil)
	resp := send(t, srv, req, "apikey", nil)
	var b strings.Builder
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		b.WriteString(sc.Text())
	}
	got := regexp.MustCompile(`"max_input_tokens":(\d+)`).FindAllStringSubmatch(b.String(), -1)
	if len(got) == 0 {
		t.Fatalf("no max_input_tokens in %s", b.String())
	}
	for _, m := range got {
		if n, _ := strconv.Atoi(m[1]); n != 12345 {
			t.Errorf("max_input_tokens %d; want 12345", n)
		}
	}
}
