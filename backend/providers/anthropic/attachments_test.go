package anthropic

import (
	"errors"
	"io"
	"strings"
	"testing"

	"maestro/backend/chat"
	"maestro/backend/chat/chattest"
	"maestro/backend/providers/anthropic/anthropicfake"
)

var _ chat.AttachmentChecker = (*Model)(nil)

// TestAttachmentLimitsBeforeSending: what Claude would refuse for its
// attachments is refused before anything is sent when the user's latest
// message carries it (an AttachmentError naming the limit), and becomes a
// note the fake accepts when an earlier message does. The fake enforces the
// same limits (anthropicfake TestMediaRules), so a request the rules let
// through is one the service takes.
func TestAttachmentLimitsBeforeSending(t *testing.T) {
	t.Parallel()
	image := func(name, data string) chat.FilePart {
		return chat.FilePart{Name: name, MIMEType: "image/png", Data: data}
	}
	turn := func(parts ...chat.Part) chat.Message { return chat.Message{ID: "u", Role: chat.RoleUser, Parts: parts} }
	big := image("big.png", strings.Repeat("A", 5<<20+4))
	wide := image("wide.png", chattest.PNG(8001, 2))
	many := func(n int) chat.Message {
		m := turn(chat.TextPart{Text: "all these"})
		for range n {
			m.Parts = append(m.Parts, image("dot.png", chattest.TinyPNG))
		}
		return m
	}
	earlier := func(m chat.Message) []chat.Message {
		m.ID = "u0"
		return []chat.Message{m, assistant(chat.ProviderOpenAI, chat.TextPart{Text: "Seen."}), user("And now?")}
	}
	tests := []struct {
		name      string
		msgs      []chat.Message
		wantLimit string
		wantNote  string
	}{
		{"an image over 5 MB of base64", []chat.Message{turn(chat.TextPart{Text: "look"}, big)}, "MaxImageBase64", ""},
		{"the same image earlier", earlier(turn(chat.TextPart{Text: "look"}, big)), "", "Claude takes at most 5.0 MiB of base64 per image"},
		{"an image over 8000 pixels", []chat.Message{turn(wide)}, "MaxImageSide", ""},
		{"a type Claude does not take", []chat.Message{turn(chat.FilePart{Name: "a.wav", MIMEType: "audio/wav", Data: "UklGRg=="})}, "type", ""},
		{"101 images on a 200k model", []chat.Message{many(101)}, "MaxMedia", ""},
		{"101 images, 30 of them earlier", append(earlier(many(30)), many(71)), "", "images and document pages in one request"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, m, _ := newFake(t, nil, WithAPIKey("sk-ant-test"))
			_, err := streamAll(t, m, chat.Request{Model: "claude-sonnet-4-5", Messages: tt.msgs})
			if tt.wantLimit != "" {
				var ae *chat.AttachmentError
				if !errors.As(err, &ae) || ae.Limit != tt.wantLimit || !errors.Is(err, chat.ErrInvalid) || !strings.Contains(err.Error(), "Claude") {
					t.Fatalf("err = %v; want an AttachmentError for %s", err, tt.wantLimit)
				}
				if n := len(f.Script.Requests()); n != 0 {
					t.Errorf("%d requests reached the fake; want none", n)
				}
				return
			}
			if err != nil {
				t.Fatalf("Stream: %v (recorded %+v)", err, f.Script.Requests())
			}
			if body := string(f.Script.Requests()[0].Body); !strings.Contains(body, tt.wantNote) {
				t.Errorf("the request lacks the note %q", tt.wantNote)
			}
		})
	}
}

// A request body over 32 MB is refused before sending, naming both sizes.
func TestRequestSizeBeforeSending(t *testing.T) {
	t.Parallel()
	f, m, _ := newFake(t, nil, WithAPIKey("sk-ant-test"))
	_, err := streamAll(t, m, chat.Request{Model: "claude-sonnet-4-5", Messages: []chat.Message{user(strings.Repeat("word ", 7<<20))}})
	var ae *chat.AttachmentError
	if !errors.As(err, &ae) || ae.Limit != "MaxRequest" || !strings.Contains(err.Error(), "32 MiB") {
		t.Fatalf("err = %v; want the request size limit", err)
	}
	if n := len(f.Script.Requests()); n != 0 {
		t.Errorf("%d requests reached the fake; want none", n)
	}
}

// The fake refuses what the rules would have caught, with the real message:
// the check before sending and the fake agree.
func TestFakeRefusesWhatTheRulesCatch(t *testing.T) {
	t.Parallel()
	_, m, _ := newFake(t, []anthropicfake.Option{anthropicfake.WithAPIKey("sk-ant-test")}, WithAPIKey("sk-ant-test"))
	body, _ := toRequest(chat.Request{Model: "claude-sonnet-4-5", Messages: []chat.Message{{ID: "u", Role: chat.RoleUser,
		Parts: chat.Parts{chat.FilePart{Name: "wide.png", MIMEType: "image/png", Data: chattest.PNG(8001, 2)}}}}}, m.renderOptions())
	hreq, err := m.newHTTPRequest(t.Context(), body)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := m.client.Do(hreq)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	perr := classify(resp.StatusCode, resp.Header, data)
	if perr.Status != 400 || !strings.Contains(perr.Message, "At least one of the image dimensions exceed max allowed size: 8000 pixels") {
		t.Errorf("fake answered %d %q; want the real 400", perr.Status, perr.Message)
	}
}
