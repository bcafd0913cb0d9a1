package anthropic

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"maestro/backend/chat"
)

// FuzzParseStream feeds arbitrary bytes to the stream parser. Whatever the
// input, the parser must not panic, must terminate, and must end either
// with an error or with exactly one Finish as its last event. The seed
// corpus (testdata/fuzz/FuzzParseStream) holds the recorded fixtures and
// hand-written streams of every grammar path.
func FuzzParseStream(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "sse", "*.sse"))
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var (
			events   int
			finished bool
			failed   bool
		)
		for ev, err := range parseStream(bytes.NewReader(data)) {
			if finished || failed {
				t.Fatalf("item after the end: %#v, %v", ev, err)
			}
			if err != nil {
				failed = true
				continue
			}
			if ev == nil {
				t.Fatal("nil event without an error")
			}
			if _, ok := ev.(chat.Finish); ok {
				finished = true
			}
			if events++; events > len(data)+1 {
				t.Fatalf("%d events from %d bytes", events, len(data))
			}
		}
		if !finished && !failed {
			t.Fatal("stream ended without Finish or error")
		}
	})
}
