package app

import (
	"errors"

	"maestro/backend/chat"
)

// settingTheme is the key of the theme setting in the data file.
const settingTheme = "theme"

// The themes Settings offers; system follows the desktop's light or dark
// preference as the web view reports it.
const (
	ThemeSystem = "system"
	ThemeLight  = "light"
	ThemeDark   = "dark"
)

// Theme is the theme chosen in Settings: "system" (the default), "light" or
// "dark".
func (a *App) Theme() (string, error) {
	st, ctx, cancel, err := a.ready()
	if err != nil {
		return ThemeSystem, err
	}
	defer cancel()
	var t string
	if err := st.Setting(ctx, settingTheme, &t); err != nil && !errors.Is(err, chat.ErrNotFound) {
		return ThemeSystem, err
	}
	if !validTheme(t) {
		return ThemeSystem, nil
	}
	return t, nil
}

// SetTheme chooses the theme.
func (a *App) SetTheme(theme string) (string, error) {
	if !validTheme(theme) {
		return "", chat.E(chat.ErrInvalid, "the theme is system, light or dark, not %.40q", theme)
	}
	st, ctx, cancel, err := a.ready()
	if err != nil {
		return "", err
	}
	defer cancel()
	if err := st.PutSetting(ctx, settingTheme, theme); err != nil {
		return "", err
	}
	return theme, nil
}

func validTheme(t string) bool {
	return t == ThemeSystem || t == ThemeLight || t == ThemeDark
}
