package mcp

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

func TestParseServersFile(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/claude_desktop_config.json")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := ParseServersFile(data)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		imported  bool
		transport TransportKind
		reason    string // in the reason (skipped) or a note (imported)
		ignored   []string
	}{
		{"filesystem", true, TransportStdio, `env "MAX_FILES" taken as the text "200"`, nil},
		{"github", true, TransportHTTP, "", []string{"alwaysAllow"}},
		{"legacy-sse", true, TransportSSE, "", nil},
		{"untyped", true, TransportHTTP, "no type: taken as streamable HTTP", nil},
		{"old", true, TransportStdio, "", nil},
		{"both", false, "", "both a command and a url", nil},
		{"neither", false, "", "neither a command nor a url", nil},
		{"bad-args", false, "", `"args" is not a list`, nil},
		{"ftp", false, "", `unknown type "ftp"`, nil},
		{"not-an-object", false, "", "is a string, not an object", nil},
	}
	if len(rep.Entries) != len(tests) {
		t.Fatalf("got %d entries, want %d: %+v", len(rep.Entries), len(tests), rep.Entries)
	}
	for i, tt := range tests {
		e := rep.Entries[i]
		if e.Name != tt.name {
			t.Errorf("entry %d is %q, want %q (file order)", i, e.Name, tt.name)
			continue
		}
		if e.Imported != tt.imported {
			t.Errorf("%s: imported = %v (%s), want %v", tt.name, e.Imported, e.Reason, tt.imported)
			continue
		}
		if tt.imported {
			if e.Connector.Transport != tt.transport {
				t.Errorf("%s: transport = %s, want %s", tt.name, e.Connector.Transport, tt.transport)
			}
			if tt.reason != "" && !slices.Contains(e.Notes, tt.reason) {
				t.Errorf("%s: notes = %q, want %q", tt.name, e.Notes, tt.reason)
			}
		} else if !strings.Contains(e.Reason, tt.reason) {
			t.Errorf("%s: reason = %q, want %q", tt.name, e.Reason, tt.reason)
		}
		if !slices.Equal(e.Ignored, tt.ignored) {
			t.Errorf("%s: ignored = %q, want %q", tt.name, e.Ignored, tt.ignored)
		}
	}
	fs := rep.Entries[0].Connector
	if fs.Command != "npx" || len(fs.Args) != 3 || fs.Env["DEBUG"] != "1" {
		t.Errorf("filesystem = %+v", fs)
	}
	if gh := rep.Entries[1].Connector; gh.Headers["Authorization"] != "Bearer ghp_example" {
		t.Errorf("github headers = %v", gh.Headers)
	}
	if !rep.Entries[4].Connector.Disabled {
		t.Error("old: want disabled")
	}
}

func TestParseServersFileShapes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file string
		entries    int
		err        string
	}{
		{"vs code servers", `{"servers":{"a":{"command":"x"}}}`, 1, ""},
		{"bare map", `{"a":{"command":"x"},"b":{"url":"https://e.com/mcp"}}`, 2, ""},
		{"empty map", `{"mcpServers":{}}`, 0, ""},
		{"cut short", `{"mcpServers":`, 0, "the file is not JSON (it ends before the JSON does)"},
		{"not json", "{\"a\": 1}\nthese are notes", 0, "the file is not JSON (unexpected data after the JSON value)"},
		{"notes", "these are notes", 0, "line 1, column 2: invalid character 'h' in literal true (expecting 'r')"},
		{"array", `[1]`, 0, "not an object of servers"},
		{"no servers", `{"theme":"dark"}`, 0, "no \"mcpServers\""},
		{"servers not an object", `{"mcpServers":[]}`, 0, `"mcpServers" in the file is not an object of servers`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rep, err := ParseServersFile([]byte(tt.file))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || len(rep.Entries) != tt.entries {
				t.Fatalf("entries = %d, %v; want %d", len(rep.Entries), err, tt.entries)
			}
		})
	}
}

func TestImportAndExportRoundTrip(t *testing.T) {
	t.Parallel()
	// Imported connectors start at once: nothing here may reach past this
	// machine, so the commands do not exist and the URLs are closed ports.
	data := []byte(`{"mcpServers": {
		"filesystem": {"command": "maestro-test-no-such-npx", "args": ["-y", "server-filesystem", "/tmp"], "env": {"DEBUG": "1"}},
		"github": {"type": "http", "url": "http://127.0.0.1:9/mcp", "headers": {"Authorization": "Bearer x"}},
		"legacy-sse": {"type": "sse", "url": "http://127.0.0.1:9/sse"},
		"untyped": {"url": "http://127.0.0.1:9/mcp"},
		"old": {"command": "maestro-test-no-such-uvx", "args": ["mcp-server-time"], "disabled": true},
		"both": {"command": "x", "url": "http://127.0.0.1:9"}
	}}`)
	sup := NewSupervisor(WithSecrets(NewMemorySecrets()), WithMaxStartFailures(1), WithPingInterval(0))
	defer sup.Close()
	ctx := t.Context()
	rep, err := sup.Import(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Imported() != 5 {
		t.Fatalf("imported %d: %s", rep.Imported(), rep.Summary())
	}
	again, err := sup.Import(ctx, data)
	if err != nil || again.Imported() != 0 {
		t.Fatalf("second import: %s, %v", again.Summary(), err)
	}
	if e := again.Entries[0]; e.Reason != "a connector with this name exists already" {
		t.Errorf("second import reason = %q", e.Reason)
	}

	out, err := sup.Export()
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		MCPServers map[string]map[string]any `json:"mcpServers"`
	}
	if err := json.Unmarshal(out, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.MCPServers) != 5 || file.MCPServers["github"]["type"] != "http" ||
		file.MCPServers["legacy-sse"]["type"] != "sse" || file.MCPServers["old"]["disabled"] != true {
		t.Fatalf("exported:\n%s", out)
	}
	// The export imports back to the same connectors.
	back, err := ParseServersFile(out)
	if err != nil || back.Imported() != 5 {
		t.Fatalf("re-import: %s, %v", back.Summary(), err)
	}
	for _, e := range back.Entries {
		orig := slices.IndexFunc(sup.Connectors(), func(c Connector) bool { return c.Name == e.Name })
		c := sup.Connectors()[orig]
		if e.Connector.URL != c.URL || e.Connector.Command != c.Command || !slices.Equal(e.Connector.Args, c.Args) {
			t.Errorf("%s: exported %+v, had %+v", e.Name, *e.Connector, c)
		}
	}
}

// TestImportedConnectorsOnInNewChats: a user's first connectors, imported
// or added, are on in new chats; later ones are not.
func TestImportedConnectorsOnInNewChats(t *testing.T) {
	t.Parallel()
	var servers []string
	for i := range newChatsFirst + 2 {
		servers = append(servers, fmt.Sprintf(`"s%d": {"command": "maestro-test-no-such-cmd-%d"}`, i, i))
	}
	sup := NewSupervisor(WithSecrets(NewMemorySecrets()), WithMaxStartFailures(1), WithPingInterval(0))
	defer sup.Close()
	rep, err := sup.Import(t.Context(), []byte(`{"mcpServers": {`+strings.Join(servers, ",")+`}}`))
	if err != nil {
		t.Fatal(err)
	}
	on := 0
	for _, e := range rep.Entries {
		if e.Connector != nil && e.Connector.NewChats {
			on++
		}
	}
	if on != newChatsFirst {
		t.Errorf("%d of %d imported connectors on in new chats; want the first %d", on, rep.Imported(), newChatsFirst)
	}
}
