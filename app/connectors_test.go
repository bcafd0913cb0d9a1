package app

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"maestro/backend/chat"
	"maestro/backend/mcp"
)

// stateIs matches a connector:state event of connector id in state.
func stateIs(id, state string) func(any) bool {
	return func(d any) bool {
		c, ok := d.(ConnectorDTO)
		return ok && c.ID == id && c.State == state
	}
}

type connApp struct {
	*App
	ev      *eventLog
	secrets *mcp.MemorySecrets
	dir     string
}

// connectorDeps are the connectors' test settings: an in-memory keychain
// (sec), fast restarts, at most one failed start, opts added to the
// supervisor's.
func connectorDeps(sec *mcp.MemorySecrets, opts ...mcp.SupervisorOption) func(*Deps) {
	return func(d *Deps) {
		d.Secrets = sec
		d.SupervisorOptions = append([]mcp.SupervisorOption{mcp.WithBackoff(10*time.Millisecond, 50*time.Millisecond),
			mcp.WithMaxStartFailures(1)}, opts...)
		d.ProbeTimeout = 10 * time.Second
	}
}

// startConnApp runs the app with connectors (see connectorDeps) on a fresh
// data dir.
func startConnApp(t *testing.T, rt Runtime, opts ...mcp.SupervisorOption) *connApp {
	t.Helper()
	dir := t.TempDir()
	sec := mcp.NewMemorySecrets()
	a, ev := startApp(t, dir, withRuntime(rt), connectorDeps(sec, opts...))
	return &connApp{App: a, ev: ev, secrets: sec, dir: dir}
}

// httpServer serves a real mcp-go server over streamable HTTP and records
// the Authorization headers it was sent.
type httpServer struct {
	*httptest.Server
	mcp *server.MCPServer
	mu  sync.Mutex
	// auth holds the Authorization headers seen.
	auth []string
}

func newHTTPServer(t *testing.T, tools ...mcpgo.Tool) *httpServer {
	t.Helper()
	srv := server.NewMCPServer("files-server", "2.0.0", server.WithToolCapabilities(true))
	for _, tool := range tools {
		srv.AddTool(tool, func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText("called " + req.Params.Name), nil
		})
	}
	hs := &httpServer{mcp: srv}
	h := server.NewStreamableHTTPServer(srv)
	hs.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hs.mu.Lock()
		hs.auth = append(hs.auth, r.Header.Get("Authorization"))
		hs.mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	// A connector still running may hold its event stream open.
	t.Cleanup(func() { hs.CloseClientConnections(); hs.Close() })
	return hs
}

func (h *httpServer) sawAuth(v string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Contains(h.auth, v)
}

func TestConnectorLifecycle(t *testing.T) {
	t.Parallel()
	a := startConnApp(t, Runtime{})
	hs := newHTTPServer(t, mcpgo.NewTool("read", mcpgo.WithReadOnlyHintAnnotation(true)), mcpgo.NewTool("write"))
	const token = "Bearer sk-live-0123456789abcdef"

	c, err := a.Connectors.Save(ConnectorInputDTO{
		Name: "  Team   Files ", Transport: "http", URL: hs.URL + "/mcp",
		Headers: []KeyValueInputDTO{{Key: "Authorization", Value: token}, {}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if c.ID == "" || c.Name != "Team Files" || c.Transport != "http" || !c.Enabled {
		t.Fatalf("SaveConnector = %+v", c)
	}
	if len(c.Headers) != 1 || c.Headers[0].Key != "Authorization" || c.Headers[0].Hint != "…cdef" {
		t.Errorf("headers = %+v; want the key with a masked hint", c.Headers)
	}
	ready := a.ev.wait(t, EventConnectorState, stateIs(c.ID, "ready")).(ConnectorDTO)
	if ready.ToolCount != 2 || ready.Name != "Team Files" || ready.URL != hs.URL+"/mcp" {
		t.Errorf("ready event = %+v; want the config and 2 tools", ready)
	}
	if !hs.sawAuth(token) {
		t.Error("the server never got the Authorization header")
	}
	list, err := a.Connectors.List()
	if err != nil || len(list) != 1 || list[0].State != "ready" || list[0].ToolCount != 2 || !strings.Contains(list[0].Server, "files-server") {
		t.Fatalf("ListConnectors = %+v, %v", list, err)
	}

	// The secret is in the keychain, never in the data file or an event.
	if raw, _ := a.secrets.Get(t.Context(), "mcp-connector:"+c.ID); !strings.Contains(raw, token) {
		t.Errorf("keychain entry = %q; want the header value", raw)
	}
	a.ev.mu.Lock()
	for _, e := range a.ev.events {
		if b, _ := json.Marshal(e.data); bytes.Contains(b, []byte("0123456789abcdef")) {
			t.Errorf("event %s carries the secret: %s", e.name, b)
		}
	}
	a.ev.mu.Unlock()

	// Edit: rename, keep the stored header.
	edited, err := a.Connectors.Save(ConnectorInputDTO{ID: c.ID, Name: "Files", Transport: "http", URL: hs.URL + "/mcp",
		Headers: []KeyValueInputDTO{{Key: "Authorization", Keep: true}}})
	if err != nil || edited.Name != "Files" || edited.ID != c.ID {
		t.Fatalf("edit = %+v, %v", edited, err)
	}
	a.ev.wait(t, EventConnectorState, func(d any) bool { x, _ := d.(ConnectorDTO); return x.Name == "Files" && x.State == "ready" })
	if raw, _ := a.secrets.Get(t.Context(), "mcp-connector:"+c.ID); !strings.Contains(raw, token) {
		t.Errorf("kept header lost: keychain %q", raw)
	}

	// Another connector may not take the name.
	if _, err := a.Connectors.Save(ConnectorInputDTO{Name: "files", Transport: "stdio", Command: "true"}); chat.Kind(err) != chat.KindConflict {
		t.Errorf("duplicate name: kind %q (%v), want conflict", chat.Kind(err), err)
	}

	// Off everywhere, then on again.
	off, err := a.Connectors.SetEnabled(c.ID, false)
	if err != nil || off.Enabled || off.State != "stopped" {
		t.Fatalf("turn off = %+v, %v", off, err)
	}
	if err := a.Connectors.Restart(c.ID); chat.Kind(err) != chat.KindInvalid {
		t.Errorf("restart while off: kind %q", chat.Kind(err))
	}
	n := len(a.ev.all(EventConnectorState))
	if _, err := a.Connectors.SetEnabled(c.ID, true); err != nil {
		t.Fatal(err)
	}
	a.ev.waitFrom(t, n, EventConnectorState, stateIs(c.ID, "ready"))
	if err := a.Connectors.Restart(c.ID); err != nil {
		t.Fatal(err)
	}
	logs, err := a.Connectors.Logs(c.ID)
	if err != nil || len(logs) == 0 {
		t.Fatalf("ConnectorLogs = %v, %v", logs, err)
	}
	if len(a.ev.all(EventConnectorLog)) == 0 {
		t.Error("no connector:log events")
	}

	if err := a.Connectors.Delete(c.ID); err != nil {
		t.Fatal(err)
	}
	if err := a.Connectors.Delete(c.ID); chat.Kind(err) != chat.KindNotFound {
		t.Errorf("second delete: kind %q", chat.Kind(err))
	}
	if _, err := a.secrets.Get(t.Context(), "mcp-connector:"+c.ID); err == nil {
		t.Error("the keychain entry survived the delete")
	}
	if list, _ := a.Connectors.List(); len(list) != 0 {
		t.Errorf("after delete: %+v", list)
	}
	a.App.Shutdown(context.Background())
	db, err := os.ReadFile(filepath.Join(a.dir, "maestro.db"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(db, []byte("0123456789abcdef")) {
		t.Error("the data file holds the header value")
	}
	if _, err := a.Connectors.List(); chat.Kind(err) != chat.KindUnavailable {
		t.Errorf("after shutdown: kind %q", chat.Kind(err))
	}
}

func TestConnectorErrorShowsStderr(t *testing.T) {
	t.Parallel()
	a := startConnApp(t, Runtime{})
	c, err := a.Connectors.Save(ConnectorInputDTO{Name: "Broken", Transport: "stdio", Command: "sh",
		// As node prints it: the reason, then a stack.
		Args: []string{"-c", "echo 'node:internal/modules/cjs/loader:1210' >&2; echo \"Error: Cannot find module '/nope/index.js'\" >&2; " +
			"echo '    at Module._load (node:internal/modules/cjs/loader:1038:27)' >&2; echo '}' >&2; echo 'Node.js v20' >&2; exit 1"},
		Env: []KeyValueInputDTO{{Key: "API_KEY", Value: "short"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Env) != 1 || c.Env[0].Hint != "…" {
		t.Errorf("env = %+v; want a masked hint", c.Env)
	}
	got := a.ev.wait(t, EventConnectorState, stateIs(c.ID, "error")).(ConnectorDTO)
	if !strings.Contains(got.Error, "Cannot find module") {
		t.Errorf("error = %q; want the stderr reason", got.Error)
	}
	if !slices.ContainsFunc(got.StderrTail, func(l string) bool { return strings.Contains(l, "Cannot find module") }) {
		t.Errorf("stderr tail = %q", got.StderrTail)
	}
	list, _ := a.Connectors.List()
	if len(list) != 1 || list[0].State != "error" || list[0].ToolCount != 0 {
		t.Errorf("ListConnectors = %+v", list)
	}
}

func TestConnectorValidation(t *testing.T) {
	t.Parallel()
	a := startConnApp(t, Runtime{})
	dir := t.TempDir()
	bad := []struct {
		in   ConnectorInputDTO
		want string
	}{
		{ConnectorInputDTO{Transport: "stdio", Command: "x"}, "name is required"},
		{ConnectorInputDTO{Name: "a", Transport: "ftp"}, "unknown transport"},
		{ConnectorInputDTO{Name: "a"}, "choose a transport"},
		{ConnectorInputDTO{Name: "a", Transport: "stdio"}, "command is required"},
		{ConnectorInputDTO{Name: "a", Transport: "stdio", Command: "x", Cwd: "rel/dir"}, "not an absolute path"},
		{ConnectorInputDTO{Name: "a", Transport: "stdio", Command: "x", Env: []KeyValueInputDTO{{Key: "A=B", Value: "1"}}}, "not a valid environment variable name"},
		{ConnectorInputDTO{Name: "a", Transport: "stdio", Command: "x", Env: []KeyValueInputDTO{{Key: "A", Value: "1"}, {Key: "A", Value: "2"}}}, "listed twice"},
		{ConnectorInputDTO{Name: "a", Transport: "stdio", Command: "x", Env: []KeyValueInputDTO{{Key: "A", Keep: true}}}, "no stored value"},
		{ConnectorInputDTO{Name: "a", Transport: "stdio", Command: "x", URL: "http://x"}, "for HTTP and SSE"},
		{ConnectorInputDTO{Name: "a", Transport: "http", URL: "ftp://x"}, "not an http(s) URL"},
		{ConnectorInputDTO{Name: "a", Transport: "http", URL: "http://x", Headers: []KeyValueInputDTO{{Key: "X-A", Value: "a\nb"}}}, "line break"},
		{ConnectorInputDTO{Name: "a", Transport: "http", URL: "http://x", Headers: []KeyValueInputDTO{{Key: "Bad Header", Value: "a"}}}, "not a valid header name"},
		{ConnectorInputDTO{Name: "a", Transport: "sse", URL: "http://x", OAuth: &OAuthInputDTO{}}, "OAuth sign-in is for streamable HTTP"},
		{ConnectorInputDTO{Name: "a", Transport: "sse", URL: "http://x", Command: "x"}, "for stdio connectors"},
		{ConnectorInputDTO{Name: strings.Repeat("n", 65), Transport: "stdio", Command: "x"}, "longer than 64"},
	}
	for _, b := range bad {
		_, err := a.Connectors.Save(b.in)
		if chat.Kind(err) != chat.KindInvalid || !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(b.want)) {
			t.Errorf("SaveConnector(%+v) = %v; want invalid with %q", b.in, err, b.want)
		}
	}
	if _, err := a.Connectors.Save(ConnectorInputDTO{ID: "nope", Name: "a", Transport: "stdio", Command: "x"}); chat.Kind(err) != chat.KindNotFound {
		t.Errorf("edit of a missing connector: %v", err)
	}
	if list, _ := a.Connectors.List(); len(list) != 0 {
		t.Errorf("invalid forms were saved: %+v", list)
	}
	// A valid one with a working dir and OAuth fields round-trips.
	c, err := a.Connectors.Save(ConnectorInputDTO{Name: "Remote", Transport: "http", URL: "http://127.0.0.1:1/mcp",
		OAuth: &OAuthInputDTO{ClientID: "maestro", ClientSecret: "s3cret", Scopes: []string{"read write", "admin"}}})
	if err != nil {
		t.Fatal(err)
	}
	if c.OAuth == nil || c.OAuth.ClientID != "maestro" || !c.OAuth.HasClientSecret || !slices.Equal(c.OAuth.Scopes, []string{"read", "write", "admin"}) {
		t.Errorf("oauth = %+v", c.OAuth)
	}
	if err := a.Connectors.SignIn("nope"); chat.Kind(err) != chat.KindNotFound {
		t.Errorf("sign in to a missing connector: %v", err)
	}
	s, err := a.Connectors.Save(ConnectorInputDTO{Name: "Local", Transport: "stdio", Command: "true", Cwd: dir})
	if err != nil || s.Cwd != dir {
		t.Fatalf("stdio with cwd = %+v, %v", s, err)
	}
	if err := a.Connectors.SignIn(s.ID); chat.Kind(err) != chat.KindInvalid {
		t.Errorf("sign in without OAuth: %v", err)
	}
	if err := a.Connectors.CancelSignIn(c.ID); chat.Kind(err) != chat.KindNotFound {
		t.Errorf("cancel with no sign-in: %v", err)
	}
}

func TestTestConnection(t *testing.T) {
	t.Parallel()
	a := startConnApp(t, Runtime{})
	hs := newHTTPServer(t, mcpgo.NewTool("search", mcpgo.WithDescription("Search"), mcpgo.WithReadOnlyHintAnnotation(true)), mcpgo.NewTool("add"))
	res, err := a.Connectors.Test(ConnectorInputDTO{Name: "Probe", Transport: "http", URL: hs.URL + "/mcp",
		Headers: []KeyValueInputDTO{{Key: "Authorization", Value: "Bearer test-only"}}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK || res.State != "ready" || len(res.Tools) != 2 || res.Tools[0].Name != "add" || !res.Tools[1].ReadOnly {
		t.Fatalf("TestConnector = %+v", res)
	}
	if !hs.sawAuth("Bearer test-only") {
		t.Error("the test did not send the header")
	}
	res, err = a.Connectors.Test(ConnectorInputDTO{Name: "Probe", Transport: "stdio", Command: "sh",
		Args: []string{"-c", "echo 'Error: Cannot find module x' >&2; exit 3"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.OK || res.State != "error" || !strings.Contains(res.Error, "Cannot find module") || len(res.StderrTail) == 0 {
		t.Errorf("failing test = %+v", res)
	}
	if _, err := a.Connectors.Test(ConnectorInputDTO{Name: "Probe", Transport: "stdio"}); chat.Kind(err) != chat.KindInvalid {
		t.Errorf("invalid form: %v", err)
	}
	if list, _ := a.Connectors.List(); len(list) != 0 {
		t.Errorf("a test saved a connector: %+v", list)
	}
	if n := len(a.ev.all(EventConnectorState)); n != 0 {
		t.Errorf("a test emitted %d connector:state events", n)
	}
}

func TestImportExportAndPickers(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var asked []FileDialog
	dir := t.TempDir()
	file := filepath.Join(dir, "claude_desktop_config.json")
	out := filepath.Join(dir, "export.json")
	rt := Runtime{
		OpenFileDialog: func(_ context.Context, d FileDialog) (string, error) {
			mu.Lock()
			asked = append(asked, d)
			mu.Unlock()
			return file, nil
		},
		SaveFileDialog:      func(_ context.Context, d FileDialog) (string, error) { return out, nil },
		OpenDirectoryDialog: func(_ context.Context, d FileDialog) (string, error) { return "", nil },
	}
	a := startConnApp(t, rt)
	err := os.WriteFile(file, []byte(`{"mcpServers": {
	  "files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], "env": {"TOKEN": "imported-secret-value"}, "disabled": true},
	  "remote": {"type": "sse", "url": "https://example.com/sse", "disabled": true},
	  "broken": {"command": 42},
	  "odd": {"url": "https://example.com/mcp", "type": "websocket"}
	}}`), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	path, err := a.Connectors.PickImportFile()
	if err != nil || path != file {
		t.Fatalf("PickImportFile = %q, %v", path, err)
	}
	mu.Lock()
	if len(asked) != 1 || asked[0].Filters[0].Pattern != "*.json" {
		t.Errorf("dialog = %+v", asked)
	}
	mu.Unlock()
	rep, err := a.Connectors.Import(path)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Imported != 2 || len(rep.Entries) != 4 {
		t.Fatalf("report = %+v", rep)
	}
	for _, e := range rep.Entries {
		switch e.Name {
		case "files", "remote":
			if !e.Imported || e.ConnectorID == "" {
				t.Errorf("%s: %+v", e.Name, e)
			}
		case "broken", "odd":
			if e.Imported || e.Reason == "" {
				t.Errorf("%s: %+v; want skipped with a reason", e.Name, e)
			}
		}
	}
	again, err := a.Connectors.Import(path)
	if err != nil || again.Imported != 0 || !strings.Contains(again.Entries[0].Reason, "exists already") {
		t.Errorf("second import = %+v, %v", again, err)
	}
	list, _ := a.Connectors.List()
	if len(list) != 2 || list[0].Name != "files" || list[0].Enabled || list[0].Env[0].Key != "TOKEN" {
		t.Errorf("imported = %+v", list)
	}

	p, err := a.Connectors.PickExportFile()
	if err != nil || p != out {
		t.Fatal(p, err)
	}
	n, err := a.Connectors.Export(p)
	if err != nil || n != 2 {
		t.Fatalf("ExportConnectors = %d, %v", n, err)
	}
	data, _ := os.ReadFile(out)
	info, _ := os.Stat(out)
	if !strings.Contains(string(data), `"imported-secret-value"`) || !strings.Contains(string(data), `"remote"`) || info.Mode().Perm() != 0o600 {
		t.Errorf("export (%v): %s", info.Mode(), data)
	}

	if p, err := a.Connectors.PickFolder(); err != nil || p != "" {
		t.Errorf("cancelled folder picker = %q, %v", p, err)
	}
	for _, bad := range []string{"", "relative.json", dir, filepath.Join(dir, "missing.json")} {
		if _, err := a.Connectors.Import(bad); err == nil {
			t.Errorf("ImportConnectors(%q) succeeded", bad)
		}
	}
	if err := os.WriteFile(file, []byte(`not json`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Connectors.Import(file); chat.Kind(err) != chat.KindInvalid ||
		!strings.HasPrefix(err.Error(), filepath.Base(file)+": the file is not JSON (line 1, column 2:") {
		t.Errorf("not JSON: %v; want the file's name, then where and why in words", err)
	}

	// Without dialogs in the runtime, the pickers say so.
	b := startConnApp(t, Runtime{})
	if _, err := b.Connectors.PickFolder(); chat.Kind(err) != chat.KindUnavailable {
		t.Errorf("no dialog: %v", err)
	}
}

// TestShutdownStopsServers checks the order at shutdown: the supervisor is
// closed (its servers stopped) before the store, and starting never blocks
// startup.
func TestShutdownStopsServers(t *testing.T) {
	t.Parallel()
	a := startConnApp(t, Runtime{})
	pidFile := filepath.Join(t.TempDir(), "pid")
	// A server that never answers initialize: it stays starting.
	c, err := a.Connectors.Save(ConnectorInputDTO{Name: "Slow", Transport: "stdio", Command: "sh",
		Args: []string{"-c", "echo $$ > " + pidFile + "; exec sleep 60"}})
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	deadline := time.Now().Add(10 * time.Second)
	for pid == 0 && time.Now().Before(deadline) {
		b, _ := os.ReadFile(pidFile)
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		time.Sleep(10 * time.Millisecond)
	}
	if pid == 0 {
		t.Fatal("the server never started")
	}
	if list, _ := a.Connectors.List(); list[0].ID != c.ID || list[0].State != "starting" {
		t.Errorf("state = %+v", list)
	}
	done := make(chan struct{})
	go func() {
		a.App.Shutdown(context.Background())
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		t.Fatal("shutdown hung on a starting server")
	}
	if err := syscall.Kill(pid, 0); err == nil {
		_ = exec.Command("kill", "-9", strconv.Itoa(pid)).Run()
		t.Error("the server process survived shutdown")
	}
	for _, d := range a.ev.all(EventConnectorState) {
		if d.(ConnectorDTO).State == "stopped" {
			t.Error("a connector:state event was sent during shutdown")
		}
	}
}

func TestConnectorsRestartFromStore(t *testing.T) {
	t.Parallel()
	hs := newHTTPServer(t, mcpgo.NewTool("read"))
	dir := t.TempDir()
	sec := mcp.NewMemorySecrets()
	start := func() (*App, *eventLog) {
		a, ev := newApp(t, dir, func(d *Deps) { d.Secrets = sec })
		a.Startup(t.Context())
		return a, ev
	}
	a, ev := start()
	c, err := a.Connectors.Save(ConnectorInputDTO{Name: "Files", Transport: "http", URL: hs.URL + "/mcp",
		Headers: []KeyValueInputDTO{{Key: "X-Token", Value: "kept-in-the-keychain"}}})
	if err != nil {
		t.Fatal(err)
	}
	ev.wait(t, EventConnectorState, stateIs(c.ID, "ready"))
	a.Shutdown(context.Background())

	a, ev = start()
	defer a.Shutdown(context.Background())
	ev.wait(t, EventConnectorState, stateIs(c.ID, "ready"))
	list, err := a.Connectors.List()
	if err != nil || len(list) != 1 || list[0].Headers[0].Key != "X-Token" || list[0].ToolCount != 1 {
		t.Fatalf("after restart: %+v, %v", list, err)
	}
}

// noKeychain is a keychain that cannot be reached.
type noKeychain struct{}

func (noKeychain) Get(context.Context, string) (string, error) {
	return "", chat.E(chat.ErrUnavailable, "no Secret Service: install gnome-keyring")
}
func (noKeychain) Set(context.Context, string, string) error {
	return chat.E(chat.ErrUnavailable, "no Secret Service: install gnome-keyring")
}
func (noKeychain) Delete(context.Context, string) error {
	return chat.E(chat.ErrUnavailable, "no Secret Service: install gnome-keyring")
}

func TestConnectorsWithoutKeychain(t *testing.T) {
	t.Parallel()
	a, _ := startApp(t, "", func(d *Deps) { d.Secrets = noKeychain{} })
	// Without values to keep, no keychain is needed.
	c, err := a.Connectors.Save(ConnectorInputDTO{Name: "Plain", Transport: "stdio", Command: "true"})
	if err != nil {
		t.Fatalf("save without secrets: %v", err)
	}
	if err := a.Connectors.Delete(c.ID); err != nil {
		t.Fatalf("delete without secrets: %v", err)
	}
	// With values, the keychain's message says what to fix.
	_, err = a.Connectors.Save(ConnectorInputDTO{Name: "Secret", Transport: "stdio", Command: "true",
		Env: []KeyValueInputDTO{{Key: "TOKEN", Value: "x"}}})
	if chat.Kind(err) != chat.KindUnavailable || !strings.Contains(err.Error(), "gnome-keyring") {
		t.Errorf("save with secrets: %v", err)
	}
}

// TestConnectorArgumentSecrets: a token in a stdio connector's arguments,
// marked secret in the form, reaches the keychain and the process only:
// not the data file, the events, the log or the DTOs. Editing the form with
// the reference kept keeps the value; the trust setting round-trips.
func TestConnectorArgumentSecrets(t *testing.T) {
	t.Parallel()
	a := startConnApp(t, Runtime{})
	const token = "ghp_0123456789abcdefghijABCDEFGHIJ"
	args := []string{"-c", "echo started >&2; exit 1", "sh", "--token=" + token}
	if got := a.Connectors.SuggestSecretArgs(args); !slices.Equal(got, []int{3}) {
		t.Fatalf("SuggestSecretArgs = %v; want [3]", got)
	}
	c, err := a.Connectors.Save(ConnectorInputDTO{Name: "Tokened", Transport: "stdio", Command: "sh", Args: args,
		SecretArgs: []int{3}, TrustReadOnlyHints: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Args, []string{"-c", "echo started >&2; exit 1", "sh", "--token=${secret:1}"}) || !c.TrustReadOnlyHints {
		t.Errorf("saved = args %q trust %v; want the reference and the trust setting", c.Args, c.TrustReadOnlyHints)
	}
	a.ev.wait(t, EventConnectorState, stateIs(c.ID, "error"))

	// Edit: rename, keep the reference; the value stays in the keychain.
	c, err = a.Connectors.Save(ConnectorInputDTO{ID: c.ID, Name: "Tokened 2", Transport: "stdio", Command: "sh", Args: c.Args})
	if err != nil || c.TrustReadOnlyHints {
		t.Fatalf("edit = %+v, %v; want trust off again", c, err)
	}
	if raw, _ := a.secrets.Get(t.Context(), "mcp-connector:"+c.ID); !strings.Contains(raw, token) {
		t.Errorf("keychain = %q; want the token kept", raw)
	}
	// A reference the connector does not have is refused.
	if _, err := a.Connectors.Save(ConnectorInputDTO{ID: c.ID, Name: "Tokened 2", Transport: "stdio", Command: "sh",
		Args: []string{"--token=${secret:2}"}}); chat.Kind(err) != chat.KindInvalid || !strings.Contains(err.Error(), "not stored") {
		t.Errorf("dangling reference: %v; want invalid", err)
	}
	a.ev.waitFrom(t, 1, EventConnectorState, stateIs(c.ID, "error"))

	logs, _ := a.Connectors.Logs(c.ID)
	list, _ := a.Connectors.List()
	var events []any
	a.ev.mu.Lock()
	for _, e := range a.ev.events {
		events = append(events, e.data)
	}
	a.ev.mu.Unlock()
	if len(events) < 3 {
		t.Fatalf("%d events; want the connector's states and log lines", len(events))
	}
	for what, v := range map[string]any{"logs": logs, "list": list, "events": events} {
		if b, _ := json.Marshal(v); bytes.Contains(b, []byte(token)) {
			t.Errorf("%s hold the token: %s", what, b)
		}
	}
	a.App.Shutdown(context.Background())
	db, err := os.ReadFile(filepath.Join(a.dir, "maestro.db"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(db, []byte(token)) {
		t.Error("the data file holds the token")
	}
}

// TestNewChatsStartWithTheFirstConnectors: a user's first connectors are on
// in new chats (the form can say otherwise), and a new chat starts with them.
func TestNewChatsStartWithTheFirstConnectors(t *testing.T) {
	t.Parallel()
	a := startConnApp(t, Runtime{})
	hs := newHTTPServer(t, mcpgo.NewTool("read"))
	on, err := a.Connectors.Save(ConnectorInputDTO{Name: "Files", Transport: "http", URL: hs.URL + "/mcp"})
	if err != nil || !on.NewChats {
		t.Fatalf("first connector: newChats %v, %v; want on by default", on.NewChats, err)
	}
	off := false
	quiet, err := a.Connectors.Save(ConnectorInputDTO{Name: "Quiet", Transport: "http", URL: hs.URL + "/mcp", NewChats: &off})
	if err != nil || quiet.NewChats {
		t.Fatalf("connector saved with newChats off: %v, %v", quiet.NewChats, err)
	}
	a.ev.wait(t, EventConnectorState, stateIs(on.ID, "ready"))
	s, err := a.Sessions.Create("")
	if err != nil {
		t.Fatal(err)
	}
	tools, err := a.Connectors.SessionTools(s.ID)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, c := range tools.Connectors {
		got[c.Name] = c.EnabledInSession
	}
	if !got["Files"] || got["Quiet"] {
		t.Errorf("a new chat's connectors = %v; want Files on and Quiet off", got)
	}
}
