package mcp

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"time"

	"maestro/backend/chat"
)

// TransportKind says how Maestro talks to a connector's server.
type TransportKind string

const (
	// TransportStdio runs a local command and speaks JSON-RPC over its
	// stdin and stdout; its stderr is kept as the connector's log.
	TransportStdio TransportKind = "stdio"
	// TransportHTTP is streamable HTTP (one URL, POST plus a listening GET).
	TransportHTTP TransportKind = "http"
	// TransportSSE is the legacy HTTP+SSE transport (2024-11-05).
	TransportSSE TransportKind = "sse"
	// TransportInProcess serves a Go *server.MCPServer registered with
	// WithInProcessServer under the connector's Command. It is for tests
	// and for servers built into Maestro.
	TransportInProcess TransportKind = "inprocess"
)

// Defaults for a connector's timeouts and protocol.
const (
	DefaultInitTimeout = 30 * time.Second
	DefaultCallTimeout = 60 * time.Second
	// DefaultProtocolVersion is the old-era version: the one asked for with
	// initialize when a server does not speak ProtocolModern (era.go).
	DefaultProtocolVersion = ProtocolLegacy
	// ProtocolAuto, like "", speaks the newest era the server does: a
	// checked server/discover probe, then initialize (era.go).
	ProtocolAuto = "auto"
)

// Connector is one MCP server's configuration, as the user sees and edits
// it. Env and Headers values, ArgSecrets and OAuth.ClientSecret are
// secrets: they are kept in the keychain (SecretStore), and the store
// holds the rest.
type Connector struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Transport defaults to stdio when Command is set, else to http.
	Transport TransportKind `json:"transport"`
	// Disabled connectors are kept but not started; their tools are off
	// in every session.
	Disabled bool `json:"disabled,omitempty"`

	// Stdio: the command, its arguments, extra environment (added to
	// Maestro's own) and working directory. An argument may hold
	// references ${secret:N} to ArgSecrets[N-1] (see argsecrets.go):
	// RunArgs fills them in for the process, and nothing else sees them.
	Command    string   `json:"command,omitempty"`
	Args       []string `json:"args,omitempty"`
	ArgSecrets []string `json:"-"`
	// ArgsChecked is set once the user (the form) or the importer has
	// chosen which arguments are secret. Start moves the arguments that
	// look secret of a connector stored before that, once.
	ArgsChecked bool              `json:"argsChecked,omitempty"`
	Env         map[string]string `json:"env,omitempty"`
	Dir         string            `json:"dir,omitempty"`

	// Remote: the endpoint, static headers and optional OAuth.
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	OAuth   *OAuthConfig      `json:"oauth,omitempty"`

	// InitTimeoutSeconds bounds start + initialize + tools/list
	// (DefaultInitTimeout when 0). CallTimeoutSeconds bounds a tool call
	// between two progress notifications (DefaultCallTimeout when 0).
	InitTimeoutSeconds int `json:"initTimeoutSeconds,omitempty"`
	CallTimeoutSeconds int `json:"callTimeoutSeconds,omitempty"`
	// ProtocolVersion overrides the negotiation for a server that
	// misbehaves: "" or ProtocolAuto probe for 2026-07-28 and fall back to
	// initialize; a version pins it (a 2026-07-28 pin fails to start on an
	// old server, an older one never probes). ConnectorStatus.Protocol says
	// what was negotiated.
	ProtocolVersion string `json:"protocolVersion,omitempty"`
	// LogLevel is sent with logging/setLevel after initialize ("" sends
	// nothing and the server logs at its default).
	LogLevel string `json:"logLevel,omitempty"`
	// ResultCap caps the data of a result sent to the model, in bytes
	// (DefaultResultCap when 0).
	ResultCap int `json:"resultCap,omitempty"`
	// TrustReadOnlyHints is the user's choice to run the tools this
	// connector's server marks read-only (readOnlyHint) without asking, in
	// sessions that ask. Off by default: the hint is the server's claim,
	// and a hostile server can put it on a tool that sends data away.
	TrustReadOnlyHints bool `json:"trustReadOnlyHints,omitempty"`
	// Approval is the connector's approval policy (ask, read_only, all;
	// chat.ToolPolicy), which a chat can override. "" is read_only when
	// TrustReadOnlyHints is set (connectors saved before policies), else
	// ask. See Policy.
	Approval chat.ToolPolicy `json:"approval,omitempty"`
	// NewChats switches the connector on in every new chat (the user can
	// still switch it off there). See NewChatsByDefault.
	NewChats bool `json:"newChats,omitempty"`
	// AppsOff turns MCP Apps off for this connector (apps.go): the
	// extension is not declared to its server, no UI is preloaded, and its
	// tools' results are shown as text. Apps are on by default.
	AppsOff bool `json:"appsOff,omitempty"`

	CreatedAt time.Time `json:"createdAt,omitzero"`
}

// newChatsFirst is how many connectors are on in new chats by default: a
// user's first few are what they set Maestro up for; later ones are often
// for one task, and every tool declared costs context in every request.
const newChatsFirst = 5

// NewChatsByDefault says whether a connector added when existing ones are
// already there starts on in new chats (the form can say otherwise).
func NewChatsByDefault(existing int) bool { return existing < newChatsFirst }

// OAuthConfig turns on OAuth for a remote connector. Every field is
// optional: discovery, registration and scopes come from the server.
type OAuthConfig struct {
	// ClientID and ClientSecret are a pre-registered client. Without them
	// Maestro uses ClientMetadataURL (a Client ID Metadata Document) when
	// the authorization server supports it, else dynamic registration.
	ClientID     string `json:"clientId,omitempty"`
	ClientSecret string `json:"clientSecret,omitempty"`
	// ClientMetadataURL is the https URL of Maestro's client metadata
	// document, used as the client_id where the server accepts one.
	ClientMetadataURL string `json:"clientMetadataUrl,omitempty"`
	// Scopes, when set, replace the scopes the server asks for.
	Scopes []string `json:"scopes,omitempty"`
	// GrantType is "authorization_code" (the default, interactive) or
	// "client_credentials" (machine to machine, needs a client secret).
	GrantType string `json:"grantType,omitempty"`
	// AuthServerMetadataURL overrides authorization server discovery.
	AuthServerMetadataURL string `json:"authServerMetadataUrl,omitempty"`
}

// Grant types of OAuthConfig.GrantType.
const (
	GrantAuthorizationCode = "authorization_code"
	GrantClientCredentials = "client_credentials"
)

// Policy is the connector's approval policy (agent.ToolInfo.Policy).
func (c Connector) Policy() chat.ToolPolicy {
	switch {
	case c.Approval.Valid():
		return c.Approval
	case c.TrustReadOnlyHints:
		return chat.PolicyReadOnly
	}
	return chat.PolicyAsk
}

// InitTimeout is the connector's start timeout.
func (c Connector) InitTimeout() time.Duration {
	if c.InitTimeoutSeconds > 0 {
		return time.Duration(c.InitTimeoutSeconds) * time.Second
	}
	return DefaultInitTimeout
}

// CallTimeout is how long a call may go without progress.
func (c Connector) CallTimeout() time.Duration {
	if c.CallTimeoutSeconds > 0 {
		return time.Duration(c.CallTimeoutSeconds) * time.Second
	}
	return DefaultCallTimeout
}

// DisplayName is the name shown to the user and to models.
func (c Connector) DisplayName() string {
	return cmp.Or(strings.TrimSpace(c.Name), c.ID)
}

// kind resolves the transport default.
func (c Connector) kind() TransportKind {
	if c.Transport != "" {
		return c.Transport
	}
	if c.Command != "" {
		return TransportStdio
	}
	return TransportHTTP
}

// Validate reports what is wrong with the config, worded for the user. The
// error is chat.ErrInvalid.
func (c Connector) Validate() error {
	var problems []string
	if strings.TrimSpace(c.Name) == "" {
		problems = append(problems, "a name is required")
	}
	switch c.kind() {
	case TransportStdio, TransportInProcess:
		problems = append(problems, c.localProblems()...)
	case TransportHTTP, TransportSSE:
		problems = append(problems, c.remoteProblems()...)
	default:
		problems = append(problems, fmt.Sprintf("unknown transport %q (stdio, http or sse)", c.Transport))
	}
	problems = append(problems, c.settingProblems()...)
	if len(problems) == 0 {
		return nil
	}
	return chat.E(chat.ErrInvalid, "connector %q: %s", c.DisplayName(), strings.Join(problems, "; "))
}

// localProblems checks a stdio or in-process connector.
func (c Connector) localProblems() []string {
	var problems []string
	if strings.TrimSpace(c.Command) == "" {
		problems = append(problems, "a command is required")
	}
	if c.URL != "" || len(c.Headers) > 0 || c.OAuth != nil {
		problems = append(problems, "url, headers and oauth are for remote connectors")
	}
	return problems
}

// remoteProblems checks an HTTP or SSE connector.
func (c Connector) remoteProblems() []string {
	var problems []string
	u, err := url.Parse(c.URL)
	switch {
	case c.URL == "":
		problems = append(problems, "a URL is required")
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		problems = append(problems, fmt.Sprintf("%q is not an http(s) URL", c.URL))
	}
	if c.Command != "" || len(c.Args) > 0 || len(c.Env) > 0 || c.Dir != "" {
		problems = append(problems, "command, args, env and dir are for stdio connectors")
	}
	if o := c.OAuth; o != nil {
		switch o.GrantType {
		case "", GrantAuthorizationCode:
		case GrantClientCredentials:
			if o.ClientID == "" || o.ClientSecret == "" {
				problems = append(problems, "the client_credentials grant needs a client ID and secret")
			}
		default:
			problems = append(problems, fmt.Sprintf("unknown OAuth grant type %q", o.GrantType))
		}
	}
	return problems
}

// settingProblems checks what every transport has: protocol, log level,
// argument secrets, timeouts.
func (c Connector) settingProblems() []string {
	var problems []string
	if c.ProtocolVersion != "" && c.ProtocolVersion != ProtocolAuto && !validProtocol(c.ProtocolVersion) {
		problems = append(problems, fmt.Sprintf("unknown protocol version %q", c.ProtocolVersion))
	}
	if c.Approval != "" && !c.Approval.Valid() {
		problems = append(problems, fmt.Sprintf("unknown approval policy %q (ask, read_only or all)", c.Approval))
	}
	if c.LogLevel != "" && !validLevel(c.LogLevel) {
		problems = append(problems, fmt.Sprintf("unknown log level %q", c.LogLevel))
	}
	problems = append(problems, c.argRefProblems()...)
	if c.InitTimeoutSeconds < 0 || c.CallTimeoutSeconds < 0 || c.ResultCap < 0 {
		problems = append(problems, "timeouts and the result cap cannot be negative")
	}
	return problems
}

// sameServer says whether a and b run the same server the same way: they
// differ at most in host-side state, which Maestro reads on each call and
// the server never sees (the approval policy and read-only trust,
// docs/SECURITY.md; whether new chats use it; when it was added).
func sameServer(a, b Connector) bool {
	hostless := func(c Connector) Connector {
		c.Approval, c.TrustReadOnlyHints, c.NewChats, c.CreatedAt = "", false, false, time.Time{}
		return c
	}
	return reflect.DeepEqual(hostless(a), hostless(b))
}

// Clone returns a deep copy.
func (c Connector) Clone() Connector {
	c.Args = slices.Clone(c.Args)
	c.ArgSecrets = slices.Clone(c.ArgSecrets)
	c.Env = maps.Clone(c.Env)
	c.Headers = maps.Clone(c.Headers)
	if c.OAuth != nil {
		o := *c.OAuth
		o.Scopes = slices.Clone(o.Scopes)
		c.OAuth = &o
	}
	return c
}

// ConnectorStore is the part of backend/store that keeps connector configs.
type ConnectorStore interface {
	Connectors(ctx context.Context) ([]json.RawMessage, error)
	PutConnector(ctx context.Context, id string, v any) error
	DeleteConnector(ctx context.Context, id string) error
}

// SecretStore keeps secrets by account name. *auth.Keychain satisfies it.
// Get returns an error wrapping chat.ErrNotFound when there is none.
type SecretStore interface {
	Get(ctx context.Context, account string) (string, error)
	Set(ctx context.Context, account, secret string) error
	Delete(ctx context.Context, account string) error
}

// Keychain accounts, by connector id.
func secretsAccount(id string) string { return "mcp-connector:" + id }
func oauthAccount(id string) string   { return "mcp-oauth:" + id }

// storedConnector is the JSON kept in the store: the config with its
// secret values removed (the keys stay, so the UI can list them).
type storedConnector struct {
	Connector
	// Secrets is set when the values are in the keychain.
	Secrets bool `json:"secrets,omitempty"`
}

// connectorSecrets is the JSON kept in the keychain.
type connectorSecrets struct {
	Env          map[string]string `json:"env,omitempty"`
	Headers      map[string]string `json:"headers,omitempty"`
	Args         []string          `json:"args,omitempty"`
	ClientSecret string            `json:"clientSecret,omitempty"`
}

func (s connectorSecrets) empty() bool {
	return len(s.Env) == 0 && len(s.Headers) == 0 && len(s.Args) == 0 && s.ClientSecret == ""
}

// split separates the secret values from the config.
func split(c Connector) (storedConnector, connectorSecrets) {
	c = c.Clone()
	var sec connectorSecrets
	if nonEmpty(c.Env) {
		sec.Env = c.Env
		c.Env = blank(c.Env)
	}
	if nonEmpty(c.Headers) {
		sec.Headers = c.Headers
		c.Headers = blank(c.Headers)
	}
	sec.Args, c.ArgSecrets = c.ArgSecrets, nil
	if c.OAuth != nil && c.OAuth.ClientSecret != "" {
		sec.ClientSecret = c.OAuth.ClientSecret
		c.OAuth.ClientSecret = ""
	}
	return storedConnector{Connector: c, Secrets: !sec.empty()}, sec
}

// join puts the secret values back.
func join(st storedConnector, sec connectorSecrets) Connector {
	c := st.Connector.Clone()
	for k, v := range sec.Env {
		if c.Env == nil {
			c.Env = map[string]string{}
		}
		c.Env[k] = v
	}
	for k, v := range sec.Headers {
		if c.Headers == nil {
			c.Headers = map[string]string{}
		}
		c.Headers[k] = v
	}
	if sec.ClientSecret != "" && c.OAuth != nil {
		c.OAuth.ClientSecret = sec.ClientSecret
	}
	c.ArgSecrets = slices.Clone(sec.Args)
	return c
}

func nonEmpty(m map[string]string) bool {
	for _, v := range m {
		if v != "" {
			return true
		}
	}
	return false
}

func blank(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k := range m {
		out[k] = ""
	}
	return out
}

// saveConnector writes the config to the store and its secrets to the
// keychain (secrets first, so a stored config never points at secrets that
// were not kept). Without a keychain, a config with secrets is refused.
func saveConnector(ctx context.Context, st ConnectorStore, sec SecretStore, c Connector) error {
	stored, secrets := split(c)
	if sec != nil {
		if secrets.empty() {
			if err := sec.Delete(ctx, secretsAccount(c.ID)); err != nil && !errors.Is(err, chat.ErrNotFound) {
				return fmt.Errorf("mcp: save connector %q: clear secrets: %w", c.DisplayName(), err)
			}
		} else {
			b, err := json.Marshal(secrets)
			if err != nil {
				return fmt.Errorf("mcp: save connector %q: %w", c.DisplayName(), err)
			}
			if err := sec.Set(ctx, secretsAccount(c.ID), string(b)); err != nil {
				return fmt.Errorf("mcp: save connector %q: keep env, headers and argument secrets in the keychain: %w", c.DisplayName(), err)
			}
		}
	} else if !secrets.empty() {
		return chat.E(chat.ErrUnavailable, "mcp: save connector %q: no keychain to keep its env, headers, argument secrets or client secret", c.DisplayName())
	}
	if st == nil {
		return nil
	}
	if err := st.PutConnector(ctx, c.ID, stored); err != nil {
		return fmt.Errorf("mcp: save connector %q: %w", c.DisplayName(), err)
	}
	return nil
}

// loadConnectors reads every stored config and its secrets. A config whose
// secrets cannot be read is returned without them, with the error joined
// (the connector then fails to start with a clear reason rather than
// vanishing).
func loadConnectors(ctx context.Context, st ConnectorStore, sec SecretStore) ([]Connector, map[string]error, error) {
	raws, err := st.Connectors(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("mcp: load connectors: %w", err)
	}
	var out []Connector
	broken := map[string]error{}
	for _, raw := range raws {
		var stored storedConnector
		if err := json.Unmarshal(raw, &stored); err != nil || stored.ID == "" {
			continue // not ours to fix; the store keeps it
		}
		var secrets connectorSecrets
		if stored.Secrets {
			if sec == nil {
				broken[stored.ID] = chat.E(chat.ErrUnavailable, "no keychain to read the connector's env, headers and argument secrets from")
			} else if s, err := sec.Get(ctx, secretsAccount(stored.ID)); err != nil {
				broken[stored.ID] = fmt.Errorf("read the connector's env, headers and argument secrets from the keychain: %w", err)
			} else if err := json.Unmarshal([]byte(s), &secrets); err != nil {
				broken[stored.ID] = fmt.Errorf("the keychain entry for the connector's env, headers and argument secrets is damaged: %w", err)
			}
		}
		out = append(out, join(stored, secrets))
	}
	slices.SortFunc(out, func(a, b Connector) int { return cmp.Compare(a.ID, b.ID) })
	return out, broken, nil
}

func validLevel(l string) bool {
	switch l {
	case "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency":
		return true
	}
	return false
}

func validProtocol(v string) bool {
	switch v {
	case "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28":
		return true
	}
	return false
}
