package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"maestro/backend/providers"
)

// BenchmarkRender1000Tools renders and encodes a request declaring 1,000
// tools into the body newHTTPRequest sends: as a Model does on every step
// of a session (warm: it has rendered these tools before), and as a fresh
// Model does on its first request (cold).
func BenchmarkRender1000Tools(b *testing.B) {
	req := manyTools(1000)
	render := func(b *testing.B, m *Model) {
		body, _ := toRequest(req, m.renderOptions())
		if _, err := encodeBody(body); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("warm", func(b *testing.B) {
		m := New()
		render(b, m)
		b.ReportAllocs()
		for b.Loop() {
			render(b, m)
		}
	})
	b.Run("cold", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			render(b, New())
		}
	})
}

// longStream joins the content blocks of the recorded fixtures, repeated n
// times and renumbered, into one message: one long, realistic stream.
func longStream(b *testing.B, n int) []byte {
	b.Helper()
	var blocks []string
	for _, name := range []string{"text.sse", "json-tool.1.sse", "tool-no-args.sse"} {
		for sse := range providers.ReadSSE(strings.NewReader(readFixture(b, name))) {
			switch sse.Event {
			case "content_block_start", "content_block_delta", "content_block_stop", "ping":
				blocks = append(blocks, string(sse.Data))
			}
		}
	}
	var out bytes.Buffer
	out.WriteString(sseOf(msgStart))
	base := 0
	for range n {
		last := 0
		for _, p := range blocks {
			var ev map[string]any
			if err := json.Unmarshal([]byte(p), &ev); err != nil {
				b.Fatal(err)
			}
			if idx, ok := ev["index"].(float64); ok {
				last = max(last, int(idx))
				p = strings.Replace(p, fmt.Sprintf(`"index":%d`, int(idx)), fmt.Sprintf(`"index":%d`, base+int(idx)), 1)
			}
			out.WriteString(sseOf(p))
		}
		base += last + 1
	}
	out.WriteString(sseOf(toolUseEnd, msgStop))
	return out.Bytes()
}

func BenchmarkParse(b *testing.B) {
	data := longStream(b, 200)
	events := 0
	for ev, err := range parseStream(bytes.NewReader(data)) {
		if err != nil {
			b.Fatal(err)
		}
		_ = ev
		events++
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	n := 0
	for b.Loop() {
		for _, err := range parseStream(bytes.NewReader(data)) {
			if err != nil {
				b.Fatal(err)
			}
		}
		n++
	}
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(n*events), "allocs/event")
	b.ReportMetric(float64(events), "events/op")
}
