package anthropicfake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"maestro/backend/providers/fakescript"
)

// Scripted error kinds (fakescript.Reply.Error).
const (
	errExpired     = "401"
	errRateLimit   = "429"
	errOverloaded  = "529"
	errUsageLimit  = "usage_limit"
	errTooLarge    = "context_too_large"
	errServer      = "server"
	errStreamError = "stream_error"
)

// Defaults for scripted rate limits, in seconds.
const (
	defaultRetryAfter = 2
	usageLimitWindow  = 5 * 60 * 60
)

// replyStatus is the HTTP status the reply will be sent with.
func replyStatus(rp fakescript.Reply) int {
	switch rp.Error {
	case "", errStreamError:
		return http.StatusOK
	case errExpired:
		return http.StatusUnauthorized
	case errRateLimit, errUsageLimit:
		return http.StatusTooManyRequests
	case errOverloaded:
		return 529
	case errTooLarge:
		return http.StatusBadRequest
	default:
		return http.StatusInternalServerError
	}
}

func (s *Server) reply(w http.ResponseWriter, r *http.Request, req *wireRequest, rp fakescript.Reply) {
	switch rp.Error {
	case "", errStreamError:
		s.stream(w, r, req, rp)
	case errExpired:
		s.writeError(w, http.StatusUnauthorized, "authentication_error", MsgTokenExpired, nil)
	case errRateLimit:
		s.writeError(w, http.StatusTooManyRequests, "rate_limit_error", MsgRateLimited, s.limitHeaders(rp.RetryAfter, defaultRetryAfter, ""))
	case errUsageLimit:
		s.writeError(w, http.StatusTooManyRequests, "rate_limit_error", MsgRateLimited, s.limitHeaders(rp.RetryAfter, usageLimitWindow, "5h-"))
	case errOverloaded:
		s.writeError(w, 529, "overloaded_error", "Overloaded", nil)
	case errTooLarge:
		s.writeError(w, http.StatusBadRequest, "invalid_request_error", MsgPromptTooLong, nil)
	case errServer:
		s.writeError(w, http.StatusInternalServerError, "api_error", "Internal server error", nil)
	default:
		s.writeError(w, http.StatusInternalServerError, "api_error", fmt.Sprintf("fake: unknown scripted error %q", rp.Error), nil)
	}
}

// limitHeaders are the headers of a rejected request: retry-after and the
// unified subscription window status and reset (docs/providers/anthropic.md,
// "Errors").
func (s *Server) limitHeaders(retry, def int, window string) http.Header {
	if retry <= 0 {
		retry = def
	}
	reset := strconv.FormatInt(s.now().Add(time.Duration(retry)*time.Second).Unix(), 10)
	h := http.Header{}
	h.Set("retry-after", strconv.Itoa(retry))
	h.Set("anthropic-ratelimit-unified-status", "rejected")
	h.Set("anthropic-ratelimit-unified-reset", reset)
	if window != "" {
		h.Set("anthropic-ratelimit-unified-"+window+"status", "rejected")
		h.Set("anthropic-ratelimit-unified-"+window+"reset", reset)
	}
	return h
}

// event is one SSE event to send.
type event struct {
	name    string
	payload any
}

type obj = map[string]any

// events builds the Messages stream event sequence of a reply
// (docs/providers/anthropic.md, "Endpoints and headers").
func (s *Server) events(req *wireRequest, rp fakescript.Reply) []event {
	n := s.seq.Add(1)
	in := req.inputTokens
	evs := []event{
		{"message_start", obj{"type": "message_start", "message": obj{
			"id": fmt.Sprintf("msg_fake%014d", n), "type": "message", "role": "assistant", "content": []any{},
			"model": *req.Model, "stop_reason": nil, "stop_sequence": nil,
			"usage": obj{"input_tokens": in, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 1}}}},
		{"ping", obj{"type": "ping"}},
	}
	index, out := 0, 0
	block := func(start obj, deltas ...obj) {
		evs = append(evs, event{"content_block_start", obj{"type": "content_block_start", "index": index, "content_block": start}})
		for _, d := range deltas {
			evs = append(evs, event{"content_block_delta", obj{"type": "content_block_delta", "index": index, "delta": d}})
		}
		evs = append(evs, event{"content_block_stop", obj{"type": "content_block_stop", "index": index}})
		index++
	}
	text := rp.Text
	if rp.Error == "" && rp.Thinking == "" && text == "" && len(rp.ToolCalls) == 0 {
		text = "You said: " + req.lastUserText()
	}
	if rp.Error == errStreamError {
		// A partial text block, then the error event; no message_stop.
		evs = append(evs, event{"content_block_start", obj{"type": "content_block_start", "index": 0, "content_block": obj{"type": "text", "text": ""}}})
		if chunks := fakescript.Chunks(text, rp.ChunkRunes); len(chunks) > 0 {
			evs = append(evs, event{"content_block_delta", obj{"type": "content_block_delta", "index": 0, "delta": obj{"type": "text_delta", "text": chunks[0]}}})
		}
		return append(evs, event{"error", obj{"type": "error", "error": obj{"type": "overloaded_error", "message": "Overloaded"}}})
	}
	if rp.Thinking != "" {
		var ds []obj
		for _, c := range fakescript.Chunks(rp.Thinking, rp.ChunkRunes) {
			ds = append(ds, obj{"type": "thinking_delta", "thinking": c})
		}
		ds = append(ds, obj{"type": "signature_delta", "signature": Signature(rp.Thinking)})
		block(obj{"type": "thinking", "thinking": "", "signature": ""}, ds...)
		out += utf8.RuneCountInString(rp.Thinking)
	}
	if text != "" {
		var ds []obj
		for _, c := range fakescript.Chunks(text, rp.ChunkRunes) {
			ds = append(ds, obj{"type": "text_delta", "text": c})
		}
		block(obj{"type": "text", "text": ""}, ds...)
		out += utf8.RuneCountInString(text)
	}
	calls := make([]toolBlock, len(rp.ToolCalls))
	for i, tc := range rp.ToolCalls {
		args := tc.ArgsText()
		if args == "{}" && tc.RawArgs == "" {
			args = "" // a call without arguments gets only the empty delta
		}
		ds := []obj{{"type": "input_json_delta", "partial_json": ""}} // the real first delta is empty
		if args != "" {
			for _, f := range fakescript.Fragments(args, tc.Fragments) {
				ds = append(ds, obj{"type": "input_json_delta", "partial_json": f})
			}
		}
		id := fmt.Sprintf("toolu_01fake%016d", s.seq.Add(1))
		calls[i] = toolBlock{start: obj{"type": "tool_use", "id": id, "name": tc.Name, "input": obj{}}, deltas: ds}
		out += len(args)
	}
	if rp.Interleave {
		evs = appendInterleaved(evs, index, calls)
	} else {
		for _, c := range calls {
			block(c.start, c.deltas...)
		}
	}
	stop := "end_turn"
	if len(rp.ToolCalls) > 0 {
		stop = "tool_use"
	}
	return append(evs,
		event{"message_delta", obj{"type": "message_delta", "delta": obj{"stop_reason": stop, "stop_sequence": nil},
			"usage": obj{"input_tokens": in, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": out/4 + 1}}},
		event{"message_stop", obj{"type": "message_stop"}})
}

// toolBlock is one tool_use content block: its start and its deltas.
type toolBlock struct {
	start  obj
	deltas []obj
}

// appendInterleaved streams the tool_use blocks from content index first
// the way fakescript.Reply.Interleave describes: all started, one delta of each
// in turn, stopped last first.
func appendInterleaved(evs []event, first int, calls []toolBlock) []event {
	for i, c := range calls {
		evs = append(evs, event{"content_block_start", obj{"type": "content_block_start", "index": first + i, "content_block": c.start}})
	}
	for k := 0; ; k++ {
		sent := false
		for i, c := range calls {
			if k < len(c.deltas) {
				evs = append(evs, event{"content_block_delta", obj{"type": "content_block_delta", "index": first + i, "delta": c.deltas[k]}})
				sent = true
			}
		}
		if !sent {
			break
		}
	}
	for i := len(calls) - 1; i >= 0; i-- {
		evs = append(evs, event{"content_block_stop", obj{"type": "content_block_stop", "index": first + i}})
	}
	return evs
}

// stream writes the reply as SSE, honouring DelayMS and DisconnectAfter.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, req *wireRequest, rp fakescript.Reply) {
	evs := s.events(req, rp)
	h := w.Header()
	h.Set("content-type", "text/event-stream; charset=utf-8")
	h.Set("cache-control", "no-cache")
	h.Set("request-id", s.requestID())
	if req.oauth {
		h.Set("anthropic-ratelimit-unified-status", "allowed")
		h.Set("anthropic-ratelimit-unified-reset", strconv.FormatInt(s.now().Add(usageLimitWindow*time.Second).Unix(), 10))
	}
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	for i, ev := range evs {
		if rp.DisconnectAfter > 0 && i == rp.DisconnectAfter {
			// Cut the connection without the terminal event.
			panic(http.ErrAbortHandler)
		}
		if i > 0 && rp.DelayMS > 0 {
			select {
			case <-time.After(time.Duration(rp.DelayMS) * time.Millisecond):
			case <-r.Context().Done():
				return
			}
		}
		data, _ := json.Marshal(ev.payload) // maps of plain values: cannot fail
		if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev.name, data); err != nil {
			return
		}
		if flusher != nil {
			flusher.Flush()
		}
	}
}

// lastUserText is the text of the last user message that has any.
func (q *wireRequest) lastUserText() string {
	for i := len(q.Messages) - 1; i >= 0; i-- {
		m := q.Messages[i]
		if m.Role != "user" {
			continue
		}
		var parts []string
		for _, b := range m.blocks {
			if b.Type == "text" && b.Text != nil {
				parts = append(parts, *b.Text)
			}
		}
		if len(parts) > 0 {
			return strings.Join(parts, "\n")
		}
	}
	return ""
}
