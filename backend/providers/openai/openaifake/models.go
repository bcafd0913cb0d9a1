package openaifake

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// The model list endpoints.
const (
	ChatGPTModelsPath = "/backend-api/codex/models"
	APIModelsPath     = "/v1/models"
)

// catalogEntry is one model of the fake's ChatGPT catalog: the fields of
// codex_protocol's ModelInfo the fake varies (docs/providers/openai.md
// §Model list; numbers from Codex's bundled models.json).
type catalogEntry struct {
	slug, name, description string
	defaultEffort           string
	efforts                 []string
	visibility              string
	priority                int
	window                  int
	parallel                bool
	inAPI                   bool
	minVersion              string
}

var codexEfforts = []string{"low", "medium", "high", "xhigh"}

// chatgptCatalog is what the fake's ChatGPT backend knows; the defaults
// serve all of it, a test's served list may name others.
var chatgptCatalog = []catalogEntry{
	{"gpt-5.5", "GPT-5.5", "Frontier model for complex coding, research, and real-world work.", "medium", codexEfforts, "list", 7, 272000, true, true, "0.124.0"},
	{"gpt-5.4", "GPT-5.4", "Strong model for everyday coding.", "medium", codexEfforts, "list", 16, 272000, true, true, "0.98.0"},
	{"gpt-5.4-mini", "GPT-5.4-Mini", "Small, fast, and cost-efficient model for simpler coding tasks.", "medium", codexEfforts, "list", 23, 272000, true, true, "0.98.0"},
	{"gpt-5.3-codex-spark", "GPT-5.3-Codex-Spark", "Text-only research preview model optimized for near-instant, real-time coding iteration.", "high", codexEfforts, "list", 30, 128000, true, false, "0.98.0"},
	{"codex-auto-review", "Codex Auto Review", "Automatic approval review model for Codex.", "medium", codexEfforts, "hide", 43, 272000, true, true, "0.98.0"},
}

// DefaultChatGPTModels and DefaultAPIModels are the ids each endpoint
// serves unless a test sets its own (Script.SetModels).
var (
	DefaultChatGPTModels = catalogIDs()
	DefaultAPIModels     = []string{"gpt-5.5", "gpt-5.4", "gpt-5.4-mini", "gpt-5", "gpt-5-mini", "gpt-5-chat-latest",
		"gpt-4.1", "gpt-4.1-2025-04-14", "o3", "text-embedding-3-small", "tts-1", "whisper-1", "dall-e-3",
		"gpt-image-1", "gpt-4o-realtime-preview", "gpt-4o-mini-transcribe", "omni-moderation-latest"}
)

func catalogIDs() []string {
	ids := make([]string, len(chatgptCatalog))
	for i, c := range chatgptCatalog {
		ids[i] = c.slug
	}
	return ids
}

func defaultModels(chatgpt bool) []string {
	if chatgpt {
		return DefaultChatGPTModels
	}
	return DefaultAPIModels
}

// reasoningModel is the real service's split: reasoning models reject
// temperature and top_p, the others reject reasoning.effort. The gpt-5
// family, the o-series and codex models reason, except gpt-5-chat.
func reasoningModel(id string) bool {
	switch {
	case strings.HasPrefix(id, "gpt-5-chat"):
		return false
	case strings.HasPrefix(id, "gpt-5"), strings.HasPrefix(id, "gpt-6"), strings.Contains(id, "codex"):
		return true
	}
	return len(id) > 1 && id[0] == 'o' && id[1] >= '1' && id[1] <= '9'
}

// entryFor is the catalog entry of id, or one made up for an id a test
// serves that the catalog lacks.
func entryFor(id string, i int) catalogEntry {
	for _, c := range chatgptCatalog {
		if c.slug == id {
			return c
		}
	}
	return catalogEntry{slug: id, name: id, defaultEffort: "medium", efforts: codexEfforts, visibility: "list",
		priority: 100 + i, window: 272000, parallel: true, inAPI: true, minVersion: "0.0.1"}
}

// codexModels serves GET /backend-api/codex/models?client_version=…: the
// served models in codex_protocol's ModelsResponse shape, without those
// whose minimal_client_version is newer than client_version. "0.0.0" is the
// ungated sentinel (zed-industries/zed#62729).
func (s *Server) codexModels(w http.ResponseWriter, r *http.Request) {
	rec := record(r, nil)
	if rej := s.checkAuth(r, true); rej != nil {
		s.reject(w, rec, rej)
		return
	}
	v := r.URL.Query().Get("client_version")
	if v == "" {
		// [unconfirmed] body; hermes-agent#34180 reports a 400 "missing
		// client_version".
		s.reject(w, rec, detail("client_version is required", "missing client_version"))
		return
	}
	var models []any
	for i, id := range s.Script.Models(DefaultChatGPTModels) {
		c := entryFor(id, i)
		if v != "0.0.0" && versionLess(v, c.minVersion) {
			continue
		}
		c.window = s.Script.Window(c.window)
		models = append(models, c.wire())
	}
	if models == nil {
		models = []any{}
	}
	rec.Status = http.StatusOK
	s.Script.Record(rec)
	w.Header().Set("ETag", `W/"openaifake"`)
	writeJSON(w, http.StatusOK, mustJSON(map[string]any{"models": models}))
}

// wire is the entry as the backend sends it.
func (c catalogEntry) wire() map[string]any {
	levels := make([]any, len(c.efforts))
	for i, e := range c.efforts {
		levels[i] = map[string]any{"effort": e, "description": e + " reasoning"}
	}
	return map[string]any{
		"slug": c.slug, "display_name": c.name, "description": c.description,
		"default_reasoning_level": c.defaultEffort, "supported_reasoning_levels": levels,
		"shell_type": "shell_command", "visibility": c.visibility, "minimal_client_version": c.minVersion,
		"supported_in_api": c.inAPI, "priority": c.priority, "upgrade": nil, "base_instructions": "",
		"supports_reasoning_summaries": true, "support_verbosity": true, "default_verbosity": "low",
		"apply_patch_tool_type": "freeform", "truncation_policy": map[string]any{"mode": "tokens", "limit": 10000},
		"supports_parallel_tool_calls": c.parallel, "context_window": c.window, "max_context_window": c.window,
		"experimental_supported_tools": []any{}, "input_modalities": []any{"text", "image"},
	}
}

// apiModels serves GET /v1/models: {"object":"list","data":[…]}.
func (s *Server) apiModels(w http.ResponseWriter, r *http.Request) {
	rec := record(r, nil)
	if rej := s.checkAuth(r, false); rej != nil {
		s.reject(w, rec, rej)
		return
	}
	ids := s.Script.Models(DefaultAPIModels)
	data := make([]any, len(ids))
	for i, id := range ids {
		owner := "system"
		if strings.HasPrefix(id, "gpt-5") || strings.HasPrefix(id, "o3") {
			owner = "openai"
		}
		// Older ids first, as the real list is unordered; created only
		// has to differ.
		data[i] = map[string]any{"id": id, "object": "model", "created": 1_700_000_000 + i*86_400, "owned_by": owner}
	}
	rec.Status = http.StatusOK
	s.Script.Record(rec)
	writeJSON(w, http.StatusOK, mustJSON(map[string]any{"object": "list", "data": data}))
}

// versionLess compares dotted versions numerically ("0.9.0" < "0.98.0").
func versionLess(a, b string) bool {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) || i < len(pb); i++ {
		x, y := part(pa, i), part(pb, i)
		if x != y {
			return x < y
		}
	}
	return false
}

func part(parts []string, i int) int {
	if i >= len(parts) {
		return 0
	}
	n, _ := strconv.Atoi(parts[i])
	return n
}

// checkModel refuses a model off the served list and, on the ChatGPT
// backend, one whose minimal_client_version is newer than the version
// header (diegosouzapw/OmniRoute PR #12827). Without the header the
// backend's answer is reported both ways; the fake does not check.
func (s *Server) checkModel(model, version string, chatgpt bool) *rejection {
	served := s.Script.Models(defaultModels(chatgpt))
	i := slices.Index(served, model)
	if i < 0 {
		return unservedModel(model, chatgpt)
	}
	if chatgpt && version != "" && versionLess(version, entryFor(model, i).minVersion) {
		return detail("model needs a newer client version",
			fmt.Sprintf("The '%s' model requires a newer version of Codex. Please upgrade to the latest app or CLI and try again.", model))
	}
	return nil
}

// unservedModel is the real refusal of a model the account or key cannot
// use: the ChatGPT backend's 400 (openai/codex#26053) or the API's 404
// (docs/providers/openai.md §Errors).
func unservedModel(model string, chatgpt bool) *rejection {
	if chatgpt {
		return detail("model must be on the account's list",
			fmt.Sprintf("The '%s' model is not supported when using Codex with a ChatGPT account.", model))
	}
	return apiError(http.StatusNotFound, "model must be on the key's list",
		fmt.Sprintf("The model `%s` does not exist or you do not have access to it.", model), "", "model_not_found")
}
