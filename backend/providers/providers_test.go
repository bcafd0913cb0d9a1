package providers

import (
	"errors"
	"io"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"testing/iotest"
	"time"

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

func TestRetryPolicy(t *testing.T) {
	t.Parallel()
	p := RetryPolicy{MaxAttempts: 3, Base: time.Second, MaxWait: 30 * time.Second}
	tests := []struct {
		name    string
		err     error
		attempt int
		want    time.Duration
		ok      bool
	}{
		{"rate limit honours short retry-after", &HTTPError{Kind: KindRateLimit, RetryAfter: 5 * time.Second}, 0, 5 * time.Second, true},
		{"overloaded backs off", &HTTPError{Kind: KindOverloaded}, 2, 4 * time.Second, true},
		{"long retry-after ends the turn", &HTTPError{Kind: KindRateLimit, RetryAfter: time.Hour}, 0, 0, false},
		{"quota reset far away", &HTTPError{Kind: KindRateLimit, ResetAt: time.Now().Add(time.Hour)}, 0, 0, false},
		{"quota is not retried", &HTTPError{Kind: KindQuota}, 0, 0, false},
		{"auth is not retried here", &HTTPError{Kind: KindAuth}, 0, 0, false},
		{"attempts run out", &HTTPError{Kind: KindServer}, 3, 0, false},
		{"plain errors are not retried", errors.New("x"), 0, 0, false},
	}
	for _, tt := range tests {
		got, ok := p.Delay(tt.err, tt.attempt)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: Delay = %v, %v; want %v, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

func TestHTTPErrorKinds(t *testing.T) {
	t.Parallel()
	err := error(&HTTPError{Provider: "anthropic", Status: 401, Kind: KindAuth, Code: "authentication_error", Message: "OAuth token has expired."})
	if !errors.Is(err, chat.ErrAuthRequired) || chat.Kind(err) != chat.KindAuthRequired {
		t.Errorf("expired token should be auth_required, got %q", chat.Kind(err))
	}
	if !strings.Contains(err.Error(), "HTTP 401") || !strings.Contains(err.Error(), "expired") {
		t.Errorf("message %q", err)
	}
	reset := time.Date(2026, 5, 4, 0, 0, 0, 0, time.UTC)
	q := &HTTPError{Provider: "openai", Status: 429, Kind: KindQuota, Code: "usage_limit_reached", ResetAt: reset}
	if !strings.Contains(q.Error(), "resets at 2026-05-04T00:00:00Z") || chat.Kind(q) != chat.KindUnavailable {
		t.Errorf("quota error %q kind %q", q, chat.Kind(q))
	}
	if he, ok := AsHTTPError(errors.Join(errors.New("x"), q)); !ok || he != q {
		t.Error("AsHTTPError did not find the error")
	}
	for status, want := range map[int]Kind{401: KindAuth, 403: KindForbidden, 404: KindNotFound, 429: KindRateLimit, 529: KindOverloaded, 500: KindServer, 400: KindInvalidRequest} {
		if got := KindForStatus(status); got != want {
			t.Errorf("KindForStatus(%d) = %s, want %s", status, got, want)
		}
	}
}
