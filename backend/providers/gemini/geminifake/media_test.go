package geminifake_test

import (
	"net/http"
	"strings"
	"testing"
)

func inline(mime, data string) map[string]any {
	return map[string]any{"inlineData": map[string]any{"mimeType": mime, "data": data}}
}

// TestMediaRules: the limits on inline data and payloads
// (docs/providers/gemini.md §Attachments), with the service's messages.
func TestMediaRules(t *testing.T) {
	t.Parallel()
	withInline := func(p map[string]any) map[string]any {
		return mutate(func(r map[string]any) {
			c := contents(r)[0].(map[string]any)
			c["parts"] = append(c["parts"].([]any), p)
		})
	}
	// A request whose body is over 20 MB but under 100 MB.
	big := withInline(inline("image/png", strings.Repeat("A", 21<<20)))
	tests := []struct {
		name    string
		c       call
		status  int
		message string
	}{
		{"an image and text/markdown", ca(envelope(withInline(inline("image/png", "iVBORw0KGgo=")))), 200, ""},
		{"markdown as inline data", public(withInline(inline("text/markdown", "IyBoaQ=="))), 200, ""},
		{"an unsupported MIME type", public(withInline(inline("image/jpg", "AAAA"))), 400, "Unsupported MIME type: image/jpg"},
		{"over 20 MB to Code Assist", ca(envelope(big)), 400, "Request payload size exceeds the limit: 20971520 bytes."},
		{"the same through the API", public(big), 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, srv := newServer(t)
			status, body := tt.c.do(t, srv)
			if status != tt.status {
				t.Fatalf("status %d (%.300s); want %d", status, body, tt.status)
			}
			if tt.status != http.StatusOK && (!strings.Contains(string(body), tt.message) || !strings.Contains(string(body), `"INVALID_ARGUMENT"`)) {
				t.Errorf("body %s; want INVALID_ARGUMENT %q", body, tt.message)
			}
		})
	}
}
