package mcp

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestProtocolEras: each connector speaks the newest era its server does,
// whatever the transport; the override pins it; a 2026-07-28 pin on an old
// server fails with a reason.
func TestProtocolEras(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		conn    func(t *testing.T) Connector
		want    string // negotiated version; "" when the start must fail
		wantErr string
	}{
		{"stdio mcp-go server", func(t *testing.T) Connector { return selfServer(t, "Eras", "serve") }, ProtocolModern, ""},
		{"stdio pinned to 2025-11-25", func(t *testing.T) Connector {
			c := selfServer(t, "Eras", "serve")
			c.ProtocolVersion = ProtocolLegacy
			return c
		}, ProtocolLegacy, ""},
		{"stdio pinned to 2025-06-18", func(t *testing.T) Connector {
			c := selfServer(t, "Eras", "serve")
			c.ProtocolVersion = "2025-06-18"
			return c
		}, "2025-06-18", ""},
		{"streamable http, both eras", func(t *testing.T) Connector {
			return Connector{Name: "Eras", Transport: TransportHTTP, URL: "http://" + serveRemote(t, "", "http", "a").addr + "/mcp"}
		}, ProtocolModern, ""},
		{"streamable http, old era only", func(t *testing.T) Connector {
			return Connector{Name: "Eras", Transport: TransportHTTP, URL: "http://" + serveRemote(t, "", "http-legacy", "a").addr + "/mcp"}
		}, ProtocolLegacy, ""},
		{"sse", func(t *testing.T) Connector {
			return Connector{Name: "Eras", Transport: TransportSSE, URL: "http://" + serveRemote(t, "", "sse", "a").addr + "/sse"}
		}, ProtocolLegacy, ""},
		{"a server that answers anything with an empty success", func(t *testing.T) Connector {
			return Connector{Name: "Eras", Transport: TransportHTTP, URL: emptySuccessServer(t)}
		}, ProtocolLegacy, ""},
		{"2026-07-28 pinned on an old server", func(t *testing.T) Connector {
			c := Connector{Name: "Eras", Transport: TransportHTTP, URL: "http://" + serveRemote(t, "", "http-legacy", "a").addr + "/mcp"}
			c.ProtocolVersion = ProtocolModern
			return c
		}, "", "does not speak"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, WithMaxStartFailures(1))
			c := h.add(tc.conn(t))
			st := h.settle(c.ID)
			if tc.want == "" {
				if st.State != StateError || !strings.Contains(st.Error, tc.wantErr) {
					t.Fatalf("state %s (%s), want an error saying %q", st.State, st.Error, tc.wantErr)
				}
				return
			}
			if st.State != StateReady || st.Protocol != tc.want {
				t.Fatalf("state %s (%s), protocol %q; want ready with %q", st.State, st.Error, st.Protocol, tc.want)
			}
		})
	}
}

// emptySuccessServer is an old streamable HTTP server that answers every
// request it does not know with an empty success (as the conformance
// suite's initialize scenario does), which mcp-go's own probe would take
// for a 2026-07-28 server.
func emptySuccessServer(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(body, &req) != nil || req.ID == nil {
			w.WriteHeader(http.StatusAccepted) // a notification
			return
		}
		result := `{}`
		switch req.Method {
		case "initialize":
			result = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"empty","version":"1"}}`
		case "tools/list":
			result = `{"tools":[]}`
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":`+result+`}`)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

// TestAskingInBothEras: the same server tools ask for a form, a sample and
// the roots. A 2026-07-28 connector answers the input_required results and
// retries with the answers (echoing requestState, which the tools check);
// a 2025-11-25 connector answers the server's own requests. Either way the
// answers come from the same Sampler, Elicitor and roots, and each request
// names the call it was made for. A server that keeps asking is stopped
// after MaxInputRounds with a clear error.
func TestAskingInBothEras(t *testing.T) {
	t.Parallel()
	for _, era := range []string{ProtocolModern, ProtocolLegacy} {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			smp := &fakeSampler{got: make(chan SamplingRequest, 16)}
			eli := &fakeElicitor{answer: ElicitationAnswer{Action: ActionAccept, Content: map[string]any{"name": "Ada"}},
				got: make(chan ElicitationRequest, 16)}
			h := newHarness(t, WithSampler(smp), WithElicitor(eli, nil))
			cfg := selfServer(t, "Asker", "serve")
			if era == ProtocolLegacy {
				cfg.ProtocolVersion = ProtocolLegacy
			}
			c := h.add(cfg)
			if st := h.settle(c.ID); st.Protocol != era {
				t.Fatalf("protocol %q, want %q", st.Protocol, era)
			}
			ctx := t.Context()
			sess := h.session(c.ID)
			if err := h.sup.SetRoots(ctx, sess, []Root{{Path: "/tmp/project", Name: "project"}}); err != nil {
				t.Fatal(err)
			}

			res := h.call(ctx, sess, "asker.ask", `{}`, nil)
			if !res.Successful || !strings.Contains(string(res.Data), `"name":"Ada"`) || !strings.Contains(string(res.Data), `"age":30`) {
				t.Fatalf("ask = %+v", res)
			}
			if req := <-eli.got; req.CallID != "call-1" || req.SessionID != sess || req.Form == nil {
				t.Errorf("elicitation request = %+v", req)
			}
			if got := text(t, h.call(ctx, sess, "asker.sample", `{}`, nil)); !strings.Contains(got, "model fake-model said") {
				t.Errorf("sample = %q", got)
			}
			if req := <-smp.got; req.CallID != "call-1" || req.SessionID != sess {
				t.Errorf("sampling request = %+v", req)
			}
			if got := text(t, h.call(ctx, sess, "asker.roots", `{}`, nil)); got != "file:///tmp/project" {
				t.Errorf("roots = %q", got)
			}
			if got := text(t, h.call(ctx, sess, "asker.all-three", `{}`, nil)); got != "Ada/fake-model/1 roots" {
				t.Errorf("all-three = %q", got)
			}
			<-eli.got
			<-smp.got

			res = h.call(ctx, sess, "asker.insist", `{}`, nil)
			if res.Successful {
				t.Fatalf("insist succeeded: %s", res.Data)
			}
			want := "kept asking for more input"
			if era == ProtocolLegacy {
				want = "asked for input more than" // the server's own bridge gives up first
			}
			if !strings.Contains(res.Error, want) {
				t.Errorf("insist error = %q, want it to say %q", res.Error, want)
			}
		})
	}
}

// TestNewEraNotifications: on 2026-07-28 list changes come on the
// subscriptions/listen stream the connector opens, and log messages at the
// level set per request (_meta), over stdio and HTTP.
func TestNewEraNotifications(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		conn func(t *testing.T) Connector
	}{
		{"stdio", func(t *testing.T) Connector { return selfServer(t, "Test", "serve") }},
		{"http", func(t *testing.T) Connector {
			return Connector{Name: "Test", Transport: TransportHTTP, URL: "http://" + serveRemote(t, "", "http", "grow").addr + "/mcp"}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			c := h.add(tc.conn(t))
			if st := h.settle(c.ID); st.Protocol != ProtocolModern {
				t.Fatalf("protocol %q", st.Protocol)
			}
			ctx := t.Context()
			sess := h.session(c.ID)
			text(t, h.call(ctx, sess, "test.grow", `{}`, nil))
			h.waitFor("the grown tool in the registry", func() bool {
				snap, _ := h.reg.Snapshot(ctx, sess)
				_, ok := snap.Lookup("test.grown")
				return ok
			})

			if tc.name != "stdio" {
				return // the remote test server has no log tool
			}
			if err := h.sup.SetLevel(ctx, c.ID, "warning"); err != nil {
				t.Fatal(err)
			}
			text(t, h.call(ctx, sess, "test.log", `{"level":"info","text":"quiet"}`, nil))
			text(t, h.call(ctx, sess, "test.log", `{"level":"error","text":"loud"}`, nil))
			h.waitFor("the error log line", func() bool {
				logs, _ := h.sup.Logs(c.ID)
				return slicesContainsFunc(logs, func(l LogLine) bool { return l.Source == SourceServer && l.Text == "loud" })
			})
			logs, _ := h.sup.Logs(c.ID)
			if slicesContainsFunc(logs, func(l LogLine) bool { return l.Text == "quiet" }) {
				t.Error("an info line came through at level warning")
			}
		})
	}
}
