package openaifake

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"maestro/backend/providers/fakescript"
)

// reply answers a valid request from the script: a scripted HTTP error, or
// a 200 stream (which may itself fail or be cut).
func (s *Server) reply(w http.ResponseWriter, r *http.Request, rec fakescript.Recorded, p *parsed, chatgpt bool) {
	rp := s.Script.NextFor(p.lastUser)
	inStream := rp.Error == "stream_error" || rp.Error == "insufficient_quota" ||
		rp.Error == "context_too_large" && chatgpt
	if rp.Error != "" && !inStream {
		status, body := s.httpError(w.Header(), rp, p, chatgpt)
		rec.Status = status
		s.Script.Record(rec)
		writeJSON(w, status, body)
		return
	}
	rec.Status = http.StatusOK
	s.Script.Record(rec)
	st := s.startStream(w, r, rp, p, chatgpt)
	if inStream {
		st.fail(rp.Error)
		return
	}
	var output []any
	if rp.Thinking != "" {
		output = append(output, st.reasoning(len(output), rp.Thinking, rp.ChunkRunes))
	}
	text := rp.Text
	if text == "" && len(rp.ToolCalls) == 0 {
		text = "You said: " + p.lastUser
	}
	if text != "" {
		output = append(output, st.message(len(output), text, rp.ChunkRunes))
	}
	output = append(output, st.calls(len(output), rp.ToolCalls, rp.Interleave)...)
	out := len(text) + len(rp.Thinking)
	for _, tc := range rp.ToolCalls {
		out += len(tc.ArgsText())
	}
	st.output = output
	st.send("response.completed", "completed", map[string]any{
		"input_tokens": p.inputTokens, "input_tokens_details": map[string]any{"cached_tokens": 0},
		"output_tokens": out / 4, "output_tokens_details": map[string]any{"reasoning_tokens": len(rp.Thinking) / 4},
		"total_tokens": p.inputTokens + out/4,
	}, nil)
}

// msgContextLengthExceeded is the API's answer to a prompt over the window
// (docs/providers/openai.md §Errors).
const msgContextLengthExceeded = `{"error":{"message":"Your input exceeds the context window of this model. Please adjust your input and try again.","type":"invalid_request_error","param":"input","code":"context_length_exceeded"}}`

// startStream answers 200 with the stream's headers and its first two
// events.
func (s *Server) startStream(w http.ResponseWriter, r *http.Request, rp fakescript.Reply, p *parsed, chatgpt bool) *streamState {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("x-request-id", s.id("req"))
	if chatgpt {
		s.codexHeaders(h, 12, 0)
	}
	w.WriteHeader(http.StatusOK)
	sw := &sseWriter{w: w, ctx: r.Context(), cut: rp.DisconnectAfter, delay: time.Duration(rp.DelayMS) * time.Millisecond}
	st := &streamState{s: s, sw: sw, respID: s.id("resp"), model: p.model, created: s.now().Unix()}
	st.send("response.created", "in_progress", nil, nil)
	st.send("response.in_progress", "in_progress", nil, nil)
	return st
}

// codexHeaders sets the rate-limit headers (docs/providers/openai.md §Errors).
func (s *Server) codexHeaders(h http.Header, usedPercent float64, resetIn time.Duration) {
	if resetIn <= 0 {
		resetIn = 4 * time.Hour
	}
	now := s.now()
	h.Set("x-codex-primary-used-percent", strconv.FormatFloat(usedPercent, 'f', -1, 64))
	h.Set("x-codex-primary-window-minutes", "300")
	h.Set("x-codex-primary-reset-at", strconv.FormatInt(now.Add(resetIn).Unix(), 10))
	h.Set("x-codex-primary-reset-after-seconds", strconv.Itoa(int(resetIn.Seconds())))
	h.Set("x-codex-secondary-used-percent", "3")
	h.Set("x-codex-secondary-window-minutes", "10080")
	h.Set("x-codex-secondary-reset-at", strconv.FormatInt(now.Add(6*24*time.Hour).Unix(), 10))
	h.Set("x-codex-plan-type", "plus")
	h.Set("x-codex-active-limit", "codex")
	h.Set("x-codex-credits-has-credits", "False")
	h.Set("x-codex-credits-unlimited", "False")
}

// httpError is a scripted failure answered before any stream.
func (s *Server) httpError(h http.Header, rp fakescript.Reply, p *parsed, chatgpt bool) (int, string) {
	const serverMsg = "An error occurred while processing your request. You can retry your request, or contact us through our help center at help.openai.com if the error persists."
	h.Set("x-request-id", s.id("req"))
	switch rp.Error {
	case "401":
		if chatgpt {
			return http.StatusUnauthorized, expiredToken().body
		}
		return http.StatusUnauthorized, invalidAPIKey("sk-proj-expired0000").body
	case "429":
		wait := max(rp.RetryAfter, 1)
		h.Set("retry-after", strconv.Itoa(wait))
		if chatgpt {
			s.codexHeaders(h, 64, 0)
		}
		return http.StatusTooManyRequests, mustJSON(map[string]any{"error": map[string]any{
			"message": fmt.Sprintf("Rate limit reached for %s on tokens per min (TPM): Limit 30000, Used 29500, Requested 1200. Please try again in %ds. Visit https://platform.openai.com/account/rate-limits to learn more.", p.model, wait),
			"type":    "tokens", "param": nil, "code": "rate_limit_exceeded"}})
	case "529":
		return http.StatusServiceUnavailable, `{"error":{"message":"The server is overloaded. Please try again later.","type":"server_error","param":null,"code":"server_is_overloaded"}}`
	case "usage_limit":
		in := time.Duration(rp.RetryAfter) * time.Second
		if in <= 0 {
			in = 13872 * time.Second
		}
		s.codexHeaders(h, 100, in)
		return http.StatusTooManyRequests, mustJSON(map[string]any{"error": map[string]any{
			"type": "usage_limit_reached", "message": "The usage limit has been reached", "plan_type": "plus",
			"resets_at": s.now().Add(in).Unix(), "eligible_promo": nil, "resets_in_seconds": int(in.Seconds())}})
	case "usage_not_included":
		// [unconfirmed] message text; the type is what clients key on.
		return http.StatusTooManyRequests, `{"error":{"type":"usage_not_included","message":"Codex is not included in your plan","plan_type":"free"}}`
	case "instructions_not_valid": // openai/codex#2259, #3202 (2025)
		return http.StatusBadRequest, `{"detail":"Instructions are not valid"}`
	case "originator_rejected": // a bare 403 (earendil-works/pi#1828)
		return http.StatusForbidden, ""
	case "context_too_large": // API-key mode; the backend fails in the stream
		return http.StatusBadRequest, msgContextLengthExceeded
	case "server":
		return http.StatusInternalServerError, mustJSON(map[string]any{"error": map[string]any{
			"message": serverMsg, "type": "server_error", "param": nil, "code": nil}})
	}
	return http.StatusInternalServerError, mustJSON(map[string]string{"detail": "openaifake: unknown scripted error " + strconv.Quote(rp.Error)})
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only literals built above reach here
	}
	return string(b)
}

// sseWriter writes Responses events (docs/providers/openai.md §Stream events) with sequence numbers. When the scripted
// DisconnectAfter is reached, or the client goes away during a delay, it
// aborts the connection without the terminal event.
type sseWriter struct {
	w     http.ResponseWriter
	ctx   context.Context
	seq   int
	cut   int
	delay time.Duration
}

func (sw *sseWriter) send(typ string, fields map[string]any) {
	if sw.cut > 0 && sw.seq >= sw.cut {
		http.NewResponseController(sw.w).Flush()
		panic(http.ErrAbortHandler) // net/http closes the connection quietly
	}
	if sw.seq > 0 && sw.delay > 0 {
		t := time.NewTimer(sw.delay)
		select {
		case <-t.C:
		case <-sw.ctx.Done():
			t.Stop()
			panic(http.ErrAbortHandler)
		}
	}
	b := []byte("{}")
	if len(fields) > 0 {
		b, _ = json.Marshal(fields)
	}
	fmt.Fprintf(sw.w, "event: %s\ndata: {\"type\":%q,\"sequence_number\":%d", typ, typ, sw.seq)
	if len(b) > 2 {
		_, _ = io.WriteString(sw.w, ",")
		_, _ = sw.w.Write(b[1:])
	} else {
		_, _ = io.WriteString(sw.w, "}")
	}
	_, _ = io.WriteString(sw.w, "\n\n")
	_ = http.NewResponseController(sw.w).Flush()
	sw.seq++
}

type streamState struct {
	s       *Server
	sw      *sseWriter
	respID  string
	model   string
	created int64
	output  []any
}

func (st *streamState) response(status string, usage, errObj any) map[string]any {
	output := st.output
	if output == nil {
		output = []any{}
	}
	return map[string]any{"id": st.respID, "object": "response", "created_at": st.created, "status": status,
		"model": st.model, "output": output, "error": errObj, "incomplete_details": nil, "store": false, "usage": usage}
}

func (st *streamState) send(typ, status string, usage, errObj any) {
	st.sw.send(typ, map[string]any{"response": st.response(status, usage, errObj)})
}

// fail ends the stream with the scripted in-stream failure.
func (st *streamState) fail(kind string) {
	code, msg := "server_error", "An error occurred while processing your request. You can retry your request, or contact us through our help center at help.openai.com if the error persists. Please include the request ID "+st.respID+" in your message."
	switch kind {
	case "context_too_large":
		code, msg = "context_length_exceeded", "Your input exceeds the context window of this model. Please adjust your input and try again."
	case "insufficient_quota":
		code, msg = "insufficient_quota", "You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors."
		st.sw.send("error", map[string]any{"error": map[string]any{"type": code, "code": code, "message": msg, "param": nil}})
	}
	st.send("response.failed", "failed", nil, map[string]any{"code": code, "message": msg})
}

func (st *streamState) reasoning(oi int, text string, chunk int) map[string]any {
	id := st.s.id("rs")
	at := map[string]any{"item_id": id, "output_index": oi, "summary_index": 0}
	with := func(k string, v any) map[string]any {
		m := map[string]any{k: v}
		for key, val := range at {
			m[key] = val
		}
		return m
	}
	st.sw.send("response.output_item.added", map[string]any{"output_index": oi,
		"item": map[string]any{"id": id, "type": "reasoning", "summary": []any{}}})
	st.sw.send("response.reasoning_summary_part.added", with("part", map[string]any{"type": "summary_text", "text": ""}))
	for _, c := range fakescript.Chunks(text, chunk) {
		st.sw.send("response.reasoning_summary_text.delta", with("delta", c))
	}
	st.sw.send("response.reasoning_summary_text.done", with("text", text))
	st.sw.send("response.reasoning_summary_part.done", with("part", map[string]any{"type": "summary_text", "text": text}))
	item := map[string]any{"id": id, "type": "reasoning",
		"summary":           []any{map[string]any{"type": "summary_text", "text": text}},
		"encrypted_content": fernetPrefix + "AB" + base64.RawURLEncoding.EncodeToString([]byte("openaifake:"+id))}
	st.sw.send("response.output_item.done", map[string]any{"output_index": oi, "item": item})
	return item
}

func (st *streamState) message(oi int, text string, chunk int) map[string]any {
	id := st.s.id("msg")
	at := func(k string, v any) map[string]any {
		return map[string]any{"item_id": id, "output_index": oi, "content_index": 0, k: v}
	}
	part := func(t string) map[string]any {
		return map[string]any{"type": "output_text", "annotations": []any{}, "text": t}
	}
	st.sw.send("response.output_item.added", map[string]any{"output_index": oi, "item": map[string]any{
		"id": id, "type": "message", "status": "in_progress", "content": []any{}, "role": "assistant"}})
	st.sw.send("response.content_part.added", at("part", part("")))
	for _, c := range fakescript.Chunks(text, chunk) {
		st.sw.send("response.output_text.delta", at("delta", c))
	}
	st.sw.send("response.output_text.done", at("text", text))
	st.sw.send("response.content_part.done", at("part", part(text)))
	item := map[string]any{"id": id, "type": "message", "status": "completed", "content": []any{part(text)}, "role": "assistant"}
	st.sw.send("response.output_item.done", map[string]any{"output_index": oi, "item": item})
	return item
}

// fnCall is one function_call item being streamed.
type fnCall struct {
	oi               int
	id, callID, name string
	args             string
	frags            []string
}

func (c *fnCall) item(status, args string) map[string]any {
	return map[string]any{"id": c.id, "type": "function_call", "status": status, "arguments": args, "call_id": c.callID, "name": c.name}
}

// calls streams the function_call items from output index first, each in
// turn, or interleaved (fakescript.Reply.Interleave): all added, one delta of
// each in turn, completed last first. It returns the completed items in
// output order. The arguments are the model's text as it is, broken or
// not (fakescript.ToolCall.RawArgs).
func (st *streamState) calls(first int, tcs []fakescript.ToolCall, interleave bool) []any {
	cs := make([]*fnCall, len(tcs))
	for i, tc := range tcs {
		args := tc.ArgsText()
		if args == "" {
			args = "{}"
		}
		cs[i] = &fnCall{oi: first + i, id: st.s.id("fc"), callID: st.s.id("call"), name: tc.Name, args: args,
			frags: fakescript.Fragments(args, tc.Fragments)}
	}
	if !interleave {
		for _, c := range cs {
			st.added(c)
			for _, f := range c.frags {
				st.delta(c, f)
			}
			st.done(c)
		}
	} else {
		for _, c := range cs {
			st.added(c)
		}
		for k := 0; ; k++ {
			sent := false
			for _, c := range cs {
				if k < len(c.frags) {
					st.delta(c, c.frags[k])
					sent = true
				}
			}
			if !sent {
				break
			}
		}
		for i := len(cs) - 1; i >= 0; i-- {
			st.done(cs[i])
		}
	}
	out := make([]any, len(cs))
	for i, c := range cs {
		out[i] = c.item("completed", c.args)
	}
	return out
}

func (st *streamState) added(c *fnCall) {
	st.sw.send("response.output_item.added", map[string]any{"output_index": c.oi, "item": c.item("in_progress", "")})
}

func (st *streamState) delta(c *fnCall, f string) {
	st.sw.send("response.function_call_arguments.delta", map[string]any{"item_id": c.id, "output_index": c.oi, "delta": f})
}

func (st *streamState) done(c *fnCall) {
	st.sw.send("response.function_call_arguments.done", map[string]any{"item_id": c.id, "output_index": c.oi, "arguments": c.args})
	st.sw.send("response.output_item.done", map[string]any{"output_index": c.oi, "item": c.item("completed", c.args)})
}
