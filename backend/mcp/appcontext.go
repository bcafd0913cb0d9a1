package mcp

import (
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"maestro/backend/chat"
)

// Caps on what MCP App views may put before the model (docs/APPS.md): one
// view's context, and how many views' contexts one message carries (the
// newest win).
const (
	MaxAppContext  = 16 << 10
	maxAppContexts = 8
)

// AppContexts holds what MCP App views last said with
// ui/update-model-context, per chat, until the chat's next user message
// carries it to the model (docs/APPS.md). A view is a tool call's card;
// each has one context, and a newer update replaces it. The contexts are
// resource parts naming the app's ui:// resource and its server, so the
// stored history, search and export treat them like any attached resource
// and every adapter renders them. They live in memory: a restart forgets
// what was not sent (the views start over too). Safe for concurrent use.
type AppContexts struct {
	mu sync.Mutex
	by map[string][]appContext // session → oldest update first
}

type appContext struct {
	callID string
	part   chat.ResourcePart
}

// Set records the context of the view of callID in sessionID: app's view,
// its connector named server, saying text and structured (JSON, may be
// empty). It replaces that view's previous context. Both empty clears it.
func (a *AppContexts) Set(sessionID, callID string, app chat.ToolApp, server, text, structured string) error {
	if sessionID == "" || callID == "" || app.ConnectorID == "" || !validAppURI(app.ResourceURI) {
		return chat.E(chat.ErrInvalid, "an app context needs a chat, a tool call and the app's ui:// resource")
	}
	body := strings.TrimSpace(text)
	if s := strings.TrimSpace(structured); s != "" {
		body = strings.TrimSpace(body + "\n" + s)
	}
	if len(body) > MaxAppContext {
		return chat.E(chat.ErrInvalid, "the app's context is %d bytes, at most %d KiB allowed", len(body), MaxAppContext>>10)
	}
	if !utf8.ValidString(body) {
		return chat.E(chat.ErrInvalid, "the app's context is not valid UTF-8")
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	list := slices.DeleteFunc(a.by[sessionID], func(c appContext) bool { return c.callID == callID })
	if body != "" {
		text := "The " + app.Tool + " app's view reports its current state (not a request from the user):\n" + body
		list = append(list, appContext{callID: callID, part: chat.ResourcePart{
			URI: app.ResourceURI, ConnectorID: app.ConnectorID, Server: server,
			Title: "State of the " + app.Tool + " app", MIMEType: "text/plain", Text: text, Size: int64(len(text)),
		}})
	}
	if len(list) > maxAppContexts {
		list = list[len(list)-maxAppContexts:]
	}
	if a.by == nil {
		a.by = map[string][]appContext{}
	}
	if len(list) == 0 {
		delete(a.by, sessionID)
	} else {
		a.by[sessionID] = list
	}
	return nil
}

// Pending returns sessionID's pending contexts, oldest update first, and
// sent, to call once the message carrying them is stored: it forgets
// them, except a view's context updated in between, which waits for the
// next message. A message that could not be sent loses nothing.
func (a *AppContexts) Pending(sessionID string) (parts []chat.ResourcePart, sent func()) {
	a.mu.Lock()
	defer a.mu.Unlock()
	taken := slices.Clone(a.by[sessionID])
	parts = make([]chat.ResourcePart, len(taken))
	for i, c := range taken {
		parts[i] = c.part
	}
	return parts, func() {
		a.mu.Lock()
		defer a.mu.Unlock()
		list := slices.DeleteFunc(a.by[sessionID], func(c appContext) bool {
			return slices.ContainsFunc(taken, func(t appContext) bool { return t.callID == c.callID && t.part.Text == c.part.Text })
		})
		if len(list) == 0 {
			delete(a.by, sessionID)
		} else {
			a.by[sessionID] = list
		}
	}
}
