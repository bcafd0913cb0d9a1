package agent_test

import (
	"context"
	"fmt"
	"iter"
	"strings"
	"sync"
	"testing"
	"time"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/store"
)

// funcModel is an in-memory Model: each request gets the events reply
// returns for it (the request count starts at 0).
type funcModel struct {
	mu    sync.Mutex
	n     int
	reply func(n int, req chat.Request) []chat.Event
	// before runs ahead of each event, e.g. to move a fake clock.
	before func(i int)
}

func (m *funcModel) Stream(ctx context.Context, req chat.Request) (iter.Seq2[chat.Event, error], error) {
	m.mu.Lock()
	n := m.n
	m.n++
	m.mu.Unlock()
	evs := m.reply(n, req)
	return func(yield func(chat.Event, error) bool) {
		for i, ev := range evs {
			if m.before != nil {
				m.before(i)
			}
			if err := ctx.Err(); err != nil {
				yield(nil, err)
				return
			}
			if !yield(ev, nil) {
				return
			}
		}
	}, nil
}

// write is one message write the store saw.
type write struct {
	op     string
	at     time.Time
	status chat.Status
	text   string
}

// watchedStore is the real store, noting assistant message writes.
type watchedStore struct {
	*store.Store
	clock  *fakeClock
	mu     sync.Mutex
	writes []write
}

func (s *watchedStore) note(op string, m chat.Message) {
	if m.Role != chat.RoleAssistant {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writes = append(s.writes, write{op, s.clock.Now(), m.Status, m.Text()})
}

func (s *watchedStore) AppendMessage(ctx context.Context, sessionID string, m chat.Message) (chat.Message, error) {
	s.note("append", m)
	return s.Store.AppendMessage(ctx, sessionID, m)
}

func (s *watchedStore) PutMessage(ctx context.Context, sessionID string, m chat.Message) error {
	s.note("put", m)
	return s.Store.PutMessage(ctx, sessionID, m)
}

func TestCheckpointAtMostOncePerSecond(t *testing.T) {
	t.Parallel()
	st, err := store.Open(t.Context(), t.TempDir(), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sess, err := st.CreateSession(t.Context(), chat.Session{Title: "t", Provider: "mem", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	clock := newFakeClock(0)
	ws := &watchedStore{Store: st, clock: clock}
	const words = 10
	model := &funcModel{
		reply: func(int, chat.Request) []chat.Event {
			var evs []chat.Event
			for i := range words {
				evs = append(evs, chat.TextDelta{Text: fmt.Sprintf("w%d ", i)})
			}
			return append(evs, chat.Finish{Reason: "stop"})
		},
		// 400 ms of fake time pass before every delta.
		before: func(i int) {
			if i < words {
				clock.Advance(400 * time.Millisecond)
			}
		},
	}
	models := agent.ModelsFunc(func(context.Context, string) (chat.Model, error) { return model, nil })
	a := agent.New(ws, models, newFakeTools(), nil, agent.WithClock(clock))
	sink := &recSink{}
	runID := chat.NewID()
	_, err = a.Run(t.Context(), agent.RunInput{RunID: runID, SessionID: sess.ID, Text: "count"}, sink)
	checkTerminal(t, sink, runID, err)
	if err != nil {
		t.Fatal(err)
	}
	var checkpoints []write
	for _, w := range ws.writes {
		if w.status == chat.StatusStreaming {
			checkpoints = append(checkpoints, w)
		}
	}
	// Deltas arrive at 0.4 s, 0.8 s, …: checkpoints after the 3rd, 6th
	// and 9th, each at least a second after the previous one.
	if len(checkpoints) != 3 {
		t.Fatalf("got %d checkpoints %+v, want 3", len(checkpoints), checkpoints)
	}
	for i, c := range checkpoints {
		if want := 3 * (i + 1); strings.Count(c.text, "w") != want {
			t.Errorf("checkpoint %d holds %q, want the first %d words", i, c.text, want)
		}
		if i > 0 && c.at.Sub(checkpoints[i-1].at) < time.Second {
			t.Errorf("checkpoints %d and %d are %v apart", i-1, i, c.at.Sub(checkpoints[i-1].at))
		}
	}
	if checkpoints[0].op != "append" || checkpoints[1].op != "put" {
		t.Errorf("first checkpoint should append and later ones replace: %+v", checkpoints)
	}
	last := ws.writes[len(ws.writes)-1]
	if last.op != "put" || last.status != chat.StatusComplete || strings.Count(last.text, "w") != words {
		t.Errorf("final write %+v, want the complete reply replacing the checkpoint", last)
	}
	msgs, _ := st.Messages(t.Context(), sess.ID)
	if len(msgs) != 2 {
		t.Errorf("stored %d messages, want user and one assistant", len(msgs))
	}
}
