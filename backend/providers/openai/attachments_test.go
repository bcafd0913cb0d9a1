package openai

import (
	"errors"
	"strings"
	"testing"

	"maestro/backend/chat"
	"maestro/backend/chat/chattest"
)

var _ chat.AttachmentChecker = (*Model)(nil)

// TestGoldenCasesAcceptedByFake sends every golden case through Stream to
// the fake, which enforces the service's rules; a case whose latest message
// carries what ChatGPT does not take is refused before sending instead.
func TestGoldenCasesAcceptedByFake(t *testing.T) {
	t.Parallel()
	refused := map[string]string{"files_and_images": "type"} // c.zip in the latest message
	for _, tc := range renderCases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f, m, _ := newFake(t)
			_, err := run(t.Context(), m, tc.req)
			if limit := refused[tc.name]; limit != "" {
				var ae *chat.AttachmentError
				if !errors.As(err, &ae) || ae.Limit != limit || len(f.Script.Requests()) != 0 {
					t.Fatalf("err = %v, %d requests; want an AttachmentError for %s and nothing sent", err, len(f.Script.Requests()), limit)
				}
				return
			}
			if err != nil {
				t.Fatalf("err = %v (recorded %+v); want the fake to accept the request", err, f.Script.Requests())
			}
		})
	}
}

// TestAttachmentLimitsBeforeSending: what ChatGPT would refuse for its
// attachments is refused before sending when the latest message carries
// it, and noted when an earlier one does (the fake takes the request).
func TestAttachmentLimitsBeforeSending(t *testing.T) {
	t.Parallel()
	turn := func(parts ...chat.Part) chat.Message { return chat.Message{ID: "u", Role: chat.RoleUser, Parts: parts} }
	big := chat.FilePart{Name: "big.png", MIMEType: "image/png", Data: strings.Repeat("A", 26_700_000)}
	heic := chat.FilePart{Name: "photo.heic", MIMEType: "image/heic", Data: "AAAA"}
	many := func(n int) chat.Message {
		m := turn(chat.TextPart{Text: "all these"})
		for range n {
			m.Parts = append(m.Parts, chat.FilePart{Name: "dot.png", MIMEType: "image/png", Data: chattest.TinyPNG})
		}
		return m
	}
	earlier := func(m chat.Message) []chat.Message {
		m.ID = "u0"
		return []chat.Message{m, assistant("openai", chat.TextPart{Text: "Seen."}), user("And now?")}
	}
	tests := []struct {
		name      string
		msgs      []chat.Message
		wantLimit string
		wantNote  string
	}{
		{"an image over 20 MB", []chat.Message{turn(big)}, "MaxImageBytes", ""},
		{"the same image earlier", earlier(turn(big)), "", "ChatGPT takes at most 19 MiB per image"},
		{"an image type ChatGPT does not take", []chat.Message{turn(heic)}, "type", ""},
		{"the same type earlier", earlier(turn(heic)), "", "ChatGPT does not take image/heic"},
		{"501 images", []chat.Message{many(501)}, "MaxImages", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, m, _ := newFake(t)
			_, err := run(t.Context(), m, baseRequest(tt.msgs...))
			if tt.wantLimit != "" {
				var ae *chat.AttachmentError
				if !errors.As(err, &ae) || ae.Limit != tt.wantLimit || !strings.Contains(err.Error(), "ChatGPT") || len(f.Script.Requests()) != 0 {
					t.Fatalf("err = %v; want an AttachmentError for %s and nothing sent", err, tt.wantLimit)
				}
				return
			}
			if err != nil {
				t.Fatalf("err = %v (recorded %+v)", err, f.Script.Requests())
			}
			if body := string(f.Script.Requests()[0].Body); !strings.Contains(body, tt.wantNote) {
				t.Errorf("the request lacks the note %q", tt.wantNote)
			}
		})
	}
}
