package gemini

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"maestro/backend/chat"
)

const (
	listPageSize = 1000
	maxListPages = 20
	maxListBody  = 8 << 20
)

// Models returns the models this account can chat with, default first
// (docs/providers/gemini.md §Model list):
//
//   - API key: the service's own list (GET v1beta/models, every page),
//     kept to Gemini chat models that support generateContent;
//   - Code Assist: the list gemini-cli ships, with its preview models only
//     when retrieveUserQuota shows a preview model among the account's
//     quota buckets (gemini-cli's rule); when that call fails, the list
//     without previews.
func (m *Model) Models(ctx context.Context) ([]chat.ModelInfo, error) {
	if m.apiKey != "" {
		return m.listModels(ctx)
	}
	previews, err := m.previewAccess(ctx)
	if err != nil && ctx.Err() != nil {
		return nil, fmt.Errorf("gemini: retrieve user quota: %w", ctx.Err())
	}
	if err != nil && m.log != nil {
		m.log.WarnContext(ctx, "gemini: retrieve user quota; listing no preview models", "error", err)
	}
	return codeAssistList(previews), nil
}

// apiModel is one entry of the Gemini API's model list.
type apiModel struct {
	Name                       string   `json:"name"`
	DisplayName                string   `json:"displayName"`
	InputTokenLimit            int      `json:"inputTokenLimit"`
	OutputTokenLimit           int      `json:"outputTokenLimit"`
	SupportedGenerationMethods []string `json:"supportedGenerationMethods"`
	Thinking                   bool     `json:"thinking"`
}

func (m *Model) listModels(ctx context.Context) ([]chat.ModelInfo, error) {
	var out []chat.ModelInfo
	token := ""
	for range maxListPages {
		q := url.Values{"pageSize": {fmt.Sprint(listPageSize)}}
		if token != "" {
			q.Set("pageToken", token)
		}
		var page struct {
			Models        []apiModel `json:"models"`
			NextPageToken string     `json:"nextPageToken"`
		}
		if err := m.call(ctx, http.MethodGet, m.baseURL+"/v1beta/models?"+q.Encode(), nil, &page); err != nil {
			return nil, fmt.Errorf("gemini: list models: %w", err)
		}
		for _, am := range page.Models {
			if info, ok := chatModel(am); ok {
				out = append(out, info)
			}
		}
		if token = page.NextPageToken; token == "" {
			break
		}
	}
	def := Builtin()[0].ID
	if i := slices.IndexFunc(out, func(mi chat.ModelInfo) bool { return mi.ID == def }); i > 0 {
		d := out[i]
		out = slices.Insert(slices.Delete(out, i, i+1), 0, d)
	}
	return out, nil
}

// notChat are id fragments of Gemini models a chat cannot use: embeddings,
// attributed QA, image and speech generation, the Live API.
var notChat = []string{"embedding", "aqa", "imagen", "tts", "live", "native-audio", "image"}

// chatModel reports whether am is a Gemini chat model, and what the list
// says about it, completed from the built-in table.
func chatModel(am apiModel) (chat.ModelInfo, bool) {
	id := strings.TrimPrefix(am.Name, "models/")
	if !strings.HasPrefix(id, "gemini-") || !slices.Contains(am.SupportedGenerationMethods, "generateContent") {
		return chat.ModelInfo{}, false
	}
	for _, frag := range notChat {
		if strings.Contains(id, frag) {
			return chat.ModelInfo{}, false
		}
	}
	info := chat.ModelInfo{ID: id, Name: am.DisplayName, ContextWindow: am.InputTokenLimit,
		MaxOutputTokens: am.OutputTokenLimit, Reasoning: am.Thinking,
		Preview: strings.Contains(id, "-preview") || strings.Contains(id, "-exp")}
	return info.Fill(Lookup(id)), true
}

// previewAccess asks Code Assist for the account's quota buckets: a bucket
// for a preview model means the account may use previews.
func (m *Model) previewAccess(ctx context.Context) (bool, error) {
	if m.project == "" {
		return false, fmt.Errorf("no Code Assist project configured: %w", chat.ErrInvalid)
	}
	body, _ := json.Marshal(map[string]string{"project": m.project})
	var quota struct {
		Buckets []struct {
			ModelID string `json:"modelId"`
		} `json:"buckets"`
	}
	if err := m.call(ctx, http.MethodPost, m.baseURL+"/v1internal:retrieveUserQuota", body, &quota); err != nil {
		return false, err
	}
	for _, b := range quota.Buckets {
		id := userModel(b.ModelID)
		if slices.ContainsFunc(codeAssistModels, func(m codeAssistModel) bool { return m.id == id && m.preview }) {
			return true, nil
		}
	}
	return false, nil
}

// call sends one JSON request and decodes the answer into out; a non-2xx
// answer is classified as Stream's are.
func (m *Model) call(ctx context.Context, method, target string, body []byte, out any) error {
	resp, err := m.send(ctx, method, target, body)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxListBody))
	if err != nil {
		return &chat.ProviderError{Provider: chat.ProviderGemini, Status: resp.StatusCode, Kind: chat.ProviderKindServer,
			Message: "read response", Err: err}
	}
	if resp.StatusCode/100 != 2 {
		return classify(resp.StatusCode, resp.Header, b)
	}
	if err := json.Unmarshal(b, out); err != nil {
		return &chat.ProviderError{Provider: chat.ProviderGemini, Status: resp.StatusCode, Kind: chat.ProviderKindServer,
			Message: "decode response", Err: err}
	}
	return nil
}
