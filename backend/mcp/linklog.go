package mcp

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
)

// linkLogHandler sends mcp-go's own warnings and errors (a listening
// stream that failed, a malformed message) to the connector's log, once
// per message per half minute, since some repeat every second.
type linkLogHandler struct {
	r    *runner
	mu   sync.Mutex
	last map[string]time.Time
}

func (h *linkLogHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }

func (h *linkLogHandler) Handle(_ context.Context, rec slog.Record) error {
	var b strings.Builder
	b.WriteString(rec.Message)
	rec.Attrs(func(a slog.Attr) bool {
		fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
		return true
	})
	text := b.String()
	h.mu.Lock()
	if h.last == nil {
		h.last = map[string]time.Time{}
	}
	if t, ok := h.last[rec.Message]; ok && time.Since(t) < 30*time.Second {
		h.mu.Unlock()
		return nil
	}
	h.last[rec.Message] = time.Now()
	h.mu.Unlock()
	h.r.log(SourceMaestro, strings.ToLower(rec.Level.String()), "mcp-go", text)
	return nil
}

func (h *linkLogHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *linkLogHandler) WithGroup(string) slog.Handler      { return h }
