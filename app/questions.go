package app

import (
	"context"
	"sync"

	"maestro/backend/chat"
)

// questions are what app/ puts to the user on behalf of a run or a server
// (approval:needed, sampling:needed, elicitation:needed), each waiting by
// request id for the bound call that answers it. The asker receives
// answers until it calls done; an answer that comes after that, or for an
// id nobody asked, is refused as not found. Safe for concurrent use; mu
// guards m.
type questions[T any] struct {
	// what names the questions in errors ("approval request").
	what string

	mu sync.Mutex
	m  map[string]*question[T]
}

type question[T any] struct {
	answers chan T
	done    chan struct{}
}

// ask registers a question and returns its id, the channel its answers
// arrive on, and done, which the asker calls once it stops waiting.
func (q *questions[T]) ask() (id string, answers <-chan T, done func()) {
	id = chat.NewID()
	w := &question[T]{answers: make(chan T), done: make(chan struct{})}
	q.mu.Lock()
	if q.m == nil {
		q.m = map[string]*question[T]{}
	}
	q.m[id] = w
	q.mu.Unlock()
	return id, w.answers, func() {
		q.mu.Lock()
		delete(q.m, id)
		q.mu.Unlock()
		close(w.done)
	}
}

// answer hands v to the asker of id, waiting until it takes it, stops
// waiting, or ctx ends.
func (q *questions[T]) answer(ctx context.Context, id string, v T) error {
	q.mu.Lock()
	w, ok := q.m[id]
	q.mu.Unlock()
	if ok {
		select {
		case w.answers <- v:
			return nil
		case <-w.done:
		case <-ctx.Done():
		}
	}
	what := q.what
	if what == "" {
		what = "request"
	}
	return chat.E(chat.ErrNotFound, "that %s is no longer waiting", what)
}
