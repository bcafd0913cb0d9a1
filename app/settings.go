package app

import (
	"errors"
	"path/filepath"

	"maestro/backend/chat"
	"maestro/backend/store"
)

// settingTheme is the key of the theme setting in the data file.
const settingTheme = "theme"

// ThemeChoice is a theme Settings offers; system follows the desktop's
// light or dark preference as the web view reports it.
type ThemeChoice string

// The themes.
const (
	ThemeSystem ThemeChoice = "system"
	ThemeLight  ThemeChoice = "light"
	ThemeDark   ThemeChoice = "dark"
)

// Settings is the bound service of the Settings page and the shell's
// first question: the app's status (version, data file, whether it
// opened), the keychain, and the settings rows (theme, the model new
// chats start on).
type Settings struct {
	core     *core
	keychain Keychain
}

// Status reports the version, the data location and whether it opened;
// with a store error, the shell shows it in place of the sessions.
func (s *Settings) Status() StatusDTO {
	dto := StatusDTO{
		Version: s.core.version, DataDir: s.core.dataDir,
		DataFile: filepath.Join(s.core.dataDir, store.FileName),
	}
	run, ctx, cancel, err := s.core.call()
	if err != nil {
		dto.StoreError = errorDTO(err)
		return dto
	}
	defer cancel()
	var last string
	if err := run.store.Setting(ctx, settingLastSession, &last); err == nil {
		if _, err := run.store.Session(ctx, last); err == nil {
			dto.LastSessionID = last
		}
	}
	return dto
}

// KeychainStatus probes the OS keychain.
func (s *Settings) KeychainStatus() KeychainDTO {
	ctx, cancel, err := s.core.rootCall()
	if err != nil {
		return KeychainDTO{Message: "maestro is still starting"}
	}
	defer cancel()
	if err := s.keychain.Probe(ctx); err != nil {
		return KeychainDTO{Message: err.Error()}
	}
	return KeychainDTO{Available: true, Message: "The system keychain is available."}
}

// Theme is the theme chosen in Settings: "system" (the default), "light"
// or "dark".
func (s *Settings) Theme() (ThemeChoice, error) {
	run, ctx, cancel, err := s.core.call()
	if err != nil {
		return ThemeSystem, err
	}
	defer cancel()
	var t ThemeChoice
	if err := run.store.Setting(ctx, settingTheme, &t); err != nil && !errors.Is(err, chat.ErrNotFound) {
		return ThemeSystem, err
	}
	if !validTheme(t) {
		return ThemeSystem, nil
	}
	return t, nil
}

// SetTheme chooses the theme.
func (s *Settings) SetTheme(theme ThemeChoice) (ThemeChoice, error) {
	if !validTheme(theme) {
		return "", chat.E(chat.ErrInvalid, "the theme is system, light or dark, not %.40q", theme)
	}
	run, ctx, cancel, err := s.core.call()
	if err != nil {
		return "", err
	}
	defer cancel()
	if err := run.store.PutSetting(ctx, settingTheme, theme); err != nil {
		return "", err
	}
	return theme, nil
}

func validTheme(t ThemeChoice) bool {
	return t == ThemeSystem || t == ThemeLight || t == ThemeDark
}

// DefaultModel is the model chosen in Settings for new chats; the zero
// choice means new chats start on the model last used.
func (s *Settings) DefaultModel() (ModelChoiceDTO, error) {
	run, ctx, cancel, err := s.core.call()
	if err != nil {
		return ModelChoiceDTO{}, err
	}
	defer cancel()
	var c ModelChoiceDTO
	if err := run.store.Setting(ctx, settingDefaultModel, &c); err != nil && !errors.Is(err, chat.ErrNotFound) {
		return ModelChoiceDTO{}, err
	}
	return c, nil
}

// SetDefaultModel sets the model new chats start on; an empty provider
// means the model last used.
func (s *Settings) SetDefaultModel(provider, model string) (ModelChoiceDTO, error) {
	c := ModelChoiceDTO{Provider: provider, Model: model}
	if provider == "" {
		c = ModelChoiceDTO{}
	} else if validProvider(provider) != nil || model == "" {
		return ModelChoiceDTO{}, chat.E(chat.ErrInvalid, "choose a provider and one of its models, or none")
	}
	run, ctx, cancel, err := s.core.call()
	if err != nil {
		return ModelChoiceDTO{}, err
	}
	defer cancel()
	if err := run.store.PutSetting(ctx, settingDefaultModel, c); err != nil {
		return ModelChoiceDTO{}, err
	}
	return c, nil
}
