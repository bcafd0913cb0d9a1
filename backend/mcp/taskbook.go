package mcp

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"
)

// taskBook is the supervisor's record of tasks: every known one by
// connector and id, and which are being followed. mu guards the maps.
type taskBook struct {
	store  TaskStore
	events TaskEvents

	mu        sync.Mutex
	byKey     map[string]*Task
	following map[string]bool
}

func taskKey(connectorID, taskID string) string { return connectorID + "/" + taskID }

// load reads the stored tasks (at Start).
func (b *taskBook) load(ctx context.Context) error {
	b.mu.Lock()
	if b.byKey == nil {
		b.byKey, b.following = map[string]*Task{}, map[string]bool{}
	}
	b.mu.Unlock()
	if b.store == nil {
		return nil
	}
	raws, err := b.store.Tasks(ctx)
	if err != nil {
		return fmt.Errorf("mcp: load tasks: %w", err)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, raw := range raws {
		var t Task
		if json.Unmarshal(raw, &t) != nil || t.ID == "" || t.ConnectorID == "" {
			continue
		}
		b.byKey[taskKey(t.ConnectorID, t.ID)] = &t
	}
	return nil
}

// put records a task's new state: in memory, in the store (best effort:
// a store that fails leaves the task followed, only not durable), and to
// the events.
func (b *taskBook) put(ctx context.Context, t Task) {
	t.UpdatedAt = time.Now().UTC()
	b.mu.Lock()
	if b.byKey == nil {
		b.byKey, b.following = map[string]*Task{}, map[string]bool{}
	}
	cp := t
	b.byKey[taskKey(t.ConnectorID, t.ID)] = &cp
	stale := b.staleLocked(t.ConnectorID)
	b.mu.Unlock()
	if b.store != nil {
		ctx = context.WithoutCancel(ctx)
		_ = b.store.PutTask(ctx, t.ConnectorID, t.ID, t)
		for _, id := range stale {
			_ = b.store.DeleteTask(ctx, t.ConnectorID, id)
		}
	}
	if b.events != nil {
		b.events.TaskChanged(t)
	}
}

// staleLocked forgets a connector's oldest ended tasks past tasksKept and
// returns their ids.
func (b *taskBook) staleLocked(connectorID string) []string {
	var ended []*Task
	for _, t := range b.byKey {
		if t.ConnectorID == connectorID && t.Status.Ended() {
			ended = append(ended, t)
		}
	}
	if len(ended) <= tasksKept {
		return nil
	}
	slices.SortFunc(ended, func(x, y *Task) int { return y.UpdatedAt.Compare(x.UpdatedAt) })
	var ids []string
	for _, t := range ended[tasksKept:] {
		delete(b.byKey, taskKey(t.ConnectorID, t.ID))
		ids = append(ids, t.ID)
	}
	return ids
}

func (b *taskBook) get(connectorID, taskID string) (Task, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t, ok := b.byKey[taskKey(connectorID, taskID)]
	if !ok {
		return Task{}, false
	}
	return *t, true
}

// list returns a connector's tasks, newest first.
func (b *taskBook) list(connectorID string) []Task {
	b.mu.Lock()
	var out []Task
	for _, t := range b.byKey {
		if t.ConnectorID == connectorID {
			out = append(out, *t)
		}
	}
	b.mu.Unlock()
	slices.SortFunc(out, func(x, y Task) int {
		return cmp.Or(y.CreatedAt.Compare(x.CreatedAt), cmp.Compare(x.ID, y.ID))
	})
	return out
}

// claim marks a task followed; false if it already is.
func (b *taskBook) claim(connectorID, taskID string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.following == nil {
		b.following = map[string]bool{}
	}
	k := taskKey(connectorID, taskID)
	if b.following[k] {
		return false
	}
	b.following[k] = true
	return true
}

func (b *taskBook) release(connectorID, taskID string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.following, taskKey(connectorID, taskID))
}

// pending returns a connector's tasks that have not ended.
func (b *taskBook) pending(connectorID string) []Task {
	var out []Task
	for _, t := range b.list(connectorID) {
		if !t.Status.Ended() {
			out = append(out, t)
		}
	}
	return out
}

// loseOrphanTasks records as lost the unfinished tasks whose connector is
// gone (at Start).
func (s *Supervisor) loseOrphanTasks(ctx context.Context, list []Connector) {
	known := map[string]bool{}
	for _, c := range list {
		known[c.ID] = true
	}
	s.tasks.mu.Lock()
	var orphans []Task
	for _, t := range s.tasks.byKey {
		if !known[t.ConnectorID] && !t.Status.Ended() {
			orphans = append(orphans, *t)
		}
	}
	s.tasks.mu.Unlock()
	for _, t := range orphans {
		t.Status, t.Message = TaskLost, "its connector was removed"
		s.tasks.put(ctx, t)
	}
}

// forget drops a removed connector's tasks.
func (b *taskBook) forget(ctx context.Context, connectorID string) {
	b.mu.Lock()
	var ids []string
	for k, t := range b.byKey {
		if t.ConnectorID == connectorID {
			ids = append(ids, t.ID)
			delete(b.byKey, k)
		}
	}
	b.mu.Unlock()
	if b.store == nil {
		return
	}
	for _, id := range ids {
		_ = b.store.DeleteTask(context.WithoutCancel(ctx), connectorID, id)
	}
}
