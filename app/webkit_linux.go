//go:build linux && cgo && webkit2_41

package app

// #cgo pkg-config: webkit2gtk-4.1
// #include <webkit2/webkit2.h>
import "C"

import "fmt"

// WebKitVersion is the version of the WebKitGTK library the app runs on
// (not the one it was built against), for diagnostics.
func WebKitVersion() string {
	return fmt.Sprintf("%d.%d.%d", C.webkit_get_major_version(), C.webkit_get_minor_version(), C.webkit_get_micro_version())
}
