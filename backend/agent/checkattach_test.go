package agent_test

import (
	"errors"
	"strings"
	"testing"

	"maestro/backend/chat"
)

// TestCheckAttachments: while composing, what the session's model would
// refuse is an AttachmentError naming the file and the limit; what it
// takes is nil; nothing is sent.
func TestCheckAttachments(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("A", 72<<20) // 54 MB decoded: over every provider's per-document or inline limit
	for _, p := range allProviders {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, p)
			tests := []struct {
				name      string
				files     []chat.FilePart
				resources []chat.ResourcePart
				wantName  string
			}{
				{name: "nothing"},
				{name: "a text file", files: []chat.FilePart{{Name: "notes.md", MIMEType: "text/markdown", Data: "IyBub3Rlcw=="}}},
				{name: "a text resource", resources: []chat.ResourcePart{{URI: "demo://resource/static/document/1", MIMEType: "text/plain", Text: "x"}}},
				{name: "an unsupported type", files: []chat.FilePart{{Name: "a.zip", MIMEType: "application/zip", Data: "UEsDBA=="}}, wantName: "a.zip"},
				{name: "a PDF too big", files: []chat.FilePart{{Name: "big.pdf", MIMEType: "application/pdf", Data: big}}, wantName: "big.pdf"},
			}
			for _, tt := range tests {
				err := h.agent.CheckAttachments(t.Context(), h.sessID, tt.files, tt.resources)
				var ae *chat.AttachmentError
				switch {
				case tt.wantName == "" && err != nil:
					t.Errorf("%s: err = %v; want none", tt.name, err)
				case tt.wantName != "" && (!errors.As(err, &ae) || (ae.Name != tt.wantName && ae.Name != "")):
					t.Errorf("%s: err = %v; want an AttachmentError for %s", tt.name, err, tt.wantName)
				}
			}
			if n := len(h.requests(p)); n != 0 {
				t.Errorf("%d requests; want none", n)
			}
		})
	}
}
