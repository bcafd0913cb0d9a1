package gemini

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"maestro/backend/chat"
)

// fixtureStream is one recorded response as wire SSE.
type fixtureStream struct {
	name string
	sse  []byte
}

// fixtureStreams converts every recording under testdata/fixtures into the
// bytes the service would send (see testdata/fixtures/README.md).
func fixtureStreams(t testing.TB) []fixtureStream {
	t.Helper()
	var out []fixtureStream
	jsonl, _ := filepath.Glob(filepath.Join("testdata", "fixtures", "*.jsonl"))
	for _, path := range jsonl {
		base := strings.TrimSuffix(filepath.Base(path), ".responses.jsonl")
		for i, line := range readLines(t, path) {
			var rec struct {
				Response json.RawMessage `json:"response"`
			}
			if err := json.Unmarshal(line, &rec); err != nil {
				t.Fatalf("%s line %d: %v", path, i, err)
			}
			var chunks []json.RawMessage
			if bytes.HasPrefix(bytes.TrimSpace(rec.Response), []byte("[")) {
				if err := json.Unmarshal(rec.Response, &chunks); err != nil {
					t.Fatalf("%s line %d: %v", path, i, err)
				}
			} else {
				chunks = []json.RawMessage{rec.Response} // a generateContent answer
			}
			var b bytes.Buffer
			for _, c := range chunks {
				fmt.Fprintf(&b, "data: {\"response\":%s,\"traceId\":\"%s-%d\"}\r\n\r\n", compact(t, c), base, i)
			}
			out = append(out, fixtureStream{name: fmt.Sprintf("%s-%d", base, i), sse: b.Bytes()})
		}
	}
	chunked, _ := filepath.Glob(filepath.Join("testdata", "fixtures", "*.chunks.txt"))
	for _, path := range chunked {
		var b bytes.Buffer
		for _, line := range readLines(t, path) {
			fmt.Fprintf(&b, "data: %s\r\n\r\n", line)
		}
		out = append(out, fixtureStream{name: strings.TrimSuffix(filepath.Base(path), ".chunks.txt"), sse: b.Bytes()})
	}
	if len(out) == 0 {
		t.Fatal("no fixtures found under testdata/fixtures")
	}
	return out
}

func readLines(t testing.TB, path string) [][]byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines [][]byte
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if l := bytes.TrimSpace(sc.Bytes()); len(l) > 0 {
			lines = append(lines, append([]byte(nil), l...))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

func compact(t testing.TB, b []byte) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// collect runs the parser over a stream.
func collect(sse []byte) ([]chat.Event, error) {
	var evs []chat.Event
	for ev, err := range parseStream(bytes.NewReader(sse)) {
		if err != nil {
			return evs, err
		}
		evs = append(evs, ev)
	}
	return evs, nil
}

// checkInvariants: every call opened is closed exactly once, indices are
// dense, Finish (if any) is last, arguments are JSON objects.
func checkInvariants(t testing.TB, evs []chat.Event, err error) {
	t.Helper()
	open := map[int]bool{}
	done := map[int]bool{}
	for i, ev := range evs {
		switch e := ev.(type) {
		case chat.ToolCallStart:
			if open[e.Index] || done[e.Index] {
				t.Fatalf("call %d started twice", e.Index)
			}
			open[e.Index] = true
		case chat.ToolCallDelta:
			if !open[e.Index] {
				t.Fatalf("delta for call %d that is not open", e.Index)
			}
		case chat.ToolCallDone:
			if !open[e.Index] {
				t.Fatalf("done for call %d that is not open", e.Index)
			}
			delete(open, e.Index)
			done[e.Index] = true
			var obj map[string]any
			if jerr := json.Unmarshal(e.Arguments, &obj); jerr != nil || obj == nil {
				t.Fatalf("call %d arguments %s are not a JSON object", e.Index, e.Arguments)
			}
		case chat.Finish:
			if i != len(evs)-1 {
				t.Fatalf("Finish at %d of %d events", i, len(evs))
			}
		case nil:
			t.Fatal("nil event")
		}
	}
	if err == nil {
		if len(evs) == 0 {
			t.Fatal("no events and no error")
		}
		if _, ok := evs[len(evs)-1].(chat.Finish); !ok {
			t.Fatalf("stream ended without Finish or error: last %#v", evs[len(evs)-1])
		}
		if len(open) > 0 {
			t.Fatalf("calls %v never closed", open)
		}
	}
	for i := range len(done) {
		if !done[i] {
			t.Fatalf("call indices not dense: %v", done)
		}
	}
}
