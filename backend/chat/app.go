package chat

// ToolApp names the MCP App (the io.modelcontextprotocol/ui extension,
// docs/APPS.md) that renders a tool's result: the connector whose server
// serves it, the ui:// resource, and the tool's MCP name. It is stored with
// the result, so a chat reopened later renders the UI again (or a static
// fallback when the connector is gone).
type ToolApp struct {
	ConnectorID string `json:"connectorId"`
	ResourceURI string `json:"resourceUri"`
	Tool        string `json:"tool"`
}

// RequestedByApp marks an audit record (AuditRecord.RequestedBy) and an
// approval question of a call an MCP App's UI asked for rather than the
// model.
const RequestedByApp = "app"
