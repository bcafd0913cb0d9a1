package tools

import (
	"encoding/base64"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// Icons (SEP-973, docs/SECURITY.md): servers may give icons for
// themselves, their tools, prompts and resources. The UI shows them; they
// never reach a model. A server is not trusted, so only two kinds are kept
// (SafeIcons): a data: URI of an image, at most MaxIconBytes, and an
// https: URL (no credentials), which the window loads like any picture.
// Everything else (http:, file:, javascript:, relative paths) is dropped,
// and so are the icons past MaxIcons.

// Icon is one icon of a server, tool, prompt or resource.
type Icon struct {
	Src      string   `json:"src"`
	MIMEType string   `json:"mimeType,omitempty"`
	Sizes    []string `json:"sizes,omitempty"`
	// Theme is "light" or "dark": the background the icon is for.
	Theme string `json:"theme,omitempty"`
}

// Icon limits.
const (
	MaxIcons     = 4
	MaxIconBytes = 64 << 10 // a data: URI, whole
	maxIconURL   = 2048
)

var (
	iconSizeRE = regexp.MustCompile(`^(?:[0-9]{1,4}x[0-9]{1,4}|any)$`)
	// The image types a window shows; an SVG shown as an image runs no
	// script.
	iconTypes = []string{"image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml", "image/x-icon", "image/vnd.microsoft.icon"}
)

// SafeIcons returns the icons that may be shown, cleaned (see above).
func SafeIcons(in []Icon) []Icon {
	var out []Icon
	for _, ic := range in {
		if len(out) == MaxIcons {
			break
		}
		if clean, ok := safeIcon(ic); ok {
			out = append(out, clean)
		}
	}
	return out
}

func safeIcon(ic Icon) (Icon, bool) {
	src := strings.TrimSpace(ic.Src)
	mime := strings.ToLower(strings.TrimSpace(ic.MIMEType))
	switch {
	case strings.HasPrefix(strings.ToLower(src), "data:"):
		m, ok := dataIcon(src)
		if !ok || (mime != "" && mime != m) {
			return Icon{}, false
		}
		mime = m
	case strings.HasPrefix(strings.ToLower(src), "https:"):
		u, err := url.Parse(src)
		if err != nil || u.Host == "" || u.User != nil || len(src) > maxIconURL {
			return Icon{}, false
		}
		if mime != "" && !slices.Contains(iconTypes, mime) {
			return Icon{}, false
		}
	default:
		return Icon{}, false
	}
	out := Icon{Src: src, MIMEType: mime}
	for _, s := range ic.Sizes {
		if len(out.Sizes) < MaxIcons && iconSizeRE.MatchString(s) {
			out.Sizes = append(out.Sizes, s)
		}
	}
	if ic.Theme == "light" || ic.Theme == "dark" {
		out.Theme = ic.Theme
	}
	return out, true
}

// dataIcon checks a data: URI of a base64 image within MaxIconBytes and
// returns its type.
func dataIcon(src string) (string, bool) {
	if len(src) > MaxIconBytes {
		return "", false
	}
	head, data, ok := strings.Cut(src[len("data:"):], ",")
	if !ok {
		return "", false
	}
	mime, enc, ok := strings.Cut(strings.ToLower(head), ";")
	if !ok || enc != "base64" || !slices.Contains(iconTypes, mime) {
		return "", false
	}
	if _, err := base64.StdEncoding.DecodeString(data); err != nil {
		return "", false
	}
	return mime, true
}
