package openaifake

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func imagePart(url string) map[string]any {
	return map[string]any{"type": "input_image", "image_url": url}
}

func userWith(parts ...any) map[string]any {
	return map[string]any{"type": "message", "role": "user", "content": append([]any{map[string]any{"type": "input_text", "text": "look"}}, parts...)}
}

// TestMediaRules: the limits on images and files (docs/providers/openai.md
// §Attachments); the MIME and empty-bytes messages are the service's.
func TestMediaRules(t *testing.T) {
	t.Parallel()
	png := "data:image/png;base64,iVBORw0KGgo="
	images := func(n int) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = imagePart(png)
		}
		return out
	}
	big := "data:image/png;base64," + strings.Repeat("A", 26_700_000) // 20,025,000 bytes
	tests := []struct {
		name    string
		input   []any
		message string // "" when accepted
	}{
		{"an image and a PDF", []any{userWith(imagePart(png), map[string]any{"type": "input_file", "filename": "a.pdf", "file_data": "data:application/pdf;base64,JVBERi0x"})}, ""},
		{"an image by URL", []any{userWith(imagePart("https://example.com/a.png"))}, ""},
		{"an unsupported MIME type", []any{userWith(imagePart("data:application/octet-stream;base64,AAAA"))},
			"Invalid 'input[0].content[1].image_url'. Expected a base64-encoded data URL with an image MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU='), but got unsupported MIME type 'application/octet-stream'."},
		{"empty bytes", []any{userWith(imagePart("data:image/png;base64,"))},
			"Invalid 'input[0].content[1].image_url'. Expected a base64-encoded data URL with an image MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU='), but got empty base64-encoded bytes."},
		{"an image over 20 MB", []any{userWith(imagePart(big))}, "Invalid 'input[0].content[1].image_url'. Image is 20025000 bytes; the maximum is 20000000 bytes."},
		{"501 images", []any{userWith(images(501)...)}, "Invalid 'input': too many images (501); the maximum is 500 per request."},
		{"an image in a tool output counts", []any{userWith(images(500)...),
			map[string]any{"type": "function_call", "call_id": "call_1", "name": "f", "arguments": "{}"},
			map[string]any{"type": "function_call_output", "call_id": "call_1", "output": []any{imagePart(png)}}},
			"Invalid 'input': too many images (501); the maximum is 500 per request."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(New())
			t.Cleanup(srv.Close)
			resp, got := post(t, srv.URL+ChatGPTPath, backendHeader(), body(withInput(tt.input...)))
			if tt.message == "" {
				if resp.StatusCode != http.StatusOK {
					t.Errorf("got %d %s; want 200", resp.StatusCode, got)
				}
				return
			}
			if resp.StatusCode != 400 || !strings.Contains(got, `"type":"invalid_request_error"`) || !strings.Contains(got, tt.message) {
				t.Errorf("got %d %s; want 400 with %q", resp.StatusCode, got, tt.message)
			}
		})
	}
}
