// Command maestro-mcp-test is a stdio MCP server whose tool list a test
// changes while it runs. The end-to-end suite registers it as a connector in
// the real app and adds or removes tools mid-session; the server announces
// each change with notifications/tools/list_changed, as a real server whose
// capabilities change would.
//
//	maestro-mcp-test -control 127.0.0.1:PORT -tools forecast,alerts
//
// stdin and stdout carry MCP; the control endpoints listen on -control:
//
//	GET    /tools          the current tool names, as a JSON array
//	POST   /tools          {"name":"x","description":"…","readOnly":true,"ask":"…"} adds or replaces a tool
//	DELETE /tools/{name}   removes a tool
//	GET    /calls          the calls served so far: [{"name":…,"arguments":{…}}]
//
// Every tool takes an optional string "text" and answers
// "<name> ran with <arguments as JSON>", so a test can find its result in
// the next model request. Tools are read-only unless added with
// "readOnly": false. A tool added with "ask" first asks the user that
// question (a form with one text field, "answer") as a Multi Round-Trip
// request: a 2026-07-28 client gets an input_required result and calls
// again with the answer, a 2025-11-25 client gets mcp-go's
// elicitation/create; the result then ends with "; answered <answer>" (or
// "; <action>" when the user declined). When the control port is busy (the app restarted the
// server while the previous process still held it) the server retries for a
// few seconds, then serves MCP without control. Logs go to stderr, which
// the app shows in the connector's log.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func main() {
	control := flag.String("control", "", "address of the control endpoints (none if empty)")
	tools := flag.String("tools", "", "comma-separated names of the tools served at start")
	flag.Parse()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))

	s := newServer()
	for _, name := range strings.Split(*tools, ",") {
		if name = strings.TrimSpace(name); name != "" {
			s.add(toolSpec{Name: name})
		}
	}
	if *control != "" {
		go func() {
			if err := s.serveControl(*control); err != nil {
				log.Error("control endpoints", "addr", *control, "err", err)
			}
		}()
	}
	if err := server.ServeStdio(s.mcp); err != nil {
		log.Error("stdio", "err", err)
		os.Exit(1)
	}
}

// toolSpec is what POST /tools takes.
type toolSpec struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// ReadOnly defaults to true.
	ReadOnly *bool `json:"readOnly,omitempty"`
	// Ask is a question put to the user before the tool answers.
	Ask string `json:"ask,omitempty"`
}

type call struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

// testServer is the MCP server plus the state the control endpoints read.
// mu guards names and calls; the MCPServer has its own locking.
type testServer struct {
	mcp   *server.MCPServer
	mu    sync.Mutex
	names []string
	calls []call
}

func newServer() *testServer {
	return &testServer{mcp: server.NewMCPServer("maestro-mcp-test", "1.0.0",
		server.WithToolCapabilities(true), server.WithLogging())}
}

func (s *testServer) add(spec toolSpec) {
	desc := spec.Description
	if desc == "" {
		desc = "Test tool " + spec.Name + ": answers with the arguments it was called with."
	}
	ro := spec.ReadOnly == nil || *spec.ReadOnly
	tool := mcpgo.NewTool(spec.Name, mcpgo.WithDescription(desc),
		mcpgo.WithString("text", mcpgo.Description("Anything; it is echoed back.")),
		mcpgo.WithReadOnlyHintAnnotation(ro), mcpgo.WithDestructiveHintAnnotation(false))
	name, ask := spec.Name, spec.Ask
	s.mcp.AddTool(tool, func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		answered := ""
		if ask != "" {
			if len(req.Params.InputResponses) == 0 {
				return server.NewInputRequestBuilder(askState).Elicit("ask", mcpgo.ElicitationParams{
					Message: ask, RequestedSchema: askSchema}).ToolResult(), nil
			}
			answered = answerText(req.Params.InputResponses)
		}
		args := req.GetArguments()
		s.mu.Lock()
		s.calls = append(s.calls, call{Name: name, Arguments: args})
		s.mu.Unlock()
		b, err := json.Marshal(args)
		if err != nil {
			return nil, fmt.Errorf("encode arguments: %w", err)
		}
		return mcpgo.NewToolResultText(name + " ran with " + string(b) + answered), nil
	})
	s.mu.Lock()
	if !slices.Contains(s.names, name) {
		s.names = append(s.names, name)
	}
	s.mu.Unlock()
}

// askState is the requestState of a tool's question; askSchema its form.
const askState = "ask-1"

var askSchema = map[string]any{
	"type":       "object",
	"properties": map[string]any{"answer": map[string]any{"type": "string", "title": "Answer"}},
	"required":   []string{"answer"},
}

// answerText words the user's answer to a tool's question for its result.
func answerText(in mcpgo.InputResponses) string {
	res := server.ElicitationResponse(in, "ask")
	switch {
	case res == nil:
		return "; no answer"
	case res.Action != mcpgo.ElicitationResponseActionAccept:
		return "; " + string(res.Action)
	}
	content, _ := res.Content.(map[string]any)
	return fmt.Sprintf("; answered %v", content["answer"])
}

func (s *testServer) remove(name string) bool {
	s.mu.Lock()
	i := slices.Index(s.names, name)
	if i >= 0 {
		s.names = slices.Delete(s.names, i, i+1)
	}
	s.mu.Unlock()
	if i < 0 {
		return false
	}
	s.mcp.DeleteTools(name)
	return true
}

func (s *testServer) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /tools", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		writeJSON(w, append([]string{}, s.names...))
	})
	mux.HandleFunc("POST /tools", func(w http.ResponseWriter, r *http.Request) {
		var spec toolSpec
		if err := json.NewDecoder(r.Body).Decode(&spec); err != nil || spec.Name == "" {
			http.Error(w, "want {\"name\":…}", http.StatusBadRequest)
			return
		}
		s.add(spec)
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("DELETE /tools/{name}", func(w http.ResponseWriter, r *http.Request) {
		if !s.remove(r.PathValue("name")) {
			http.Error(w, "no such tool", http.StatusNotFound)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /calls", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		writeJSON(w, append([]call{}, s.calls...))
	})
	return mux
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// serveControl listens on addr, retrying while a previous process of this
// server still holds the port.
func (s *testServer) serveControl(addr string) error {
	var ln net.Listener
	var err error
	for deadline := time.Now().Add(5 * time.Second); ; {
		if ln, err = net.Listen("tcp", addr); err == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	srv := &http.Server{Handler: s.handler(), ReadHeaderTimeout: 5 * time.Second}
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}
