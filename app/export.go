package app

import (
	"os"
	"path/filepath"

	"maestro/backend/chat"
	"maestro/backend/export"
)

// saveExport asks where to save an export of a chat titled title and
// writes content there. It returns the path, or "" when the user
// cancelled.
func saveExport(c *core, f export.Format, title, content string) (string, error) {
	path, err := c.dialog(c.rt.SaveFileDialog, FileDialog{
		Title: "Export chat", DefaultFilename: export.FileName(title, f),
		Filters: []FileFilter{{DisplayName: f.Description(), Pattern: "*." + f.Ext()}},
	})
	if err != nil || path == "" {
		return "", err
	}
	if filepath.Ext(path) == "" {
		path += "." + f.Ext() // the dialog does not add one
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		return "", chat.E(chat.ErrInvalid, "could not write %s: %v", path, err)
	}
	return path, nil
}
