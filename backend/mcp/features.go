package mcp

import (
	"context"
	"maestro/backend/tools"
	"net/url"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// State is a connector's lifecycle state.
type State string

// Connector states.
const (
	// StateStarting: the server is being started and initialised.
	StateStarting State = "starting"
	// StateReady: initialised, tools listed (ConnectorStatus.Tools).
	StateReady State = "ready"
	// StateError: the server could not be started (or needs a sign-in,
	// see ConnectorStatus.NeedsSignIn). RetryAt is set when the supervisor
	// will try again by itself.
	StateError State = "error"
	// StateRestarting: the server stopped or the connection dropped after
	// it was ready; the supervisor reconnects at RetryAt.
	StateRestarting State = "restarting"
	// StateStopped: disabled, removed, or the supervisor is closed.
	StateStopped State = "stopped"
)

// ConnectorStatus is what the UI shows for a connector.
type ConnectorStatus struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	State State  `json:"state"`
	// Tools is the number of tools while ready.
	Tools int `json:"tools"`
	// Error says why the connector is in StateError or StateRestarting,
	// with the server's last stderr lines for stdio servers.
	Error string `json:"error,omitempty"`
	// StderrTail is the last stderr lines of the server's latest run.
	StderrTail []string `json:"stderrTail,omitempty"`
	// NeedsSignIn is set when the server asked for OAuth sign-in that has
	// not happened (or needs more scopes): Supervisor.SignIn fixes it.
	NeedsSignIn bool `json:"needsSignIn,omitempty"`
	// Restarts counts the restarts since the connector last stayed up.
	Restarts int `json:"restarts,omitempty"`
	// RetryAt is when the supervisor tries again (zero when it will not).
	RetryAt time.Time `json:"retryAt,omitzero"`
	// Server and Protocol describe the server once initialised: its name
	// and version, and the protocol version negotiated (2026-07-28 or an
	// older one; era.go). Icons are the server's own, the safe ones only
	// (tools.SafeIcons).
	Server   string       `json:"server,omitempty"`
	Protocol string       `json:"protocol,omitempty"`
	Icons    []tools.Icon `json:"icons,omitempty"`
	Since    time.Time    `json:"since"`
	// Version counts the connector's status changes: of two copies, the
	// one with the higher Version is the newer, whatever order they reach
	// a reader in (an event and a bound call's answer can cross).
	Version uint64 `json:"version"`
}

// Events receives connector state changes and log lines, e.g. to emit
// connector:state and connector:log to the UI. Methods are called from the
// supervisor's goroutines, one connector's events in order; they must not
// block and must not call back into the Supervisor.
type Events interface {
	ConnectorState(ConnectorStatus)
	ConnectorLog(connectorID string, line LogLine)
}

// Origin says which connector, session and call a server request came
// from. SessionID and CallID name the tool call running on the connector
// when the request arrived (the latest one if several are), and are empty
// when none is.
type Origin struct {
	ConnectorID   string
	ConnectorName string
	SessionID     string
	CallID        string
}

// SamplingRequest is a server's sampling/createMessage.
type SamplingRequest struct {
	Origin
	Params mcpgo.CreateMessageParams
}

// Sampler answers sampling requests; the agent backs it with the session's
// provider after the user approves. An error is sent to the server as the
// request's error (e.g. "the user declined").
type Sampler interface {
	CreateMessage(ctx context.Context, req SamplingRequest) (*mcpgo.CreateMessageResult, error)
}

// Elicitation modes.
const (
	ElicitForm = "form"
	ElicitURL  = "url"
)

// Elicitation answers.
const (
	ActionAccept  = "accept"
	ActionDecline = "decline"
	ActionCancel  = "cancel"
)

// ElicitationRequest is a server's elicitation/create.
type ElicitationRequest struct {
	Origin
	// Mode is ElicitForm or ElicitURL.
	Mode    string
	Message string
	// Form is the requested schema, for ElicitForm. Form.Validate checks
	// an answer the way the supervisor will.
	Form *Form
	// URL and ElicitationID are for ElicitURL: the user is asked for
	// consent, and on accept the supervisor opens URL (URLOpener). The
	// consent shows Server (the server's own name and version, next to
	// Origin.ConnectorName), the full URL and Domain, its host, with
	// Punycode set when a label is Punycode (a look-alike can hide there).
	// Only https URLs (http to a loopback host) are asked about
	// (urlelicit.go).
	URL           string
	ElicitationID string
	Domain        string
	Punycode      bool
	Server        string
}

// ElicitationAnswer is the user's answer. Content is the form's values for
// an accepted form (missing fields get the schema's defaults).
type ElicitationAnswer struct {
	Action  string
	Content map[string]any
}

// Elicitor asks the user. For ElicitURL it asks for consent to open the
// URL; the supervisor opens it on accept.
type Elicitor interface {
	Elicit(ctx context.Context, req ElicitationRequest) (ElicitationAnswer, error)
}

// URLOpener opens a URL in the user's browser.
type URLOpener interface {
	OpenURL(ctx context.Context, u string) error
}

// Authorizer performs the interactive step of an OAuth sign-in: it picks a
// redirect URI (e.g. a loopback listener), gets the authorization URL for
// it from authURL, lets the user consent there (opens the browser), and
// returns the query the authorization server sent to the redirect URI
// (code and state, or error). The supervisor checks state.
type Authorizer interface {
	Authorize(ctx context.Context, connector string, authURL func(redirectURI string) (string, error)) (url.Values, error)
}

// ToolSink receives each connector's tool list; *tools.Registry satisfies
// it.
type ToolSink interface {
	SetConnectorTools(ctx context.Context, connectorID, displayName string, list []tools.Tool) error
	RemoveConnector(ctx context.Context, connectorID string) error
}

// Progress is a progress notification of a running call.
type Progress struct {
	Progress float64
	// Total is 0 when the server does not know it.
	Total   float64
	Message string
}
