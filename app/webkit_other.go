//go:build !(linux && cgo && webkit2_41)

package app

// WebKitVersion is "" where Maestro is not built on WebKitGTK 4.1.
func WebKitVersion() string { return "" }
