package geminifake

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Model list endpoints (docs/providers/gemini.md §Model list).
const (
	ModelsPath      = "/v1beta/models"
	UserQuotaPath   = "/v1internal:retrieveUserQuota"
	defaultPageSize = 50
	maxPageSize     = 1000
)

// modelDef is what the fake knows about a model it serves: the limits the
// list reports and the thinking rule the generate endpoint enforces.
type modelDef struct {
	id, display        string
	input, output      int
	thinking           bool
	minBudget          int  // >0: a Gemini 2.5 budget range
	maxBudget          int  //
	zeroBudget         bool // 0 (thinking off) is accepted
	level              bool // Gemini 3: thinkingLevel
	generationMethods  []string
	codeAssistWireName string // the name Code Assist and its quota use, if different
}

var chatMethods = []string{"generateContent", "countTokens", "createCachedContent", "batchGenerateContent"}

// modelDefs are the models the fake serves by default, as Google describes
// them (docs/providers/gemini.md §Model list).
var modelDefs = []modelDef{
	{id: "gemini-2.5-pro", display: "Gemini 2.5 Pro", input: 1048576, output: 65536, thinking: true, minBudget: 128, maxBudget: 32768},
	{id: "gemini-2.5-flash", display: "Gemini 2.5 Flash", input: 1048576, output: 65536, thinking: true, minBudget: 1, maxBudget: 24576, zeroBudget: true},
	{id: "gemini-2.5-flash-lite", display: "Gemini 2.5 Flash-Lite", input: 1048576, output: 65536, thinking: true, minBudget: 512, maxBudget: 24576, zeroBudget: true},
	{id: "gemini-3-pro-preview", display: "Gemini 3 Pro Preview", input: 1048576, output: 65536, thinking: true, level: true},
	{id: "gemini-3-flash-preview", display: "Gemini 3 Flash Preview", input: 1048576, output: 65536, thinking: true, level: true},
	{id: "gemini-3.1-pro-preview", display: "Gemini 3.1 Pro Preview", input: 1048576, output: 65536, thinking: true, level: true},
	{id: "gemini-3.1-flash-lite", display: "Gemini 3.1 Flash-Lite", input: 1048576, output: 65536, thinking: true, level: true},
	{id: "gemini-3.5-flash", display: "Gemini 3.5 Flash", input: 1048576, output: 65536, thinking: true, level: true, codeAssistWireName: "gemini-3-flash"},
}

// otherModels are listed by the Gemini API but are no chat models; the
// fake lists them so clients must filter, and serves none of them.
var otherModels = []struct {
	id, display string
	methods     []string
}{
	{"gemini-embedding-001", "Gemini Embedding 001", []string{"embedContent", "countTextTokens", "countTokens", "asyncBatchEmbedContent"}},
	{"aqa", "Model that performs Attributed Question Answering.", []string{"generateAnswer"}},
	{"imagen-4.0-generate-001", "Imagen 4", []string{"predict"}},
	{"gemini-2.5-flash-preview-tts", "Gemini 2.5 Flash Preview TTS", []string{"countTokens", "generateContent"}},
	{"gemini-2.5-flash-image", "Nano Banana", []string{"generateContent", "countTokens", "batchGenerateContent"}},
	{"gemini-2.5-flash-native-audio-latest", "Gemini 2.5 Flash Native Audio Latest", []string{"countTokens", "bidiGenerateContent"}},
}

// DefaultModels are the ids the fake serves unless WithModels or
// Script.SetModels says otherwise.
func DefaultModels() []string {
	ids := make([]string, len(modelDefs))
	for i, d := range modelDefs {
		ids[i] = d.id
	}
	return ids
}

// defaults is this fake's default served list.
func (s *Server) defaults() []string {
	if s.models != nil {
		return s.models
	}
	return DefaultModels()
}

// served reports whether the fake serves model; codeAssist accepts a
// model's Code Assist name too.
func (s *Server) served(model string, codeAssist bool) bool {
	if s.Script.Serves(model, s.defaults()) {
		return true
	}
	if !codeAssist {
		return false
	}
	for _, d := range modelDefs {
		if d.codeAssistWireName != "" && d.codeAssistWireName == model {
			return s.Script.Serves(d.id, s.defaults())
		}
	}
	return false
}

// definition is what the fake knows about id (a user-facing id or a Code
// Assist name); an id set by a test but not in the table gets a generic
// non-thinking definition, so no thinking rule applies to it.
func definition(id string) modelDef {
	for _, d := range modelDefs {
		if d.id == id || d.codeAssistWireName == id {
			return d
		}
	}
	return modelDef{id: id, display: id, input: 1048576, output: 65536}
}

type listedModel struct {
	Name                       string   `json:"name"`
	Version                    string   `json:"version"`
	DisplayName                string   `json:"displayName"`
	Description                string   `json:"description,omitempty"`
	InputTokenLimit            int      `json:"inputTokenLimit"`
	OutputTokenLimit           int      `json:"outputTokenLimit"`
	SupportedGenerationMethods []string `json:"supportedGenerationMethods"`
	Temperature                float64  `json:"temperature,omitempty"`
	TopP                       float64  `json:"topP,omitempty"`
	TopK                       int      `json:"topK,omitempty"`
	MaxTemperature             float64  `json:"maxTemperature,omitempty"`
	Thinking                   bool     `json:"thinking,omitempty"`
}

// listModels is GET /v1beta/models: the served models and the non-chat
// ones, pageSize at a time (default 50, at most 1000), with nextPageToken.
func (s *Server) listModels(w http.ResponseWriter, r *http.Request) {
	x, _ := s.newExchange(w, r, false)
	if rj := s.apiKeyRejection(r); rj != nil {
		s.reject(x, rj)
		return
	}
	var all []listedModel
	for _, id := range s.Script.Models(s.defaults()) {
		d := definition(id)
		all = append(all, listedModel{Name: "models/" + id, Version: "001", DisplayName: d.display,
			InputTokenLimit: s.Script.Window(d.input), OutputTokenLimit: d.output, SupportedGenerationMethods: chatMethods,
			Temperature: 1, TopP: 0.95, TopK: 64, MaxTemperature: 2, Thinking: d.thinking})
	}
	for _, o := range otherModels {
		all = append(all, listedModel{Name: "models/" + o.id, Version: "001", DisplayName: o.display,
			InputTokenLimit: 2048, OutputTokenLimit: 1, SupportedGenerationMethods: o.methods})
	}
	size := defaultPageSize
	if n, err := strconv.Atoi(r.URL.Query().Get("pageSize")); err == nil && n > 0 {
		size = min(n, maxPageSize)
	}
	start := 0
	if tok := r.URL.Query().Get("pageToken"); tok != "" {
		n, err := strconv.Atoi(strings.TrimPrefix(tok, "page-"))
		if err != nil || n < 0 || n > len(all) {
			s.reject(x, invalid("page token", "Invalid page token."))
			return
		}
		start = n
	}
	end := min(start+size, len(all))
	page := map[string]any{"models": all[start:end]}
	if end < len(all) {
		page["nextPageToken"] = "page-" + strconv.Itoa(end)
	}
	s.writeJSON(x, page)
}

type quotaBucket struct {
	RemainingFraction float64 `json:"remainingFraction"`
	ResetTime         string  `json:"resetTime"`
	TokenType         string  `json:"tokenType"`
	ModelID           string  `json:"modelId"`
}

// retrieveUserQuota is POST /v1internal:retrieveUserQuota: one bucket per
// served model, named as Code Assist names it.
func (s *Server) retrieveUserQuota(w http.ResponseWriter, r *http.Request) {
	x, body := s.newExchange(w, r, true)
	if rj := s.tokenRejection(r); rj != nil {
		s.reject(x, rj)
		return
	}
	var req struct {
		Project string `json:"project"`
	}
	if json.Unmarshal(body, &req) != nil || req.Project == "" {
		s.reject(x, wrap(invalid("project required", msgInvalidArg)))
		return
	}
	if s.project != "" && req.Project != s.project {
		s.reject(x, projectDenied(req.Project))
		return
	}
	reset := time.Now().Add(24 * time.Hour).UTC().Truncate(time.Second).Format(time.RFC3339)
	var buckets []quotaBucket
	for _, id := range s.Script.Models(s.defaults()) {
		name := id
		if d := definition(id); d.codeAssistWireName != "" {
			name = d.codeAssistWireName
		}
		buckets = append(buckets, quotaBucket{RemainingFraction: 1, ResetTime: reset, TokenType: "REQUESTS", ModelID: name})
	}
	s.writeJSON(x, map[string]any{"buckets": buckets})
}

func (s *Server) writeJSON(x *exchange, v any) {
	x.rec.Status = http.StatusOK
	s.Script.Record(x.rec)
	b, _ := json.MarshalIndent(v, "", "  ")
	x.w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	_, _ = x.w.Write(append(b, '\n'))
}
