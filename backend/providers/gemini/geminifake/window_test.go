package geminifake_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"maestro/backend/providers/fakescript"
)

// TestContextWindow: a prompt over the window is refused with the real 400
// and its counts (in Code Assist's array form there), and a prompt that
// fits reports the fake's count as promptTokenCount.
func TestContextWindow(t *testing.T) {
	t.Parallel()
	apiBody, _ := json.Marshal(valid())
	caBody, _ := json.Marshal(envelope(valid()))
	apiCount, caCount := fakescript.CountJSON(apiBody), fakescript.CountJSON(caBody)
	tests := []struct {
		name   string
		c      call
		window int
		status int
		want   []string
	}{
		{"api fits", public(valid()), apiCount, 200, []string{fmt.Sprintf(`"promptTokenCount":%d`, apiCount)}},
		{"api too long", public(valid()), apiCount - 1, 400, []string{
			fmt.Sprintf("The input token count (%d) exceeds the maximum number of tokens allowed (%d).", apiCount, apiCount-1), `"status": "INVALID_ARGUMENT"`}},
		{"code assist too long", ca(envelope(valid())), caCount - 1, 400, []string{`[`,
			fmt.Sprintf("The input token count (%d) exceeds the maximum number of tokens allowed (%d).", caCount, caCount-1), `"status": "INVALID_ARGUMENT"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, srv := newServer(t)
			f.Script.SetWindow(tt.window)
			f.Script.Push(fakescript.Reply{Text: "scripted"})
			status, body := tt.c.do(t, srv)
			if status != tt.status {
				t.Fatalf("got %d %s; want %d", status, body, tt.status)
			}
			rest := string(body)
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("body %s\nlacks %q (in order)", body, w)
				}
				rest = rest[i+len(w):]
			}
			recs := f.Script.Requests()
			if refused := status != 200; len(recs) != 1 || (recs[0].Rejection != "") != refused {
				t.Errorf("request log %+v; want one entry, refused: %v", recs, refused)
			}
		})
	}
}
