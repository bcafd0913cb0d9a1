package openai

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"maestro/backend/chat"
)

// Model lists (docs/providers/openai.md §Model list): the service's own list
// first, the built-in table for what the list does not say.

const (
	// DefaultClientVersion is the Codex client version Maestro reports to
	// the ChatGPT backend: as client_version when it lists models and as the
	// version header on responses. The backend hides, and refuses, models
	// whose minimal_client_version is newer (askalf/dario#1360,
	// bman654/clodex#271: gpt-6-sol and gpt-6-luna need 0.155.0, and
	// clodex raised its pin to 0.156.0 for them on 2026-09-23).
	DefaultClientVersion = "0.156.0"
	// ClientVersionEnv overrides DefaultClientVersion when a newer Codex
	// release gates a model Maestro does not list yet.
	ClientVersionEnv = "MAESTRO_CODEX_CLIENT_VERSION"

	// ChatGPTModelsPath and APIModelsPath are the model list endpoints.
	ChatGPTModelsPath = "/backend-api/codex/models"
	APIModelsPath     = "/v1/models"

	maxListBody = 8 << 20
)

// Reasoning efforts per family, as the Codex model list and OpenAI's model
// pages give them.
var (
	effortsGPT5     = []string{"minimal", "low", "medium", "high"}
	effortsCodex    = []string{"low", "medium", "high", "xhigh"}
	effortsLuna     = []string{"low", "medium", "high", "xhigh", "max"}
	effortsSolTerra = []string{"low", "medium", "high", "xhigh", "max", "ultra"}
	effortsO        = []string{"low", "medium", "high"}
)

func reasoner(window, output int, efforts []string, def string) chat.ModelInfo {
	return chat.ModelInfo{ContextWindow: window, MaxOutputTokens: output, Reasoning: true,
		Thinking: chat.ThinkingEffort, Efforts: efforts, DefaultEffort: def}
}

// families is the built-in table, most specific prefix first. Every number
// has its source in docs/providers/openai.md §Model list (its built-in table). Where the
// ChatGPT backend's window (Codex's context_window) is smaller than the
// public API's, the smaller one is kept: a budget too small only compacts
// sooner, one too large fails the request.
var families = []chat.ModelFamily{
	{Prefix: "gpt-5.6-sol", Info: reasoner(372000, 128000, effortsSolTerra, "low")},
	{Prefix: "gpt-5.6-terra", Info: reasoner(372000, 128000, effortsSolTerra, "medium")},
	{Prefix: "gpt-5.6", Info: reasoner(372000, 128000, effortsLuna, "medium")},
	// No source gives gpt-6's limits yet: the smallest window of the
	// GPT-5.4 and later rows stands in (a budget too small only compacts
	// sooner), until a model list says otherwise.
	{Prefix: "gpt-6", Info: reasoner(272000, 128000, nil, "")},
	{Prefix: "gpt-5.5", Info: reasoner(272000, 128000, effortsCodex, "medium")},
	{Prefix: "gpt-5.4-mini", Info: reasoner(400000, 128000, effortsCodex, "medium")},
	{Prefix: "gpt-5.4", Info: reasoner(272000, 128000, effortsCodex, "medium")},
	{Prefix: "gpt-5.3-codex-spark", Info: reasoner(128000, 0, nil, "")},
	// gpt-5-chat-latest is the one gpt-5 model that does not reason: it
	// rejects reasoning.effort and takes temperature.
	{Prefix: "gpt-5-chat", Info: chat.ModelInfo{ContextWindow: 128000, MaxOutputTokens: 16384}},
	{Prefix: "gpt-5", Info: reasoner(400000, 128000, effortsGPT5, "medium")},
	{Prefix: "o1", Info: reasoner(200000, 100000, effortsO, "medium")},
	{Prefix: "o3", Info: reasoner(200000, 100000, effortsO, "medium")},
	{Prefix: "o4", Info: reasoner(200000, 100000, effortsO, "medium")},
	{Prefix: "gpt-4.1", Info: chat.ModelInfo{ContextWindow: 1047576, MaxOutputTokens: 32768}},
	{Prefix: "gpt-4o", Info: chat.ModelInfo{ContextWindow: 128000, MaxOutputTokens: 16384}},
}

// Lookup is what Maestro knows about an OpenAI model id without asking the
// service; the zero ModelInfo when nothing is known.
func Lookup(id string) chat.ModelInfo { return chat.LookupFamily(families, id) }

// Builtin is the picker's list when the service's cannot be had, default
// first: the two models every ChatGPT plan is served, free included
// (router-for-me/CLIProxyAPI#3647), and that an API key can use.
func Builtin() []chat.ModelInfo {
	named := func(id, name string) chat.ModelInfo {
		info := Lookup(id)
		info.Name = name
		return info
	}
	return []chat.ModelInfo{named("gpt-5.5", "GPT-5.5"), named("gpt-5.4-mini", "GPT-5.4 mini")}
}

// modelInfo is what the request says about its model, else the table's.
func modelInfo(req chat.Request) chat.ModelInfo {
	if req.Info.ID == req.Model && req.Info.Known() {
		return req.Info
	}
	return Lookup(req.Model)
}

// Models returns the models this account (ChatGPT) or key (API) can chat
// with, in display order, default first. Errors are *chat.ProviderError,
// classified as Stream's.
func (m *Model) Models(ctx context.Context) ([]chat.ModelInfo, error) {
	hr, err := m.newModelsRequest(ctx)
	if err != nil {
		return nil, err
	}
	resp, err := m.do(ctx, hr, "list models")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxListBody))
	if err != nil {
		return nil, &chat.ProviderError{Provider: chat.ProviderOpenAI, Status: resp.StatusCode,
			Kind: chat.ProviderKindServer, Message: "read model list", Err: err}
	}
	var list []chat.ModelInfo
	if m.apiKey != "" {
		list, err = parseAPIModels(body)
	} else {
		list, err = parseCodexModels(body)
	}
	if err == nil && len(list) == 0 {
		err = fmt.Errorf("no chat model in the list")
	}
	if err != nil {
		return nil, &chat.ProviderError{Provider: chat.ProviderOpenAI, Status: resp.StatusCode,
			Kind: chat.ProviderKindServer, Message: "decode model list", RequestID: requestID(resp.Header), Err: err}
	}
	return list, nil
}

// ModelsURL is the model list endpoint for this mode.
func (m *Model) ModelsURL() string {
	if m.apiKey != "" {
		return m.apiBase() + APIModelsPath
	}
	return m.chatgptBase() + ChatGPTModelsPath + "?client_version=" + url.QueryEscape(m.clientVersion)
}

func (m *Model) newModelsRequest(ctx context.Context) (*http.Request, error) {
	if m.apiKey == "" && m.accountID == "" {
		return nil, fmt.Errorf("openai: chatgpt sign-in has no account id: %w", chat.ErrAuthRequired)
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodGet, m.ModelsURL(), nil)
	if err != nil {
		return nil, fmt.Errorf("openai: build model list request: %w", err)
	}
	hr.Header.Set("Accept", "application/json")
	m.setClientHeaders(hr.Header)
	return hr, nil
}

// codexModel is the part of codex_protocol's ModelInfo Maestro reads.
type codexModel struct {
	Slug                     string `json:"slug"`
	DisplayName              string `json:"display_name"`
	DefaultReasoningLevel    string `json:"default_reasoning_level"`
	SupportedReasoningLevels []struct {
		Effort string `json:"effort"`
	} `json:"supported_reasoning_levels"`
	Visibility                string `json:"visibility"`
	Priority                  int    `json:"priority"`
	ContextWindow             int    `json:"context_window"`
	SupportsParallelToolCalls *bool  `json:"supports_parallel_tool_calls"`
}

// parseCodexModels reads {"models":[ModelInfo…]}: the models Codex shows in
// its picker (visibility "list"), by priority (the lowest first, as Codex
// picks its default).
func parseCodexModels(body []byte) ([]chat.ModelInfo, error) {
	var resp struct {
		Models []codexModel `json:"models"`
	}
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, err
	}
	listed := slices.DeleteFunc(resp.Models, func(c codexModel) bool { return c.Visibility != "list" || c.Slug == "" })
	slices.SortStableFunc(listed, func(a, b codexModel) int { return cmp.Compare(a.Priority, b.Priority) })
	out := make([]chat.ModelInfo, 0, len(listed))
	for _, c := range listed {
		info := chat.ModelInfo{ID: c.Slug, Name: c.DisplayName, ContextWindow: c.ContextWindow,
			DefaultEffort:       c.DefaultReasoningLevel,
			NoParallelToolCalls: c.SupportsParallelToolCalls != nil && !*c.SupportsParallelToolCalls}
		for _, l := range c.SupportedReasoningLevels {
			info.Efforts = append(info.Efforts, l.Effort)
		}
		if len(info.Efforts) > 0 || info.DefaultEffort != "" {
			info.Reasoning, info.Thinking = true, chat.ThinkingEffort
		}
		out = append(out, info.Fill(Lookup(c.Slug)))
	}
	return out, nil
}

// nonChat are words in the ids of API models the Responses API cannot chat
// with (docs/providers/openai.md §Model list).
var nonChat = []string{"embedding", "tts", "whisper", "dall-e", "image", "audio", "realtime", "transcribe",
	"search", "moderation", "sora", "instruct", "davinci", "babbage", "computer-use", "deep-research"}

// datedSnapshot matches a pinned snapshot id such as gpt-4.1-2025-04-14.
var datedSnapshot = regexp.MustCompile(`-\d{4}-\d{2}-\d{2}$`)

// chatModel reports whether an API model id is one a chat can use.
func chatModel(id string) bool {
	oSeries := len(id) > 1 && id[0] == 'o' && id[1] >= '1' && id[1] <= '9'
	if !strings.HasPrefix(id, "gpt-") && !strings.HasPrefix(id, "chatgpt-") && !oSeries && !strings.Contains(id, "codex") {
		return false
	}
	for _, w := range nonChat {
		if strings.Contains(id, w) {
			return false
		}
	}
	return true
}

// apiModel is an entry of the API's model list.
type apiModel struct {
	ID      string `json:"id"`
	Created int64  `json:"created"`
}

// parseAPIModels reads {"object":"list","data":[{id,created,…}]}: chat
// models only, without dated snapshots of listed aliases, newest first and
// the built-in default ahead of all.
func parseAPIModels(body []byte) ([]chat.ModelInfo, error) {
	var resp struct {
		Data []apiModel `json:"data"`
	}
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, err
	}
	ids := map[string]bool{}
	for _, d := range resp.Data {
		ids[d.ID] = true
	}
	kept := slices.DeleteFunc(resp.Data, func(d apiModel) bool {
		snapshotOfListed := datedSnapshot.MatchString(d.ID) && ids[datedSnapshot.ReplaceAllString(d.ID, "")]
		return !chatModel(d.ID) || snapshotOfListed
	})
	def := Builtin()[0].ID
	slices.SortStableFunc(kept, func(a, b apiModel) int {
		if (a.ID == def) != (b.ID == def) {
			if a.ID == def {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(b.Created, a.Created), strings.Compare(a.ID, b.ID))
	})
	out := make([]chat.ModelInfo, len(kept))
	for i, d := range kept {
		out[i] = chat.ModelInfo{ID: d.ID, Name: d.ID}.Fill(Lookup(d.ID))
	}
	return out, nil
}
