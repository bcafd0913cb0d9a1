package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maestro/backend/tools"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"
)

// readAll runs input through a boundedReader and returns what mcp-go would
// read and the notes.
func readBounded(t testing.TB, input string, frame framing, lim ReadLimits) (string, []string) {
	t.Helper()
	var notes []string
	r := newBoundedReader(strings.NewReader(input), frame, lim, func(s string) { notes = append(notes, s) })
	r.onGarbage = func(excerpt string, size int) {
		notes = append(notes, fmt.Sprintf("not JSON-RPC (%s): %q", tools.HumanSize(size), excerpt))
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	return string(out), notes
}

func deep(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }

func TestBoundedReader(t *testing.T) {
	t.Parallel()
	small := ReadLimits{String: 16, Binary: 32, Message: 512, Depth: 8}
	long := strings.Repeat("é", 40) // 80 bytes, two-byte characters
	tests := []struct {
		name     string
		frame    framing
		in       string
		want     string // exact output, when set
		contains []string
		note     string // in a note, when set
	}{
		{name: "a small message passes unchanged", frame: frameLines,
			in:   `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi \"there\" \u00e9"}]}}` + "\n",
			want: `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi \"there\" \u00e9"}]}}` + "\n"},
		{name: "a long text is cut on a character, with its size", frame: frameLines,
			in:       `{"id":2,"result":{"text":"` + long + `"}}` + "\n",
			contains: []string{`"text":"éééééééé…[Maestro cut this text: the server sent 80 bytes]"`},
			note:     "a text of 80 bytes"},
		{name: "a cut never splits an escape", frame: frameLines,
			in:       `{"id":3,"result":{"text":"aaaaaaaaaaaaaaa\u00e9\u00e9\u00e9\n\n\n"}}` + "\n",
			contains: []string{`"text":"aaaaaaaaaaaaaaa\u00e9…[Maestro cut this text: the server sent 39 bytes]"`}},
		{name: "base64 data over its cap is dropped whole", frame: frameLines,
			in:       `{"id":4,"result":{"content":[{"type":"image","mimeType":"image/png","data":"` + strings.Repeat("A", 64) + `"}]}}` + "\n",
			contains: []string{`"data":"maestro:dropped:64"`}},
		{name: "a key named data is not binary", frame: frameLines,
			in:   `{"id":5,"result":{"data":1,"x":"short"}}` + "\n",
			want: `{"id":5,"result":{"data":1,"x":"short"}}` + "\n"},
		{name: "an answer nested too deep becomes an error for its id", frame: frameLines,
			in:   `{"jsonrpc":"2.0","id":"a-7","result":` + deep(20) + "}\n",
			want: `{"jsonrpc":"2.0","id":"a-7","error":{"code":-32603,"message":"the server's answer was nested more than 8 levels deep; Maestro dropped it"}}` + "\n",
			note: "nested more than 8 levels"},
		{name: "a notification nested too deep is dropped", frame: frameLines,
			in:   `{"jsonrpc":"2.0","method":"notifications/message","params":` + deep(20) + "}\n" + `{"id":9,"result":{}}` + "\n",
			want: `{"id":9,"result":{}}` + "\n", note: "Maestro dropped it"},
		{name: "a message still too large becomes an error", frame: frameLines,
			in:       `{"jsonrpc":"2.0","id":10,"result":[` + strings.Repeat(`"abcdefghij",`, 60) + `"x"]}` + "\n",
			contains: []string{`"id":10,"error":{"code":-32603,"message":"the server's answer was larger than 512 bytes`}},
		{name: "lines that are not JSON are dropped and quoted", frame: frameLines,
			in:   "Server v1.0 listening\n\n" + `{"id":11,"result":{}}` + "\n",
			want: `{"id":11,"result":{}}` + "\n", note: `not JSON-RPC (21 bytes): "Server v1.0 listening"`},
		{name: "SSE: data lines are bounded, the rest passes", frame: frameSSE,
			in:       "event: message\nid: 1\ndata: {\"id\":12,\"result\":{\"text\":\"" + long + "\"}}\n\n: keep-alive\n",
			contains: []string{"event: message\nid: 1\ndata: {\"id\":12,\"result\":{\"text\":\"éééééééé…[Maestro cut", "\n\n: keep-alive\n"}},
		{name: "SSE: data that is not JSON passes (the legacy endpoint event)", frame: frameSSE,
			in:   "event: endpoint\ndata: /message?sessionId=abc\n\n",
			want: "event: endpoint\ndata: /message?sessionId=abc\n\n"},
		{name: "a JSON body is one message, newlines and all", frame: frameBody,
			in:       "{\n  \"id\": 13,\n  \"result\": {\"text\": \"" + long + "\"}\n}\n",
			contains: []string{"\"id\": 13,\n", "…[Maestro cut this text: the server sent 80 bytes]\"}\n}\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, notes := readBounded(t, tt.in, tt.frame, small)
			if tt.want != "" && got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
			for _, c := range tt.contains {
				if !strings.Contains(got, c) {
					t.Errorf("got %q\nwant it to contain %q", got, c)
				}
			}
			if tt.note != "" && !strings.Contains(strings.Join(notes, "\n"), tt.note) {
				t.Errorf("notes = %q; want one with %q", notes, tt.note)
			}
			if tt.frame == frameLines {
				for _, line := range strings.Split(strings.TrimSpace(got), "\n") {
					if line != "" && !json.Valid([]byte(line)) {
						t.Errorf("line is not JSON: %q", line)
					}
				}
			}
		})
	}
}

func TestCutSize(t *testing.T) {
	t.Parallel()
	got, _ := readBounded(t, `{"t":"`+strings.Repeat("x", 100)+`"}`+"\n", frameLines, ReadLimits{String: 10})
	var v struct{ T string }
	if err := json.Unmarshal([]byte(got), &v); err != nil {
		t.Fatal(err)
	}
	if n, ok := cutSize(v.T); !ok || n != 100 || !strings.HasPrefix(v.T, "xxxxxxxxxx…") {
		t.Errorf("cutSize(%q) = %d, %v; want 100", v.T, n, ok)
	}
	if n, ok := droppedSize("maestro:dropped:123"); !ok || n != 123 {
		t.Errorf("droppedSize = %d, %v", n, ok)
	}
}

// TestBoundedReaderStreamsHugeLines: a 100 MB line goes through holding
// at most the cut message.
func TestBoundedReaderStreamsHugeLines(t *testing.T) {
	t.Parallel()
	const size = 100 << 20
	src := io.MultiReader(strings.NewReader(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"`),
		io.LimitReader(repeatReader('y'), size), strings.NewReader("\"}]}}\n"))
	r := newBoundedReader(src, frameLines, ReadLimits{}, nil)
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) > DefaultReadString+200 || !bytes.Contains(out, []byte("the server sent 104857600 bytes")) || !json.Valid(bytes.TrimSpace(out)) {
		t.Errorf("out = %d bytes ending %q", len(out), out[max(0, len(out)-100):])
	}
}

type repeatReader byte

func (r repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

func FuzzBoundedReader(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hello"}]}}`,
		`{"id":"x","result":{"data":"` + strings.Repeat("QUJD", 20) + `"}}`,
		`{"method":"notifications/progress","params":{"progressToken":"t","progress":1}}`,
		`{"id":2,"result":"\u00e9\\\"\n` + strings.Repeat("é", 30) + `"}`,
		deep(30), "not json at all", `{"id":3,"result":[1,2,{"a":"b"}]}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\n") {
			return
		}
		lim := ReadLimits{String: 8, Binary: 16, Message: 256, Depth: 6}
		got, _ := readBounded(t, line+"\n", frameLines, lim)
		if got == "" {
			return // dropped
		}
		got = strings.TrimSuffix(got, "\n")
		if strings.Contains(got, "\n") {
			t.Fatalf("one line became several: %q", got)
		}
		if json.Valid([]byte(line)) && !json.Valid([]byte(got)) {
			t.Fatalf("valid JSON became invalid:\n in %q\nout %q", line, got)
		}
		if utf8.ValidString(line) && !utf8.ValidString(got) {
			t.Fatalf("valid UTF-8 became invalid: %q", got)
		}
	})
}

type fixedResponse struct {
	status int
	ctype  string
	body   string
}

func (f fixedResponse) RoundTrip(*http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: f.status, Header: http.Header{"Content-Type": {f.ctype}, "Content-Length": {fmt.Sprint(len(f.body))}},
		Body: io.NopCloser(strings.NewReader(f.body)), ContentLength: int64(len(f.body))}, nil
}

// TestBoundedTransport: remote servers' bodies are bounded like stdio's
// lines: JSON and event streams message by message, anything else (an
// error page mcp-go reads whole) to its first MiB.
func TestBoundedTransport(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("z", 3<<20)
	tests := []struct {
		name    string
		resp    fixedResponse
		maxLen  int
		contain string
	}{
		{"a JSON body", fixedResponse{200, "application/json", `{"jsonrpc":"2.0","id":1,"result":{"t":"` + long + `"}}`}, DefaultReadString + 200, "the server sent 3145728 bytes"},
		{"an event stream", fixedResponse{200, "text/event-stream; charset=utf-8", "event: message\ndata: {\"id\":1,\"result\":{\"t\":\"" + long + "\"}}\n\n"}, DefaultReadString + 200, "the server sent 3145728 bytes"},
		{"an error page", fixedResponse{500, "text/html", long}, maxOtherBody, "zzz"},
		{"another type", fixedResponse{200, "text/plain", long}, maxOtherBody, "zzz"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			resp, err := boundedTransport{next: tt.resp}.RoundTrip(httptest.NewRequest("POST", "http://x/mcp", nil))
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			_ = resp.Body.Close()
			if len(b) > tt.maxLen || !strings.Contains(string(b), tt.contain) {
				t.Errorf("body: %d bytes (want at most %d) containing %q: %q…", len(b), tt.maxLen, tt.contain, b[:min(len(b), 100)])
			}
			if resp.ContentLength > 0 && resp.ContentLength != int64(len(b)) {
				t.Errorf("ContentLength %d for a %d-byte body", resp.ContentLength, len(b))
			}
		})
	}
}
