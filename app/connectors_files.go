package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"maestro/backend/chat"
	"maestro/backend/mcp"
)

// Connector files: importing and exporting mcpServers files, and the
// file dialogs the Connectors page opens.

// ImportConnectors adds the servers of a Claude Desktop style mcpServers
// file. Each entry is reported as imported or skipped with the reason.
func (a *App) ImportConnectors(path string) (ImportReportDTO, error) {
	cn, ctx, cancel, err := a.connectorsReady()
	if err != nil {
		return ImportReportDTO{}, err
	}
	defer cancel()
	data, err := readSmallFile(path, maxImportFile)
	if err != nil {
		return ImportReportDTO{}, err
	}
	rep, err := cn.sup.Import(ctx, data)
	if err != nil {
		return ImportReportDTO{}, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	out := ImportReportDTO{Summary: rep.Summary(), Imported: rep.Imported(), Entries: make([]ImportEntryDTO, 0, len(rep.Entries))}
	for _, e := range rep.Entries {
		dto := ImportEntryDTO{Name: e.Name, Imported: e.Imported, Reason: e.Reason, Notes: nonNil(e.Notes), Ignored: nonNil(e.Ignored)}
		if e.Connector != nil {
			dto.ConnectorID = e.Connector.ID
			cn.c.remember(*e.Connector)
		}
		out.Entries = append(out.Entries, dto)
	}
	return out, nil
}

// ExportConnectors writes every connector to path as an mcpServers file
// that other apps read. The file holds the env and header values (it has
// to, to work elsewhere), so it is written readable by the user only. It
// returns how many connectors were written.
func (a *App) ExportConnectors(path string) (int, error) {
	cn, _, cancel, err := a.connectorsReady()
	if err != nil {
		return 0, err
	}
	defer cancel()
	if err := checkPath(path); err != nil {
		return 0, err
	}
	data, err := cn.sup.Export()
	if err != nil {
		return 0, err
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return 0, chat.E(chat.ErrUnavailable, "cannot write %s: %v", path, unwrapPathError(err))
	}
	n := 0
	for _, cfg := range cn.sup.Connectors() {
		if cfg.Transport != mcp.TransportInProcess {
			n++
		}
	}
	return n, nil
}

// PickImportFile asks for an mcpServers file to import; "" when cancelled.
func (a *App) PickImportFile() (string, error) {
	return a.dialog(a.cfg.Runtime.OpenFileDialog, FileDialog{
		Title:   "Import MCP servers",
		Filters: []FileFilter{{DisplayName: "MCP server files (*.json)", Pattern: "*.json"}},
	})
}

// PickExportFile asks where to export the connectors; "" when cancelled.
func (a *App) PickExportFile() (string, error) {
	return a.dialog(a.cfg.Runtime.SaveFileDialog, FileDialog{
		Title: "Export MCP servers", DefaultFilename: "mcp-servers.json",
		Filters: []FileFilter{{DisplayName: "MCP server files (*.json)", Pattern: "*.json"}},
	})
}

// PickFolder asks for a folder (for a session's roots); "" when cancelled.
func (a *App) PickFolder() (string, error) {
	return a.dialog(a.cfg.Runtime.OpenDirectoryDialog, FileDialog{Title: "Choose a folder for this chat's tools"})
}

func (a *App) dialog(fn func(context.Context, FileDialog) (string, error), d FileDialog) (string, error) {
	a.mu.RLock()
	ctx := a.wailsCtx
	a.mu.RUnlock()
	if fn == nil || ctx == nil {
		return "", chat.E(chat.ErrUnavailable, "file pickers are not available here")
	}
	if d.DefaultDirectory == "" {
		if home, err := os.UserHomeDir(); err == nil {
			d.DefaultDirectory = home
		}
	}
	path, err := fn(ctx, d)
	if err != nil {
		return "", chat.E(chat.ErrUnavailable, "the file picker failed: %v", err)
	}
	return path, nil
}
