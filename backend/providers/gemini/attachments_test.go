package gemini

import (
	"errors"
	"strings"
	"testing"

	"maestro/backend/chat"
)

var _ chat.AttachmentChecker = (*Model)(nil)

// TestAttachmentLimitsBeforeSending: what Gemini would refuse for its
// attachments is refused before sending when the latest message carries
// it, and noted when an earlier one does; the payload limit depends on
// the mode (Code Assist takes 20 MB, the API 100 MB).
func TestAttachmentLimitsBeforeSending(t *testing.T) {
	t.Parallel()
	turn := func(parts ...chat.Part) chat.Message { return chat.Message{ID: "u", Role: chat.RoleUser, Parts: parts} }
	zip := chat.FilePart{Name: "a.zip", MIMEType: "application/zip", Data: "UEsDBA=="}
	large := chat.FilePart{Name: "scan.png", MIMEType: "image/png", Data: strings.Repeat("A", 21<<20)}
	earlier := func(m chat.Message) []chat.Message {
		m.ID = "u0"
		return []chat.Message{m, assistant("a0", "openai", chat.TextPart{Text: "Seen."}), user("u1", "And now?")}
	}
	tests := []struct {
		name      string
		mode      string
		msgs      []chat.Message
		wantLimit string
		wantNote  string
	}{
		{"a type Gemini does not take", "api key", []chat.Message{turn(zip)}, "type", ""},
		{"the same type earlier", "api key", earlier(turn(zip)), "", "Gemini does not take application/zip"},
		{"21 MB inline to Code Assist", "code assist", []chat.Message{turn(large)}, "MaxInline", ""},
		{"21 MB inline through the API", "api key", []chat.Message{turn(large)}, "", ""},
		{"21 MB earlier, to Code Assist", "code assist", earlier(turn(large)), "", "of attachments (as base64) in one request"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, srv := newFake(t)
			m := modes(srv)[tt.mode]
			_, err := run(t.Context(), m, base(tt.msgs...))
			if tt.wantLimit != "" {
				var ae *chat.AttachmentError
				if !errors.As(err, &ae) || ae.Limit != tt.wantLimit || !strings.Contains(err.Error(), "Gemini") || len(f.Script.Requests()) != 0 {
					t.Fatalf("err = %v; want an AttachmentError for %s and nothing sent", err, tt.wantLimit)
				}
				return
			}
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if body := string(f.Script.Requests()[0].Body); !strings.Contains(body, tt.wantNote) {
				t.Errorf("the request lacks the note %q", tt.wantNote)
			}
		})
	}
}
