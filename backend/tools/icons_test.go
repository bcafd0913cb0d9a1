package tools

import (
	"strings"
	"testing"
)

func TestSafeIcons(t *testing.T) {
	t.Parallel()
	png := "data:image/png;base64,iVBORw0KGgo="
	big := "data:image/png;base64," + strings.Repeat("A", MaxIconBytes)
	in := []Icon{
		{Src: "https://example.com/icon.png", MIMEType: "image/png", Sizes: []string{"48x48", "huge", "any"}, Theme: "dark"},
		{Src: png},
		{Src: "http://example.com/icon.png"},                      // not https
		{Src: "javascript:alert(1)"},                              // not an image
		{Src: "file:///etc/passwd"},                               // a local file
		{Src: "https://user:pw@example.com/i.png"},                // credentials
		{Src: "data:text/html;base64,PHNjcmlwdD4="},               // not an image
		{Src: "data:image/png;base64,%%%"},                        // not base64
		{Src: big},                                                // too big
		{Src: png, MIMEType: "image/gif"},                         // says another type
		{Src: "icon.png"},                                         // relative
		{Src: "https://example.com/2.svg", MIMEType: "text/html"}, // not an image type
		{Src: "https://example.com/3.png", Theme: "neon"},
		{Src: "https://example.com/4.png"},
		{Src: "https://example.com/5.png"}, // past MaxIcons
	}
	got := SafeIcons(in)
	var srcs []string
	for _, ic := range got {
		srcs = append(srcs, ic.Src)
	}
	want := []string{"https://example.com/icon.png", png, "https://example.com/3.png", "https://example.com/4.png"}
	if strings.Join(srcs, " ") != strings.Join(want, " ") {
		t.Fatalf("kept %q\nwant %q", srcs, want)
	}
	if s := got[0].Sizes; len(s) != 2 || s[0] != "48x48" || s[1] != "any" || got[0].Theme != "dark" {
		t.Errorf("first icon = %+v", got[0])
	}
	if got[1].MIMEType != "image/png" || got[2].Theme != "" {
		t.Errorf("icons = %+v", got)
	}
}
