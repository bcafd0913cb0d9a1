package mcp

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/url"
	"slices"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"maestro/backend/chat"
	"maestro/backend/tools"
)

// MCP Apps (the io.modelcontextprotocol/ui extension, docs/APPS.md): a
// server ships an HTML interface for a tool as a ui:// resource named by
// the tool's _meta.ui.resourceUri. Maestro declares the extension to every
// server whose connector has Apps on, preloads the resources when a tool
// list arrives (appcache.go), and stamps the results of such tools with a
// chat.ToolApp so the card renders the UI from the stored result. What the
// UI may do goes through the frontend's bridge and, for tool calls, the
// agent's approvals (agent.AppCall).

const (
	// ExtensionUI is the extension's identifier in the client
	// capabilities' extensions.
	ExtensionUI = "io.modelcontextprotocol/ui"
	// AppMIMEType is the one content type Maestro renders.
	AppMIMEType = "text/html;profile=mcp-app"
	// appScheme starts every UI resource's URI.
	appScheme = "ui://"
	// maxAppURI caps a resource URI a server names.
	maxAppURI = 2048
)

// Visibilities a tool's _meta.ui.visibility lists.
const (
	VisibleToModel = "model"
	VisibleToApp   = "app"
)

// AppsOn reports whether the connector renders MCP Apps.
func (c Connector) AppsOn() bool { return !c.AppsOff }

// uiExtension is the extension's settings declared to servers.
func uiExtension() map[string]any {
	return map[string]any{"mimeTypes": []string{AppMIMEType}}
}

// capabilities are the client capabilities declared to this link's
// server, in both eras (initialize, and server/discover's and every
// request's _meta): the supervisor's, plus the Apps extension when the
// connector has Apps on.
func (l *link) capabilities() mcpgo.ClientCapabilities {
	caps := l.r.sup.capabilities()
	if l.cfg.AppsOn() {
		caps.Extensions = map[string]any{ExtensionUI: uiExtension()}
	}
	return caps
}

// AppTool is what a tool's _meta.ui says.
type AppTool struct {
	// ResourceURI is the ui:// resource that renders the tool's results;
	// "" when the tool has none (or named one that is not ui://).
	ResourceURI string
	// Visibility lists who may call the tool; nil means both the model
	// and the app (the spec's default).
	Visibility []string
}

// VisibleTo reports whether who (VisibleToModel, VisibleToApp) may call
// the tool.
func (a AppTool) VisibleTo(who string) bool {
	return a.Visibility == nil || slices.Contains(a.Visibility, who)
}

// ModelHidden reports whether a tool's _meta.ui.visibility leaves out the
// model: only its MCP App may call it (tools.Entry.AppOnly).
func ModelHidden(t mcpgo.Tool) bool { return !appToolOf(t).VisibleTo(VisibleToModel) }

// appToolOf reads a tool's _meta.ui (and the deprecated flat
// "ui/resourceUri", which the nested form overrides). Anything malformed
// is ignored: a tool with a bad URI is a tool without a UI.
func appToolOf(t mcpgo.Tool) AppTool {
	if t.Meta == nil {
		return AppTool{}
	}
	var out AppTool
	if flat, ok := t.Meta.AdditionalFields["ui/resourceUri"].(string); ok {
		out.ResourceURI = flat
	}
	if ui, ok := t.Meta.AdditionalFields["ui"].(map[string]any); ok {
		if uri, ok := ui["resourceUri"].(string); ok {
			out.ResourceURI = uri
		}
		if vis, ok := ui["visibility"].([]any); ok {
			out.Visibility = []string{}
			for _, v := range vis {
				if s, ok := v.(string); ok && (s == VisibleToModel || s == VisibleToApp) {
					out.Visibility = append(out.Visibility, s)
				}
			}
		}
	}
	if !validAppURI(out.ResourceURI) {
		out.ResourceURI = ""
	}
	return out
}

func validAppURI(uri string) bool {
	return strings.HasPrefix(uri, appScheme) && len(uri) > len(appScheme) && len(uri) <= maxAppURI &&
		!strings.ContainsAny(uri, " \t\r\n")
}

// AppResource is one UI resource as Maestro renders it: the HTML and the
// metadata the sandbox needs. Everything in it came from the server and
// is checked (csp domains) or capped (the HTML) before it is kept.
type AppResource struct {
	ConnectorID string `json:"connectorId"`
	URI         string `json:"uri"`
	HTML        string `json:"html"`
	// Hash is the HTML's SHA-256 (hex), for the audit trail and the log.
	Hash        string         `json:"hash"`
	CSP         AppCSP         `json:"csp"`
	Permissions AppPermissions `json:"permissions"`
	// PrefersBorder is the server's wish for a border (nil: the host
	// decides).
	PrefersBorder *bool `json:"prefersBorder,omitempty"`
}

// AppCSP is a resource's declared _meta.ui.csp, every entry a checked
// origin (cspSource).
type AppCSP struct {
	ConnectDomains  []string `json:"connectDomains"`
	ResourceDomains []string `json:"resourceDomains"`
	FrameDomains    []string `json:"frameDomains"`
	BaseURIDomains  []string `json:"baseUriDomains"`
}

// AppPermissions are the browser features a resource asks for; the
// sandbox grants none of them today (docs/APPS.md), but they are kept to
// show.
type AppPermissions struct {
	Camera         bool `json:"camera,omitempty"`
	Microphone     bool `json:"microphone,omitempty"`
	Geolocation    bool `json:"geolocation,omitempty"`
	ClipboardWrite bool `json:"clipboardWrite,omitempty"`
}

// Caps on what a resource's metadata may declare.
const (
	maxCSPDomains = 32
	maxCSPSource  = 256
)

// appResourceOf turns a resources/read answer into the resource to
// render: the first content of the app MIME type (text, or base64 blob),
// capped at maxHTML bytes.
func appResourceOf(connectorID, uri string, contents []mcpgo.ResourceContents, maxHTML int) (AppResource, error) {
	for _, c := range contents {
		var mime, html string
		var meta map[string]any
		switch v := c.(type) {
		case mcpgo.TextResourceContents:
			mime, html, meta = v.MIMEType, v.Text, v.Meta
		case mcpgo.BlobResourceContents:
			if base64.StdEncoding.DecodedLen(len(v.Blob)) > maxHTML {
				return AppResource{}, chat.E(chat.ErrInvalid, "the UI resource %s is over %s", uri, humanBytes(maxHTML))
			}
			b, err := base64.StdEncoding.DecodeString(v.Blob)
			if err != nil {
				return AppResource{}, chat.E(chat.ErrInvalid, "the UI resource %s is not valid base64: %v", uri, err)
			}
			mime, html, meta = v.MIMEType, string(b), v.Meta
		default:
			continue
		}
		if !isAppMIME(mime) {
			continue
		}
		if len(html) > maxHTML {
			return AppResource{}, chat.E(chat.ErrInvalid, "the UI resource %s is over %s", uri, humanBytes(maxHTML))
		}
		sum := sha256.Sum256([]byte(html))
		res := AppResource{ConnectorID: connectorID, URI: uri, HTML: html, Hash: hex.EncodeToString(sum[:])}
		res.CSP, res.Permissions, res.PrefersBorder = uiMetaOf(meta)
		return res, nil
	}
	return AppResource{}, chat.E(chat.ErrInvalid, "the UI resource %s has no %s content", uri, AppMIMEType)
}

// isAppMIME accepts text/html;profile=mcp-app with any spacing or case.
func isAppMIME(m string) bool {
	m = strings.ToLower(strings.ReplaceAll(m, " ", ""))
	return m == AppMIMEType
}

// uiMetaOf reads a resource content's _meta.ui.
func uiMetaOf(meta map[string]any) (AppCSP, AppPermissions, *bool) {
	ui, _ := meta["ui"].(map[string]any)
	csp, _ := ui["csp"].(map[string]any)
	out := AppCSP{
		ConnectDomains:  cspSources(csp["connectDomains"]),
		ResourceDomains: cspSources(csp["resourceDomains"]),
		FrameDomains:    cspSources(csp["frameDomains"]),
		BaseURIDomains:  cspSources(csp["baseUriDomains"]),
	}
	var perms AppPermissions
	if p, ok := ui["permissions"].(map[string]any); ok {
		_, perms.Camera = p["camera"]
		_, perms.Microphone = p["microphone"]
		_, perms.Geolocation = p["geolocation"]
		_, perms.ClipboardWrite = p["clipboardWrite"]
	}
	var border *bool
	if b, ok := ui["prefersBorder"].(bool); ok {
		border = &b
	}
	return out, perms, border
}

// cspSources keeps the entries of a declared domain list that are safe to
// put in a Content-Security-Policy: a scheme (https, wss, http or ws) and
// a host, optionally a *. subdomain wildcard and a port, nothing else. An
// entry with a quote, a space or a semicolon could add directives of its
// own, and a bare * would allow everything: both are dropped.
func cspSources(v any) []string {
	list, _ := v.([]any)
	out := []string{}
	for _, item := range list {
		s, ok := item.(string)
		if !ok || len(out) == maxCSPDomains {
			continue
		}
		if src, ok := cspSource(s); ok && !slices.Contains(out, src) {
			out = append(out, src)
		}
	}
	return out
}

func cspSource(s string) (string, bool) {
	if len(s) > maxCSPSource || strings.ContainsAny(s, " \t\r\n;,'\"\\") {
		return "", false
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" || (u.Path != "" && u.Path != "/") {
		return "", false
	}
	switch u.Scheme {
	case "https", "wss", "http", "ws":
	default:
		return "", false
	}
	if !cspHost(u.Hostname()) {
		return "", false
	}
	return u.Scheme + "://" + u.Host, true
}

// cspHost accepts a host name or address, with at most a leading "*."
// wildcard on a name of two labels or more.
func cspHost(host string) bool {
	rest, wild := strings.CutPrefix(host, "*.")
	if rest == "" || strings.Contains(rest, "*") || (wild && !strings.Contains(rest, ".")) {
		return false
	}
	return strings.IndexFunc(rest, func(r rune) bool {
		return !(r == '.' || r == '-' || r == ':' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0
}

func humanBytes(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d KiB", n>>10)
}

// AppCallTarget resolves the tool an MCP App's UI asks to call (tools/call
// from the view) to its entry in the session's snapshot. The spec's rules
// (docs/APPS.md): a UI calls tools of its own server only, never another
// connector's, and only tools whose visibility includes "app". The tool
// must also be one the session has on: an app does not reach a tool the
// user switched off. What runs then goes through the agent's approvals
// like a model's call (agent.AppCall).
func (s *Supervisor) AppCallTarget(snap tools.Snapshot, app chat.ToolApp, tool string) (tools.Entry, error) {
	at, ok := s.AppTool(app.ConnectorID, tool)
	if !ok {
		return tools.Entry{}, chat.E(chat.ErrNotFound, "the app's server has no tool %q", tool)
	}
	if !at.VisibleTo(VisibleToApp) {
		return tools.Entry{}, chat.E(chat.ErrInvalid, "the tool %q is not callable by apps", tool)
	}
	if r, err := s.runner(app.ConnectorID); err != nil || !r.config().AppsOn() {
		return tools.Entry{}, chat.E(chat.ErrInvalid, "Apps are off for this connector")
	}
	for _, e := range snap.Entries {
		if e.ConnectorID == app.ConnectorID && e.Tool == tool && !e.Builtin {
			return e, nil
		}
	}
	return tools.Entry{}, chat.E(chat.ErrInvalid, "the tool %q is off in this chat", tool)
}
