package app

import (
	"context"
	"encoding/json"
	"testing"

	"maestro/backend/chat"
	"maestro/backend/providers/catalog"
)

// settingsMap is a settingsReader over JSON values.
type settingsMap map[string]any

func (m settingsMap) Setting(_ context.Context, key string, v any) error {
	x, ok := m[key]
	if !ok {
		return chat.ErrNotFound
	}
	b, _ := json.Marshal(x)
	return json.Unmarshal(b, v)
}

func TestStartingModel(t *testing.T) {
	t.Parallel()
	model := func(id, refused string) catalog.Model {
		return catalog.Model{ModelInfo: chat.ModelInfo{ID: id}, Unavailable: refused}
	}
	providers := []catalog.Provider{
		{ID: "anthropic", Available: false, Models: []catalog.Model{model("claude-sonnet-4-6", "")}},
		{ID: "openai", Available: true, Models: []catalog.Model{model("gpt-5", "not on your plan"), model("gpt-5.5", "")}},
		{ID: "gemini", Available: true, Models: []catalog.Model{model("gemini-2.5-pro", "")}},
	}
	choice := func(p, m string) ModelChoiceDTO { return ModelChoiceDTO{Provider: p, Model: m} }
	tests := []struct {
		name     string
		settings settingsMap
		want     ModelChoiceDTO
	}{
		{"nothing set: the first usable model", settingsMap{}, choice("openai", "gpt-5.5")},
		{"the last one used", settingsMap{settingLastModel: choice("gemini", "gemini-2.5-pro")}, choice("gemini", "gemini-2.5-pro")},
		{"Settings wins over the last one", settingsMap{settingDefaultModel: choice("gemini", "gemini-2.5-pro"),
			settingLastModel: choice("openai", "gpt-5.5")}, choice("gemini", "gemini-2.5-pro")},
		{"a default without credentials is passed over", settingsMap{settingDefaultModel: choice("anthropic", "claude-sonnet-4-6"),
			settingLastModel: choice("gemini", "gemini-2.5-pro")}, choice("gemini", "gemini-2.5-pro")},
		{"a refused model is passed over", settingsMap{settingLastModel: choice("openai", "gpt-5")}, choice("openai", "gpt-5.5")},
		{"a model the list does not name is kept", settingsMap{settingLastModel: choice("gemini", "gemini-9")}, choice("gemini", "gemini-9")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := startingModel(t.Context(), tt.settings, providers); got != tt.want {
				t.Errorf("startingModel = %+v; want %+v", got, tt.want)
			}
		})
	}
	none := []catalog.Provider{{ID: "openai", Available: false, Models: []catalog.Model{model("gpt-5.5", "")}}}
	if got := startingModel(t.Context(), settingsMap{}, none); got != (ModelChoiceDTO{}) {
		t.Errorf("no credentials: %+v; want no model", got)
	}
}

// TestNewChatStartsOnTheLastModel: a new chat starts on the model the user
// picked last, or on the one set in Settings.
func TestNewChatStartsOnTheLastModel(t *testing.T) {
	t.Parallel()
	a, _, _ := startChatApp(t)
	first, _ := a.Sessions.Create("")
	if first.Provider != chat.ProviderGemini || first.Model != "gemini-2.5-pro" {
		t.Fatalf("first chat on %s/%s; want the first usable model", first.Provider, first.Model)
	}
	if _, err := a.Chat.SetSessionModel(first.ID, chat.ProviderGemini, "gemini-2.5-flash"); err != nil {
		t.Fatal(err)
	}
	second, _ := a.Sessions.Create("")
	if second.Model != "gemini-2.5-flash" {
		t.Errorf("second chat on %s; want the one last used, gemini-2.5-flash", second.Model)
	}
	if _, err := a.Settings.SetDefaultModel(chat.ProviderGemini, "gemini-2.5-pro"); err != nil {
		t.Fatal(err)
	}
	third, _ := a.Sessions.Create("")
	if third.Model != "gemini-2.5-pro" {
		t.Errorf("with a default set: %s; want gemini-2.5-pro", third.Model)
	}
	if c, _ := a.Settings.DefaultModel(); c.Model != "gemini-2.5-pro" {
		t.Errorf("DefaultModel = %+v", c)
	}
	if _, err := a.Settings.SetDefaultModel("nope", "x"); chat.Kind(err) != chat.KindInvalid {
		t.Errorf("unknown provider: %v", err)
	}
}
