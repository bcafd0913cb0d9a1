package mcp

import (
	"context"
	"errors"
	"runtime"
	"testing"

	"maestro/backend/chat"
)

// TestModify: a read-modify-write of a connector's config stores what fn
// made; a config write that comes while fn runs (SetNewChats from
// Settings) waits for it and then applies to the new config, so neither
// write is lost; an error from fn changes nothing.
func TestModify(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := t.Context()
	c := h.add(selfServer(t, "Self", "basic"))

	if _, err := h.sup.Modify(ctx, "nope", func(*Connector) error { return nil }); chat.Kind(err) != chat.KindNotFound {
		t.Errorf("Modify(unknown) = %v; want not found", err)
	}
	boom := errors.New("boom")
	if _, err := h.sup.Modify(ctx, c.ID, func(cfg *Connector) error { cfg.Approval = chat.PolicyAll; return boom }); !errors.Is(err, boom) {
		t.Errorf("Modify with a failing fn = %v; want its error", err)
	}
	if got, _ := h.sup.Connector(c.ID); got.Approval != "" {
		t.Errorf("after a failing fn the approval is %q; want it unchanged", got.Approval)
	}

	done := make(chan error, 1)
	got, err := h.sup.Modify(ctx, c.ID, func(cfg *Connector) error {
		started := make(chan struct{})
		go func() {
			close(started)
			_, err := h.sup.SetNewChats(context.Background(), c.ID, true)
			done <- err
		}()
		<-started
		runtime.Gosched()
		cfg.Approval = chat.PolicyAll
		return nil
	})
	if err != nil || got.Approval != chat.PolicyAll {
		t.Fatalf("Modify = %+v, %v; want the approval set", got.Approval, err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	list, _, err := loadConnectors(ctx, h.st, h.secrets)
	if err != nil || len(list) != 1 {
		t.Fatalf("stored connectors = %+v, %v", list, err)
	}
	if list[0].Approval != chat.PolicyAll || !list[0].NewChats {
		t.Errorf("stored approval %q, new chats %v; want both writes kept", list[0].Approval, list[0].NewChats)
	}
}
