package app

import (
	"bytes"
	"context"
	"encoding/base64"
	"image"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"maestro/backend/chat"
)

// noisyPNG is a w×h PNG of noise, base64: too big to stay inline in a
// stored message (a blank one compresses to nothing).
func noisyPNG(t *testing.T, w, h int) string {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(1, 2))
	for i := range img.Pix {
		img.Pix[i] = uint8(r.UintN(256))
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

// seedAttachments stores a user message with a PNG, a PDF and one file
// over what Attachment reads, and returns the session and their refs.
func seedAttachments(t *testing.T, a *App) (sessionID string, png, pdf, huge string) {
	t.Helper()
	run, ctx := a.running(t)
	sess, err := run.store.CreateSession(ctx, chat.Session{Title: "files"})
	if err != nil {
		t.Fatal(err)
	}
	pdfBytes := []byte("%PDF-1.4\n1 0 obj << /Type /Page >> endobj\n" + strings.Repeat("% padding\n", 600) + "%%EOF\n")
	hugeBytes := make([]byte, maxAttachmentRead+1<<20)
	stored, err := run.store.AppendMessage(ctx, sess.ID, chat.Message{Role: chat.RoleUser, Parts: chat.Parts{
		chat.TextPart{Text: "look"},
		chat.FilePart{Name: "shot.png", MIMEType: "image/png", Data: noisyPNG(t, 200, 100)},
		chat.FilePart{Name: "doc.pdf", MIMEType: "application/pdf", Data: base64.StdEncoding.EncodeToString(pdfBytes)},
		chat.FilePart{Name: "dump.bin", MIMEType: "application/octet-stream", Data: base64.StdEncoding.EncodeToString(hugeBytes)},
	}})
	if err != nil {
		t.Fatal(err)
	}
	page, err := run.store.ActivePathPage(ctx, sess.ID, 0, 10)
	if err != nil || len(page.Messages) != 1 {
		t.Fatalf("page = %+v, %v (stored %s)", page, err, stored.ID)
	}
	ref := func(i int) string {
		f := page.Messages[0].Parts[i].(chat.FilePart)
		if f.Ref == "" || f.Data != "" {
			t.Fatalf("part %d of the page = %+v; want a ref without bytes", i, f)
		}
		return f.Ref
	}
	return sess.ID, ref(1), ref(2), ref(3)
}

func TestAttachmentReadsStoredBytes(t *testing.T) {
	t.Parallel()
	a, _ := startApp(t, t.TempDir())
	id, png, pdf, huge := seedAttachments(t, a)
	other, err := a.Sessions.Create("other")
	if err != nil {
		t.Fatal(err)
	}
	view, err := a.Sessions.Open(id)
	if err != nil {
		t.Fatal(err)
	}
	if parts := view.Messages[0].Parts; parts[1].Ref != png || parts[1].Data != "" || parts[2].Ref != pdf || parts[2].Size == 0 {
		t.Errorf("Open gave parts %+v; want the refs the store keeps, with sizes, no bytes", parts[1:])
	}
	tests := []struct {
		name, session, ref string
		wantMIME, wantKind string
		wantMsg            string
	}{
		{"an image", id, png, "image/png", "", ""},
		{"a PDF", id, pdf, "application/pdf", "", ""},
		{"an unknown ref", id, "sha256-00", "", chat.KindNotFound, "this attachment is no longer stored in this chat"},
		{"another chat's", other.ID, png, "", chat.KindNotFound, "this attachment is no longer stored in this chat"},
		{"no ref", id, "", "", chat.KindInvalid, "no attachment named"},
		{"over the cap", id, huge, "", chat.KindInvalid, "this attachment is too large to show here: 21 MiB, over the 20 MiB read at once; save it instead"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := a.Sessions.Attachment(tt.session, tt.ref)
			if tt.wantKind != "" {
				if chat.Kind(err) != tt.wantKind || err.Error() != tt.wantMsg {
					t.Errorf("got %v (kind %q); want %q: %s", err, chat.Kind(err), tt.wantKind, tt.wantMsg)
				}
				return
			}
			raw, decErr := base64.StdEncoding.DecodeString(got.Data)
			if err != nil || decErr != nil || got.MIMEType != tt.wantMIME || got.Ref != tt.ref || got.Size != int64(len(raw)) || chat.BlobRef(raw) != tt.ref {
				t.Errorf("got %s, %d bytes (%d decoded), %v; want %s with the bytes named by the ref", got.MIMEType, got.Size, len(raw), err, tt.wantMIME)
			}
		})
	}
}

func TestSaveAttachmentWritesTheBytes(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "saved.pdf")
	answer := make(chan string, 2)
	var asked []FileDialog
	a, _ := startApp(t, t.TempDir(), withRuntime(Runtime{
		SaveFileDialog: func(_ context.Context, d FileDialog) (string, error) {
			asked = append(asked, d)
			return <-answer, nil
		},
	}))
	id, _, pdf, huge := seedAttachments(t, a)

	answer <- out
	path, err := a.Sessions.SaveAttachment(id, pdf, "../reports/doc.pdf")
	if err != nil || path != out {
		t.Fatalf("SaveAttachment = %q, %v; want %q", path, err, out)
	}
	raw, err := os.ReadFile(out)
	if err != nil || chat.BlobRef(raw) != pdf {
		t.Errorf("saved %d bytes, %v; want the stored PDF", len(raw), err)
	}
	if len(asked) != 1 || asked[0].DefaultFilename != "doc.pdf" {
		t.Errorf("dialog = %+v; want doc.pdf offered", asked)
	}

	// A file over what Attachment reads is saved whole; a cancel writes nothing.
	answer <- ""
	if path, err := a.Sessions.SaveAttachment(id, huge, "dump.bin"); err != nil || path != "" {
		t.Errorf("cancelled save = %q, %v; want \"\", nil", path, err)
	}
	if _, err := a.Sessions.SaveAttachment(id, "sha256-00", "x"); chat.Kind(err) != chat.KindNotFound {
		t.Errorf("unknown ref: kind %q; want not_found", chat.Kind(err))
	}
}

func TestSaveName(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{"doc.pdf": "doc.pdf", "../../etc/passwd": "passwd", `C:\x\y.txt`: "y.txt", "": "attachment", "/": "attachment"} {
		if got := saveName(name); got != want {
			t.Errorf("saveName(%q) = %q; want %q", name, got, want)
		}
	}
}

func TestFilePayload(t *testing.T) {
	t.Parallel()
	big := bytes.Repeat([]byte("x"), 10<<10)
	big64 := base64.StdEncoding.EncodeToString(big)
	tests := []struct {
		name, ref, data   string
		size              int64
		wantRef, wantData string
		wantSize          int64
	}{
		{"stored bytes: the ref", "sha256-ab", "", 9, "sha256-ab", "", 9},
		{"a small file: its bytes", "", "aGk=", 0, "", "aGk=", 2},
		{"a large file not stored yet: the ref the store gives it", "", big64, 0, chat.BlobRef(big), "", int64(len(big))},
		{"bytes that are not base64: nothing", "", strings.Repeat("!", maxInlinePart+1), 0, "", "", 0},
		{"a link: nothing", "", "", 0, "", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ref, data, size := filePayload(tt.ref, tt.data, tt.size)
			if ref != tt.wantRef || data != tt.wantData || (tt.wantSize != 0 && size != tt.wantSize) {
				t.Errorf("got %q, %.10q, %d; want %q, %.10q, %d", ref, data, size, tt.wantRef, tt.wantData, tt.wantSize)
			}
		})
	}
}
