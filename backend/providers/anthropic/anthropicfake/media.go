package anthropicfake

import (
	"encoding/base64"
	"fmt"
	"slices"

	"maestro/backend/chat"
)

// The limits the Messages API puts on images and documents, with its
// messages (docs/providers/anthropic.md §Attachments, with the issue
// threads that quote them).
const (
	maxImageBase64   = 5 << 20
	maxImageSide     = 8000
	manyImages       = 20
	maxImageSideMany = 2000
)

var imageMediaTypes = []string{"image/jpeg", "image/png", "image/gif", "image/webp"}

type wireSource struct {
	Type      string `json:"type"`
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
	URL       string `json:"url"`
}

// mediaRef is one image or document block of a request and where it is.
type mediaRef struct {
	at    string // messages.N.content.K[.tool_result.content.J]
	block wireBlock
}

// mediaBlocks lists the image and document blocks, those inside tool
// results included.
func (q *wireRequest) mediaBlocks() []mediaRef {
	var out []mediaRef
	for i, m := range q.Messages {
		for k, b := range m.blocks {
			at := fmt.Sprintf("messages.%d.content.%d", i, k)
			switch b.Type {
			case "image", "document":
				out = append(out, mediaRef{at, b})
			case "tool_result":
				inner, _ := parseContent(b.Content)
				for j, ib := range inner {
					if ib.Type == "image" || ib.Type == "document" {
						out = append(out, mediaRef{fmt.Sprintf("%s.tool_result.content.%d", at, j), ib})
					}
				}
			}
		}
	}
	return out
}

// checkMedia applies the image and document limits: media type, size and
// pixels of each image, then how much media the request carries, then the
// smaller pixel limit of requests with many images.
func (q *wireRequest) checkMedia() *rejection {
	refs := q.mediaBlocks()
	images, pages := 0, 0
	var sides []int
	for _, r := range refs {
		src := r.block.Source
		if src == nil {
			return invalid("media: source", "%s.%s.source: Field required", r.at, r.block.Type)
		}
		if r.block.Type == "document" {
			pages += documentPages(src)
			continue
		}
		images++
		if src.Type != "base64" {
			continue
		}
		if !slices.Contains(imageMediaTypes, src.MediaType) {
			return invalid("media: image type", "%s.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'", r.at)
		}
		if len(src.Data) > maxImageBase64 {
			return invalid("media: image size", "%s.image.source.base64: image exceeds 5 MB maximum: %d bytes > %d bytes", r.at, len(src.Data), maxImageBase64)
		}
		side := imageSide(src.Data)
		if side > maxImageSide {
			return invalid("media: image pixels", "%s.image.source.base64.data: At least one of the image dimensions exceed max allowed size: %d pixels", r.at, maxImageSide)
		}
		sides = append(sides, side)
	}
	if limit := q.mediaLimit(); images+pages > limit {
		return invalid("media: too much", "Too much media: %d document pages + %d images > %d", pages, images, limit)
	}
	if images > manyImages {
		for i, side := range sides {
			if side > maxImageSideMany {
				return invalid("media: many-image pixels", "%s.image.source.base64.data: At least one of the image dimensions exceed max allowed size for many-image requests: %d pixels", refs[i].at, maxImageSideMany)
			}
		}
	}
	return nil
}

// mediaLimit is how many images and document pages a request may carry:
// 600, or 100 on models with a 200k-token context window.
func (q *wireRequest) mediaLimit() int {
	if q.model.maxInput <= 200_000 {
		return 100
	}
	return 600
}

func imageSide(b64 string) int {
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return 0
	}
	w, h, _ := chat.ImageSize(raw)
	return max(w, h)
}

func documentPages(src *wireSource) int {
	if src.Type != "base64" || src.MediaType != "application/pdf" {
		return 1
	}
	raw, err := base64.StdEncoding.DecodeString(src.Data)
	if err != nil {
		return 1
	}
	return chat.PDFPages(raw)
}
