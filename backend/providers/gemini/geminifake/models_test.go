package geminifake_test

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"maestro/backend/providers/gemini/geminifake"
)

func get(t *testing.T, url string, headers map[string]string) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

type listPage struct {
	Models []struct {
		Name                       string   `json:"name"`
		InputTokenLimit            int      `json:"inputTokenLimit"`
		SupportedGenerationMethods []string `json:"supportedGenerationMethods"`
		Thinking                   bool     `json:"thinking"`
	} `json:"models"`
	NextPageToken string `json:"nextPageToken"`
}

// TestListModels: every page, followed by nextPageToken, lists the served
// models and the non-chat ones; the key is required.
func TestListModels(t *testing.T) {
	t.Parallel()
	_, srv := newServer(t)
	key := map[string]string{"x-goog-api-key": apiKey}
	if status, body := get(t, srv.URL+"/v1beta/models", nil); status != 403 || !strings.Contains(string(body), "unregistered callers") {
		t.Errorf("no key: got %d %s; want 403", status, body)
	}
	var names []string
	token, pages := "", 0
	for {
		url := srv.URL + "/v1beta/models?pageSize=3"
		if token != "" {
			url += "&pageToken=" + token
		}
		status, body := get(t, url, key)
		if status != 200 {
			t.Fatalf("page %d: got %d %s", pages, status, body)
		}
		var p listPage
		if err := json.Unmarshal(body, &p); err != nil {
			t.Fatal(err)
		}
		pages++
		for _, m := range p.Models {
			names = append(names, m.Name)
			if m.Name == "models/gemini-2.5-pro" && (!m.Thinking || m.InputTokenLimit != 1048576 ||
				!slices.Contains(m.SupportedGenerationMethods, "generateContent")) {
				t.Errorf("got %+v; want a thinking generateContent model with 1048576 input tokens", m)
			}
		}
		if token = p.NextPageToken; token == "" {
			break
		}
	}
	want := len(geminifake.DefaultModels()) + 6
	if len(names) != want || pages != (want+2)/3 {
		t.Errorf("got %d models on %d pages (%v); want %d on %d", len(names), pages, names, want, (want+2)/3)
	}
	for _, n := range []string{"models/gemini-3.5-flash", "models/gemini-embedding-001", "models/gemini-2.5-flash-preview-tts"} {
		if !slices.Contains(names, n) {
			t.Errorf("list lacks %s", n)
		}
	}
}

// TestServedModels: Script.SetModels changes the list, the quota buckets
// and what the generate endpoints accept.
func TestServedModels(t *testing.T) {
	t.Parallel()
	f, srv := newServer(t)
	f.Script.SetModels([]string{"gemini-2.5-flash", "gemini-3.5-flash"})
	_, body := get(t, srv.URL+"/v1beta/models?pageSize=1000", map[string]string{"x-goog-api-key": apiKey})
	var p listPage
	_ = json.Unmarshal(body, &p)
	if len(p.Models) != 2+6 || p.Models[0].Name != "models/gemini-2.5-flash" {
		t.Errorf("got list %s; want the two served models and the non-chat ones", body)
	}
	status, body := call{path: "/v1internal:retrieveUserQuota", body: map[string]string{"project": project},
		headers: map[string]string{"Authorization": "Bearer " + token}}.do(t, srv)
	var q struct {
		Buckets []struct {
			ModelID   string `json:"modelId"`
			TokenType string `json:"tokenType"`
		} `json:"buckets"`
	}
	_ = json.Unmarshal(body, &q)
	if status != 200 || len(q.Buckets) != 2 || q.Buckets[0].ModelID != "gemini-2.5-flash" || q.Buckets[1].ModelID != "gemini-3-flash" {
		t.Errorf("quota: got %d %s; want buckets for gemini-2.5-flash and gemini-3-flash", status, body)
	}
	if status, _ := public(valid()).do(t, srv); status != 404 {
		t.Errorf("gemini-2.5-pro after SetModels: got %d; want 404", status)
	}
	flash := call{path: "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", body: valid(), headers: map[string]string{"x-goog-api-key": apiKey}}
	if status, body := flash.do(t, srv); status != 200 {
		t.Errorf("served model: got %d %s; want 200", status, body)
	}
}

func TestUserQuotaRejects(t *testing.T) {
	t.Parallel()
	_, srv := newServer(t)
	tests := []struct {
		name       string
		c          call
		wantStatus int
		wantInBody string
	}{
		{"no bearer", call{path: "/v1internal:retrieveUserQuota", body: map[string]string{"project": project}}, 401, "CREDENTIALS_MISSING"},
		{"no project", call{path: "/v1internal:retrieveUserQuota", body: map[string]string{},
			headers: map[string]string{"Authorization": "Bearer " + token}}, 400, "invalid argument"},
		{"other project", call{path: "/v1internal:retrieveUserQuota", body: map[string]string{"project": "other"},
			headers: map[string]string{"Authorization": "Bearer " + token}}, 403, "cloudaicompanion.companions.generateChat"},
	}
	for _, tt := range tests {
		if status, body := tt.c.do(t, srv); status != tt.wantStatus || !strings.Contains(string(body), tt.wantInBody) {
			t.Errorf("%s: got %d %s; want %d containing %q", tt.name, status, body, tt.wantStatus, tt.wantInBody)
		}
	}
}
