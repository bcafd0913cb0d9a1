package openai

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"maestro/backend/chat"
)

// fixture reads testdata/fixtures/name.
func fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "fixtures", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// wireEvent writes one payload as "event: <type>\ndata: <json>\n\n".
func writeEvent(buf *bytes.Buffer, data []byte) {
	var head struct {
		Type string `json:"type"`
	}
	_ = json.Unmarshal(data, &head)
	buf.WriteString("event: ")
	buf.WriteString(head.Type)
	buf.WriteString("\ndata: ")
	buf.Write(data)
	buf.WriteString("\n\n")
}

// chunkStreams converts a vercel .chunks.txt recording (one data payload a
// line) into wire SSE, one stream per response.created.
func chunkStreams(t testing.TB, name string) [][]byte {
	t.Helper()
	var streams [][]byte
	var cur *bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(fixture(t, name)))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if cur == nil || bytes.HasPrefix(line, []byte(`{"type":"response.created"`)) {
			cur = new(bytes.Buffer)
			streams = append(streams, nil)
		}
		writeEvent(cur, line)
		streams[len(streams)-1] = cur.Bytes()
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return streams
}

// arrayStream converts a codex .json fixture (an array of events) into wire
// SSE, replacing "__ID__" with id.
func arrayStream(t testing.TB, name, id string) []byte {
	t.Helper()
	raw := strings.ReplaceAll(string(fixture(t, name)), "__ID__", id)
	var events []json.RawMessage
	if err := json.Unmarshal([]byte(raw), &events); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	for _, ev := range events {
		var c bytes.Buffer
		if err := json.Compact(&c, ev); err != nil {
			t.Fatal(err)
		}
		writeEvent(&buf, c.Bytes())
	}
	return buf.Bytes()
}

// allFixtureStreams is every fixture as wire SSE, for the fuzz seeds and the
// benchmark.
func allFixtureStreams(t testing.TB) [][]byte {
	t.Helper()
	streams := [][]byte{
		fixture(t, "cli_responses_fixture.sse"),
		arrayStream(t, "completed_template.json", "resp_tmpl"),
		arrayStream(t, "incomplete_sse.json", ""),
	}
	for _, name := range []string{"openai-reasoning-encrypted-content.1.chunks.txt", "parallel-tool-call-wrapper.1.chunks.txt",
		"openai-error.1.chunks.txt", "openai-response-failed-only.1.chunks.txt"} {
		streams = append(streams, chunkStreams(t, name)...)
	}
	return streams
}

// collect ranges over a parse and returns its events and final error.
func collect(data []byte) ([]chat.Event, error) {
	var evs []chat.Event
	for ev, err := range parseStream(bytes.NewReader(data)) {
		if err != nil {
			return evs, err
		}
		evs = append(evs, ev)
	}
	return evs, nil
}
