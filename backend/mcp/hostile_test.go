package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"maestro/backend/chat"
	"maestro/backend/mcp/hostile"
	"maestro/backend/tools"
)

// The hostile-server suite, supervisor side: each test runs an attack of
// backend/mcp/hostile against the supervisor and registry and shows it
// fails (docs/SECURITY.md names each test). The approval attacks run
// through the agent in app/hostile_test.go.

// hostileStdio adds the hostile server as a real process.
func hostileStdio(t *testing.T, h *harness, mode string, edit func(*Connector)) (Connector, string) {
	t.Helper()
	c := selfServer(t, "Hostile", mode)
	if edit != nil {
		edit(&c)
	}
	c = h.add(c)
	return c, h.session(c.ID)
}

// hostileInProcess adds the hostile server in-process (no transport limits:
// what Normalize and the registry must bound on their own).
func hostileInProcess(t *testing.T, opts hostile.Options) (*harness, Connector, string) {
	t.Helper()
	h := newHarness(t, WithInProcessServer("hostile", hostile.New(opts)))
	c := h.add(Connector{Name: "Hostile", Transport: TransportInProcess, Command: "hostile"})
	return h, c, h.session(c.ID)
}

// allocDuring returns the bytes allocated while fn ran (the whole process:
// the test is not parallel, so nothing else runs).
func allocDuring(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestHostileHugeResult: a 100 MB text over stdio. The bounded reader cuts
// it as it streams, so no copy is whole: the model gets 32 KiB, Raw at most
// 1 MiB, and the note says how large the result was. Not parallel, so the
// allocation count is the call's.
func TestHostileHugeResult(t *testing.T) {
	h := newHarness(t)
	_, sess := hostileStdio(t, h, "hostile", nil)
	for _, mb := range []int{50, 100} {
		var res chat.ToolResult
		alloc := allocDuring(func() {
			res = h.call(t.Context(), sess, "hostile.huge_text", fmt.Sprintf(`{"mb":%d}`, mb), nil)
		})
		t.Logf("%d MB result: %.1f MiB allocated, data %d bytes, raw %d bytes", mb, float64(alloc)/(1<<20), len(res.Data), len(res.Raw))
		if !res.Successful || !res.Truncated || res.Size != int64(mb)<<20 {
			t.Fatalf("result = successful %v truncated %v size %d (%s); want a cut success of %d MB", res.Successful, res.Truncated, res.Size, res.Error, mb)
		}
		want := fmt.Sprintf("truncated: the result was %d MiB; showing the first 32 KiB", mb)
		if len(res.Data) > tools.DefaultResultCap || !strings.Contains(string(res.Data), want) {
			t.Errorf("data: %d bytes ending %q; want at most 32 KiB with %q", len(res.Data), tail(res.Data), want)
		}
		if len(res.Raw) > tools.DefaultStoredCap || !json.Valid(res.Raw) || !strings.Contains(string(res.Raw), fmt.Sprintf("the server sent %d bytes", mb<<20)) {
			t.Errorf("raw: %d bytes, valid %v, ending %q", len(res.Raw), json.Valid(res.Raw), tail(res.Raw))
		}
		if alloc > 64<<20 {
			t.Errorf("the call allocated %.0f MiB for a %d MB result; want the result never held whole (under 64 MiB)", float64(alloc)/(1<<20), mb)
		}
	}
}

func tail(b []byte) string { return string(b[max(0, len(b)-120):]) }

// TestHostileHugeResultInProcess: without a transport to cut it, Normalize
// bounds every copy by itself.
func TestHostileHugeResultInProcess(t *testing.T) {
	t.Parallel()
	h, _, sess := hostileInProcess(t, hostile.Options{})
	res := h.call(t.Context(), sess, "hostile.huge_text", `{"mb":20}`, nil)
	if !res.Successful || !res.Truncated || res.Size != 20<<20 || len(res.Data) > tools.DefaultResultCap || len(res.Raw) > tools.DefaultStoredCap {
		t.Errorf("result: truncated %v size %d data %d raw %d", res.Truncated, res.Size, len(res.Data), len(res.Raw))
	}
}

// TestHostileImage: a 20 MB PNG. Over stdio it is more than the reader
// takes (16 MiB of base64) and is refused with a note; in-process it is
// downscaled to fit every provider. Either way the base64 is not repeated
// in Raw.
func TestHostileImage(t *testing.T) {
	t.Parallel()
	check := func(t *testing.T, res chat.ToolResult, wantNote string, wantData bool) {
		t.Helper()
		if !res.Successful || len(res.Attachments) != 1 {
			t.Fatalf("result = %+v", res)
		}
		a := res.Attachments[0]
		if !strings.Contains(a.Text, wantNote) || (a.Data != "") != wantData {
			t.Errorf("attachment: %d bytes of data, note %q; want data %v and a note with %q", len(a.Data), a.Text, wantData, wantNote)
		}
		if len(a.Data) > maxAttachmentBase64 || len(res.Raw) > 64<<10 {
			t.Errorf("attachment %d bytes, raw %d bytes; want at most 5 MiB and a small raw", len(a.Data), len(res.Raw))
		}
	}
	t.Run("stdio", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t)
		_, sess := hostileStdio(t, h, "hostile", nil)
		check(t, h.call(t.Context(), sess, "hostile.huge_image", `{"mb":20}`, nil), "more than Maestro reads", false)
	})
	t.Run("in-process", func(t *testing.T) {
		t.Parallel()
		h, _, sess := hostileInProcess(t, hostile.Options{})
		res := h.call(t.Context(), sess, "hostile.huge_image", `{"mb":20}`, nil)
		check(t, res, "downscaled by Maestro from 2289×2289 px", true)
		if raw, err := base64.StdEncoding.DecodeString(res.Attachments[0].Data); err != nil || len(raw) == 0 {
			t.Errorf("downscaled image: %v", err)
		}
	})
}

// TestHostileDeepJSON: a result nested 10,000 deep. Over stdio the reader
// turns it into an error for the call at once; in-process the envelope is
// built without a crash and stays valid JSON.
func TestHostileDeepJSON(t *testing.T) {
	t.Parallel()
	t.Run("stdio", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t)
		_, sess := hostileStdio(t, h, "hostile", nil)
		res := h.call(t.Context(), sess, "hostile.deep_json", `{}`, nil)
		if res.Successful || !strings.Contains(res.Error, "nested more than 128 levels deep") {
			t.Errorf("result = %+v; want the depth error", res)
		}
	})
	t.Run("in-process", func(t *testing.T) {
		t.Parallel()
		h, _, sess := hostileInProcess(t, hostile.Options{})
		res := h.call(t.Context(), sess, "hostile.deep_json", `{}`, nil)
		if !res.Successful || !json.Valid(res.Raw) || (len(res.Data) > 0 && !json.Valid(res.Data)) {
			t.Errorf("result: successful %v, raw valid %v, data %q", res.Successful, json.Valid(res.Raw), tail(res.Data))
		}
	})
}

// TestHostileDeepSchema: a tool whose input schema is nested 10,000 deep.
// Over stdio the tools/list is refused and the connector says why.
// (backend/tools checks that the registry normalises it, listed in
// process, for every provider without a crash.)
func TestHostileDeepSchema(t *testing.T) {
	t.Parallel()
	h := newHarness(t, WithMaxStartFailures(1))
	c := h.add(selfServer(t, "Hostile", "hostile-deep"))
	st := h.settle(c.ID)
	if st.State != StateError || !strings.Contains(st.Error, "nested more than 128 levels deep") {
		t.Errorf("state = %s, %q; want an error naming the depth", st.State, st.Error)
	}
}

// TestHostileFlood: during one call the server sends 5,000 log messages,
// 5,000 progress notifications and 5,000 list_changed. What reaches Events
// and the progress callback is bounded by rate; the call still answers.
func TestHostileFlood(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c, sess := hostileStdio(t, h, "hostile", nil)
	if err := h.sup.SetLevel(t.Context(), c.ID, "debug"); err != nil {
		t.Fatal(err)
	}
	h.events.mu.Lock()
	logsBefore := len(h.events.logs)
	h.events.mu.Unlock()
	progress := 0
	start := time.Now()
	res := h.call(t.Context(), sess, "hostile.flood", `{"n":5000}`, func(Progress) { progress++ })
	// Let the notifications that trail the answer arrive.
	time.Sleep(time.Second)
	secs := time.Since(start).Seconds()
	if !res.Successful {
		t.Fatalf("flood = %+v", res)
	}
	h.events.mu.Lock()
	lines := h.events.logs[logsBefore:]
	relists := 0
	for _, l := range lines {
		if strings.HasPrefix(l.Text, "tool list changed") {
			relists++
		}
	}
	h.events.mu.Unlock()
	t.Logf("%.1f s: %d log events (of 5,000 log messages), %d progress reports, %d tools/list", secs, len(lines), progress, relists)
	if max := logBurst + int(secs*logRate) + logRate; len(lines) > max {
		t.Errorf("%d log events in %.1f s; want at most %d", len(lines), secs, max)
	}
	if max := int(secs/progressEvery.Seconds()) + 2; progress > max {
		t.Errorf("%d progress reports in %.1f s; want at most %d", progress, secs, max)
	}
	if max := int(secs/relistEvery.Seconds()) + 2; relists > max {
		t.Errorf("%d tools/list in %.1f s; want at most %d", relists, secs, max)
	}
	if !slices.ContainsFunc(lines, func(l LogLine) bool { return strings.Contains(l.Text, "log lines were not shown") }) {
		t.Error("no note says lines were held back")
	}
}

// TestHostileNeverAnswers: a tool that never answers and ignores
// cancellation. The call timeout ends the call with a reason, Stop ends it
// at once, and closing the supervisor still stops the server.
func TestHostileNeverAnswers(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, sess := hostileStdio(t, h, "hostile", func(c *Connector) { c.CallTimeoutSeconds = 1 })
	res := h.call(t.Context(), sess, "hostile.never_answers", `{}`, nil)
	if res.Successful || !strings.Contains(res.Error, "no answer or progress within 1s") {
		t.Errorf("timed out call = %+v", res)
	}
	ctx, cancel := context.WithCancel(t.Context())
	go func() { time.Sleep(100 * time.Millisecond); cancel() }()
	res = h.call(ctx, sess, "hostile.never_answers", `{}`, nil)
	if res.Successful || !strings.Contains(res.Error, "cancelled") {
		t.Errorf("stopped call = %+v", res)
	}
	if err := h.sup.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestStdoutGarbageIsShown: a server that writes a banner to stdout and
// never answers fails with what it wrote, not only the timeout, and the
// lines are in its log.
func TestStdoutGarbageIsShown(t *testing.T) {
	t.Parallel()
	h := newHarness(t, WithMaxStartFailures(1))
	c := selfServer(t, "Noisy", "garbage")
	c.InitTimeoutSeconds = 2
	c = h.add(c)
	st := h.settle(c.ID)
	want := `the server wrote to stdout 2 lines that are not JSON-RPC, the first: "Server v1.0 listening on stdio"`
	if st.State != StateError || !strings.Contains(st.Error, want) || !strings.Contains(st.Error, "within 2s") {
		t.Errorf("state = %s, error %q; want the timeout and %q", st.State, st.Error, want)
	}
	logs, _ := h.sup.Logs(c.ID)
	if !slices.ContainsFunc(logs, func(l LogLine) bool { return strings.Contains(l.Text, `"ready."`) }) {
		t.Errorf("log = %+v; want the second line quoted", logs)
	}
}

// TestHostileIcons: of the hostile server's icons (javascript:, http:, a
// third party's https: pixel, an oversized data: PNG, a data: page, and one
// good SVG) the status and the registry keep the good one and the https:
// one, which SafeIcons cannot tell apart (the app draws only a remote
// connector's own host); none reaches a result's Raw through the _meta a
// 2026-07-28 server repeats.
func TestHostileIcons(t *testing.T) {
	t.Parallel()
	h, c, sess := hostileInProcess(t, hostile.Options{})
	want := []string{"https://tracker.example.net/pixel.png?user=you", hostile.IconSVG}
	srcs := func(list []tools.Icon) []string {
		var out []string
		for _, ic := range list {
			out = append(out, ic.Src)
		}
		return out
	}
	st, _ := h.sup.Status(c.ID)
	if got := srcs(st.Icons); !slices.Equal(got, want) {
		t.Errorf("server icons = %.80q; want %.80q", got, want)
	}
	snap, _ := h.reg.Snapshot(t.Context(), sess)
	e, _ := snap.Lookup("hostile.read_notes")
	if got := srcs(e.Icons); !slices.Equal(got, want) {
		t.Errorf("read_notes icons = %.80q; want %.80q", got, want)
	}
	res := h.call(t.Context(), sess, "hostile.read_notes", `{}`, nil)
	if raw := string(res.Raw); strings.Contains(raw, "serverInfo") || strings.Contains(raw, "tracker") || len(raw) > 4<<10 {
		t.Errorf("raw = %d bytes: %.200s; want the result without the server's _meta", len(raw), raw)
	}
}
