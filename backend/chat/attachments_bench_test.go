package chat_test

import (
	"encoding/base64"
	"fmt"
	"testing"

	"maestro/backend/chat"
	"maestro/backend/chat/chattest"
)

// BenchmarkFit measures what checking attachments adds to every request:
// a 500-message conversation with no attachments, and the same with an
// image (1000×1000 px) in every tenth message and a PDF of 50 pages in
// every fiftieth, against Anthropic-like rules. docs/PERFORMANCE.md has
// the figures.
func BenchmarkFit(b *testing.B) {
	rules := chat.AttachmentRules{Provider: "p", Label: "P", Images: []string{"image/png"}, Documents: []string{"application/pdf"},
		MaxImageBase64: 5 << 20, MaxImageSide: 8000, ManyImages: 20, MaxImageSideMany: 2000, MaxMedia: 600, MaxInline: 32 << 20}
	pdf := "%PDF-1.4\n"
	for i := range 50 {
		pdf += fmt.Sprintf("%d 0 obj <</Type /Page>> endobj\n", i+3)
	}
	pdf64 := base64.StdEncoding.EncodeToString([]byte(pdf))
	plain := chattest.Conversation(500)
	with := chattest.Conversation(500)
	for i := range with {
		switch {
		case with[i].Role != chat.RoleUser:
		case i%50 == 0:
			with[i].Parts = append(with[i].Parts, chat.FilePart{Name: "doc.pdf", MIMEType: "application/pdf", Data: pdf64})
		case i%10 == 0:
			with[i].Parts = append(with[i].Parts, chat.FilePart{Name: "shot.png", MIMEType: "image/png", Data: chattest.PNG(1000, 1000)})
		}
	}
	for name, msgs := range map[string][]chat.Message{"none": plain, "images+pdfs": with} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := rules.Fit(msgs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
