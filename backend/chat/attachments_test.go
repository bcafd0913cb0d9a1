package chat_test

import (
	"bytes"
	"encoding/base64"
	"errors"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"reflect"
	"strings"
	"testing"

	"maestro/backend/chat"
	"maestro/backend/chat/chattest"
)

// claudeLike are rules shaped like Anthropic's, small enough to test.
var claudeLike = chat.AttachmentRules{
	Provider: chat.ProviderAnthropic, Label: "Claude",
	Images:         []string{"image/png", "image/jpeg"},
	Documents:      []string{"application/pdf"},
	MaxImageBase64: 1000, MaxImageSide: 8000, ManyImages: 3, MaxImageSideMany: 2000,
	MaxMedia: 5, MaxInline: 1 << 20, MaxRequest: 2 << 20,
}

func userMsg(id string, parts ...chat.Part) chat.Message {
	return chat.Message{ID: id, Role: chat.RoleUser, Parts: parts}
}

func img(t testing.TB, name string, w, h int) chat.FilePart {
	return chat.FilePart{Name: name, MIMEType: "image/png", Data: chattest.PNG(w, h)}
}

func TestAttachmentRulesFit(t *testing.T) {
	t.Parallel()
	big := chat.FilePart{Name: "big.png", MIMEType: "image/png", Data: strings.Repeat("A", 1200)}
	zip := chat.FilePart{Name: "a.zip", MIMEType: "application/zip", Data: "UEsDBA=="}
	blob := chat.ResourcePart{URI: "demo://blob/1", Name: "Blob 1", MIMEType: "application/octet-stream", Data: "AAAA"}
	missing := chat.FilePart{Name: "gone.png", MIMEType: "image/png", Ref: "sha256-00"}
	toolImage := chat.ToolResultPart{Result: chat.ToolResult{CallID: "c", Successful: true,
		Attachments: []chat.Attachment{{Type: "image", MIMEType: "image/png", Data: strings.Repeat("A", 1200)}}}}
	tests := []struct {
		name string
		msgs []chat.Message
		// wantLimit is the Limit of the AttachmentError, "" for none.
		wantLimit string
		// wantNotes counts the parts replaced by notes.
		wantNotes int
		// check inspects the fitted messages.
		check func(t *testing.T, got []chat.Message)
	}{
		{name: "within limits", msgs: []chat.Message{userMsg("u", chat.TextPart{Text: "hi"}, img(t, "a.png", 10, 10))}},
		{name: "the latest image too large", msgs: []chat.Message{userMsg("u", big)}, wantLimit: "MaxImageBase64"},
		{name: "an earlier image too large is noted", msgs: []chat.Message{userMsg("u1", big), userMsg("u2", chat.TextPart{Text: "and?"})},
			wantNotes: 1, check: func(t *testing.T, got []chat.Message) {
				tp, ok := got[0].Parts[0].(chat.TextPart)
				if !ok || !strings.Contains(tp.Text, `image "big.png"`) || !strings.Contains(tp.Text, "Claude takes at most 1000 bytes of base64 per image") {
					t.Errorf("part = %#v; want a note naming the image and the limit", got[0].Parts[0])
				}
			}},
		{name: "a type the provider does not take", msgs: []chat.Message{userMsg("u", zip)}, wantLimit: "type"},
		{name: "a resource of such a type is noted", msgs: []chat.Message{userMsg("u", blob)}, wantNotes: 1,
			check: func(t *testing.T, got []chat.Message) {
				rp := got[0].Parts[0].(chat.ResourcePart)
				if rp.Data != "" || rp.URI != "demo://blob/1" || !strings.Contains(rp.Text, "does not take application/octet-stream") {
					t.Errorf("resource = %#v; want its URI kept, its bytes replaced by a note", rp)
				}
			}},
		{name: "an image too wide", msgs: []chat.Message{userMsg("u", img(t, "wide.png", 9000, 10))}, wantLimit: "MaxImageSide"},
		{name: "many images: the oldest wide one goes", msgs: []chat.Message{
			userMsg("u1", img(t, "w1.png", 2500, 10), img(t, "w2.png", 2500, 10)),
			userMsg("u2", img(t, "n1.png", 10, 10), img(t, "n2.png", 10, 10)),
		}, wantNotes: 1, check: func(t *testing.T, got []chat.Message) {
			if _, ok := got[0].Parts[0].(chat.TextPart); !ok {
				t.Errorf("first image = %#v; want it left out", got[0].Parts[0])
			}
			if _, ok := got[0].Parts[1].(chat.FilePart); !ok {
				t.Errorf("second image = %#v; want it kept (3 images fit)", got[0].Parts[1])
			}
		}},
		{name: "many wide images in the latest message", msgs: []chat.Message{userMsg("u",
			img(t, "w1.png", 2500, 10), img(t, "w2.png", 10, 10), img(t, "w3.png", 10, 10), img(t, "w4.png", 10, 10))},
			wantLimit: "MaxImageSideMany"},
		{name: "too much media: older goes first", msgs: []chat.Message{
			userMsg("u1", img(t, "1.png", 5, 5), img(t, "2.png", 5, 5), img(t, "3.png", 5, 5)),
			userMsg("u2", img(t, "4.png", 5, 5), img(t, "5.png", 5, 5), img(t, "6.png", 5, 5)),
		}, wantNotes: 1},
		{name: "too much media in the latest message", msgs: []chat.Message{userMsg("u",
			img(t, "1.png", 5, 5), img(t, "2.png", 5, 5), img(t, "3.png", 5, 5), img(t, "4.png", 5, 5), img(t, "5.png", 5, 5), img(t, "6.png", 5, 5))},
			wantLimit: "MaxMedia"},
		{name: "a tool's image is noted, never refused", msgs: []chat.Message{userMsg("u", chat.TextPart{Text: "go"}), {ID: "t", Role: chat.RoleTool, Parts: chat.Parts{toolImage}}},
			wantNotes: 1, check: func(t *testing.T, got []chat.Message) {
				a := got[1].Parts[0].(chat.ToolResultPart).Result.Attachments[0]
				if a.Data != "" || a.Type != "image" || !strings.Contains(a.Text, "left out") {
					t.Errorf("attachment = %#v; want a note in place of the image", a)
				}
			}},
		{name: "stored bytes that are gone", msgs: []chat.Message{userMsg("u", missing)}, wantLimit: "missing"},
		{name: "stored bytes gone from an earlier message", msgs: []chat.Message{userMsg("u1", missing), userMsg("u2", chat.TextPart{Text: "x"})}, wantNotes: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			before := deepCopy(t, tt.msgs)
			got, warns, err := claudeLike.Fit(tt.msgs)
			if !reflect.DeepEqual(tt.msgs, before) {
				t.Fatalf("Fit modified its input")
			}
			var ae *chat.AttachmentError
			if tt.wantLimit != "" {
				if !errors.As(err, &ae) || ae.Limit != tt.wantLimit || !errors.Is(err, chat.ErrInvalid) {
					t.Fatalf("err = %v; want an AttachmentError for %s", err, tt.wantLimit)
				}
				if tt.wantLimit != "missing" && !strings.Contains(ae.Detail, "Claude") {
					t.Errorf("detail %q does not name the provider", ae.Detail)
				}
				return
			}
			if err != nil {
				t.Fatalf("Fit: %v", err)
			}
			if len(warns) != tt.wantNotes {
				t.Errorf("warnings %q; want %d", warns, tt.wantNotes)
			}
			if tt.check != nil {
				tt.check(t, got)
			}
		})
	}
}

func deepCopy(t testing.TB, msgs []chat.Message) []chat.Message {
	t.Helper()
	out := make([]chat.Message, len(msgs))
	for i, m := range msgs {
		out[i] = m
		out[i].Parts = append(chat.Parts(nil), m.Parts...)
	}
	return out
}

func TestCheckRequestSize(t *testing.T) {
	t.Parallel()
	if err := claudeLike.CheckRequestSize(2 << 20); err != nil {
		t.Errorf("at the limit: %v; want nil", err)
	}
	err := claudeLike.CheckRequestSize(3 << 20)
	var ae *chat.AttachmentError
	if !errors.As(err, &ae) || ae.Limit != "MaxRequest" || !strings.Contains(ae.Detail, "3.0 MiB") || !strings.Contains(ae.Detail, "2.0 MiB") {
		t.Errorf("over the limit: %v; want an AttachmentError naming both sizes", err)
	}
}

func TestImageSize(t *testing.T) {
	t.Parallel()
	rgba := image.NewRGBA(image.Rect(0, 0, 31, 17))
	encode := map[string]func(*bytes.Buffer) error{
		"png":  func(b *bytes.Buffer) error { return png.Encode(b, rgba) },
		"jpeg": func(b *bytes.Buffer) error { return jpeg.Encode(b, rgba, nil) },
		"gif":  func(b *bytes.Buffer) error { return gif.Encode(b, rgba, nil) },
	}
	for name, enc := range encode {
		var buf bytes.Buffer
		if err := enc(&buf); err != nil {
			t.Fatal(err)
		}
		if w, h, ok := chat.ImageSize(buf.Bytes()); !ok || w != 31 || h != 17 {
			t.Errorf("%s: got %d×%d %v; want 31×17", name, w, h, ok)
		}
	}
	webp := map[string][]byte{
		// VP8X (extended): canvas 300×200 stored minus one, 24-bit.
		"vp8x": append([]byte("RIFF\x00\x00\x00\x00WEBPVP8X\x0a\x00\x00\x00\x00\x00\x00\x00"), 0x2b, 0x01, 0x00, 0xc7, 0x00, 0x00),
		// VP8L (lossless): 14-bit width-1 and height-1 after the 0x2f signature.
		"vp8l": append([]byte("RIFF\x00\x00\x00\x00WEBPVP8L\x00\x00\x00\x00\x2f"), le32((300-1)|(200-1)<<14)...),
		// VP8 (lossy): frame tag, start code, 14-bit sizes.
		"vp8": append([]byte("RIFF\x00\x00\x00\x00WEBPVP8 \x00\x00\x00\x00\x00\x00\x00\x9d\x01\x2a"), 0x2c, 0x01, 0xc8, 0x00),
	}
	for name, b := range webp {
		if w, h, ok := chat.ImageSize(append(b, make([]byte, 8)...)); !ok || w != 300 || h != 200 {
			t.Errorf("webp %s: got %d×%d %v; want 300×200", name, w, h, ok)
		}
	}
	if _, _, ok := chat.ImageSize([]byte("not an image")); ok {
		t.Error("garbage read as an image")
	}
}

func le32(v uint32) []byte { return []byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)} }

func TestMediaHelpers(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "a", "ab", "abc", "abcd", "hello world!"} {
		b64 := base64.StdEncoding.EncodeToString([]byte(s))
		if got := chat.DecodedLen(b64); got != int64(len(s)) {
			t.Errorf("DecodedLen(%q) = %d; want %d", b64, got, len(s))
		}
	}
	pdf := []byte("%PDF-1.4\n1 0 obj <</Type /Pages /Count 2>>\n2 0 obj <</Type /Page>>\n3 0 obj <</Type/Page /Parent 1 0 R>>\n")
	if got := chat.PDFPages(pdf); got != 2 {
		t.Errorf("PDFPages = %d; want 2", got)
	}
	if got := chat.PDFPages([]byte("%PDF-1.7 compressed")); got != 1 {
		t.Errorf("PDFPages of a compressed PDF = %d; want 1 (the lower bound)", got)
	}
	if a, b := chat.BlobRef([]byte("x")), chat.BlobRef([]byte("x")); a != b || !strings.HasPrefix(a, "sha256-") || len(a) != 7+64 {
		t.Errorf("BlobRef = %q, %q; want one stable sha256- name", a, b)
	}
	for mime, want := range map[string]bool{"text/markdown": true, "application/json; charset=utf-8": true,
		"application/vnd.api+json": true, "image/png": false, "application/pdf": false} {
		if got := chat.IsTextType(mime); got != want {
			t.Errorf("IsTextType(%q) = %v; want %v", mime, got, want)
		}
	}
}

// The detail of a refusal is a sentence the composer shows as it is: what
// the file is, then what the provider takes.
func TestAttachmentErrorDetailReads(t *testing.T) {
	t.Parallel()
	big := chat.FilePart{Name: "big.png", MIMEType: "image/png", Data: strings.Repeat("A", 1200)}
	tall := img(t, "tall.png", 10, 9000)
	for _, tt := range []struct {
		name string
		part chat.FilePart
		want string
	}{
		{"too much base64", big, `"big.png" (image/png): 1.2 KiB of base64 per image; Claude takes at most 1000 bytes`},
		{"too many pixels", tall, `"tall.png" (image/png): 9000 pixels on a side; Claude takes at most 8000`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, _, err := claudeLike.Fit([]chat.Message{userMsg("u", tt.part)})
			var ae *chat.AttachmentError
			if !errors.As(err, &ae) || ae.Detail != tt.want {
				t.Errorf("got %v; want detail %q", err, tt.want)
			}
		})
	}
}
