package gemini

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"maestro/backend/chat"
)

const corpusDir = "testdata/fuzz/FuzzParseStream"

// FuzzParseStream: any input ends, without panicking, in an error or a
// Finish, with every call opened closed exactly once.
func FuzzParseStream(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		type result struct {
			evs []chat.Event
			err error
		}
		done := make(chan result, 1)
		go func() {
			evs, err := collect(data)
			done <- result{evs, err}
		}()
		select {
		case r := <-done:
			checkInvariants(t, r.evs, r.err)
		case <-time.After(10 * time.Second):
			t.Fatal("parser did not terminate")
		}
	})
}

// handWrittenSeeds are small streams that reach the parser's corners.
func handWrittenSeeds() map[string][]byte {
	return map[string][]byte{
		"partial-args": sse(
			ca(cand(`{"functionCall":{"name":"plan","willContinue":true},"thoughtSignature":"CiQB"}`, "")),
			ca(cand(`{"functionCall":{"partialArgs":[{"jsonPath":"$.a[0].b","stringValue":"x","willContinue":true}],"willContinue":true}}`, "")),
			ca(cand(`{"functionCall":{"partialArgs":[{"jsonPath":"$.a[0].b","stringValue":"y"},{"jsonPath":"$['c d']","boolValue":true}],"willContinue":true}}`, "")),
			ca(cand(`{"functionCall":{}}`, "STOP"))),
		"error-object":   sse(`{"error":{"code":429,"message":"slow down","status":"RESOURCE_EXHAUSTED"}}`),
		"blocked":        sse(`{"promptFeedback":{"blockReason":"SAFETY"}}`),
		"thought-signed": sse(ca(cand(`{"text":"a","thought":true,"thoughtSignature":"Cg"},{"thoughtSignature":"Ch"}`, "STOP"))),
		"unexpected":     sse(ca(`{"candidates":[{"finishReason":"UNEXPECTED_TOOL_CALL"}]}`)),
		"lf-multiline":   []byte("data: {\"candidates\":\ndata: [{\"finishReason\":\"STOP\"}]}\n\n"),
	}
}

// TestFuzzCorpus keeps the seed corpus in step with the fixtures:
// go test -update rewrites it.
func TestFuzzCorpus(t *testing.T) {
	t.Parallel()
	seeds := map[string][]byte{}
	for _, fs := range fixtureStreams(t) {
		seeds["fixture-"+fs.name] = fs.sse
	}
	for name, s := range handWrittenSeeds() {
		seeds["hand-"+name] = s
	}
	if *update {
		if err := os.MkdirAll(corpusDir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, s := range seeds {
			body := fmt.Sprintf("go test fuzz v1\n[]byte(%s)\n", strconv.Quote(string(s)))
			if err := os.WriteFile(filepath.Join(corpusDir, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name := range seeds {
		if _, err := os.Stat(filepath.Join(corpusDir, name)); err != nil {
			t.Errorf("seed %s missing (run go test -update): %v", name, err)
		}
	}
}

// BenchmarkRender1000Tools renders a request declaring 1,000 tools
// (toRequest), and renders and encodes it into the exact body Stream sends
// for a default Model: a Code Assist envelope with the declarations under
// both keys (wire).
func BenchmarkRender1000Tools(b *testing.B) {
	req := manyTools(1000)
	b.Run("toRequest", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			toRequest(req)
		}
	})
	b.Run("wire", func(b *testing.B) {
		m := New(WithProject("proj-1"))
		b.ReportAllocs()
		for b.Loop() {
			body, _ := m.body(req)
			if _, err := encodeBody(body); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkParse parses every fixture, concatenated 20 times into one
// stream, and reports throughput and allocations per event.
func BenchmarkParse(b *testing.B) {
	var one bytes.Buffer
	for _, fs := range fixtureStreams(b) {
		one.Write(fs.sse)
	}
	data := bytes.Repeat(one.Bytes(), 20)
	evs, err := collect(data)
	if err != nil {
		b.Fatalf("benchmark stream does not parse: %v", err)
	}
	perRun := len(evs)
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
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(n*perRun), "allocs/event")
	b.ReportMetric(float64(perRun), "events/op")
}
