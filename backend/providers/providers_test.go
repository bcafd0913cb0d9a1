package providers

import (
	"errors"
	"io"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"testing/iotest"

	"maestro/backend/chat"
)

type sseWant struct{ event, data, id string }

func collect(t *testing.T, r io.Reader) ([]sseWant, error) {
	t.Helper()
	var got []sseWant
	for ev, err := range ReadSSE(r) {
		if err != nil {
			return got, err
		}
		got = append(got, sseWant{ev.Event, string(ev.Data), ev.ID})
	}
	return got, nil
}

func TestReadSSE(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want []sseWant
	}{
		{"lf", "event: a\ndata: {\"x\":1}\n\nevent: b\ndata: 2\n\n", []sseWant{{"a", `{"x":1}`, ""}, {"b", "2", ""}}},
		{"crlf", "data: {\"response\":{}}\r\n\r\ndata: 2\r\n\r\n", []sseWant{{"", `{"response":{}}`, ""}, {"", "2", ""}}},
		{"lone cr", "data: 1\r\rdata: 2\r\r", []sseWant{{"", "1", ""}, {"", "2", ""}}},
		{"multi-line data", "data: a\ndata: b\n\n", []sseWant{{"", "a\nb", ""}}},
		{"comments and unknown fields", ": ping\nretry: 10\nfoo: bar\ndata: x\n\n", []sseWant{{"", "x", ""}}},
		{"no space after colon", "data:x\n\n", []sseWant{{"", "x", ""}}},
		{"id is kept", "id: 7\ndata: x\n\ndata: y\n\n", []sseWant{{"", "x", "7"}, {"", "y", "7"}}},
		{"pending at eof", "event: done\ndata: last", []sseWant{{"done", "last", ""}}},
		{"blank lines only", "\n\n\r\n", nil},
		{"event without data", "event: ping\n\n", []sseWant{{"ping", "", ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for _, r := range []io.Reader{strings.NewReader(tt.in), iotest.OneByteReader(strings.NewReader(tt.in))} {
				got, err := collect(t, r)
				if err != nil || !reflect.DeepEqual(got, tt.want) {
					t.Errorf("ReadSSE(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
				}
			}
		})
	}
}

func TestReadSSEErrors(t *testing.T) {
	t.Parallel()
	_, err := collect(t, strings.NewReader("data: "+strings.Repeat("x", MaxSSELine+1)))
	if !errors.Is(err, ErrSSELineTooLong) {
		t.Errorf("over-long line: got %v, want ErrSSELineTooLong", err)
	}
	boom := errors.New("connection reset")
	got, err := collect(t, io.MultiReader(strings.NewReader("data: 1\n\n"), iotest.ErrReader(boom)))
	if !errors.Is(err, boom) || len(got) != 1 {
		t.Errorf("read error: got %v, %v; want one event then the error", got, err)
	}
}

func TestReadSSEStopsWhenConsumerStops(t *testing.T) {
	t.Parallel()
	n := 0
	for range ReadSSE(strings.NewReader(strings.Repeat("data: x\n\n", 10))) {
		n++
		if n == 2 {
			break
		}
	}
	if n != 2 {
		t.Errorf("got %d events, want 2", n)
	}
}

func TestCallID(t *testing.T) {
	t.Parallel()
	valid := regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)
	own := chat.ToolCall{ID: "c1", ProviderIDs: map[string]string{chat.ProviderAnthropic: "toolu_01A"}}
	if got := CallID(chat.ProviderAnthropic, own); got != "toolu_01A" {
		t.Errorf("own id: got %q", got)
	}
	for _, p := range []string{chat.ProviderAnthropic, chat.ProviderOpenAI} {
		a := CallID(p, chat.ToolCall{ID: "0190f3b2 weird/id:ü"})
		b := CallID(p, chat.ToolCall{ID: "0190f3b2 weird/id:ü"})
		c := CallID(p, chat.ToolCall{ID: "other"})
		if a != b || a == c || !valid.MatchString(a) {
			t.Errorf("%s derived ids: %q %q %q; want stable, distinct, valid", p, a, b, c)
		}
	}
	if !strings.HasPrefix(CallID(chat.ProviderOpenAI, own), "call_") {
		t.Error("openai derived id should start with call_")
	}
	if got := CallID(chat.ProviderGemini, own); got != "c1" {
		t.Errorf("gemini: got %q, want the canonical id", got)
	}
}

func TestFallbackToolName(t *testing.T) {
	t.Parallel()
	valid := regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`)
	for _, in := range []string{"everything.echo", "my server.do thing!", "9lives.x", "a.b.c", strings.Repeat("ü", 100) + ".t", ""} {
		got := FallbackToolName(in)
		if !valid.MatchString(got) {
			t.Errorf("FallbackToolName(%q) = %q, not valid for every provider", in, got)
		}
	}
	if got := FallbackToolName("everything.echo"); got != "everything__echo" {
		t.Errorf("got %q, want everything__echo", got)
	}
}
