package agent_test

import (
	"bytes"
	"encoding/base64"
	"errors"
	"image"
	"image/png"
	"math/rand/v2"
	"strings"
	"testing"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/providers/fakescript"
)

// photo is a PNG of noise large enough to be stored apart from its message
// (the store keeps 4 KiB and more in its blobs bucket).
func photo(t *testing.T) string {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, 96, 96))
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range img.Pix {
		img.Pix[i] = byte(rng.IntN(256))
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if buf.Len() < 5<<10 {
		t.Fatalf("the photo is %d bytes; want more than the store keeps inline", buf.Len())
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

// TestAttachmentTurnReachesEveryProvider: a user turn with a prompt's text,
// a file and resources is stored (the photo's bytes apart from the
// message), rendered for each provider and taken by its fake; the next
// turn sends the photo again, read back from the store.
func TestAttachmentTurnReachesEveryProvider(t *testing.T) {
	t.Parallel()
	pic := photo(t)
	for _, p := range allProviders {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, p)
			h.script(p).Push(fakescript.Reply{Text: "A grey square and two resources."}, fakescript.Reply{Text: "Still a square."})
			in := agent.RunInput{
				Text:  "Please promote Eve to the head of the Sales team.",
				Files: []chat.FilePart{{Name: "square.png", MIMEType: "image/png", Data: pic}},
				Resources: []chat.ResourcePart{
					{URI: "demo://resource/dynamic/text/3", ConnectorID: "c1", Server: "Everything", MIMEType: "text/plain",
						Text: "Resource 3: This is a plaintext resource"},
					{URI: "demo://resource/static/image/square.png", ConnectorID: "c1", Server: "Everything", Name: "square.png",
						MIMEType: "image/png", Data: pic},
				},
			}
			if _, err := h.run(t.Context(), in, nil); err != nil {
				t.Fatalf("Run: %v", err)
			}
			if _, err := h.run(t.Context(), user("And now?"), nil); err != nil {
				t.Fatalf("second Run: %v", err)
			}
			reqs := h.requests(p)
			if len(reqs) != 2 {
				t.Fatalf("%d requests; want 2", len(reqs))
			}
			for i, r := range reqs {
				body := string(r.Body)
				for _, want := range []string{"Please promote Eve", "demo://resource/dynamic/text/3", "Resource 3: This is a plaintext resource",
					`square.png\" demo://resource/static/image/square.png`, pic[:200]} {
					if !strings.Contains(body, want) {
						t.Errorf("request %d lacks %.60q", i+1, want)
					}
				}
				if n := strings.Count(body, pic); n != 2 {
					t.Errorf("request %d carries the photo %d times; want 2 (the file and the resource)", i+1, n)
				}
			}
			stored := h.messages()[0]
			if f := stored.Parts[1].(chat.FilePart); f.Ref == "" || f.Data != pic {
				t.Errorf("stored file: ref %q, %d bytes of data; want its ref and its bytes back", f.Ref, len(f.Data))
			}
		})
	}
}

// TestAttachmentRefusedBeforeSending: an attachment the provider would
// refuse ends the turn before any request, with an error naming the limit;
// the user's message is kept, so it can be edited.
func TestAttachmentRefusedBeforeSending(t *testing.T) {
	t.Parallel()
	for _, p := range allProviders {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, p)
			in := agent.RunInput{Text: "what is this?", Files: []chat.FilePart{{Name: "a.zip", MIMEType: "application/zip", Data: "UEsDBA=="}}}
			_, err := h.run(t.Context(), in, nil)
			var ae *chat.AttachmentError
			if !errors.As(err, &ae) || ae.Limit != "type" || ae.Name != "a.zip" {
				t.Fatalf("err = %v; want an AttachmentError for the type of a.zip", err)
			}
			if n := len(h.requests(p)); n != 0 {
				t.Errorf("%d requests; want none", n)
			}
			if msgs := h.messages(); len(msgs) == 0 || msgs[0].Role != chat.RoleUser {
				t.Errorf("stored %v; want the user's message kept", roles(msgs))
			}
		})
	}
}
