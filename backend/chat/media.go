package chat

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"image"
	_ "image/gif"  // DecodeConfig reads GIF headers
	_ "image/jpeg" // and JPEG
	_ "image/png"  // and PNG
	"regexp"
	"strings"
)

// What the attachment rules need to know about a file, read from its bytes
// without decoding it whole: its size, an image's pixel size, a PDF's page
// count.

// BlobRef is the name the store keeps bytes under: "sha256-" and the hex
// SHA-256 of the content, so the same bytes attached twice share one copy.
func BlobRef(content []byte) string {
	sum := sha256.Sum256(content)
	return "sha256-" + hex.EncodeToString(sum[:])
}

// DecodedLen is the length of the bytes that the base64 text b64 encodes
// (standard encoding, padded or not), without decoding them.
func DecodedLen(b64 string) int64 {
	n := len(b64)
	for n > 0 && b64[n-1] == '=' {
		n--
	}
	return int64(n) * 3 / 4
}

// ImageSize returns the width and height of an image from its first bytes
// (PNG, JPEG, GIF or WebP), and false when they cannot be read.
func ImageSize(head []byte) (w, h int, ok bool) {
	if w, h, ok := webpSize(head); ok {
		return w, h, true
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(head))
	if err != nil {
		return 0, 0, false
	}
	return cfg.Width, cfg.Height, true
}

// webpSize reads a WebP header: lossy (VP8), lossless (VP8L) or extended
// (VP8X), as laid out in RFC 9649.
func webpSize(b []byte) (int, int, bool) {
	if len(b) < 30 || string(b[0:4]) != "RIFF" || string(b[8:12]) != "WEBP" {
		return 0, 0, false
	}
	switch string(b[12:16]) {
	case "VP8 ":
		// frame tag (3 bytes), start code 9d 01 2a, then 14-bit sizes.
		if b[23] != 0x9d || b[24] != 0x01 || b[25] != 0x2a {
			return 0, 0, false
		}
		return int(binary.LittleEndian.Uint16(b[26:28]) & 0x3fff), int(binary.LittleEndian.Uint16(b[28:30]) & 0x3fff), true
	case "VP8L":
		if b[20] != 0x2f {
			return 0, 0, false
		}
		bits := binary.LittleEndian.Uint32(b[21:25])
		return int(bits&0x3fff) + 1, int((bits>>14)&0x3fff) + 1, true
	case "VP8X":
		w := int(b[24]) | int(b[25])<<8 | int(b[26])<<16
		h := int(b[27]) | int(b[28])<<8 | int(b[29])<<16
		return w + 1, h + 1, true
	}
	return 0, 0, false
}

// imageHead decodes enough of a base64 image to read its header.
func imageHead(b64 string) []byte {
	const headChars = 64 << 10 // 48 KiB: a JPEG's size marker can follow a large EXIF block
	s := b64
	if len(s) > headChars {
		s = s[:headChars]
	}
	s = s[:len(s)/4*4]
	out, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		out, _ = base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
	}
	return out
}

// pageRE finds page objects: "/Type /Page" not followed by "s" (that is
// the /Pages tree node).
var pageRE = regexp.MustCompile(`/Type\s*/Page\b`)

// PDFPages counts the page objects of a PDF whose objects are not
// compressed, and returns at least 1: a PDF that keeps its pages in
// object streams (PDF 1.5 and later) is counted as one page. It is a lower
// bound, used so that a request plainly over a provider's page limit is
// caught before it is sent; the provider has the last word.
func PDFPages(pdf []byte) int {
	n := len(pageRE.FindAllIndex(pdf, -1))
	return max(n, 1)
}

// textTypes are MIME types outside text/* whose content is text.
var textTypes = map[string]bool{
	"application/json": true, "application/xml": true, "application/javascript": true,
	"application/x-javascript": true, "application/typescript": true, "application/x-yaml": true,
	"application/yaml": true, "application/toml": true, "application/x-sh": true,
	"application/x-python": true, "application/sql": true, "application/graphql": true,
	"application/ld+json": true, "application/x-ndjson": true, "application/csv": true,
}

// IsTextType reports whether content of this MIME type is text a model can
// read as it is: text/*, JSON, XML, YAML, scripts.
func IsTextType(mime string) bool {
	mime = BaseType(mime)
	return strings.HasPrefix(mime, "text/") || textTypes[mime] ||
		strings.HasSuffix(mime, "+json") || strings.HasSuffix(mime, "+xml")
}

// BaseType is a MIME type lower-cased and without parameters
// ("text/plain; charset=utf-8" → "text/plain").
func BaseType(mime string) string {
	if i := strings.IndexByte(mime, ';'); i >= 0 {
		mime = mime[:i]
	}
	return strings.ToLower(strings.TrimSpace(mime))
}
