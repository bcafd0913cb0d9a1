package app

import (
	"github.com/wailsapp/wails/v2/pkg/menu"
	"github.com/wailsapp/wails/v2/pkg/menu/keys"
)

// MenuCommand is something the menu asks the UI to do (menu:command). The
// same commands have the same shortcuts in frontend/src/lib/shortcuts.ts,
// which handles them where the menu's accelerators do not reach (the dev
// bridge); it imports them from the generated contract.
type MenuCommand string

// The UI's commands; MenuCommands lists them.
const (
	CommandNewChat  MenuCommand = "new-chat"
	CommandSearch   MenuCommand = "search"
	CommandSettings MenuCommand = "settings"
	CommandAbout    MenuCommand = "about"
)

// MenuCommands lists the UI's commands.
func MenuCommands() []MenuCommand {
	return []MenuCommand{CommandNewChat, CommandSearch, CommandSettings, CommandAbout}
}

// menuItem is one entry of the app menu, as data: the menu and its test
// read the same table.
type menuItem struct {
	label string
	// accel is the shortcut, e.g. "ctrl+n"; empty for none.
	accel string
	// command is sent to the UI; run is done here. One of them is set.
	command MenuCommand
	run     func(w *Window)
}

// menuSection is a top-level menu.
type menuSection struct {
	label string
	// items; a zero item is a separator.
	items []menuItem
}

// appMenu is Maestro's menu bar: the entries and shortcuts people expect of
// a Linux app (docs/DESKTOP.md).
var appMenu = []menuSection{
	{label: "Maestro", items: []menuItem{
		{label: "New Chat", accel: "ctrl+n", command: CommandNewChat},
		{label: "Search Chats…", accel: "ctrl+k", command: CommandSearch},
		{},
		{label: "Settings", accel: "ctrl+,", command: CommandSettings},
		{},
		{label: "Quit", accel: "ctrl+q", run: (*Window).Quit},
	}},
	{label: "View", items: []menuItem{
		{label: "Full Screen", accel: "f11", run: (*Window).ToggleFullscreen},
	}},
	{label: "Help", items: []menuItem{
		{label: "About Maestro", command: CommandAbout},
	}},
}

// menu builds the app menu; its UI commands go out as menu:command.
func (a *App) menu() *menu.Menu {
	return buildMenu(a.Window, func(c MenuCommand) { a.core.events.emit(EventMenuCommand, c) })
}

// buildMenu builds the menu of appMenu: window commands run on w, UI
// commands go to send.
func buildMenu(w *Window, send func(MenuCommand)) *menu.Menu {
	bar := menu.NewMenu()
	for _, s := range appMenu {
		sub := bar.AddSubmenu(s.label)
		for _, it := range s.items {
			if it.label == "" {
				sub.AddSeparator()
				continue
			}
			sub.AddText(it.label, accelerator(it.accel), menuClick(w, it, send))
		}
	}
	return bar
}

func menuClick(w *Window, it menuItem, send func(MenuCommand)) menu.Callback {
	return func(*menu.CallbackData) {
		if it.run != nil {
			it.run(w)
			return
		}
		send(it.command)
	}
}

// accelerator parses a "ctrl+n" style shortcut; a bad one in appMenu is a
// programming error, caught by TestMenu.
func accelerator(s string) *keys.Accelerator {
	if s == "" {
		return nil
	}
	a, err := keys.Parse(s)
	if err != nil {
		panic("app menu: bad accelerator " + s + ": " + err.Error())
	}
	return a
}
