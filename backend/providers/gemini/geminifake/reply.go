package geminifake

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"maestro/backend/providers/fakescript"
)

// Response chunk shapes, as the service streams them.
type chunk struct {
	Candidates    []candidate `json:"candidates,omitempty"`
	UsageMetadata *usage      `json:"usageMetadata,omitempty"`
	ModelVersion  string      `json:"modelVersion,omitempty"`
	ResponseID    string      `json:"responseId,omitempty"`
}

type candidate struct {
	Content       outContent `json:"content"`
	FinishReason  string     `json:"finishReason,omitempty"`
	FinishMessage string     `json:"finishMessage,omitempty"`
	Index         int        `json:"index"`
}

type outContent struct {
	Parts []outPart `json:"parts,omitempty"`
	Role  string    `json:"role"`
}

type outPart struct {
	Text             *string  `json:"text,omitempty"`
	Thought          bool     `json:"thought,omitempty"`
	FunctionCall     *outCall `json:"functionCall,omitempty"`
	ThoughtSignature string   `json:"thoughtSignature,omitempty"`
}

type outCall struct {
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

type usage struct {
	PromptTokenCount     int `json:"promptTokenCount"`
	CandidatesTokenCount int `json:"candidatesTokenCount,omitempty"`
	TotalTokenCount      int `json:"totalTokenCount"`
	ThoughtsTokenCount   int `json:"thoughtsTokenCount,omitempty"`
}

func str(s string) *string { return &s }

// reply answers a valid request with rp: an error, or a stream.
func (s *Server) reply(x *exchange, req *request, rp fakescript.Reply) {
	if rp.Error != "" && rp.Error != "stream_error" {
		rj := s.scriptedError(x, rp)
		x.rec.Status = rj.err.Code
		s.Script.Record(x.rec)
		rj.write(x.w)
		return
	}
	n := s.traces.Add(1)
	trace := fmt.Sprintf("%016x", sha256.Sum256([]byte(fmt.Sprint("trace", n))))[:16]
	chunks := s.chunks(req, rp, trace, x.inputTokens)
	x.rec.Status = http.StatusOK
	s.Script.Record(x.rec)

	events := make([][]byte, 0, len(chunks)+1)
	for _, c := range chunks {
		c.ModelVersion = x.model
		var payload any
		if x.codeAssist {
			payload = struct {
				Response chunk  `json:"response"`
				TraceID  string `json:"traceId"`
			}{c, trace}
		} else {
			c.ResponseID = trace
			payload = c
		}
		b, _ := json.Marshal(payload)
		events = append(events, b)
	}
	if rp.Error == "stream_error" {
		b, _ := json.Marshal(map[string]apiError{"error": {Code: 500, Message: msgInternal, Status: "INTERNAL"}})
		events = append(events[:min(len(events), 1)], b) // some text, then the error
	}
	s.stream(x, rp, events)
}

// stream writes the events as CRLF-delimited SSE.
func (s *Server) stream(x *exchange, rp fakescript.Reply, events [][]byte) {
	w := x.w
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	for i, ev := range events {
		if rp.DisconnectAfter > 0 && i >= rp.DisconnectAfter {
			// Cut the connection without the terminal chunk.
			panic(http.ErrAbortHandler)
		}
		if rp.DelayMS > 0 && i > 0 {
			select {
			case <-time.After(time.Duration(rp.DelayMS) * time.Millisecond):
			case <-x.r.Context().Done():
				return
			}
		}
		if _, err := fmt.Fprintf(w, "data: %s\r\n\r\n", ev); err != nil {
			return
		}
		if flusher != nil {
			flusher.Flush()
		}
	}
}

// chunks builds the reply the way recordings show it: thought chunks,
// text chunks, one chunk per function call (the first call signed), and a
// final chunk with the finish reason and usage.
func (s *Server) chunks(req *request, rp fakescript.Reply, trace string, prompt int) []chunk {
	text := rp.Text
	if rp.Thinking == "" && rp.Text == "" && len(rp.ToolCalls) == 0 {
		text = "You said: " + lastUserText(req.Contents)
	}
	u := usage{PromptTokenCount: prompt}
	if rp.Thinking != "" {
		u.ThoughtsTokenCount = tokens(rp.Thinking)
	}
	var out []chunk
	add := func(parts ...outPart) {
		uc := u
		uc.TotalTokenCount = uc.PromptTokenCount + uc.CandidatesTokenCount + uc.ThoughtsTokenCount
		out = append(out, chunk{Candidates: []candidate{{Content: outContent{Role: "model", Parts: parts}}}, UsageMetadata: &uc})
	}
	for _, piece := range fakescript.Chunks(rp.Thinking, rp.ChunkRunes) {
		add(outPart{Text: str(piece), Thought: true})
	}
	for _, piece := range fakescript.Chunks(text, rp.ChunkRunes) {
		u.CandidatesTokenCount += tokens(piece)
		add(outPart{Text: str(piece)})
	}
	declared := declaredNames(req.Tools)
	finish, finishMsg := "STOP", ""
	for i, tc := range rp.ToolCalls {
		if !declared[tc.Name] {
			// The service refuses a call to a function the request did not
			// declare: the turn ends with UNEXPECTED_TOOL_CALL and no call.
			finish, finishMsg = "UNEXPECTED_TOOL_CALL", "Unexpected tool call: "+tc.Name+" is not declared in the request's tools."
			break
		}
		args := json.RawMessage(tc.ArgsText())
		if len(args) == 0 {
			args = json.RawMessage("{}")
		}
		if args[0] != '{' || !json.Valid(args) {
			// args is a Struct: the service cannot send broken arguments.
			// A call the model botched ends the turn with
			// MALFORMED_FUNCTION_CALL and no call (googleapis/python-genai
			// #1836, gemini-cli #12674); no finishMessage [unconfirmed].
			finish = "MALFORMED_FUNCTION_CALL"
			break
		}
		p := outPart{FunctionCall: &outCall{Name: tc.Name, Args: args}}
		if i == 0 {
			p.ThoughtSignature = signature(trace, i)
		}
		u.CandidatesTokenCount += tokens(string(args))
		add(p)
	}
	if finish != "STOP" {
		// Drop the calls already built: the service sends none.
		for len(out) > 0 && out[len(out)-1].Candidates[0].Content.Parts[0].FunctionCall != nil {
			out = out[:len(out)-1]
		}
	}
	last := outPart{Text: str("")}
	if rp.Thinking != "" && len(rp.ToolCalls) == 0 {
		last.ThoughtSignature = signature(trace, -1) // a signed empty text part, as Gemini 3 sends
	}
	uc := u
	uc.TotalTokenCount = uc.PromptTokenCount + uc.CandidatesTokenCount + uc.ThoughtsTokenCount
	out = append(out, chunk{Candidates: []candidate{{Content: outContent{Role: "model", Parts: []outPart{last}},
		FinishReason: finish, FinishMessage: finishMsg}}, UsageMetadata: &uc})
	return out
}

func declaredNames(tools []tool) map[string]bool {
	m := map[string]bool{}
	for _, t := range tools {
		for _, d := range t.FunctionDeclarations {
			m[d.Name] = true
		}
	}
	return m
}

func lastUserText(cs []content) string {
	for i := len(cs) - 1; i >= 0; i-- {
		if cs[i].Role != "user" {
			continue
		}
		var b strings.Builder
		for _, p := range cs[i].Parts {
			if p.Text != nil {
				b.WriteString(*p.Text)
			}
		}
		if b.Len() > 0 {
			return b.String()
		}
	}
	return ""
}

// signature makes a stable, real-looking thought signature (base64 of
// opaque bytes, as the service sends).
func signature(trace string, i int) string {
	var b []byte
	for k := 0; len(b) < 96; k++ {
		sum := sha256.Sum256([]byte(fmt.Sprint(trace, i, k)))
		b = append(b, sum[:]...)
	}
	b[0], b[1] = 0x0a, 0x5e // a protobuf-looking prefix, like real signatures ("Cl…")
	return base64.StdEncoding.EncodeToString(b[:96])
}

func tokens(s string) int { return utf8.RuneCountInString(s)/4 + 1 }

// scriptedError is the service's answer for a scripted failure.
func (s *Server) scriptedError(x *exchange, rp fakescript.Reply) *rejection {
	retry := rp.RetryAfter
	if retry <= 0 {
		retry = 1
	}
	domain := "googleapis.com"
	if x.codeAssist {
		domain = codeAssistService
	}
	var rj *rejection
	switch rp.Error {
	case "401":
		if !x.codeAssist {
			return apiKeyInvalid("scripted 401", msgKeyExpired)
		}
		return unauthenticated("scripted 401", msgCredsInvalid, "ACCESS_TOKEN_EXPIRED")
	case "429":
		delay := fmt.Sprintf("%ds", retry)
		rj = &rejection{err: apiError{Code: 429, Status: "RESOURCE_EXHAUSTED",
			Message: fmt.Sprintf("You have exhausted your capacity on this model. Your quota will reset after %s.", delay),
			Details: []detail{
				errorInfo("RATE_LIMIT_EXCEEDED", domain, map[string]string{"uiMessage": "true", "model": x.model, "quotaResetDelay": delay}),
				retryInfo(delay)}}}
		if !x.codeAssist {
			rj.err.Message = "You exceeded your current quota, please check your plan and billing details."
			rj.err.Details = []detail{quotaFailure("GenerateRequestsPerMinutePerProjectPerModel-FreeTier"), retryInfo(delay)}
		}
	case "529":
		rj = &rejection{err: apiError{Code: 503, Status: "UNAVAILABLE", Message: msgOverloaded}}
	case "usage_limit":
		if rp.RetryAfter <= 0 {
			retry = 3600
		}
		reset := time.Now().Add(time.Duration(retry) * time.Second).UTC().Format(time.RFC3339)
		rj = &rejection{err: apiError{Code: 429, Status: "RESOURCE_EXHAUSTED",
			Message: "You have exhausted your daily quota on this model.",
			Details: []detail{
				errorInfo("QUOTA_EXHAUSTED", domain, map[string]string{"uiMessage": "true", "model": x.model, "quotaResetTimeStamp": reset}),
				quotaFailure("GenerateRequestsPerDayPerProjectPerModel")}}}
	case "context_too_large":
		rj = invalid("", msgTooManyTokens)
	default: // "server" and anything unknown
		rj = &rejection{err: apiError{Code: 500, Status: "INTERNAL", Message: msgInternal}}
	}
	rj.wrapped = x.codeAssist
	return rj
}
