package fakescript

import "testing"

func TestCountText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"Here is what I found about", 6}, // one token a short word, spaces free
		{"configuration", 3},              // 13 letters: ceil(13/5)
		{`":"`, 2},                        // a run of three symbols
		{"a.b", 3},                        // word, symbol, word
		{"héllo", 3},                      // "h", "é" (non-ASCII), "llo"
		{"line one\nline two", 5},         // the newline is a symbol
		{`{"path":"a/b.go","maxResults":20}`, 16}, // JSON: words, symbols in runs
	}
	for _, tt := range tests {
		if got := CountText(tt.in); got != tt.want {
			t.Errorf("CountText(%q) = %d; want %d", tt.in, got, tt.want)
		}
	}
}

func TestCountJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		want     int
	}{
		{"keys and values", `{"role":"user","content":"Here is what I found about"}`, 1 + 1 + 2 + 6},
		{"numbers and literals", `{"n":1,"b":true,"x":null}`, 6},
		{"signatures cost nothing", `{"type":"thinking","signature":"EqQBCkgIARABGAIiQHk3EqQBCkgIARABGAIiQHk3"}`, 1 + 2 + 2},
		{"base64 data by the hundred bytes", `{"data":"` + repeat("QUFB", 100) + `"}`, 1 + 4},
		{"nested containers keep keys apart", `{"a":{"b":"c"},"d":["e"]}`, 5},
		{"not JSON is text", `{"open`, 2},
	}
	for _, tt := range tests {
		if got := CountJSON([]byte(tt.in)); got != tt.want {
			t.Errorf("%s: CountJSON = %d; want %d", tt.name, got, tt.want)
		}
	}
}

func repeat(s string, n int) string {
	out := make([]byte, 0, len(s)*n)
	for range n {
		out = append(out, s...)
	}
	return string(out)
}

func TestRoute(t *testing.T) {
	t.Parallel()
	var s Script
	s.Push(Reply{Text: "queued"})
	s.Route("summary", Reply{Text: "routed"})
	s.Route("summary now", Reply{Text: "newer route"})
	tests := []struct{ last, want string }{
		{"write the summary", "routed"},
		{"write the summary now", "newer route"},
		{"write the summary", "routed"}, // routes stay
		{"hello", "queued"},
		{"hello", ""}, // the queue is empty: the echo reply
	}
	for _, tt := range tests {
		if got := s.NextFor(tt.last).Text; got != tt.want {
			t.Errorf("NextFor(%q) = %q; want %q", tt.last, got, tt.want)
		}
	}
	s.Reset()
	if got := s.NextFor("summary").Text; got != "" {
		t.Errorf("after Reset NextFor = %q; want no route", got)
	}
}
