package anthropicfake

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"maestro/backend/providers/fakescript"
)

// servedModel is one model the fake lists and accepts, with the fields of
// the real list's ModelInfo (docs/providers/anthropic.md, "Model list").
type servedModel struct {
	id, name, created   string
	maxInput, maxTokens int
	adaptive, enabled   bool
	efforts             []string
	// fixedSampling: the model refuses temperature (Opus 4.7 and later).
	fixedSampling bool
}

var (
	effortsAll  = []string{"low", "medium", "high", "xhigh", "max"}
	effortsNoXH = []string{"low", "medium", "high", "max"}
)

// defaultModels is the fake's served list, newest first as the real list
// is. Limits follow docs/providers/anthropic.md; the creation dates are
// illustrative.
var defaultModels = []servedModel{
	{"claude-opus-5", "Claude Opus 5", "2026-07-24T00:00:00Z", 1_000_000, 128_000, true, false, effortsAll, true},
	{"claude-sonnet-5", "Claude Sonnet 5", "2026-06-30T00:00:00Z", 1_000_000, 128_000, true, false, effortsAll, true},
	{"claude-opus-4-8", "Claude Opus 4.8", "2026-05-28T00:00:00Z", 1_000_000, 128_000, true, false, effortsAll, true},
	{"claude-opus-4-7", "Claude Opus 4.7", "2026-04-16T00:00:00Z", 1_000_000, 128_000, true, false, effortsAll, true},
	{"claude-sonnet-4-6", "Claude Sonnet 4.6", "2026-02-17T00:00:00Z", 1_000_000, 64_000, true, true, []string{"low", "medium", "high"}, false},
	{"claude-opus-4-6", "Claude Opus 4.6", "2026-02-05T00:00:00Z", 1_000_000, 128_000, true, true, effortsNoXH, false},
	{"claude-haiku-4-5-20251001", "Claude Haiku 4.5", "2025-10-01T00:00:00Z", 200_000, 64_000, false, true, nil, false},
	{"claude-sonnet-4-5-20250929", "Claude Sonnet 4.5", "2025-09-29T00:00:00Z", 200_000, 64_000, false, true, nil, false},
	{"claude-opus-4-1-20250805", "Claude Opus 4.1", "2025-08-05T00:00:00Z", 200_000, 32_000, false, true, nil, false},
}

// DefaultModels are the ids the fake serves until a test sets others with
// Script.SetModels (or POST /_fake/models).
func DefaultModels() []string {
	ids := make([]string, len(defaultModels))
	for i, m := range defaultModels {
		ids[i] = m.id
	}
	return ids
}

// snapshot matches the date suffix of a pinned model id.
var snapshot = regexp.MustCompile(`-\d{8}$`)

// served returns the served model a request's model names: a served id, or
// the alias of a served dated snapshot (claude-sonnet-4-5 for
// claude-sonnet-4-5-20250929), as the real API resolves aliases.
func (s *Server) served(model string) (servedModel, bool) {
	for _, id := range s.Script.Models(DefaultModels()) {
		if id == model || snapshot.MatchString(id) && snapshot.ReplaceAllString(id, "") == model {
			return describe(id), true
		}
	}
	return servedModel{}, false
}

// describe is the fake's knowledge of a served id; an id a test made up
// gets the fields of a typical 200K model with budget thinking.
func describe(id string) servedModel {
	for _, m := range defaultModels {
		if m.id == id {
			return m
		}
	}
	return servedModel{id: id, name: id, created: "2026-01-01T00:00:00Z", maxInput: 200_000, maxTokens: 64_000, enabled: true}
}

// wire is the model's ModelInfo as the real list serves it.
func (m servedModel) wire() map[string]any {
	sup := func(b bool) map[string]any { return map[string]any{"supported": b} }
	effort := map[string]any{"supported": len(m.efforts) > 0}
	for _, level := range effortsAll {
		effort[level] = sup(strings.Contains(","+strings.Join(m.efforts, ",")+",", ","+level+","))
	}
	return map[string]any{
		"type": "model", "id": m.id, "display_name": m.name, "created_at": m.created,
		"max_input_tokens": m.maxInput, "max_tokens": m.maxTokens,
		"capabilities": map[string]any{
			"batch": sup(true), "citations": sup(true), "code_execution": sup(true),
			"image_input": sup(true), "pdf_input": sup(true), "structured_outputs": sup(true),
			"context_management": sup(true),
			"effort":             effort,
			"thinking": map[string]any{"supported": m.adaptive || m.enabled,
				"types": map[string]any{"adaptive": sup(m.adaptive), "enabled": sup(m.enabled)}},
		},
	}
}

// Paging of GET /v1/models: the real default and largest page.
const (
	defaultModelPage = 20
	maxModelPage     = 1000
)

// listModels serves GET /v1/models: the served models in pages of limit
// (1 to 1000, default 20; the fake clamps where the real API may refuse)
// after the model after_id, with the same credentials as /v1/messages.
func (s *Server) listModels(w http.ResponseWriter, r *http.Request) {
	rec := fakescript.Recorded{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header}
	if rej := s.checkAuth(r); rej != nil {
		rec.Status, rec.Rejection = rej.status, rej.rule
		s.Script.Record(rec)
		s.writeError(w, rej.status, rej.errType, rej.message, nil)
		return
	}
	limit := defaultModelPage
	if n, err := strconv.Atoi(r.URL.Query().Get("limit")); err == nil {
		limit = min(max(n, 1), maxModelPage)
	}
	ids := s.Script.Models(DefaultModels())
	start := 0
	if after := r.URL.Query().Get("after_id"); after != "" {
		for i, id := range ids {
			if id == after {
				start = i + 1
			}
		}
	}
	end := min(start+limit, len(ids))
	data := []any{}
	for _, id := range ids[start:end] {
		m := describe(id)
		m.maxInput = s.Script.Window(m.maxInput)
		data = append(data, m.wire())
	}
	page := map[string]any{"data": data, "has_more": end < len(ids), "first_id": nil, "last_id": nil}
	if end > start {
		page["first_id"], page["last_id"] = ids[start], ids[end-1]
	}
	rec.Status = http.StatusOK
	s.Script.Record(rec)
	w.Header().Set("content-type", "application/json")
	w.Header().Set("request-id", s.requestID())
	_ = json.NewEncoder(w).Encode(page)
}
