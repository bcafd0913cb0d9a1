package openaifake

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
)

// The limits the Responses API puts on images and files
// (docs/providers/openai.md §Attachments). The unsupported-MIME and
// empty-bytes messages are the service's own (quoted in issue threads);
// the wording of the size and count refusals is not published anywhere
// found, so those messages are the fake's, marked below, with the
// documented limits and the real status and error type.
const (
	maxImageBytes  = 20_000_000
	maxImages      = 500
	maxImageTotal  = 50_000_000
	maxFileTotal   = 50_000_000
	exampleDataURL = "data:image/png;base64,aW1nIGJ5dGVzIGhlcmU="
)

var imageTypes = []string{"image/png", "image/jpeg", "image/webp", "image/gif"}

// media totals what a request's images and files add up to.
type media struct {
	images              int
	imageBytes, fileLen int
}

// checkImage checks an input_image's data URL: an image MIME type the API
// takes, some bytes, at most maxImageBytes of them.
func (m *media) checkImage(url, at string) *rejection {
	param := at + ".image_url"
	m.images++
	if strings.HasPrefix(url, "https://") || strings.HasPrefix(url, "http://") {
		return m.checkCounts()
	}
	mime, data, ok := parseDataURL(url)
	if !ok {
		return apiError(http.StatusBadRequest, "input_image needs a data URL",
			fmt.Sprintf("Invalid '%s'. Expected a base64-encoded data URL with an image MIME type (e.g. '%s'), but got a value without the 'data:' prefix.", param, exampleDataURL), param, "invalid_value")
	}
	if !contains(imageTypes, mime) {
		return apiError(http.StatusBadRequest, "input_image type",
			fmt.Sprintf("Invalid '%s'. Expected a base64-encoded data URL with an image MIME type (e.g. '%s'), but got unsupported MIME type '%s'.", param, exampleDataURL, mime), param, "invalid_value")
	}
	n := base64.StdEncoding.DecodedLen(len(data)) - strings.Count(data[max(0, len(data)-2):], "=")
	if n <= 0 {
		return apiError(http.StatusBadRequest, "input_image empty",
			fmt.Sprintf("Invalid '%s'. Expected a base64-encoded data URL with an image MIME type (e.g. '%s'), but got empty base64-encoded bytes.", param, exampleDataURL), param, "invalid_value")
	}
	if n > maxImageBytes {
		// wording not confirmed
		return apiError(http.StatusBadRequest, "input_image size",
			fmt.Sprintf("Invalid '%s'. Image is %d bytes; the maximum is %d bytes.", param, n, maxImageBytes), param, "invalid_value")
	}
	m.imageBytes += n
	return m.checkCounts()
}

// checkFile adds an input_file's bytes to the request's total.
func (m *media) checkFile(fileData, at string) *rejection {
	if _, data, ok := parseDataURL(fileData); ok {
		m.fileLen += base64.StdEncoding.DecodedLen(len(data))
	}
	if m.fileLen > maxFileTotal {
		// wording not confirmed
		return apiError(http.StatusBadRequest, "files per request",
			fmt.Sprintf("Invalid '%s.file_data'. The files of this request exceed %d bytes in total.", at, maxFileTotal), at+".file_data", "invalid_value")
	}
	return nil
}

func (m *media) checkCounts() *rejection {
	switch {
	case m.images > maxImages:
		// wording not confirmed
		return apiError(http.StatusBadRequest, "images per request",
			fmt.Sprintf("Invalid 'input': too many images (%d); the maximum is %d per request.", m.images, maxImages), "input", "invalid_value")
	case m.imageBytes > maxImageTotal:
		// wording not confirmed
		return apiError(http.StatusBadRequest, "image bytes per request",
			fmt.Sprintf("Invalid 'input': the images of this request are %d bytes; the maximum is %d.", m.imageBytes, maxImageTotal), "input", "invalid_value")
	}
	return nil
}

// parseDataURL splits data:<mime>;base64,<data>.
func parseDataURL(u string) (mime, data string, ok bool) {
	rest, ok := strings.CutPrefix(u, "data:")
	if !ok {
		return "", "", false
	}
	head, data, ok := strings.Cut(rest, ",")
	if !ok {
		return "", "", false
	}
	mime, _, _ = strings.Cut(head, ";")
	return strings.ToLower(mime), data, true
}
