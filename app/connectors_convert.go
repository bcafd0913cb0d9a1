package app

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"maestro/backend/chat"
	"maestro/backend/mcp"
	"maestro/backend/tools"
)

// connectorFromInput validates a form and turns it into a config. old is
// the stored config (secrets included) when the form edits one: settings
// the form does not show are kept, and so are the values of rows marked
// Keep.
func connectorFromInput(in ConnectorInputDTO, old *mcp.Connector) (mcp.Connector, error) {
	var c mcp.Connector
	var oldEnv, oldHeaders map[string]string
	if old != nil {
		c = old.Clone()
		c.Command, c.Args, c.Env, c.Dir, c.URL, c.Headers, c.OAuth = "", nil, nil, "", "", nil, nil
		// ArgSecrets stay, for the ${secret:N} references the form kept.
		oldEnv, oldHeaders = old.Env, old.Headers
	}
	problems := formCommon(in, &c)
	kind := mcp.TransportKind(strings.ToLower(strings.TrimSpace(in.Transport)))
	switch kind {
	case mcp.TransportStdio:
		c.Transport = kind
		problems = append(problems, formStdio(in, &c, oldEnv)...)
	case mcp.TransportHTTP, mcp.TransportSSE:
		c.Transport = kind
		problems = append(problems, formRemote(in, &c, old, oldHeaders)...)
	case "":
		problems = append(problems, "choose a transport: stdio, http or sse")
	default:
		problems = append(problems, fmt.Sprintf("unknown transport %q: use stdio, http or sse", in.Transport))
	}
	if len(problems) > 0 {
		return mcp.Connector{}, chat.E(chat.ErrInvalid, "%s", capitalize(strings.Join(problems, "; ")))
	}
	if err := c.Validate(); err != nil {
		return mcp.Connector{}, err
	}
	return c, nil
}

// formCommon reads what every transport's form has: the name and the
// connector's choices.
func formCommon(in ConnectorInputDTO, c *mcp.Connector) []string {
	c.Name = strings.Join(strings.Fields(in.Name), " ")
	c.TrustReadOnlyHints = in.TrustReadOnlyHints
	if in.NewChats != nil {
		c.NewChats = *in.NewChats
	}
	if in.Apps != nil {
		c.AppsOff = !*in.Apps
	}
	switch {
	case c.Name == "":
		return []string{"a name is required"}
	case len([]rune(c.Name)) > maxConnectorName:
		return []string{fmt.Sprintf("the name is longer than %d characters", maxConnectorName)}
	}
	return nil
}

// formStdio reads a stdio connector's form: command, arguments (with the
// ones to keep in the keychain), folder and environment.
func formStdio(in ConnectorInputDTO, c *mcp.Connector, oldEnv map[string]string) []string {
	var problems []string
	c.Command = strings.TrimSpace(in.Command)
	if c.Command == "" {
		problems = append(problems, "a command is required")
	}
	if slices.ContainsFunc(in.Args, func(arg string) bool { return strings.ContainsRune(arg, 0) }) {
		problems = append(problems, "an argument contains a NUL character")
	}
	if len(in.Args) > 0 {
		c.Args = slices.Clone(in.Args)
	}
	c.ArgsChecked = true // the form offered the choice
	if _, err := c.HideArgSecrets(in.SecretArgs); err != nil {
		problems = append(problems, err.Error())
	}
	c.Dir = strings.TrimSpace(in.Cwd)
	if c.Dir != "" && !filepath.IsAbs(c.Dir) {
		problems = append(problems, fmt.Sprintf("the working directory %q is not an absolute path", c.Dir))
	}
	env, errs := keyValues("environment variable", in.Env, oldEnv, validEnvName)
	c.Env, problems = env, append(problems, errs...)
	if len(in.Headers) > 0 || strings.TrimSpace(in.URL) != "" || in.OAuth != nil {
		problems = append(problems, "url, headers and OAuth are for HTTP and SSE connectors")
	}
	return problems
}

// formRemote reads an HTTP or SSE connector's form: URL, headers and
// OAuth settings.
func formRemote(in ConnectorInputDTO, c *mcp.Connector, old *mcp.Connector, oldHeaders map[string]string) []string {
	var problems []string
	c.ArgSecrets = nil
	c.URL = strings.TrimSpace(in.URL)
	headers, errs := keyValues("header", in.Headers, oldHeaders, validHeaderName)
	c.Headers, problems = headers, append(problems, errs...)
	if in.OAuth != nil {
		if c.Transport == mcp.TransportSSE {
			problems = append(problems, "OAuth sign-in is for streamable HTTP connectors")
		}
		c.OAuth = formOAuth(*in.OAuth, old)
	}
	if strings.TrimSpace(in.Command) != "" || len(in.Args) > 0 || len(in.SecretArgs) > 0 || len(in.Env) > 0 || strings.TrimSpace(in.Cwd) != "" {
		problems = append(problems, "command, arguments, environment and working directory are for stdio connectors")
	}
	return problems
}

// formOAuth reads the OAuth settings of a form; what the form does not show
// (and the client secret, when kept) comes from old.
func formOAuth(in OAuthInputDTO, old *mcp.Connector) *mcp.OAuthConfig {
	o := &mcp.OAuthConfig{ClientID: strings.TrimSpace(in.ClientID), Scopes: strings.Fields(strings.Join(in.Scopes, " "))}
	if old != nil && old.OAuth != nil {
		o.ClientMetadataURL, o.GrantType, o.AuthServerMetadataURL = old.OAuth.ClientMetadataURL, old.OAuth.GrantType, old.OAuth.AuthServerMetadataURL
		if in.KeepClientSecret {
			o.ClientSecret = old.OAuth.ClientSecret
		}
	}
	if s := strings.TrimSpace(in.ClientSecret); s != "" {
		o.ClientSecret = s
	}
	return o
}

// keyValues turns form rows into a map. A row with Keep takes the value
// stored for its key in old.
func keyValues(what string, rows []KeyValueInputDTO, old map[string]string, valid func(string) bool) (map[string]string, []string) {
	if len(rows) == 0 {
		return nil, nil
	}
	out := make(map[string]string, len(rows))
	var problems []string
	for _, r := range rows {
		k := strings.TrimSpace(r.Key)
		switch {
		case k == "" && r.Value == "":
			continue // an empty row
		case k == "":
			problems = append(problems, fmt.Sprintf("a %s has a value but no name", what))
			continue
		case !valid(k):
			problems = append(problems, fmt.Sprintf("%q is not a valid %s name", k, what))
			continue
		}
		if _, dup := out[k]; dup {
			problems = append(problems, fmt.Sprintf("the %s %q is listed twice", what, k))
			continue
		}
		v := r.Value
		if r.Keep {
			prev, ok := old[k]
			if !ok {
				problems = append(problems, fmt.Sprintf("the %s %q has no stored value to keep: type one", what, k))
				continue
			}
			v = prev
		}
		if strings.ContainsAny(v, "\x00\r\n") {
			problems = append(problems, fmt.Sprintf("the value of the %s %q has a line break or NUL character", what, k))
			continue
		}
		out[k] = v
	}
	if len(out) == 0 {
		out = nil
	}
	return out, problems
}

func validEnvName(k string) bool {
	return !strings.ContainsAny(k, "=\x00") && !strings.ContainsFunc(k, unicode.IsSpace)
}

func validHeaderName(k string) bool {
	for _, r := range k {
		if r > 0x7e || r <= 0x20 || strings.ContainsRune("\"(),/:;<=>?@[\\]{}", r) {
			return false
		}
	}
	return k != ""
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// maskValue hides a secret value: its last four characters are shown only
// when at least twelve stay hidden; an empty value stays empty.
func maskValue(v string) string {
	if v == "" {
		return ""
	}
	r := []rune(v)
	if len(r) >= 16 {
		return "…" + string(r[len(r)-4:])
	}
	return "…"
}

// connectorDTO is what the UI sees of a connector: its settings with the
// secret values masked, and its state.
func connectorDTO(cfg mcp.Connector, st mcp.ConnectorStatus) ConnectorDTO {
	dto := ConnectorDTO{
		ID: cfg.ID, Name: cfg.DisplayName(), Transport: string(cfg.Transport), Enabled: !cfg.Disabled,
		Command: cfg.Command, Args: nonNil(slices.Clone(cfg.Args)), Env: keyHints(cfg.Env), Cwd: cfg.Dir,
		URL: cfg.URL, Headers: keyHints(cfg.Headers), TrustReadOnlyHints: cfg.TrustReadOnlyHints, NewChats: cfg.NewChats, Apps: cfg.AppsOn(),
		State: string(st.State), ToolCount: st.Tools, Error: st.Error, StderrTail: nonNil(slices.Clone(st.StderrTail)),
		NeedsSignIn: st.NeedsSignIn, NextRetry: millis(st.RetryAt), Restarts: st.Restarts,
		Server: st.Server, Protocol: st.Protocol, Since: millis(st.Since), CreatedAt: millis(cfg.CreatedAt),
		Version: st.Version, Approval: string(cfg.Approval), Icons: shownIcons(cfg, st.Icons),
	}
	if dto.Transport == "" {
		dto.Transport = string(mcp.TransportStdio)
		if cfg.Command == "" {
			dto.Transport = string(mcp.TransportHTTP)
		}
	}
	if dto.State == "" {
		dto.State = string(mcp.StateStopped)
	}
	if st.State != mcp.StateReady {
		dto.ToolCount = 0
	}
	if o := cfg.OAuth; o != nil {
		dto.OAuth = &OAuthDTO{ClientID: o.ClientID, HasClientSecret: o.ClientSecret != "", Scopes: nonNil(slices.Clone(o.Scopes))}
	}
	return dto
}

func testResultDTO(r mcp.ProbeResult) TestResultDTO {
	st := r.Status
	dto := TestResultDTO{
		OK: r.OK(), State: string(st.State), Error: st.Error, StderrTail: nonNil(st.StderrTail),
		NeedsSignIn: st.NeedsSignIn, Server: st.Server, Protocol: st.Protocol,
		DurationMS: r.Duration.Milliseconds(), Tools: make([]TestToolDTO, 0, len(r.Tools)),
	}
	for _, t := range r.Tools {
		dto.Tools = append(dto.Tools, TestToolDTO{Name: t.Name, Title: cmp.Or(t.Title, t.Annotations.Title),
			Description: t.Description, ReadOnly: readOnly(t)})
	}
	return dto
}

func readOnly(t mcpgo.Tool) bool {
	return t.Annotations.ReadOnlyHint != nil && *t.Annotations.ReadOnlyHint
}

func keyHints(m map[string]string) []KeyValueDTO {
	out := make([]KeyValueDTO, 0, len(m))
	for k, v := range m {
		out = append(out, KeyValueDTO{Key: k, Hint: maskValue(v)})
	}
	slices.SortFunc(out, func(a, b KeyValueDTO) int { return cmp.Compare(a.Key, b.Key) })
	return out
}

func logLineDTO(l mcp.LogLine) LogLineDTO {
	return LogLineDTO{Time: millis(l.Time), Source: l.Source, Level: l.Level, Logger: l.Logger, Text: l.Text}
}

// mapped converts each element of xs with f; never nil, so JSON has [].
func mapped[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func toRoots(paths []string) []mcp.Root {
	out := make([]mcp.Root, 0, len(paths))
	for _, p := range paths {
		out = append(out, mcp.Root{Path: p, Name: filepath.Base(p)})
	}
	return out
}

// readSmallFile reads a file the user picked, refusing what cannot be an
// mcpServers file.
func readSmallFile(path string, limit int64) ([]byte, error) {
	if err := checkPath(path); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, chat.E(chat.ErrNotFound, "cannot open %s: %v", path, unwrapPathError(err))
	}
	defer f.Close()
	info, err := f.Stat()
	switch {
	case err != nil:
		return nil, chat.E(chat.ErrUnavailable, "cannot read %s: %v", path, unwrapPathError(err))
	case info.IsDir():
		return nil, chat.E(chat.ErrInvalid, "%s is a folder, not a file", path)
	case info.Size() > limit:
		return nil, chat.E(chat.ErrInvalid, "%s is too big for an MCP server list (%d KiB; at most %d KiB)", path, info.Size()>>10, limit>>10)
	}
	data := make([]byte, info.Size())
	if _, err := f.ReadAt(data, 0); err != nil && info.Size() > 0 {
		return nil, chat.E(chat.ErrUnavailable, "cannot read %s: %v", path, unwrapPathError(err))
	}
	return data, nil
}

func checkPath(path string) error {
	if strings.TrimSpace(path) == "" {
		return chat.E(chat.ErrInvalid, "choose a file")
	}
	if !filepath.IsAbs(path) {
		return chat.E(chat.ErrInvalid, "%q is not an absolute path", path)
	}
	return nil
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// keychainSecrets is the supervisor's SecretStore: the keychain, except
// that a delete the keychain cannot carry out because it is unavailable
// counts as nothing to delete. A connector without env or header values
// clears its keychain entry on every save and remove; without this, a
// machine with no usable keychain could not add even such a connector.
// (Saving values still fails there, with the keychain's message.)
type keychainSecrets struct {
	mcp.SecretStore
	log *slog.Logger
}

func (k keychainSecrets) Delete(ctx context.Context, account string) error {
	err := k.SecretStore.Delete(ctx, account)
	if err != nil && errors.Is(err, chat.ErrUnavailable) && !errors.Is(err, chat.ErrNotFound) {
		k.log.Warn("keychain unavailable: entry not deleted", "account", account, "err", err)
		return fmt.Errorf("%w (keychain unavailable: %v)", chat.ErrNotFound, err)
	}
	return err
}

// shownIcons are the icons of a connector (or of one of its tools) the
// window may draw (docs/SECURITY.md, "Icons"): data: ones, which load
// nothing, and https: ones served by the remote connector's own host, which
// the user already talks to. Any other https: icon would have the window
// fetch a third party's URL the user never chose, telling it who opened
// the page and when: it is dropped, and the card draws its own glyph.
func shownIcons(cfg mcp.Connector, list []tools.Icon) []tools.Icon {
	var host string
	if u, err := url.Parse(cfg.URL); err == nil && cfg.URL != "" {
		host = u.Hostname()
	}
	var out []tools.Icon
	for _, ic := range list {
		switch u, err := url.Parse(ic.Src); {
		case err != nil:
		case strings.EqualFold(u.Scheme, "data"):
			out = append(out, ic)
		case strings.EqualFold(u.Scheme, "https") && host != "" && strings.EqualFold(u.Hostname(), host):
			out = append(out, ic)
		}
	}
	return out
}
