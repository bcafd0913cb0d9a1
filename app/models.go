package app

import (
	"context"
	"errors"
	"time"

	"maestro/backend/chat"
	"maestro/backend/providers/catalog"
)

// Settings that choose the model of a new chat.
const (
	// settingDefaultModel is the model the user chose in Settings for new
	// chats (a ModelChoiceDTO); absent means "the one last used".
	settingDefaultModel = "defaultModel"
	// settingLastModel is the model the user last picked for a chat.
	settingLastModel = "lastModel"
)

// ModelChoiceDTO names one model of one provider.
type ModelChoiceDTO struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
}

// SetSessionModel switches a session to provider and model; the next
// request renders the whole history for it. The choice is remembered as
// the last one used, which new chats start on.
func (a *App) SetSessionModel(sessionID, provider, model string) (SessionDTO, error) {
	if !knownProvider(provider) {
		return SessionDTO{}, chat.E(chat.ErrInvalid, "unknown provider %q", provider)
	}
	if model == "" {
		return SessionDTO{}, chat.E(chat.ErrInvalid, "choose a model")
	}
	st, ctx, cancel, err := a.ready()
	if err != nil {
		return SessionDTO{}, err
	}
	defer cancel()
	s, err := st.UpdateSession(ctx, sessionID, func(s *chat.Session) error {
		s.Provider, s.Model = provider, model
		return nil
	})
	if err != nil {
		return SessionDTO{}, err
	}
	if err := st.PutSetting(ctx, settingLastModel, ModelChoiceDTO{Provider: provider, Model: model}); err != nil {
		a.log.Warn("remember the last model", "err", err)
	}
	a.emit(EventSessionsChanged)
	return sessionDTO(s), nil
}

// DefaultModel is the model chosen in Settings for new chats; the zero
// choice means new chats start on the model last used.
func (a *App) DefaultModel() (ModelChoiceDTO, error) {
	st, ctx, cancel, err := a.ready()
	if err != nil {
		return ModelChoiceDTO{}, err
	}
	defer cancel()
	var c ModelChoiceDTO
	if err := st.Setting(ctx, settingDefaultModel, &c); err != nil && !errors.Is(err, chat.ErrNotFound) {
		return ModelChoiceDTO{}, err
	}
	return c, nil
}

// SetDefaultModel sets the model new chats start on; an empty provider
// means the model last used.
func (a *App) SetDefaultModel(provider, model string) (ModelChoiceDTO, error) {
	c := ModelChoiceDTO{Provider: provider, Model: model}
	if provider != "" && (!knownProvider(provider) || model == "") {
		return ModelChoiceDTO{}, chat.E(chat.ErrInvalid, "choose a provider and one of its models, or none")
	}
	if provider == "" {
		c = ModelChoiceDTO{}
	}
	st, ctx, cancel, err := a.ready()
	if err != nil {
		return ModelChoiceDTO{}, err
	}
	defer cancel()
	if err := st.PutSetting(ctx, settingDefaultModel, c); err != nil {
		return ModelChoiceDTO{}, err
	}
	return c, nil
}

// ListModels lists the providers and their models, with whether each has
// credentials.
func (a *App) ListModels() []ProviderModelsDTO {
	if a.chat == nil || a.chat.deps.Catalog == nil {
		return nil
	}
	a.mu.RLock()
	root := a.root
	a.mu.RUnlock()
	if root == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(root, 10*time.Second)
	defer cancel()
	return providerModelsDTOs(a.chat.deps.Catalog.Providers(ctx))
}

// RefreshModels fetches provider's model list again; models:changed
// follows when it lands.
func (a *App) RefreshModels(provider string) error {
	if err := validProvider(provider); err != nil {
		return err
	}
	if a.chat == nil || a.chat.deps.Catalog == nil {
		return chat.E(chat.ErrUnavailable, "the model catalog is not available")
	}
	a.chat.deps.Catalog.RefreshSoon(provider)
	return nil
}

// settingsReader reads one setting (the store).
type settingsReader interface {
	Setting(ctx context.Context, key string, v any) error
}

// startingModel is the model a new chat starts on: the one set in
// Settings, else the one last used, else the first model of the first
// provider the user has credentials for. A choice whose provider has no
// credentials now, or whose model the provider refused for the account,
// is passed over. The zero choice means none is usable.
func startingModel(ctx context.Context, st settingsReader, providers []catalog.Provider) ModelChoiceDTO {
	usable := func(c ModelChoiceDTO) bool {
		for _, p := range providers {
			if p.ID != c.Provider || !p.Available {
				continue
			}
			for _, m := range p.Models {
				if m.ID == c.Model {
					return m.Unavailable == ""
				}
			}
			// A model the list does not name may still be served (an
			// older list, a model chosen by id); the request will say.
			return true
		}
		return false
	}
	for _, key := range []string{settingDefaultModel, settingLastModel} {
		var c ModelChoiceDTO
		if err := st.Setting(ctx, key, &c); err == nil && c.Provider != "" && usable(c) {
			return c
		}
	}
	for _, p := range providers {
		if !p.Available {
			continue
		}
		for _, m := range p.Models {
			if m.Unavailable == "" {
				return ModelChoiceDTO{Provider: p.ID, Model: m.ID}
			}
		}
	}
	return ModelChoiceDTO{}
}

// pickDefaultModel gives a session with no model the starting model, so a
// chat created before any sign-in just works once there is one.
func (c *chatState) pickDefaultModel(sessionID string) {
	if c.deps.Catalog == nil {
		return
	}
	st, ctx, cancel, err := c.app.ready()
	if err != nil {
		return
	}
	defer cancel()
	s, err := st.Session(ctx, sessionID)
	if err != nil || s.Provider != "" {
		return
	}
	choice := startingModel(ctx, st, c.deps.Catalog.Providers(ctx))
	if choice.Provider == "" {
		return
	}
	if _, err := st.UpdateSession(ctx, sessionID, func(s *chat.Session) error {
		s.Provider, s.Model = choice.Provider, choice.Model
		return nil
	}); err != nil {
		c.app.log.Warn("pick a default model", "session", sessionID, "err", err)
		return
	}
	c.app.emit(EventSessionsChanged)
}
