package diagnostics

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// maxTailBytes bounds what LogTail reads: a log line is short, and a log
// written by a misbehaving server must not make Copy diagnostics slow.
const maxTailBytes = 256 << 10

// LogTail returns up to n last lines of the file at path. A missing file is
// no lines and no error. Lines are whole: Text cuts long ones after it has
// redacted them, so no cut can leave a fragment of a secret unrecognised.
func LogTail(path string, n int) ([]string, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the log: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read the log: %w", err)
	}
	start := max(info.Size()-maxTailBytes, 0)
	buf := make([]byte, info.Size()-start)
	if _, err := f.ReadAt(buf, start); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("read the log: %w", err)
	}
	if start > 0 { // the first line is cut: drop it
		if i := bytes.IndexByte(buf, '\n'); i >= 0 {
			buf = buf[i+1:]
		}
	}
	lines := bytes.Split(bytes.TrimRight(buf, "\n"), []byte("\n"))
	if len(lines) == 1 && len(lines[0]) == 0 {
		return nil, nil
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = string(bytes.ToValidUTF8(l, []byte("\uFFFD")))
	}
	return out, nil
}
