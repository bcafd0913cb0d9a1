package mcp

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	_ "image/gif" // decoded for downscaling
	"image/jpeg"
	"image/png"
	"strings"

	"maestro/backend/chat"
	"maestro/backend/tools"
)

// A tool result's image is stored once and may be sent to any provider
// (the session can switch), so it is fitted to the strictest limits of the
// three (docs/SECURITY.md, "Images"): Anthropic refuses an image over 5 MB
// of base64 or 8000 px on a side (2000 px when a request has many
// images); OpenAI takes 20 MB per image and 50 MB per request; Gemini
// 20 MB per request inline. An image over the limit is downscaled when Go
// can decode it (PNG, JPEG, GIF) and refused otherwise, with a note in
// Attachment.Text either way (the providers' renderers send the note of a
// refused image to the model as text).
const (
	// maxAttachmentBase64 is the most base64 one image, audio clip or blob
	// may take (Anthropic's 5 MB, measured as base64).
	maxAttachmentBase64 = 5 << 20
	// maxImageSide is the longest side an image keeps as it is.
	maxImageSide = 8000
	// fitSide is the longest side of a downscaled image.
	fitSide = 2000
	// maxDecodePixels bounds the images Maestro decodes: a small file can
	// claim a huge canvas (a decompression bomb).
	maxDecodePixels = 50_000_000
)

// fitAttachments fits each image (fitImage), refuses audio and blobs over
// maxAttachmentBase64, and leaves out what goes past budget bytes of
// base64 in all. A refused attachment keeps its type and MIME type, has no
// Data, and says why in Text.
func fitAttachments(atts []chat.Attachment, budget int) []chat.Attachment {
	used := 0
	for i, a := range atts {
		if a.Data == "" {
			continue
		}
		if n, ok := droppedSize(a.Data); ok {
			atts[i] = refused(a, fmt.Sprintf("the server sent %s of base64, more than Maestro reads", tools.HumanSize(n)))
			continue
		}
		if a.Type == "image" {
			a = fitImage(a)
		} else if len(a.Data) > maxAttachmentBase64 {
			a = refused(a, fmt.Sprintf("%s of base64 is more than the %s a provider takes", tools.HumanSize(len(a.Data)), tools.HumanSize(maxAttachmentBase64)))
		}
		if used+len(a.Data) > budget {
			a = refused(a, fmt.Sprintf("this result's attachments pass the %s Maestro keeps of one result", tools.HumanSize(budget)))
		}
		used += len(a.Data)
		atts[i] = a
	}
	return atts
}

func refused(a chat.Attachment, why string) chat.Attachment {
	what := cmpOr(a.MIMEType, a.Type)
	return chat.Attachment{Type: a.Type, MIMEType: a.MIMEType, URI: a.URI, Name: a.Name,
		Text: fmt.Sprintf("[%s left out: %s]", what, why)}
}

// fitImage returns the image as it is when it fits every provider, else
// downscaled to fitSide, else refused.
func fitImage(a chat.Attachment) chat.Attachment {
	raw, err := base64.StdEncoding.DecodeString(a.Data)
	if err != nil {
		return refused(a, "its data is not base64")
	}
	cfg, format, cfgErr := image.DecodeConfig(bytes.NewReader(raw))
	fits := len(a.Data) <= maxAttachmentBase64
	if cfgErr == nil {
		fits = fits && cfg.Width <= maxImageSide && cfg.Height <= maxImageSide
	}
	if fits {
		return a
	}
	size := fmt.Sprintf("%s, %s", tools.HumanSize(len(raw)), strings.ToUpper(cmpOr(format, a.MIMEType)))
	switch {
	case cfgErr != nil:
		return refused(a, fmt.Sprintf("it is %s, over the providers' limit, and Maestro cannot downscale %s", tools.HumanSize(len(raw)), a.MIMEType))
	case cfg.Width*cfg.Height > maxDecodePixels:
		return refused(a, fmt.Sprintf("%d×%d px is too large to downscale", cfg.Width, cfg.Height))
	}
	img, _, err := image.Decode(bytes.NewReader(raw))
	if err != nil {
		return refused(a, "it cannot be decoded: "+err.Error())
	}
	small := downscale(img, fitSide)
	for _, enc := range []struct {
		mime string
		fn   func(*bytes.Buffer) error
	}{
		{"image/png", func(b *bytes.Buffer) error { return png.Encode(b, small) }},
		{"image/jpeg", func(b *bytes.Buffer) error { return jpeg.Encode(b, small, &jpeg.Options{Quality: 85}) }},
		{"image/jpeg", func(b *bytes.Buffer) error { return jpeg.Encode(b, small, &jpeg.Options{Quality: 60}) }},
	} {
		if enc.mime == "image/png" && format == "jpeg" {
			continue // a photo stays a JPEG
		}
		var b bytes.Buffer
		if enc.fn(&b) != nil || base64.StdEncoding.EncodedLen(b.Len()) > maxAttachmentBase64 {
			continue
		}
		bounds := small.Bounds()
		return chat.Attachment{Type: a.Type, MIMEType: enc.mime, URI: a.URI, Name: a.Name,
			Data: base64.StdEncoding.EncodeToString(b.Bytes()),
			Text: fmt.Sprintf("[downscaled by Maestro from %d×%d px (%s) to %d×%d px (%s) to fit the providers' limits]",
				cfg.Width, cfg.Height, size, bounds.Dx(), bounds.Dy(), tools.HumanSize(b.Len()))}
	}
	return refused(a, "it stays over the providers' limit even downscaled")
}

// downscale shrinks img so that its longer side is maxSide, averaging the
// source pixels each target pixel covers (a box filter).
func downscale(img image.Image, maxSide int) *image.RGBA {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	nw, nh := w, h
	if w >= h && w > maxSide {
		nw, nh = maxSide, max(1, h*maxSide/w)
	} else if h > w && h > maxSide {
		nw, nh = max(1, w*maxSide/h), maxSide
	}
	dst := image.NewRGBA(image.Rect(0, 0, nw, nh))
	for y := range nh {
		y0, y1 := y*h/nh, max(y*h/nh+1, (y+1)*h/nh)
		for x := range nw {
			x0, x1 := x*w/nw, max(x*w/nw+1, (x+1)*w/nw)
			var r, g, bl, al, n uint64
			for sy := y0; sy < y1; sy++ {
				for sx := x0; sx < x1; sx++ {
					cr, cg, cb, ca := img.At(b.Min.X+sx, b.Min.Y+sy).RGBA()
					r, g, bl, al, n = r+uint64(cr), g+uint64(cg), bl+uint64(cb), al+uint64(ca), n+1
				}
			}
			dst.SetRGBA(x, y, color.RGBA{R: uint8(r / n >> 8), G: uint8(g / n >> 8), B: uint8(bl / n >> 8), A: uint8(al / n >> 8)})
		}
	}
	return dst
}
