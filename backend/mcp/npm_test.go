package mcp

import (
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// The outside checks run real servers from npm, installed by
// `.ci/deps.sh test` into .ci/mcp/node_modules. The Makefile points
// MAESTRO_MCP_NODE_MODULES there; without it these tests skip, unless
// MAESTRO_REQUIRE_MCP=1 says they must run.
const (
	nodeModulesEnv = "MAESTRO_MCP_NODE_MODULES"
	requireMCPEnv  = "MAESTRO_REQUIRE_MCP"
)

// npmPackage returns the entry point of an installed npm MCP server.
func npmPackage(t testing.TB, pkg string) string {
	t.Helper()
	dir := os.Getenv(nodeModulesEnv)
	if dir == "" {
		if os.Getenv(requireMCPEnv) == "1" {
			t.Fatalf("%s is not set but %s=1: run `.ci/deps.sh test` and set %s to .ci/mcp/node_modules", nodeModulesEnv, requireMCPEnv, nodeModulesEnv)
		}
		t.Skipf("skipping: %s is not set (run `.ci/deps.sh test`, then set it to .ci/mcp/node_modules, as `make test` does)", nodeModulesEnv)
	}
	entry := filepath.Join(dir, "@modelcontextprotocol", pkg, "dist", "index.js")
	if _, err := os.Stat(entry); err != nil {
		t.Fatalf("%s=%s but %s is not installed: %v", nodeModulesEnv, dir, pkg, err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatalf("node is not on PATH: %v", err)
	}
	return entry
}

// freePort picks a free loopback port.
func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// startEverythingHTTP runs server-everything in streamable HTTP mode and
// returns its /mcp URL. The process is stopped when the test ends.
func startEverythingHTTP(t testing.TB, entry string) string {
	t.Helper()
	port := freePort(t)
	cmd := exec.Command("node", entry, "streamableHttp")
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	deadline := time.Now().Add(20 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("server-everything did not listen on %s: %s", addr, stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Sprintf("http://%s/mcp", addr)
}

// everythingTransports are server-everything over stdio and over
// streamable HTTP, each a connector made for its subtest.
func everythingTransports(t *testing.T) []struct {
	name string
	c    func(t *testing.T) Connector
} {
	entry := npmPackage(t, "server-everything")
	return []struct {
		name string
		c    func(t *testing.T) Connector
	}{
		{"stdio", func(t *testing.T) Connector {
			return Connector{Name: "Everything", Command: "node", Args: []string{entry, "stdio"}}
		}},
		{"streamable http", func(t *testing.T) Connector {
			return Connector{Name: "Everything", Transport: TransportHTTP, URL: startEverythingHTTP(t, entry)}
		}},
	}
}

func TestServerEverything(t *testing.T) {
	t.Parallel()
	for _, tr := range everythingTransports(t) {
		t.Run(tr.name, func(t *testing.T) {
			t.Parallel()
			testEverything(t, tr.c(t))
		})
	}
}

func testEverything(t *testing.T, c Connector) {
	smp := &fakeSampler{got: make(chan SamplingRequest, 4)}
	eli := &fakeElicitor{
		answer: ElicitationAnswer{Action: ActionAccept, Content: map[string]any{"name": "Ada Lovelace", "check": true, "email": "ada@example.com"}},
		got:    make(chan ElicitationRequest, 4),
	}
	h := newHarness(t, WithSampler(smp), WithElicitor(eli, &fakeOpener{opened: make(chan string, 1)}))
	c.CallTimeoutSeconds = 1 // the long-running tool lives on its progress notifications
	c = h.add(c)
	// The server adds its capability tools after initialize (list_changed).
	h.waitFor("the capability tools", func() bool {
		tools, _ := h.sup.Tools(c.ID)
		return slices.ContainsFunc(tools, func(tl mcpgo.Tool) bool { return tl.Name == "trigger-elicitation-request" })
	})
	sess := h.session(c.ID)
	ctx := t.Context()
	h.waitFor("the registry to list them", func() bool {
		snap, _ := h.reg.Snapshot(ctx, sess)
		_, ok := snap.Lookup("everything.get-roots-list")
		return ok
	})

	t.Run("echo", func(t *testing.T) {
		if got := text(t, h.call(ctx, sess, "everything.echo", `{"message":"hello"}`, nil)); got != "Echo: hello" {
			t.Fatalf("echo = %q", got)
		}
	})
	t.Run("get-sum", func(t *testing.T) {
		if got := text(t, h.call(ctx, sess, "everything.get-sum", `{"a":2,"b":3}`, nil)); got != "The sum of 2 and 3 is 5." {
			t.Fatalf("get-sum = %q", got)
		}
	})
	t.Run("missing argument is refused before the call", func(t *testing.T) {
		res := h.call(ctx, sess, "everything.get-sum", `{"a":2}`, nil)
		if res.Successful || !strings.Contains(res.Error, `"b"`) || len(res.Raw) != 0 {
			t.Fatalf("result = %+v", res)
		}
	})
	t.Run("sampling", func(t *testing.T) {
		got := text(t, h.call(ctx, sess, "everything.trigger-sampling-request", `{"prompt":"Say hi","maxTokens":20}`, nil))
		if !strings.Contains(got, "fake-model") || !strings.Contains(got, "hi") {
			t.Fatalf("sampling result = %q", got)
		}
		req := <-smp.got
		if req.SessionID != sess || req.ConnectorID != c.ID || req.Params.MaxTokens != 20 {
			t.Fatalf("sampling request = %+v", req)
		}
	})
	t.Run("elicitation", func(t *testing.T) {
		got := text(t, h.call(ctx, sess, "everything.trigger-elicitation-request", `{}`, nil))
		for _, want := range []string{"Name: Ada Lovelace", "Email: ada@example.com", "Favorite Integer: 42", `"firstLine": "It was a dark and stormy night."`} {
			if !strings.Contains(got, want) {
				t.Errorf("elicitation result lacks %q:\n%s", want, got)
			}
		}
		req := <-eli.got
		if req.Form == nil || len(req.Form.Fields) < 10 {
			t.Fatalf("form = %+v", req.Form)
		}
	})
	t.Run("roots", func(t *testing.T) {
		dir := t.TempDir()
		if err := h.sup.SetRoots(ctx, sess, []Root{{Path: dir, Name: "project"}}); err != nil {
			t.Fatal(err)
		}
		h.waitFor("the server to see the root", func() bool {
			res := h.call(ctx, sess, "everything.get-roots-list", `{}`, nil)
			return res.Successful && strings.Contains(string(res.Data), "file://"+dir)
		})
	})
	t.Run("progress", func(t *testing.T) {
		var mu sync.Mutex
		var got []Progress
		start := time.Now()
		res := h.call(ctx, sess, "everything.trigger-long-running-operation", `{"duration":2,"steps":4}`, func(p Progress) {
			mu.Lock()
			got = append(got, p)
			mu.Unlock()
		})
		if txt := text(t, res); !strings.Contains(txt, "Long running operation completed") {
			t.Fatalf("result = %q", txt)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(got) != 4 || got[3].Progress != 4 || got[3].Total != 4 {
			t.Fatalf("progress = %+v", got)
		}
		if d := time.Since(start); d < 2*time.Second {
			t.Fatalf("took %s: the 1s call timeout was not what was tested", d)
		}
	})
	t.Run("logging after SetLevel", func(t *testing.T) {
		if err := h.sup.SetLevel(ctx, c.ID, "debug"); err != nil {
			t.Fatal(err)
		}
		since := time.Now()
		text(t, h.call(ctx, sess, "everything.toggle-simulated-logging", `{}`, nil))
		defer h.call(context.WithoutCancel(ctx), sess, "everything.toggle-simulated-logging", `{}`, nil)
		h.waitFor("a simulated log message", func() bool {
			logs, _ := h.sup.Logs(c.ID)
			return slices.ContainsFunc(logs, func(l LogLine) bool {
				return l.Source == SourceServer && l.Time.After(since) && strings.Contains(strings.ToLower(l.Text), "level")
			})
		})
	})
}

func TestServerFilesystemUsesTheChosenRoots(t *testing.T) {
	t.Parallel()
	entry := npmPackage(t, "server-filesystem")
	cmdline, chosen, later := t.TempDir(), t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(chosen, "notes.txt"), []byte("chosen folder"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t)
	ctx := t.Context()
	if err := h.sup.SetRoots(ctx, "session-a", []Root{{Path: chosen}}); err != nil {
		t.Fatal(err)
	}
	c := h.add(Connector{Name: "Files", Command: "node", Args: []string{entry, cmdline}})
	sess := h.session(c.ID)
	allowed := func() string {
		res := h.call(ctx, sess, "files.list_allowed_directories", `{}`, nil)
		if !res.Successful {
			return res.Error
		}
		return string(res.Data)
	}
	h.waitFor("the server to take the chosen root", func() bool {
		got := allowed()
		return strings.Contains(got, chosen) && !strings.Contains(got, cmdline)
	})
	read := h.call(ctx, sess, "files.read_text_file", fmt.Sprintf(`{"path":%q}`, filepath.Join(chosen, "notes.txt")), nil)
	if !read.Successful || !strings.Contains(string(read.Data), "chosen folder") {
		t.Fatalf("read = %+v", read)
	}
	res := h.call(ctx, sess, "files.list_directory", fmt.Sprintf(`{"path":%q}`, cmdline), nil)
	if res.Successful {
		t.Fatalf("the command-line folder is still allowed: %s", res.Data)
	}
	// The user changes the folders: roots/list_changed, and the server follows.
	if err := h.sup.SetRoots(ctx, "session-a", []Root{{Path: later}}); err != nil {
		t.Fatal(err)
	}
	h.waitFor("the server to take the new root", func() bool {
		got := allowed()
		return strings.Contains(got, later) && !strings.Contains(got, chosen)
	})
}
