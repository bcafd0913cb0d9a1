package anthropicfake

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"maestro/backend/chat/chattest"
)

func imageBlock(mediaType, data string) map[string]any {
	return map[string]any{"type": "image", "source": map[string]any{"type": "base64", "media_type": mediaType, "data": data}}
}

// withUserMedia puts blocks before the first user message's text.
func withUserMedia(blocks ...any) func(m map[string]any) {
	return func(m map[string]any) {
		msgs(m)[0].(map[string]any)["content"] = append(blocks, map[string]any{"type": "text", "text": "Weather?"})
	}
}

// TestMediaRules: the limits on images and documents, with the messages the
// real service answers (docs/providers/anthropic.md §Attachments).
func TestMediaRules(t *testing.T) {
	t.Parallel()
	small := chattest.PNG(10, 10)
	many := func(n int, img map[string]any) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = img
		}
		return out
	}
	tests := []struct {
		name    string
		body    string
		message string // "" when accepted
	}{
		{"images and a PDF", validBody(withUserMedia(imageBlock("image/png", small),
			map[string]any{"type": "document", "source": map[string]any{"type": "base64", "media_type": "application/pdf", "data": "JVBERi0xLjQ="}})), ""},
		{"a type the API does not take", validBody(withUserMedia(imageBlock("image/svg+xml", "PHN2Zz4="))),
			"messages.0.content.0.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'"},
		{"over 5 MB of base64", validBody(withUserMedia(imageBlock("image/png", strings.Repeat("A", 5<<20+4)))),
			"messages.0.content.0.image.source.base64: image exceeds 5 MB maximum: 5242884 bytes > 5242880 bytes"},
		{"over 8000 pixels", validBody(withUserMedia(imageBlock("image/png", chattest.PNG(8001, 1)))),
			"messages.0.content.0.image.source.base64.data: At least one of the image dimensions exceed max allowed size: 8000 pixels"},
		{"over 2000 pixels with 21 images", validBody(withUserMedia(append(many(20, imageBlock("image/png", small)), imageBlock("image/png", chattest.PNG(2001, 1)))...)),
			"messages.0.content.20.image.source.base64.data: At least one of the image dimensions exceed max allowed size for many-image requests: 2000 pixels"},
		{"2001 pixels with 20 images", validBody(withUserMedia(append(many(19, imageBlock("image/png", small)), imageBlock("image/png", chattest.PNG(2001, 1)))...)), ""},
		{"101 images on a 200k model", validBody(withUserMedia(many(101, imageBlock("image/png", small))...)),
			"Too much media: 0 document pages + 101 images > 100"},
		{"101 images on a 1M model", validBody(func(m map[string]any) {
			m["model"] = "claude-sonnet-4-6"
			withUserMedia(many(101, imageBlock("image/png", small))...)(m)
		}), ""},
		{"an image in a tool result counts", validBody(func(m map[string]any) {
			withUserMedia(many(100, imageBlock("image/png", small))...)(m)
			content(m, 2)[0].(map[string]any)["content"] = []any{imageBlock("image/png", small)}
		}), "Too much media: 0 document pages + 101 images > 100"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(New())
			t.Cleanup(srv.Close)
			resp := post(t, srv, "apikey", tt.body, nil)
			if tt.message == "" {
				if resp.StatusCode != http.StatusOK {
					t.Errorf("got %d %+v; want 200", resp.StatusCode, readError(t, resp).Error)
				}
				return
			}
			e := readError(t, resp)
			if resp.StatusCode != 400 || e.Error.Type != "invalid_request_error" || e.Error.Message != tt.message {
				t.Errorf("got %d %s %q; want 400 invalid_request_error %q", resp.StatusCode, e.Error.Type, e.Error.Message, tt.message)
			}
		})
	}
}
