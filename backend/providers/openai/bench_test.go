package openai

import (
	"bytes"
	"runtime"
	"testing"

	"maestro/backend/chat"
)

// BenchmarkRender1000Tools renders and encodes a request offering 1,000
// tools (128 are sent) with a short tool-loop history.
func BenchmarkRender1000Tools(b *testing.B) {
	req := manyTools(1000)
	req.Messages = renderCases()[3].req.Messages // parallel tool calls
	b.ReportAllocs()
	for b.Loop() {
		body, _ := toRequest(req)
		if _, err := marshal(body); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParse parses every complete fixture stream, 50 times over.
func BenchmarkParse(b *testing.B) {
	var streams [][]byte
	total, events := 0, 0
	for range 50 {
		for _, s := range allFixtureStreams(b) {
			evs, err := collect(s)
			if err != nil {
				continue // failures end early; measure full streams
			}
			streams = append(streams, s)
			total += len(s)
			events += len(evs)
		}
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	n := 0
	for b.Loop() {
		n++
		for _, s := range streams {
			for _, err := range parseStream(bytes.NewReader(s)) {
				if err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(n*events), "allocs/event")
	b.ReportMetric(float64(events), "events/op")
}

var _ chat.Event = chat.Finish{}
