package app

import (
	"regexp"
	"testing"
)

func TestWebKitVersion(t *testing.T) {
	t.Parallel()
	v := WebKitVersion()
	if v == "" {
		t.Skip("not built with the webkit2_41 tag on Linux with cgo")
	}
	if !regexp.MustCompile(`^2\.\d+\.\d+$`).MatchString(v) {
		t.Errorf("WebKitVersion = %q; want the 2.x.y of the WebKitGTK library", v)
	}
}
