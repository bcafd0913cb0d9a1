package app

import (
	"encoding/json"

	"maestro/backend/agent"
	"maestro/backend/chat"
)

// MCP Apps in tool cards (docs/APPS.md): the card reads the UI resource
// with Connectors.AppResource and runs what the UI asks through
// Chat.AppCallTool; everything else the UI may do (a draft, a link, the
// model context) stays in the frontend, under the user's hand.

// ToolAppDTO names the MCP App that renders a tool result.
type ToolAppDTO struct {
	ConnectorID string `json:"connectorId"`
	ResourceURI string `json:"resourceUri"`
	// Tool is the tool's MCP name on its server.
	Tool string `json:"tool"`
}

// AppCSPDTO is a UI resource's declared origins, each a checked origin.
type AppCSPDTO struct {
	ConnectDomains  []string `json:"connectDomains"`
	ResourceDomains []string `json:"resourceDomains"`
	FrameDomains    []string `json:"frameDomains"`
	BaseURIDomains  []string `json:"baseUriDomains"`
}

// AppResourceDTO is a UI resource to render in a card's sandbox.
type AppResourceDTO struct {
	ConnectorID string    `json:"connectorId"`
	URI         string    `json:"uri"`
	HTML        string    `json:"html"`
	Hash        string    `json:"hash"`
	CSP         AppCSPDTO `json:"csp"`
	// PrefersBorder is the server's wish for a border; absent, the card decides.
	PrefersBorder *bool `json:"prefersBorder,omitempty"`
}

// AppResource returns the UI resource uri of a connector for a tool card:
// preloaded, or read again from its running server. It fails (the card
// shows the text result) when Apps are off for the connector, the
// connector is gone or down, or none of its tools names uri.
func (c *Connectors) AppResource(connectorID, uri string) (AppResourceDTO, error) {
	run, ctx, cancel, err := c.ready()
	if err != nil {
		return AppResourceDTO{}, err
	}
	defer cancel()
	r, err := run.sup.AppResource(ctx, connectorID, uri)
	if err != nil {
		return AppResourceDTO{}, err
	}
	return AppResourceDTO{ConnectorID: r.ConnectorID, URI: r.URI, HTML: r.HTML, Hash: r.Hash, PrefersBorder: r.PrefersBorder,
		CSP: AppCSPDTO{ConnectDomains: r.CSP.ConnectDomains, ResourceDomains: r.CSP.ResourceDomains,
			FrameDomains: r.CSP.FrameDomains, BaseURIDomains: r.CSP.BaseURIDomains}}, nil
}

// maxAppArgs caps the arguments of a call a UI asks for.
const maxAppArgs = 256 << 10

// AppCallTool runs a tools/call the MCP App of a tool card asked for: a
// tool of the app's own connector (the card's app), visible to apps and on
// in the chat, through the same approvals as a model's call; the approval
// question says the app asked (approval:needed's requestedBy). It returns
// the server's result as JSON (an MCP CallToolResult, isError when the
// tool failed) for the UI; a call refused by the user or the policy, or
// one that never reached the server, is an error. Nothing is added to the
// conversation. It waits for the user's answer as long as the app runs.
func (c *Chat) AppCallTool(sessionID string, app ToolAppDTO, tool, argumentsJSON string) (string, error) {
	if len(argumentsJSON) > maxAppArgs {
		return "", chat.E(chat.ErrInvalid, "the arguments are over %d KiB", maxAppArgs>>10)
	}
	if argumentsJSON == "" {
		argumentsJSON = "{}"
	}
	var args map[string]any
	if err := json.Unmarshal([]byte(argumentsJSON), &args); err != nil || args == nil {
		return "", chat.E(chat.ErrInvalid, "the arguments are not a JSON object")
	}
	run, ctx, cancel, err := c.core.call()
	if err != nil {
		return "", err
	}
	defer cancel() // for the reads; the call waits for the user, so it runs on the root, below
	sess, err := run.store.Session(ctx, sessionID)
	if err != nil {
		return "", err
	}
	snap, err := run.reg.Snapshot(ctx, sessionID)
	if err != nil {
		return "", err
	}
	e, err := run.sup.AppCallTarget(snap, chat.ToolApp{ConnectorID: app.ConnectorID, ResourceURI: app.ResourceURI, Tool: app.Tool}, tool)
	if err != nil {
		return "", err
	}
	root, err := c.core.beginWork()
	if err != nil {
		return "", err
	}
	defer c.core.work.Done()
	res, err := run.agent.AppCall(root, agent.AppCallInput{RunID: "app-" + chat.NewID(), SessionID: sessionID,
		Provider: sess.Provider, CallID: chat.NewID(), Canonical: e.Canonical, Arguments: json.RawMessage(argumentsJSON)},
		agent.SinkFunc(func(agent.Event) {}))
	if err != nil {
		return "", err
	}
	return appCallAnswer(res)
}

// SetAppContext records what the MCP App of a tool card said with
// ui/update-model-context (its text, and its structured content as JSON,
// either may be empty): the chat's next message carries it to the model as
// a resource part naming the app (docs/APPS.md), and a newer update of the
// same card (callID) replaces it. At most 16 KiB; both empty clears it.
func (c *Chat) SetAppContext(sessionID, callID string, app ToolAppDTO, text, structured string) error {
	run, ctx, cancel, err := c.core.call()
	if err != nil {
		return err
	}
	defer cancel()
	if _, err := run.store.Session(ctx, sessionID); err != nil {
		return err
	}
	cfg, err := run.sup.Connector(app.ConnectorID)
	if err != nil {
		return err
	}
	return c.appContexts.Set(sessionID, callID, chat.ToolApp{ConnectorID: app.ConnectorID, ResourceURI: app.ResourceURI, Tool: app.Tool},
		cfg.DisplayName(), text, structured)
}

// appCallAnswer is what the UI gets for a result: the server's own result
// when it answered (a tool error included), else an error saying why.
func appCallAnswer(res chat.ToolResult) (string, error) {
	if len(res.Raw) > 0 {
		return string(res.Raw), nil
	}
	if res.Successful {
		return string(mustJSON(map[string]any{"content": []map[string]any{{"type": "text", "text": string(res.Data)}}})), nil
	}
	return "", chat.E(chat.ErrInvalid, "%s", res.Error)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return []byte(`{"content":[]}`)
	}
	return b
}
