package mcp

import (
	"encoding/json"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"maestro/backend/tools"
)

// toolsOf turns a server's tools/list answer into the tools a ToolSink
// takes: each schema as the server wrote it (the raw bytes, or the typed
// schema marshalled), the title and the annotations.
func toolsOf(list []mcpgo.Tool) []tools.Tool {
	if list == nil {
		return nil
	}
	out := make([]tools.Tool, len(list))
	for i, t := range list {
		a := t.Annotations
		out[i] = tools.Tool{
			Name:         t.Name,
			Title:        t.Title,
			Description:  t.Description,
			InputSchema:  inputSchemaOf(t),
			OutputSchema: outputSchemaOf(t),
			Annotations: &tools.Annotations{Title: a.Title, ReadOnlyHint: a.ReadOnlyHint, DestructiveHint: a.DestructiveHint,
				IdempotentHint: a.IdempotentHint, OpenWorldHint: a.OpenWorldHint},
			Icons:   iconsOf(t.Icons),
			AppOnly: ModelHidden(t),
		}
	}
	return out
}

func inputSchemaOf(t mcpgo.Tool) json.RawMessage {
	if t.RawInputSchema != nil {
		return t.RawInputSchema
	}
	raw, err := json.Marshal(t.InputSchema)
	if err != nil {
		return nil
	}
	return raw
}

func outputSchemaOf(t mcpgo.Tool) json.RawMessage {
	if t.RawOutputSchema != nil {
		return t.RawOutputSchema
	}
	if t.OutputSchema.Type == "" {
		return nil
	}
	raw, err := json.Marshal(t.OutputSchema)
	if err != nil {
		return nil
	}
	return raw
}

// iconsOf converts a server's icons (the registry and the status keep only
// the safe ones: tools.SafeIcons).
func iconsOf(list []mcpgo.Icon) []tools.Icon {
	if len(list) == 0 {
		return nil
	}
	out := make([]tools.Icon, len(list))
	for i, ic := range list {
		out[i] = tools.Icon{Src: ic.Src, MIMEType: ic.MIMEType, Sizes: ic.Sizes, Theme: string(ic.Theme)}
	}
	return out
}

// ToolIcons are a tool's own icons that may be shown (tools.SafeIcons).
func ToolIcons(t mcpgo.Tool) []tools.Icon { return tools.SafeIcons(iconsOf(t.Icons)) }

// icons are the server's own icons that may be shown.
func (l *link) icons() []tools.Icon { return tools.SafeIcons(iconsOf(l.serverInfo.Icons)) }
