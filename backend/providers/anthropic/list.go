package anthropic

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"maestro/backend/chat"
)

// Paging of GET /v1/models (docs/providers/anthropic.md, "Model list"): the
// largest page the API serves, and a bound on pages in case a server keeps
// saying has_more.
const (
	modelPageSize = 1000
	maxModelPages = 20
)

// modelPage is one page of the model list.
type modelPage struct {
	Data    []wireModel `json:"data"`
	HasMore bool        `json:"has_more"`
	LastID  string      `json:"last_id"`
}

// wireModel is one ModelInfo of the list, with the fields Maestro reads.
type wireModel struct {
	Type           string `json:"type"`
	ID             string `json:"id"`
	DisplayName    string `json:"display_name"`
	MaxInputTokens int    `json:"max_input_tokens"`
	MaxTokens      int    `json:"max_tokens"`
	Capabilities   struct {
		Thinking struct {
			Supported bool `json:"supported"`
			Types     struct {
				Adaptive capability `json:"adaptive"`
				Enabled  capability `json:"enabled"`
			} `json:"types"`
		} `json:"thinking"`
		// Effort holds "supported" and one capability per level.
		Effort map[string]json.RawMessage `json:"effort"`
	} `json:"capabilities"`
}

type capability struct {
	Supported bool `json:"supported"`
}

// Models lists the models this account can use in the Model's mode
// (subscription or API key), newest first with the default model moved to
// the front, each filled from Lookup. Failures are *chat.ProviderError
// like Stream's.
func (m *Model) Models(ctx context.Context) ([]chat.ModelInfo, error) {
	var out []chat.ModelInfo
	after := ""
	for range maxModelPages {
		page, err := m.modelPage(ctx, after)
		if err != nil {
			return nil, err
		}
		for _, w := range page.Data {
			if w.Type == "model" && strings.HasPrefix(w.ID, "claude-") {
				out = append(out, w.info())
			}
		}
		if !page.HasMore || page.LastID == "" || page.LastID == after {
			break
		}
		after = page.LastID
	}
	return defaultFirst(out), nil
}

// modelPage fetches the page after the model id after ("" for the first).
func (m *Model) modelPage(ctx context.Context, after string) (*modelPage, error) {
	q := url.Values{"limit": {fmt.Sprint(modelPageSize)}}
	if after != "" {
		q.Set("after_id", after)
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodGet, m.baseURL+"/v1/models?"+q.Encode(), nil)
	if err != nil {
		return nil, fmt.Errorf("anthropic: build model list request: %w", err)
	}
	m.setHeaders(hreq.Header, "application/json", false)
	resp, err := m.client.Do(hreq)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("anthropic: list models: %w", ctx.Err())
		}
		return nil, &chat.ProviderError{Provider: chat.ProviderAnthropic, Kind: chat.ProviderKindServer,
			Message: "send model list request", Err: err}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, classify(resp.StatusCode, resp.Header, data)
	}
	var page modelPage
	if err == nil {
		err = json.Unmarshal(data, &page)
	}
	if err != nil {
		return nil, &chat.ProviderError{Provider: chat.ProviderAnthropic, Status: resp.StatusCode, Kind: chat.ProviderKindServer,
			Message: "read model list", Err: err}
	}
	return &page, nil
}

// info turns a listed model into a ModelInfo: the list's own limits and
// thinking capabilities first, the built-in table for the rest.
func (w wireModel) info() chat.ModelInfo {
	info := chat.ModelInfo{ID: w.ID, Name: w.DisplayName, ContextWindow: w.MaxInputTokens, MaxOutputTokens: w.MaxTokens}
	th := w.Capabilities.Thinking
	switch {
	case th.Types.Adaptive.Supported:
		info.Thinking, info.Reasoning = chat.ThinkingAdaptive, true
	case th.Types.Enabled.Supported || th.Supported:
		info.Thinking, info.Reasoning = chat.ThinkingBudget, true
		info.MinThinkingBudget = minThinkingBudget
	}
	for _, level := range effortsLowToMax {
		var c capability
		if raw, ok := w.Capabilities.Effort[level]; ok && json.Unmarshal(raw, &c) == nil && c.Supported {
			info.Efforts = append(info.Efforts, level)
		}
	}
	return info.Fill(Lookup(w.ID))
}

// defaultFirst moves the first built-in model the list has (by id or as a
// dated snapshot of that alias) to the front; the rest keep the list's
// order.
func defaultFirst(list []chat.ModelInfo) []chat.ModelInfo {
	for _, b := range builtin {
		for i, m := range list {
			if m.ID == b.id || strings.HasPrefix(m.ID, b.id+"-2") {
				out := append([]chat.ModelInfo{m}, list[:i]...)
				return append(out, list[i+1:]...)
			}
		}
	}
	return list
}
