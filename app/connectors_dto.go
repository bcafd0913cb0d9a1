package app

import (
	"maestro/backend/chat"
	"maestro/backend/tools"
)

// KeyValueDTO is an env variable or header of a connector. The value never
// leaves Go: Hint shows it masked ("…abcd", or "…" for short values).
type KeyValueDTO struct {
	Key  string `json:"key"`
	Hint string `json:"hint"`
}

// OAuthDTO is a connector's OAuth settings, without the client secret.
type OAuthDTO struct {
	ClientID        string   `json:"clientId"`
	HasClientSecret bool     `json:"hasClientSecret"`
	Scopes          []string `json:"scopes"`
}

// ConnectorDTO is a connector as the Connectors page shows it: its
// settings (secret values masked) and its live state.
type ConnectorDTO struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Transport is stdio, http or sse.
	Transport string `json:"transport" ts:"Transport"`
	// Enabled is false when the connector is turned off everywhere.
	Enabled bool `json:"enabled"`

	Command string `json:"command,omitempty"`
	// Args never hold a secret: the secret part of an argument is kept in
	// the keychain and shown as a reference, ${secret:N}.
	Args []string      `json:"args"`
	Env  []KeyValueDTO `json:"env"`
	Cwd  string        `json:"cwd,omitempty"`

	URL     string        `json:"url,omitempty"`
	Headers []KeyValueDTO `json:"headers"`
	OAuth   *OAuthDTO     `json:"oauth,omitempty"`

	// TrustReadOnlyHints: the user chose to run the tools this server
	// marks read-only without asking (off unless they turned it on).
	TrustReadOnlyHints bool `json:"trustReadOnlyHints"`
	// NewChats: the connector is switched on in every new chat.
	NewChats bool `json:"newChats"`
	// Apps: the server's MCP Apps render in tool cards (docs/APPS.md).
	Apps bool `json:"apps"`

	// State is starting, ready, error, restarting or stopped.
	State string `json:"state" ts:"ConnectorState"`
	// ToolCount is the number of tools while ready.
	ToolCount int `json:"toolCount"`
	// Error says why the connector is in error or restarting, with the
	// server's last stderr lines for stdio servers.
	Error string `json:"error,omitempty"`
	// StderrTail is the last stderr lines of the server's latest run.
	StderrTail []string `json:"stderrTail"`
	// NeedsSignIn is set when the server wants an OAuth sign-in.
	NeedsSignIn bool `json:"needsSignIn"`
	// NextRetry is when the connector is retried, in Unix ms (0: not).
	NextRetry int64 `json:"nextRetry,omitempty"`
	Restarts  int   `json:"restarts,omitempty"`
	// Server ("name version") and Protocol once initialised.
	Server   string `json:"server,omitempty"`
	Protocol string `json:"protocol,omitempty"`
	// Since is when the connector entered its state, in Unix ms.
	Since     int64 `json:"since,omitempty"`
	CreatedAt int64 `json:"createdAt,omitempty"`
	// Version orders copies of the state: the UI keeps the higher one, so a
	// bound call's answer never overwrites a newer connector:state event.
	Version uint64 `json:"version"`
	// Approval is the connector's approval policy (ask, read_only, all;
	// "" before one was set: ask, or read_only with TrustReadOnlyHints).
	Approval string `json:"approval,omitempty"`
	// Icons are the server's own, data: and https: only (tools.SafeIcons).
	Icons []tools.Icon `json:"icons,omitempty"`
}

// KeyValueInputDTO is an env or header row of the connector form. Keep
// keeps the value stored for Key (the form shows only a hint of it).
type KeyValueInputDTO struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	Keep  bool   `json:"keep,omitempty"`
}

// OAuthInputDTO turns OAuth on for an HTTP connector. Every field is
// optional: discovery and registration come from the server.
type OAuthInputDTO struct {
	ClientID     string `json:"clientId,omitempty"`
	ClientSecret string `json:"clientSecret,omitempty"`
	// KeepClientSecret keeps the stored client secret.
	KeepClientSecret bool     `json:"keepClientSecret,omitempty"`
	Scopes           []string `json:"scopes,omitempty"`
}

// ConnectorInputDTO is the connector form: one shape per transport.
// stdio uses Command, Args, Env and Cwd; http uses URL, Headers and OAuth;
// sse uses URL and Headers. ID is empty for a new connector.
type ConnectorInputDTO struct {
	ID        string `json:"id,omitempty"`
	Name      string `json:"name"`
	Transport string `json:"transport" ts:"Transport"`
	Command   string `json:"command,omitempty"`
	// Args may keep the ${secret:N} references the connector's Args had:
	// they stand for the values in the keychain.
	Args []string `json:"args,omitempty"`
	// SecretArgs are the indexes of Args whose secret part (the value of
	// --token=…, the key after "Bearer", or else the whole argument) goes
	// to the keychain, replaced by a reference.
	SecretArgs []int              `json:"secretArgs,omitempty"`
	Env        []KeyValueInputDTO `json:"env,omitempty"`
	Cwd        string             `json:"cwd,omitempty"`
	URL        string             `json:"url,omitempty"`
	Headers    []KeyValueInputDTO `json:"headers,omitempty"`
	OAuth      *OAuthInputDTO     `json:"oauth,omitempty"`
	// TrustReadOnlyHints runs the tools the server marks read-only
	// without asking; false (the default) asks for them like any other.
	TrustReadOnlyHints bool `json:"trustReadOnlyHints,omitempty"`
	// NewChats switches the connector on in every new chat; absent keeps
	// what it was (a new connector: on for a user's first few).
	NewChats *bool `json:"newChats,omitempty"`
	// Apps turns the server's MCP Apps on or off; absent keeps what it
	// was (on for a new connector).
	Apps *bool `json:"apps,omitempty"`
}

// TestToolDTO is a tool a tested server listed.
type TestToolDTO struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	ReadOnly    bool   `json:"readOnly"`
}

// TestResultDTO is what "Test connection" found.
type TestResultDTO struct {
	// OK is true when the server started and listed its tools.
	OK          bool          `json:"ok"`
	State       string        `json:"state" ts:"ConnectorState"`
	Tools       []TestToolDTO `json:"tools"`
	Error       string        `json:"error,omitempty"`
	StderrTail  []string      `json:"stderrTail"`
	NeedsSignIn bool          `json:"needsSignIn"`
	Server      string        `json:"server,omitempty"`
	Protocol    string        `json:"protocol,omitempty"`
	DurationMS  int64         `json:"durationMs"`
}

// LogLineDTO is one line of a connector's log. Source is stderr (the
// server's stderr), server (a notifications/message, with its level and
// logger) or maestro (the supervisor's notes).
type LogLineDTO struct {
	Time   int64  `json:"time"`
	Source string `json:"source" ts:"LogSource"`
	Level  string `json:"level,omitempty"`
	Logger string `json:"logger,omitempty"`
	Text   string `json:"text"`
}

// ConnectorLogDTO is connector:log.
type ConnectorLogDTO struct {
	ID   string     `json:"id"`
	Line LogLineDTO `json:"line"`
}

// ImportEntryDTO is what happened to one server of an imported file.
type ImportEntryDTO struct {
	Name     string `json:"name"`
	Imported bool   `json:"imported"`
	// ConnectorID is the new connector's id when Imported.
	ConnectorID string `json:"connectorId,omitempty"`
	// Reason says why the entry was skipped.
	Reason string `json:"reason,omitempty"`
	// Notes say what the importer assumed; Ignored lists keys it did not
	// understand.
	Notes   []string `json:"notes"`
	Ignored []string `json:"ignored"`
}

// ImportReportDTO is the result of Connectors.Import, in file order.
type ImportReportDTO struct {
	Summary  string           `json:"summary"`
	Imported int              `json:"imported"`
	Entries  []ImportEntryDTO `json:"entries"`
}

// ToolsChangedDTO is tools:changed.
type ToolsChangedDTO struct {
	SessionID string `json:"sessionId"`
	Revision  int64  `json:"revision"`
}

// SessionToolDTO is one tool in a session's Tools panel.
type SessionToolDTO struct {
	// Canonical is server.tool, the name toggles use.
	Canonical   string `json:"canonical"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	// Enabled is false when the tool is switched off in this session.
	Enabled  bool `json:"enabled"`
	ReadOnly bool `json:"readOnly"`
	// Hints are the tool's annotations: the server's claims, shown as
	// such; they let a call run without asking only as the policy says
	// (docs/SECURITY.md).
	Hints *chat.ToolHints `json:"hints,omitempty"`
	// Icons are the tool's own, data: and https: only (tools.SafeIcons).
	Icons []tools.Icon `json:"icons,omitempty"`
	// AppOnly marks a tool only its MCP App may call: the model never
	// sees it (docs/APPS.md).
	AppOnly bool `json:"appOnly,omitempty"`
}

// SessionConnectorDTO is one connector in a session's Tools panel.
type SessionConnectorDTO struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	State     string `json:"state" ts:"ConnectorState"`
	ToolCount int    `json:"toolCount"`
	Error     string `json:"error,omitempty"`
	// Available is false when the connector is turned off everywhere.
	Available bool `json:"available"`
	// EnabledInSession: the connector's tools are on in this session.
	EnabledInSession bool             `json:"enabledInSession"`
	Tools            []SessionToolDTO `json:"tools"`
	// Approval is the connector's approval policy where a chat does not
	// override it (its own, else the Settings default: agent.ConnectorPolicy).
	Approval string `json:"approval" ts:"ApprovalPolicy"`
	// ChatApproval is this chat's override ("": as the connector).
	ChatApproval string `json:"chatApproval,omitempty" ts:"ApprovalPolicy"`
	// Icons are the server's own (ConnectorDTO.Icons).
	Icons []tools.Icon `json:"icons,omitempty"`
}

// SessionToolsDTO is a session's Tools panel.
type SessionToolsDTO struct {
	SessionID string `json:"sessionId"`
	// Revision is the session's tools revision.
	Revision   int64                 `json:"revision"`
	Connectors []SessionConnectorDTO `json:"connectors"`
	// Roots are the folders the session offers to servers that use roots.
	Roots []string `json:"roots"`
}

// ElicitationDTO is elicitation:needed.
type ElicitationDTO struct {
	RequestID string `json:"requestId"`
	SessionID string `json:"sessionId"`
	Connector string `json:"connector"`
	Message   string `json:"message"`
	// Mode is "form" or "url".
	Mode string `json:"mode" ts:"ElicitationMode"`
	// Schema is the flat form (mcp.Form) as JSON text, for mode "form".
	Schema string `json:"schema,omitempty"`
	URL    string `json:"url,omitempty"`
	// For mode "url": the server's own name and version, the URL's domain
	// and whether a label of it is Punycode (a look-alike can hide
	// there), shown before the user consents; Phase is "consent", or
	// "waiting" once the page is open and Maestro waits for the user's
	// Continue (2026-07-28 servers learn of completion by a retry).
	Server   string `json:"server,omitempty"`
	Domain   string `json:"domain,omitempty"`
	Punycode bool   `json:"punycode,omitempty"`
	Phase    string `json:"phase,omitempty"`
}

// ElicitationClosedDTO is elicitation:closed.
type ElicitationClosedDTO struct {
	RequestID string `json:"requestId"`
	// Reason is why, in plain words.
	Reason string `json:"reason"`
}

// SamplingMessageDTO is one prompt message.
type SamplingMessageDTO struct {
	Role string `json:"role" ts:"Role"`
	Text string `json:"text"`
}

// SamplingDTO is sampling:needed.
type SamplingDTO struct {
	RequestID    string               `json:"requestId"`
	SessionID    string               `json:"sessionId"`
	Connector    string               `json:"connector"`
	Messages     []SamplingMessageDTO `json:"messages"`
	SystemPrompt string               `json:"systemPrompt,omitempty"`
	MaxTokens    int                  `json:"maxTokens"`
	ModelHint    string               `json:"modelHint,omitempty"`
}

// SamplingResultDTO is sampling:result.
type SamplingResultDTO struct {
	RequestID string `json:"requestId"`
	Text      string `json:"text"`
	Model     string `json:"model,omitempty"`
	Error     string `json:"error,omitempty"`
}
