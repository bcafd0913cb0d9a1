package app

import (
	"context"
	"slices"
	"strings"

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

// SetSessionModel switches a session to provider and model; the next
// request renders the whole history for it. The choice is remembered as
// the last one used, which new chats start on.
func (c *Chat) SetSessionModel(sessionID, provider, model string) (SessionDTO, error) {
	if err := validProvider(provider); err != nil {
		return SessionDTO{}, err
	}
	if model == "" {
		return SessionDTO{}, chat.E(chat.ErrInvalid, "choose a model")
	}
	run, ctx, cancel, err := c.core.call()
	if err != nil {
		return SessionDTO{}, err
	}
	defer cancel()
	s, err := run.store.UpdateSession(ctx, sessionID, func(s *chat.Session) error {
		s.Provider, s.Model = provider, model
		return nil
	})
	if err != nil {
		return SessionDTO{}, err
	}
	if err := run.store.PutSetting(ctx, settingLastModel, ModelChoiceDTO{Provider: provider, Model: model}); err != nil {
		c.core.log.Warn("remember the last model", "err", err)
	}
	c.core.events.emit(EventSessionsChanged, nil)
	return sessionDTO(s), nil
}

// ListModels lists the providers and their models, with whether each has
// credentials.
func (c *Chat) ListModels() ([]ProviderModelsDTO, error) {
	ctx, cancel, err := c.core.rootCall()
	if err != nil {
		return nil, err
	}
	defer cancel()
	return providerModelsDTOs(c.catalog.Providers(ctx)), nil
}

// RefreshModels fetches provider's model list again; models:changed
// follows when it lands.
func (c *Chat) RefreshModels(provider string) error {
	if err := validProvider(provider); err != nil {
		return err
	}
	c.catalog.RefreshSoon(provider)
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
func (c *Chat) pickDefaultModel(sessionID string) {
	run, ctx, cancel, err := c.core.call()
	if err != nil {
		return
	}
	defer cancel()
	s, err := run.store.Session(ctx, sessionID)
	if err != nil || s.Provider != "" {
		return
	}
	choice := startingModel(ctx, run.store, c.catalog.Providers(ctx))
	if choice.Provider == "" {
		return
	}
	if _, err := run.store.UpdateSession(ctx, sessionID, func(s *chat.Session) error {
		s.Provider, s.Model = choice.Provider, choice.Model
		return nil
	}); err != nil {
		c.core.log.Warn("pick a default model", "session", sessionID, "err", err)
		return
	}
	c.core.events.emit(EventSessionsChanged, nil)
}

func validProvider(p string) error {
	if slices.Contains(chat.Providers(), p) {
		return nil
	}
	return chat.E(chat.ErrInvalid, "unknown provider %.40q: want %s", p, strings.Join(chat.Providers(), ", "))
}
