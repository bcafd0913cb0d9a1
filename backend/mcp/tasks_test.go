package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"maestro/backend/chat"
	"maestro/backend/tools"
)

// recTasks records task changes.
type recTasks struct {
	mu  sync.Mutex
	all []Task
}

func (r *recTasks) TaskChanged(t Task) {
	r.mu.Lock()
	r.all = append(r.all, t)
	r.mu.Unlock()
}

func (r *recTasks) statuses() []TaskStatus {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []TaskStatus
	for _, t := range r.all {
		if len(out) == 0 || out[len(out)-1] != t.Status {
			out = append(out, t.Status)
		}
	}
	return out
}

// TestTaskTool: a tool the server lets run as a task is called as one over
// stdio and HTTP; the turn gets its result, the status is the call's
// progress, the task is listed on its connector with the call that started
// it, and Stop cancels it on the server.
func TestTaskTool(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		conn func(t *testing.T) Connector
	}{
		{"stdio", func(t *testing.T) Connector {
			c := selfServer(t, "Lab", "serve")
			c.ProtocolVersion = ProtocolLegacy
			return c
		}},
		{"http", func(t *testing.T) Connector {
			return Connector{Name: "Lab", Transport: TransportHTTP, URL: "http://" + serveRemote(t, "", "http-legacy").addr + "/mcp"}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := &recTasks{}
			h := newHarness(t, WithTaskEvents(rec))
			c := h.add(tc.conn(t))
			sess := h.session(c.ID)
			var mu sync.Mutex
			var progress []string
			res := h.call(t.Context(), sess, "lab.research", `{"topic":"bees","ms":300}`, func(p Progress) {
				mu.Lock()
				progress = append(progress, p.Message)
				mu.Unlock()
			})
			if got := text(t, res); got != "researched bees" {
				t.Fatalf("research = %q", got)
			}
			tasks, err := h.sup.Tasks(c.ID)
			if err != nil || len(tasks) != 1 {
				t.Fatalf("Tasks = %+v, %v; want one", tasks, err)
			}
			if task := tasks[0]; task.Status != TaskCompleted || task.SessionID != sess || task.CallID != "call-1" || task.Tool != "research" || task.Canonical != "lab.research" {
				t.Errorf("task = %+v", task)
			}
			if got := rec.statuses(); len(got) < 2 || got[0] != TaskWorking || got[len(got)-1] != TaskCompleted {
				t.Errorf("task states = %v, want working … completed", got)
			}

			// Stop: the task is cancelled on the server.
			ctx, cancel := context.WithCancel(t.Context())
			done := make(chan struct{})
			go func() {
				defer close(done)
				h.call(ctx, sess, "lab.research", `{"topic":"ants","ms":3000}`, nil)
			}()
			h.waitFor("the second task", func() bool {
				ts, _ := h.sup.Tasks(c.ID)
				return len(ts) == 2
			})
			cancel()
			<-done
			ts, _ := h.sup.Tasks(c.ID)
			if ts[0].Status != TaskCancelled {
				t.Errorf("stopped task = %+v, want cancelled", ts[0])
			}
		})
	}
}

// TestTaskAcrossRestart: a task still running when Maestro quits is
// followed again at the next start and its result kept; one the server no
// longer knows (a stdio server stops with Maestro) is reported lost.
func TestTaskAcrossRestart(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		conn func(t *testing.T) Connector
		want TaskStatus
	}{
		{"http server that outlives Maestro", func(t *testing.T) Connector {
			return Connector{Name: "Lab", Transport: TransportHTTP, URL: "http://" + serveRemote(t, "", "http-legacy").addr + "/mcp"}
		}, TaskCompleted},
		{"stdio server that stops with Maestro", func(t *testing.T) Connector {
			c := selfServer(t, "Lab", "serve")
			c.ProtocolVersion = ProtocolLegacy
			return c
		}, TaskLost},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			st := openStore(t, "")
			reg := tools.NewRegistry(st, testRules)
			secrets := NewMemorySecrets()
			newSup := func(opts ...SupervisorOption) *Supervisor {
				base := []SupervisorOption{WithConnectorStore(st), WithSecrets(secrets), WithTaskStore(st), WithToolSink(reg),
					WithClientInfo("maestro-test", "0.0.1")}
				return NewSupervisor(append(base, opts...)...)
			}
			ctx := t.Context()
			first := newSup()
			c, err := first.Add(ctx, tc.conn(t))
			if err != nil {
				t.Fatal(err)
			}
			if err := first.WaitSettled(ctx, c.ID); err != nil {
				t.Fatal(err)
			}
			sess := newSession(t, st, c.ID).ID
			snap, err := reg.Snapshot(ctx, sess)
			if err != nil {
				t.Fatal(err)
			}
			e, ok := snap.Lookup("lab.research")
			if !ok {
				t.Fatal("no lab.research")
			}
			callCtx, quit := context.WithCancelCause(ctx)
			done := make(chan struct{})
			go func() {
				defer close(done)
				first.Call(callCtx, snap, CallRequest{SessionID: sess, CallID: "call-1", Provider: chat.ProviderOpenAI,
					Name: e.Name(chat.ProviderOpenAI), Arguments: json.RawMessage(`{"topic":"moths","ms":1500}`)})
			}()
			waitTasks := func(sup *Supervisor, what string, cond func([]Task) bool) []Task {
				t.Helper()
				deadline := time.Now().Add(20 * time.Second)
				for {
					ts, _ := sup.Tasks(c.ID)
					if cond(ts) {
						return ts
					}
					if time.Now().After(deadline) {
						t.Fatalf("timed out waiting for %s: %+v", what, ts)
					}
					time.Sleep(10 * time.Millisecond)
				}
			}
			waitTasks(first, "the task", func(ts []Task) bool { return len(ts) == 1 })
			quit(ErrDetach) // Maestro quits: the call goes, the task stays
			<-done
			_ = first.Close()
			if ts, _ := st.Tasks(ctx); len(ts) != 1 || !strings.Contains(string(ts[0]), `"status":"working"`) {
				t.Fatalf("stored tasks at quit = %s, want the working task", ts)
			}

			rec := &recTasks{}
			next := newSup(WithTaskEvents(rec))
			defer next.Close()
			if err := next.Start(ctx); err != nil {
				t.Fatal(err)
			}
			ts := waitTasks(next, "the task to end", func(ts []Task) bool { return len(ts) == 1 && ts[0].Status.Ended() })
			if ts[0].Status != tc.want {
				t.Fatalf("task after restart = %+v, want %s", ts[0], tc.want)
			}
			switch tc.want {
			case TaskCompleted:
				if r := ts[0].Result; r == nil || !r.Successful || !strings.Contains(string(r.Data), "researched moths") || r.CallID != "call-1" {
					t.Errorf("result kept = %+v", r)
				}
			case TaskLost:
				if !strings.Contains(ts[0].Message, "no longer knows") {
					t.Errorf("lost because %q", ts[0].Message)
				}
			}
		})
	}
}

// On 2026-07-28 the same tool is called plainly: that era's tasks are an
// extension the server does not offer.
func TestTaskToolOnTheNewEra(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.add(selfServer(t, "Lab", "serve"))
	if got := text(t, h.call(t.Context(), h.session(c.ID), "lab.research", `{"topic":"bees","ms":10}`, nil)); got != "researched bees" {
		t.Fatalf("research = %q", got)
	}
	if ts, _ := h.sup.Tasks(c.ID); len(ts) != 0 {
		t.Errorf("tasks = %+v, want none", ts)
	}
}

// TestServerEverythingResearchTask: server-everything's
// simulate-research-query must run as a task; an ambiguous topic moves it to
// input_required, and the question (asked while tasks/result waits, naming
// the task) reaches the Elicitor as the call's, over stdio and HTTP.
func TestServerEverythingResearchTask(t *testing.T) {
	t.Parallel()
	entry := npmPackage(t, "server-everything")
	for _, tr := range []struct {
		name string
		c    func(t *testing.T) Connector
	}{
		{"stdio", func(t *testing.T) Connector {
			return Connector{Name: "Everything", Command: "node", Args: []string{entry, "stdio"}}
		}},
		{"streamable http", func(t *testing.T) Connector {
			return Connector{Name: "Everything", Transport: TransportHTTP, URL: startEverythingHTTP(t, entry)}
		}},
	} {
		t.Run(tr.name, func(t *testing.T) {
			t.Parallel()
			eli := &fakeElicitor{answer: ElicitationAnswer{Action: ActionAccept, Content: map[string]any{"interpretation": "programming"}},
				got: make(chan ElicitationRequest, 2)}
			rec := &recTasks{}
			h := newHarness(t, WithElicitor(eli, nil), WithTaskEvents(rec))
			c := h.add(tr.c(t))
			sess := h.session(c.ID)
			ctx := t.Context()
			h.waitFor("the research tool", func() bool {
				snap, _ := h.reg.Snapshot(ctx, sess)
				_, ok := snap.Lookup("everything.simulate-research-query")
				return ok
			})
			var mu sync.Mutex
			var progress []string
			res := h.call(ctx, sess, "everything.simulate-research-query", `{"topic":"python","ambiguous":true}`, func(p Progress) {
				mu.Lock()
				progress = append(progress, p.Message)
				mu.Unlock()
			})
			if got := text(t, res); !strings.Contains(got, "Research Report: python (programming)") {
				t.Fatalf("report = %s", clip(got, 300))
			}
			req := <-eli.got
			if req.CallID != "call-1" || req.SessionID != sess || req.Form == nil || len(req.Form.Fields) != 1 {
				t.Errorf("question = %+v", req)
			}
			if got := rec.statuses(); !slicesContains(got, TaskInputRequired) || got[len(got)-1] != TaskCompleted {
				t.Errorf("task states = %v, want input_required on the way to completed", got)
			}
			mu.Lock()
			defer mu.Unlock()
			if !slicesContainsFunc(progress, func(m string) bool { return strings.HasPrefix(m, "task working: ") }) {
				t.Errorf("progress = %q, want the stages", progress)
			}
		})
	}
}

func slicesContains[T comparable](s []T, v T) bool {
	return slicesContainsFunc(s, func(x T) bool { return x == v })
}

func slicesContainsFunc[T any](s []T, f func(T) bool) bool {
	for _, x := range s {
		if f(x) {
			return true
		}
	}
	return false
}
