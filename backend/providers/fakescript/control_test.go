package fakescript

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestControlRoute: POST /_fake/route scripts a routed reply, as Route
// does; a body without the text to match is refused.
func TestControlRoute(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body string
		status     int
		want       string // the reply to "please Write the summary now." ("": the queue's)
	}{
		{"route", `{"contains": "Write the summary", "reply": {"text": "SUMMARY"}}`, http.StatusNoContent, "SUMMARY"},
		{"no text to match", `{"reply": {"text": "x"}}`, http.StatusBadRequest, "queued"},
		{"not JSON", `route`, http.StatusBadRequest, "queued"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := &Script{}
			s.Push(Reply{Text: "queued"})
			srv := httptest.NewServer(s.ControlHandler())
			defer srv.Close()
			res, err := http.Post(srv.URL+ControlPrefix+"route", "application/json", strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != tt.status {
				t.Errorf("status = %d; want %d", res.StatusCode, tt.status)
			}
			if got := s.NextFor("please Write the summary now.").Text; got != tt.want {
				t.Errorf("reply = %q; want %q", got, tt.want)
			}
		})
	}
}
