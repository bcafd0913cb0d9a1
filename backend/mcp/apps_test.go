package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"maestro/backend/chat"
)

func toolWithMeta(name string, meta map[string]any) mcpgo.Tool {
	t := mcpgo.NewTool(name)
	t.Meta = &mcpgo.Meta{AdditionalFields: meta}
	return t
}

func TestAppToolOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		meta map[string]any
		want AppTool
	}{
		{"none", nil, AppTool{}},
		{"nested", map[string]any{"ui": map[string]any{"resourceUri": "ui://a/app.html"}}, AppTool{ResourceURI: "ui://a/app.html"}},
		{"flat, deprecated", map[string]any{"ui/resourceUri": "ui://flat"}, AppTool{ResourceURI: "ui://flat"}},
		{"nested wins", map[string]any{"ui/resourceUri": "ui://flat", "ui": map[string]any{"resourceUri": "ui://nested"}},
			AppTool{ResourceURI: "ui://nested"}},
		{"not ui://", map[string]any{"ui": map[string]any{"resourceUri": "https://evil.example/app.html"}}, AppTool{}},
		{"bare scheme", map[string]any{"ui": map[string]any{"resourceUri": "ui://"}}, AppTool{}},
		{"app only", map[string]any{"ui": map[string]any{"resourceUri": "ui://x", "visibility": []any{"app", "bogus", 3}}},
			AppTool{ResourceURI: "ui://x", Visibility: []string{"app"}}},
		{"wrong types", map[string]any{"ui": map[string]any{"resourceUri": 7, "visibility": "model"}}, AppTool{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tool := mcpgo.NewTool("t")
			if tt.meta != nil {
				tool = toolWithMeta("t", tt.meta)
			}
			got := appToolOf(tool)
			if got.ResourceURI != tt.want.ResourceURI || !slices.Equal(got.Visibility, tt.want.Visibility) {
				t.Errorf("appToolOf = %+v; want %+v", got, tt.want)
			}
		})
	}
}

func TestAppToolVisibleTo(t *testing.T) {
	t.Parallel()
	tests := []struct {
		vis          []string
		model, byApp bool
	}{
		{nil, true, true},
		{[]string{"app"}, false, true},
		{[]string{"model"}, true, false},
		{[]string{}, false, false},
	}
	for _, tt := range tests {
		a := AppTool{Visibility: tt.vis}
		if got := a.VisibleTo(VisibleToModel); got != tt.model {
			t.Errorf("%v VisibleTo(model) = %v; want %v", tt.vis, got, tt.model)
		}
		if got := a.VisibleTo(VisibleToApp); got != tt.byApp {
			t.Errorf("%v VisibleTo(app) = %v; want %v", tt.vis, got, tt.byApp)
		}
	}
}

// TestCSPSource: only plain origins reach the Content-Security-Policy; an
// entry that could add a directive of its own or allow everything is
// dropped.
func TestCSPSource(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"https://api.example.com", "https://api.example.com", true},
		{"https://api.example.com/", "https://api.example.com", true},
		{"wss://rt.example.com:8443", "wss://rt.example.com:8443", true},
		{"https://*.cdn.example.com", "https://*.cdn.example.com", true},
		{"http://localhost:3000", "http://localhost:3000", true},
		{"*", "", false},
		{"https://*", "", false},
		{"https://*.com", "", false},
		{"https://a.example.com; script-src *", "", false},
		{"https://a.example.com 'unsafe-eval'", "", false},
		{"'self'", "", false},
		{"data:", "", false},
		{"javascript:alert(1)", "", false},
		{"https://a.example.com/path", "", false},
		{"https://user@a.example.com", "", false},
		{"https://a.example.com?x=1", "", false},
		{"ftp://a.example.com", "", false},
		{"https://a.*.example.com", "", false},
		{"https://" + strings.Repeat("a", 300) + ".com", "", false},
	}
	for _, tt := range tests {
		got, ok := cspSource(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("cspSource(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestAppResourceOf(t *testing.T) {
	t.Parallel()
	html := "<!DOCTYPE html><html><body>hi</body></html>"
	meta := map[string]any{"ui": map[string]any{
		"csp": map[string]any{
			"connectDomains":  []any{"https://api.example.com", "https://api.example.com", "*"},
			"resourceDomains": []any{"https://cdn.example.com; default-src *"},
		},
		"permissions":   map[string]any{"camera": map[string]any{}},
		"prefersBorder": false,
	}}
	tests := []struct {
		name     string
		contents []mcpgo.ResourceContents
		max      int
		wantErr  string
		check    func(t *testing.T, r AppResource)
	}{
		{name: "text", max: 1 << 10, contents: []mcpgo.ResourceContents{
			mcpgo.TextResourceContents{URI: "ui://a", MIMEType: "text/plain", Text: "no"},
			mcpgo.TextResourceContents{URI: "ui://a", MIMEType: "text/html; profile=mcp-app", Text: html, Meta: meta},
		}, check: func(t *testing.T, r AppResource) {
			if r.HTML != html || len(r.Hash) != 64 {
				t.Errorf("HTML, Hash = %q, %q", r.HTML, r.Hash)
			}
			if !slices.Equal(r.CSP.ConnectDomains, []string{"https://api.example.com"}) || len(r.CSP.ResourceDomains) != 0 {
				t.Errorf("CSP = %+v; want the one safe connect origin", r.CSP)
			}
			if !r.Permissions.Camera || r.Permissions.Microphone || r.PrefersBorder == nil || *r.PrefersBorder {
				t.Errorf("Permissions, PrefersBorder = %+v, %v", r.Permissions, r.PrefersBorder)
			}
		}},
		{name: "blob", max: 1 << 10, contents: []mcpgo.ResourceContents{
			mcpgo.BlobResourceContents{URI: "ui://a", MIMEType: AppMIMEType, Blob: base64.StdEncoding.EncodeToString([]byte(html))},
		}, check: func(t *testing.T, r AppResource) {
			if r.HTML != html {
				t.Errorf("HTML = %q", r.HTML)
			}
		}},
		{name: "too big", max: 10, contents: []mcpgo.ResourceContents{
			mcpgo.TextResourceContents{URI: "ui://a", MIMEType: AppMIMEType, Text: html},
		}, wantErr: "is over"},
		{name: "blob too big", max: 10, contents: []mcpgo.ResourceContents{
			mcpgo.BlobResourceContents{URI: "ui://a", MIMEType: AppMIMEType, Blob: base64.StdEncoding.EncodeToString([]byte(html))},
		}, wantErr: "is over"},
		{name: "bad base64", max: 1 << 10, contents: []mcpgo.ResourceContents{
			mcpgo.BlobResourceContents{URI: "ui://a", MIMEType: AppMIMEType, Blob: "!!!"},
		}, wantErr: "not valid base64"},
		{name: "no app content", max: 1 << 10, contents: []mcpgo.ResourceContents{
			mcpgo.TextResourceContents{URI: "ui://a", MIMEType: "text/html", Text: html},
		}, wantErr: "has no text/html;profile=mcp-app content"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := appResourceOf("c1", "ui://a", tt.contents, tt.max)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.Is(err, chat.ErrInvalid) {
					t.Fatalf("err = %v; want one with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.ConnectorID != "c1" || got.URI != "ui://a" {
				t.Errorf("ids = %q, %q", got.ConnectorID, got.URI)
			}
			tt.check(t, got)
		})
	}
}

// TestAppCacheRevisions: a new tool list drops the old list's resources,
// a late read of an old revision is not kept, and the cache stays within
// its limit.
func TestAppCacheRevisions(t *testing.T) {
	t.Parallel()
	c := &appCache{limit: 10}
	c.begin("a", 1)
	if !c.put(1, AppResource{ConnectorID: "a", URI: "ui://x", HTML: "12345"}) {
		t.Fatal("put rev 1 refused")
	}
	if c.put(1, AppResource{ConnectorID: "a", URI: "ui://y", HTML: "1234567"}) {
		t.Error("put past the limit was kept")
	}
	c.begin("a", 2)
	if _, ok := c.get("a", "ui://x"); ok || c.size() != 0 {
		t.Errorf("after a new revision: x kept = %v, size = %d; want gone, 0", ok, c.size())
	}
	if c.put(1, AppResource{ConnectorID: "a", URI: "ui://x", HTML: "old"}) {
		t.Error("a read of revision 1 was kept in revision 2")
	}
	if !c.put(2, AppResource{ConnectorID: "a", URI: "ui://x", HTML: "new"}) || c.size() != 3 {
		t.Errorf("put rev 2: size = %d; want 3", c.size())
	}
	c.drop("a")
	if c.size() != 0 {
		t.Errorf("size after drop = %d; want 0", c.size())
	}
}

const appHTML = "<!DOCTYPE html><html><body><button>go</button></body></html>"

// appServer is an in-process server with a tool that has a UI, a tool that
// has none, and a tool that reports the client's extensions as the server
// saw them (in either era).
func appServer() *server.MCPServer {
	srv := server.NewMCPServer("apps", "1.0.0", server.WithToolCapabilities(true), server.WithResourceCapabilities(false, false))
	ui := toolWithMeta("show", map[string]any{"ui": map[string]any{"resourceUri": "ui://apps/show.html"}})
	srv.AddTool(ui, func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		r := mcpgo.NewToolResultText("shown")
		r.StructuredContent = map[string]any{"value": 42}
		return r, nil
	})
	srv.AddTool(mcpgo.NewTool("caps"), func(ctx context.Context, _ mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		var caps mcpgo.ClientCapabilities
		if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern {
			caps = *info.ClientCapabilities
		} else if s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
			caps = s.GetClientCapabilities()
		}
		b, _ := json.Marshal(caps.Extensions)
		return mcpgo.NewToolResultText("ext=" + string(b)), nil
	})
	srv.AddResource(mcpgo.NewResource("ui://apps/show.html", "show", mcpgo.WithMIMEType(AppMIMEType)),
		func(context.Context, mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: "ui://apps/show.html", MIMEType: AppMIMEType, Text: appHTML,
				Meta: map[string]any{"ui": map[string]any{"csp": map[string]any{"connectDomains": []any{"https://api.example.com"}}}}}}, nil
		})
	return srv
}

// TestAppsEndToEnd: in both protocol eras, a connector with Apps on
// declares the extension, preloads the UI resource when the tool list
// arrives, and stamps the UI tool's results; with Apps off it declares
// nothing, keeps nothing and stamps nothing.
func TestAppsEndToEnd(t *testing.T) {
	t.Parallel()
	for _, era := range []string{ProtocolModern, ProtocolLegacy} {
		for _, off := range []bool{false, true} {
			t.Run(era+map[bool]string{false: "/on", true: "/off"}[off], func(t *testing.T) {
				t.Parallel()
				h := newHarness(t, WithInProcessServer("apps", appServer()))
				c := h.add(Connector{Name: "Apps", Transport: TransportInProcess, Command: "apps", ProtocolVersion: era, AppsOff: off})
				if st := h.settle(c.ID); st.State != StateReady || st.Protocol != era {
					t.Fatalf("status = %+v; want ready on %s", st, era)
				}
				sess := h.session(c.ID)
				ext := text(t, h.call(t.Context(), sess, "apps.caps", `{}`, nil))
				wantExt := `ext={"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}`
				if off {
					wantExt = "ext=null"
				}
				if ext != wantExt {
					t.Errorf("extensions the server saw = %s; want %s", ext, wantExt)
				}
				res := h.call(t.Context(), sess, "apps.show", `{}`, nil)
				if !res.Successful || !strings.Contains(string(res.Raw), `"structuredContent":{"value":42}`) {
					t.Fatalf("show = %+v; want success with the structured content in Raw", res)
				}
				if off {
					if res.App != nil || h.sup.AppOfTool(c.ID, "show") != nil {
						t.Errorf("App = %+v, AppOfTool = %+v with Apps off; want nil", res.App, h.sup.AppOfTool(c.ID, "show"))
					}
					if _, err := h.sup.AppResource(t.Context(), c.ID, "ui://apps/show.html"); !errors.Is(err, ErrNoApp) {
						t.Errorf("AppResource with Apps off: err = %v; want ErrNoApp", err)
					}
					return
				}
				want := chat.ToolApp{ConnectorID: c.ID, ResourceURI: "ui://apps/show.html", Tool: "show"}
				if res.App == nil || *res.App != want {
					t.Errorf("App = %+v; want %+v", res.App, want)
				}
				// What the card draws while the call runs is the same app.
				if got := h.sup.AppOfTool(c.ID, "show"); got == nil || *got != want {
					t.Errorf("AppOfTool(show) = %+v; want %+v", got, want)
				}
				if h.sup.AppOfTool(c.ID, "caps") != nil || h.sup.AppOfTool("nope", "show") != nil {
					t.Error("AppOfTool of a tool without a UI, or of an unknown connector, is not nil")
				}
				h.waitFor("the UI preloaded", func() bool { _, ok := h.sup.apps.get(c.ID, "ui://apps/show.html"); return ok })
				got, err := h.sup.AppResource(t.Context(), c.ID, "ui://apps/show.html")
				if err != nil || got.HTML != appHTML || !slices.Equal(got.CSP.ConnectDomains, []string{"https://api.example.com"}) {
					t.Errorf("AppResource = %+v, %v", got, err)
				}
				if _, err := h.sup.AppResource(t.Context(), c.ID, "ui://apps/other.html"); !errors.Is(err, ErrNoApp) {
					t.Errorf("AppResource of a URI no tool names: err = %v; want ErrNoApp", err)
				}
			})
		}
	}
}

// TestAppsExampleServers: the official MCP Apps example servers on npm
// (server-basic-vanillajs and server-basic-react) get the extension, their
// get-time UI is preloaded from its ui:// resource, and get-time's result
// names it.
func TestAppsExampleServers(t *testing.T) {
	t.Parallel()
	for _, pkg := range []string{"server-basic-vanillajs", "server-basic-react"} {
		t.Run(pkg, func(t *testing.T) {
			t.Parallel()
			entry := npmPackage(t, pkg)
			h := newHarness(t)
			c := h.add(Connector{Name: "Basic", Command: "node", Args: []string{entry, "--stdio"}})
			if st := h.settle(c.ID); st.State != StateReady {
				t.Fatalf("status = %+v; want ready", st)
			}
			res := h.call(t.Context(), h.session(c.ID), "basic.get-time", `{}`, nil)
			if !res.Successful || res.App == nil || !strings.HasPrefix(res.App.ResourceURI, "ui://") || res.App.Tool != "get-time" {
				t.Fatalf("get-time = %+v (App %+v); want a result naming its UI", res, res.App)
			}
			uri := res.App.ResourceURI
			h.waitFor("the UI preloaded", func() bool { _, ok := h.sup.apps.get(c.ID, uri); return ok })
			got, err := h.sup.AppResource(t.Context(), c.ID, uri)
			if err != nil || !strings.Contains(strings.ToLower(got.HTML[:min(len(got.HTML), 200)]), "<!doctype html>") {
				t.Fatalf("AppResource(%s) = %d bytes, %v; want the HTML", uri, len(got.HTML), err)
			}
		})
	}
}

// TestToolsOfAppOnly: a tool whose _meta.ui.visibility leaves out the
// model reaches the registry marked AppOnly (never declared to a model);
// no visibility, or one that names the model, is the model's too.
func TestToolsOfAppOnly(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		meta map[string]any
		want bool
	}{
		{"no _meta", nil, false},
		{"no visibility", map[string]any{"ui": map[string]any{"resourceUri": "ui://x"}}, false},
		{"model and app", map[string]any{"ui": map[string]any{"visibility": []any{"model", "app"}}}, false},
		{"model only", map[string]any{"ui": map[string]any{"visibility": []any{"model"}}}, false},
		{"app only", map[string]any{"ui": map[string]any{"visibility": []any{"app"}}}, true},
		{"nobody it knows", map[string]any{"ui": map[string]any{"visibility": []any{"bogus"}}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tool := mcpgo.NewTool("t")
			if tt.meta != nil {
				tool = toolWithMeta("t", tt.meta)
			}
			if got := toolsOf([]mcpgo.Tool{tool})[0].AppOnly; got != tt.want {
				t.Errorf("AppOnly = %v; want %v", got, tt.want)
			}
		})
	}
}
