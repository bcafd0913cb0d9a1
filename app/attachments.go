package app

import (
	"encoding/base64"
	"errors"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"maestro/backend/chat"
)

// maxAttachmentRead caps the bytes Attachment sends over the bridge (as
// base64, a third more): every image a provider takes fits
// (docs/providers/*.md, "Attachments"); a larger file is saved with
// SaveAttachment, which writes it from Go.
const maxAttachmentRead = 20 << 20

// StoredFileDTO is a stored attachment's bytes, read for the message
// view: a page names an attachment by its ref (chat.FilePart.Ref), never
// with its bytes.
type StoredFileDTO struct {
	Ref string `json:"ref"`
	// MIMEType is sniffed from the bytes (the part's own type is the
	// message's).
	MIMEType string `json:"mimeType"`
	Size     int64  `json:"size"`
	// Data is the bytes, base64-encoded.
	Data string `json:"data"`
}

// Attachment reads the bytes a message of the session names by ref (an
// attached file or resource), up to 20 MiB. A ref the session does not
// hold is not_found, a larger file invalid, each with a message to show.
func (s *Sessions) Attachment(sessionID, ref string) (StoredFileDTO, error) {
	raw, err := s.blob(sessionID, ref, maxAttachmentRead)
	if err != nil {
		return StoredFileDTO{}, err
	}
	return StoredFileDTO{Ref: ref, MIMEType: http.DetectContentType(raw), Size: int64(len(raw)), Data: base64.StdEncoding.EncodeToString(raw)}, nil
}

// SaveAttachment asks where to save a stored attachment, offering name,
// and writes its bytes there. It returns the path, or "" when the user
// cancelled.
func (s *Sessions) SaveAttachment(sessionID, ref, name string) (string, error) {
	raw, err := s.blob(sessionID, ref, math.MaxInt)
	if err != nil {
		return "", err
	}
	path, err := s.core.dialog(s.core.rt.SaveFileDialog, FileDialog{Title: "Save attachment", DefaultFilename: saveName(name)})
	if err != nil || path == "" {
		return "", err
	}
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		return "", chat.E(chat.ErrInvalid, "could not write %s: %v", path, err)
	}
	return path, nil
}

// blob reads a stored attachment of the session, with errors the user
// reads as they are.
func (s *Sessions) blob(sessionID, ref string, limit int) ([]byte, error) {
	if ref == "" {
		return nil, chat.E(chat.ErrInvalid, "no attachment named")
	}
	run, ctx, cancel, err := s.core.call()
	if err != nil {
		return nil, err
	}
	defer cancel()
	raw, err := run.store.SessionBlob(ctx, sessionID, ref, limit)
	switch chat.Kind(err) {
	case "":
		return raw, nil
	case chat.KindNotFound:
		return nil, chat.E(chat.ErrNotFound, "this attachment is no longer stored in this chat")
	case chat.KindInvalid:
		return nil, chat.E(chat.ErrInvalid, "this attachment is too large to show here: %v; save it instead", errors.Unwrap(err))
	}
	return nil, err
}

// saveName is a file name to offer for an attachment called name: its
// last path element, or "attachment".
func saveName(name string) string {
	base := filepath.Base(strings.ReplaceAll(name, "\\", "/"))
	if base == "." || base == "/" || base == "" {
		return "attachment"
	}
	return base
}

// maxInlinePart is the most base64 a part of a MessageDTO carries: what
// the store keeps inline (under 4 KiB of bytes) is sent as it is, a larger
// attachment by its ref.
const maxInlinePart = 8 << 10

// filePayload is how a MessageDTO carries a file or resource part's bytes:
// the ref of stored bytes, or the bytes of a small one. A message not
// stored yet (the one SendMessage returns) has its bytes in memory: a large
// one gets the ref the store names them by (chat.BlobRef), so the view
// reads them as it reads a page's. Size is the decoded size if unknown.
func filePayload(ref, data string, size int64) (string, string, int64) {
	if size == 0 && data != "" {
		size = chat.DecodedLen(data)
	}
	switch {
	case ref != "" || data == "":
		return ref, "", size
	case len(data) <= maxInlinePart:
		return "", data, size
	}
	raw, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return "", "", size // the store keeps it inline too; nothing to show
	}
	return chat.BlobRef(raw), "", size
}
