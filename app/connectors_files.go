package app

import (
	"fmt"
	"os"
	"path/filepath"

	"maestro/backend/chat"
	"maestro/backend/mcp"
)

// Connector files: importing and exporting mcpServers files, and the
// file dialogs the Connectors page opens.

// Import adds the servers of a Claude Desktop style mcpServers
// file. Each entry is reported as imported or skipped with the reason.
func (c *Connectors) Import(path string) (ImportReportDTO, error) {
	run, ctx, cancel, err := c.ready()
	if err != nil {
		return ImportReportDTO{}, err
	}
	defer cancel()
	data, err := readSmallFile(path, maxImportFile)
	if err != nil {
		return ImportReportDTO{}, err
	}
	rep, err := run.sup.Import(ctx, data)
	if err != nil {
		return ImportReportDTO{}, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	out := ImportReportDTO{Summary: rep.Summary(), Imported: rep.Imported(), Entries: make([]ImportEntryDTO, 0, len(rep.Entries))}
	for _, e := range rep.Entries {
		dto := ImportEntryDTO{Name: e.Name, Imported: e.Imported, Reason: e.Reason, Notes: nonNil(e.Notes), Ignored: nonNil(e.Ignored)}
		if e.Connector != nil {
			dto.ConnectorID = e.Connector.ID
			c.remember(*e.Connector)
		}
		out.Entries = append(out.Entries, dto)
	}
	return out, nil
}

// Export writes every connector to path as an mcpServers file
// that other apps read. The file holds the env and header values (it has
// to, to work elsewhere), so it is written readable by the user only. It
// returns how many connectors were written.
func (c *Connectors) Export(path string) (int, error) {
	run, _, cancel, err := c.ready()
	if err != nil {
		return 0, err
	}
	defer cancel()
	if err := checkPath(path); err != nil {
		return 0, err
	}
	data, err := run.sup.Export()
	if err != nil {
		return 0, err
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return 0, chat.E(chat.ErrUnavailable, "cannot write %s: %v", path, unwrapPathError(err))
	}
	n := 0
	for _, cfg := range run.sup.Connectors() {
		if cfg.Transport != mcp.TransportInProcess {
			n++
		}
	}
	return n, nil
}

// PickImportFile asks for an mcpServers file to import; "" when cancelled.
func (c *Connectors) PickImportFile() (string, error) {
	return c.core.dialog(c.core.rt.OpenFileDialog, FileDialog{
		Title:   "Import MCP servers",
		Filters: []FileFilter{{DisplayName: "MCP server files (*.json)", Pattern: "*.json"}},
	})
}

// PickExportFile asks where to export the connectors; "" when cancelled.
func (c *Connectors) PickExportFile() (string, error) {
	return c.core.dialog(c.core.rt.SaveFileDialog, FileDialog{
		Title: "Export MCP servers", DefaultFilename: "mcp-servers.json",
		Filters: []FileFilter{{DisplayName: "MCP server files (*.json)", Pattern: "*.json"}},
	})
}

// PickFolder asks for a folder (for a session's roots); "" when cancelled.
func (c *Connectors) PickFolder() (string, error) {
	return c.core.dialog(c.core.rt.OpenDirectoryDialog, FileDialog{Title: "Choose a folder for this chat's tools"})
}
