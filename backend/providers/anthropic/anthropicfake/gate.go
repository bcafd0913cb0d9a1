package anthropicfake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
)

// Gate is a mode of the fake that answers every valid OAuth /v1/messages
// request with one of Anthropic's 2026 subscription gates, so the app's
// handling of them can be tested end to end (docs/providers/anthropic.md,
// "Errors" and "What the fake enforces"). API-key requests are never gated.
type Gate string

const (
	// GateOff serves requests normally.
	GateOff Gate = "off"
	// GateThirdParty answers with the third-party-apps message.
	GateThirdParty Gate = "third_party"
	// GateExtraUsageExhausted answers with the out-of-extra-usage message.
	GateExtraUsageExhausted Gate = "extra_usage_exhausted"
)

// The gates' real messages (NousResearch/hermes-agent#46675,
// leohenon/pi-anthropic-oauth#23; anthropics/claude-code#45046).
const (
	MsgThirdPartyGate        = "Third-party apps now draw from your extra usage, not your plan limits. Add more at claude.ai/settings/usage and keep going."
	MsgExtraUsageExhausted   = "You're out of extra usage. Add more at claude.ai/settings/usage and keep going."
	MsgTemperatureDeprecated = "`temperature` is deprecated for this model."
)

var gateMessages = map[Gate]string{GateThirdParty: MsgThirdPartyGate, GateExtraUsageExhausted: MsgExtraUsageExhausted}

// gateState is the current gate; mu guards mode.
type gateState struct {
	mu   sync.Mutex
	mode Gate
}

// WithGate starts the fake in a gate mode; POST /_fake/gate changes it.
func WithGate(g Gate) Option { return func(s *Server) { s.gate.set(g) } }

// SetGate switches the gate mode at run time.
func (s *Server) SetGate(g Gate) error {
	if g != GateOff && gateMessages[g] == "" {
		return fmt.Errorf("anthropicfake: unknown gate mode %q", g)
	}
	s.gate.set(g)
	return nil
}

func (g *gateState) set(m Gate) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.mode = m
}

func (g *gateState) get() Gate {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.mode
}

// checkGate refuses an OAuth request the way the gate does: 400
// invalid_request_error with the gate's text.
func (s *Server) checkGate() *rejection {
	if msg := gateMessages[s.gate.get()]; msg != "" {
		return invalid("gate: "+string(s.gate.get()), "%s", msg)
	}
	return nil
}

// gateControl serves POST /_fake/gate, body {"mode":"third_party"|
// "extra_usage_exhausted"|"off"}.
func (s *Server) gateControl(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Mode Gate `json:"mode"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		http.Error(w, "gate: "+err.Error(), http.StatusBadRequest)
		return
	}
	if err := s.SetGate(body.Mode); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
