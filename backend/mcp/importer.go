package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"maestro/backend/chat"
)

// Claude Desktop's claude_desktop_config.json and the mcp_servers.json of
// other clients keep servers in an "mcpServers" map, name → entry:
//
//	{"mcpServers": {
//	  "files":  {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"],
//	             "env": {"DEBUG": "1"}},
//	  "remote": {"type": "http", "url": "https://example.com/mcp", "headers": {"Authorization": "Bearer …"}}
//	}}
//
// The importer also takes VS Code's "servers" map, or the map alone. It is
// tolerant: unknown keys are ignored (and named in the report), and an
// entry it cannot use is skipped with the reason, never failing the others.

// ImportEntry is what happened to one entry of an imported file.
type ImportEntry struct {
	Name     string `json:"name"`
	Imported bool   `json:"imported"`
	// Connector is the connector made from the entry (set when Imported,
	// with its id once added).
	Connector *Connector `json:"connector,omitempty"`
	// Reason says why the entry was skipped.
	Reason string `json:"reason,omitempty"`
	// Ignored lists the entry's keys that were not understood.
	Ignored []string `json:"ignored,omitempty"`
	// Notes are what the importer assumed (e.g. a missing type).
	Notes []string `json:"notes,omitempty"`
}

// ImportReport lists every entry of an imported file, in file order.
type ImportReport struct {
	Entries []ImportEntry `json:"entries"`
}

// Imported counts the entries that became connectors.
func (r ImportReport) Imported() int {
	n := 0
	for _, e := range r.Entries {
		if e.Imported {
			n++
		}
	}
	return n
}

// ParseServersFile reads an mcpServers file into connectors, one entry per
// server, without adding anything. The error is for a file that is not
// JSON or holds no server map; entry problems are in the report.
func ParseServersFile(data []byte) (ImportReport, error) {
	v, err := decodeFile(data)
	if err != nil {
		return ImportReport{}, chat.E(chat.ErrInvalid, "the file is not JSON (%s)", jsonProblem(data, err))
	}
	root, ok := objectOf(v)
	if !ok {
		return ImportReport{}, chat.E(chat.ErrInvalid, "the file is JSON but not an object of servers, such as {\"mcpServers\": {…}}")
	}
	servers, err := serverMap(root)
	if err != nil {
		return ImportReport{}, err
	}
	var rep ImportReport
	for _, name := range servers.keys {
		rep.Entries = append(rep.Entries, parseEntry(name, servers.vals[name]))
	}
	return rep, nil
}

// serverMap finds the servers in a file: under "mcpServers", "servers" or
// "mcp_servers", or the whole file when it is a server map itself.
func serverMap(root jsonObject) (jsonObject, error) {
	for _, key := range []string{"mcpServers", "servers", "mcp_servers"} {
		if v, ok := root.vals[key]; ok {
			servers, ok := objectOf(v)
			if !ok {
				return jsonObject{}, chat.E(chat.ErrInvalid, "%q in the file is not an object of servers", key)
			}
			return servers, nil
		}
	}
	if !looksLikeServers(root) {
		return jsonObject{}, chat.E(chat.ErrInvalid, "mcp: import: no \"mcpServers\" in the file")
	}
	return root, nil
}

// looksLikeServers reports whether a bare object is a server map: every
// value an object with a command or a url.
func looksLikeServers(o jsonObject) bool {
	if len(o.keys) == 0 {
		return false
	}
	for _, k := range o.keys {
		e, ok := objectOf(o.vals[k])
		if !ok || (!e.has("command") && !e.has("url")) {
			return false
		}
	}
	return true
}

var knownEntryKeys = map[string]bool{"command": true, "args": true, "env": true, "cwd": true, "type": true,
	"transport": true, "url": true, "headers": true, "disabled": true}

// skipped is the reason an entry is not imported.
type skipped string

func skip(format string, args ...any) *skipped {
	s := skipped(fmt.Sprintf(format, args...))
	return &s
}

// parseEntry turns one server entry into a connector, or says why it
// cannot.
func parseEntry(name string, raw json.RawMessage) ImportEntry {
	out := ImportEntry{Name: name}
	e, ok := objectOf(raw)
	if !ok {
		out.Reason = fmt.Sprintf("the entry is %s, not an object", aKind(raw))
		return out
	}
	for _, k := range e.keys {
		if !knownEntryKeys[k] {
			out.Ignored = append(out.Ignored, k)
		}
	}
	c, why := entryConnector(name, e, &out)
	if why == nil {
		why = validImport(c)
	}
	if why != nil {
		out.Reason = string(*why)
		return out
	}
	out.Imported, out.Connector = true, c
	return out
}

// entryConnector reads the connector an entry describes, adding notes to
// out.
func entryConnector(name string, e jsonObject, out *ImportEntry) (*Connector, *skipped) {
	c := &Connector{Name: strings.TrimSpace(name)}
	if c.Name == "" {
		return nil, skip("the entry has no name")
	}
	if d, ok := e.vals["disabled"]; ok {
		if jsonKindOf(d) != "boolean" {
			return nil, skip("\"disabled\" is not true or false")
		}
		c.Disabled = string(bytes.TrimSpace(d)) == "true"
	}
	command, hasCommand := e.str("command")
	url, hasURL := e.str("url")
	switch {
	case e.has("command") && !hasCommand:
		return nil, skip("\"command\" is not a string")
	case e.has("url") && !hasURL:
		return nil, skip("\"url\" is not a string")
	case hasCommand && hasURL:
		return nil, skip("the entry has both a command and a url")
	case !hasCommand && !hasURL:
		return nil, skip("the entry has neither a command nor a url")
	case hasCommand:
		c.Transport, c.Command = TransportStdio, command
		return c, stdioEntry(c, e, out)
	}
	c.URL = url
	return c, remoteEntry(c, e, out)
}

// stdioEntry reads a local server's arguments, environment and folder.
func stdioEntry(c *Connector, e jsonObject, out *ImportEntry) *skipped {
	var err error
	if c.Args, err = stringListField(e, "args"); err != nil {
		return skip("%v", err)
	}
	out.Notes = append(out.Notes, hideImportedSecrets(c)...)
	if c.Env, err = stringMapField(e, "env", out); err != nil {
		return skip("%v", err)
	}
	var ok bool
	if c.Dir, ok = e.str("cwd"); e.has("cwd") && !ok {
		return skip("\"cwd\" is not a string")
	}
	for _, k := range []string{"type", "headers"} {
		if e.has(k) && (k != "type" || !isStdioType(e)) {
			out.Notes = append(out.Notes, fmt.Sprintf("%q ignored: it is for remote servers", k))
		}
	}
	return nil
}

// remoteEntry reads a remote server's transport and headers.
func remoteEntry(c *Connector, e jsonObject, out *ImportEntry) *skipped {
	typ, _ := e.str("type")
	if typ == "" {
		typ, _ = e.str("transport")
	}
	switch strings.ToLower(strings.ReplaceAll(strings.ReplaceAll(typ, "-", ""), "_", "")) {
	case "http", "streamablehttp":
		c.Transport = TransportHTTP
	case "sse":
		c.Transport = TransportSSE
	case "":
		c.Transport = TransportHTTP
		out.Notes = append(out.Notes, "no type: taken as streamable HTTP")
	default:
		return skip("unknown type %q (http, streamable-http or sse)", typ)
	}
	var err error
	if c.Headers, err = stringMapField(e, "headers", out); err != nil {
		return skip("%v", err)
	}
	for _, k := range []string{"args", "env", "cwd"} {
		if e.has(k) {
			out.Notes = append(out.Notes, fmt.Sprintf("%q ignored: it is for local servers", k))
		}
	}
	return nil
}

// validImport checks an entry's connector as Add would.
func validImport(c *Connector) *skipped {
	if err := c.Validate(); err != nil {
		return skip("%v", strings.TrimPrefix(err.Error(), fmt.Sprintf("connector %q: ", c.DisplayName())))
	}
	return nil
}

// hideImportedSecrets moves the arguments that look like secrets into the
// keychain side of c (the importer's offer, taken: the user can make an
// argument plain again in the connector form) and says which.
func hideImportedSecrets(c *Connector) []string {
	if hasArgRefs(c.Args) {
		c.ArgsChecked = true
		return nil // ${secret:N} here is the other app's text, not ours
	}
	c.ArgsChecked = true
	changed, err := c.HideArgSecrets(SuggestSecretArgs(c.Args))
	if err != nil || len(changed) == 0 {
		return nil
	}
	return []string{movedNote(changed)}
}

func hasArgRefs(args []string) bool { return slices.ContainsFunc(args, hasSecretRef) }

// joinInts renders 1, 2 and 3.
func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprint(n)
	}
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

func isStdioType(e jsonObject) bool {
	t, _ := e.str("type")
	return t == "stdio"
}

func stringListField(e jsonObject, key string) ([]string, error) {
	if !e.present(key) {
		return nil, nil
	}
	var list []json.RawMessage
	if jsonKindOf(e.vals[key]) != "array" || json.Unmarshal(e.vals[key], &list) != nil {
		return nil, fmt.Errorf("%q is not a list", key)
	}
	out := make([]string, 0, len(list))
	for i, x := range list {
		s, ok := scalarString(x)
		if !ok {
			return nil, fmt.Errorf("%q item %d is %s, not a string", key, i, aKind(x))
		}
		out = append(out, s)
	}
	return out, nil
}

// stringMapField reads an env or headers map; numbers and booleans are
// taken as their text (with a note).
func stringMapField(e jsonObject, key string, rep *ImportEntry) (map[string]string, error) {
	if !e.present(key) {
		return nil, nil
	}
	m, ok := objectOf(e.vals[key])
	if !ok {
		return nil, fmt.Errorf("%q is not an object", key)
	}
	out := make(map[string]string, len(m.keys))
	for _, k := range m.keys {
		x := m.vals[k]
		s, ok := scalarString(x)
		if !ok {
			return nil, fmt.Errorf("%q value %q is %s, not a string", key, k, aKind(x))
		}
		out[k] = s
		if jsonKindOf(x) != "string" {
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s %q taken as the text %q", key, k, s))
		}
	}
	return out, nil
}

// Import adds the servers of an mcpServers file as connectors. An entry
// whose name is already a connector's is skipped (so importing twice adds
// nothing). The report says, per entry, what was added and what was
// skipped and why; the error is for a file that cannot be read at all.
func (s *Supervisor) Import(ctx context.Context, data []byte) (ImportReport, error) {
	rep, err := ParseServersFile(data)
	if err != nil {
		return rep, err
	}
	taken := map[string]bool{}
	existing := s.Connectors()
	for _, c := range existing {
		taken[strings.ToLower(c.DisplayName())] = true
	}
	added := 0
	for i := range rep.Entries {
		e := &rep.Entries[i]
		if !e.Imported {
			continue
		}
		if taken[strings.ToLower(e.Connector.Name)] {
			e.Imported, e.Connector, e.Reason = false, nil, "a connector with this name exists already"
			continue
		}
		e.Connector.NewChats = NewChatsByDefault(len(existing) + added)
		c, err := s.Add(ctx, *e.Connector)
		if err != nil && errors.Is(err, chat.ErrUnavailable) && len(e.Connector.ArgSecrets) > 0 {
			// No keychain: the arguments stay as they were in the file
			// rather than the server not being imported at all.
			plain := e.Connector.Clone()
			plain.Args, _ = plain.RunArgs()
			plain.ArgSecrets = nil
			if c, err = s.Add(ctx, plain); err == nil {
				e.Notes = append(slices.DeleteFunc(e.Notes, func(n string) bool { return strings.Contains(n, "kept in the keychain") }),
					"no keychain: the arguments that look like secrets stay in Maestro's data file")
			}
		}
		if err != nil {
			e.Imported, e.Connector, e.Reason = false, nil, err.Error()
			continue
		}
		taken[strings.ToLower(c.Name)] = true
		added++
		e.Connector = &c
	}
	return rep, nil
}

// Export writes the named connectors (every one when ids is empty) as a
// Claude Desktop mcpServers file, secrets included (env and header values,
// arguments' secrets): the user asked for a file that works elsewhere. In-process connectors have no file form and
// are left out; OAuth settings are not part of the format.
func (s *Supervisor) Export(ids ...string) ([]byte, error) {
	all := s.Connectors()
	if len(ids) > 0 {
		all = slices.DeleteFunc(all, func(c Connector) bool { return !slices.Contains(ids, c.ID) })
		if len(all) != len(ids) {
			return nil, chat.E(chat.ErrNotFound, "mcp: export: %d of the %d connectors do not exist", len(ids)-len(all), len(ids))
		}
	}
	return ExportServersFile(all)
}

// ExportServersFile renders connectors as an mcpServers file. Names that
// repeat get " (2)", " (3)"… appended.
func ExportServersFile(cs []Connector) ([]byte, error) {
	type entry struct {
		Command  string            `json:"command,omitempty"`
		Args     []string          `json:"args,omitempty"`
		Env      map[string]string `json:"env,omitempty"`
		Cwd      string            `json:"cwd,omitempty"`
		Type     string            `json:"type,omitempty"`
		URL      string            `json:"url,omitempty"`
		Headers  map[string]string `json:"headers,omitempty"`
		Disabled bool              `json:"disabled,omitempty"`
	}
	servers := map[string]entry{}
	for _, c := range cs {
		var e entry
		switch c.kind() {
		case TransportStdio:
			args, err := c.RunArgs()
			if err != nil {
				args = c.Args // the secrets could not be read: the references stay
			}
			e = entry{Command: c.Command, Args: args, Env: c.Env, Cwd: c.Dir}
		case TransportHTTP:
			e = entry{Type: "http", URL: c.URL, Headers: c.Headers}
		case TransportSSE:
			e = entry{Type: "sse", URL: c.URL, Headers: c.Headers}
		default:
			continue
		}
		e.Disabled = c.Disabled
		name := c.DisplayName()
		for n := 2; ; n++ {
			if _, dup := servers[name]; !dup {
				break
			}
			name = fmt.Sprintf("%s (%d)", c.DisplayName(), n)
		}
		servers[name] = e
	}
	b, err := json.MarshalIndent(map[string]any{"mcpServers": servers}, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("mcp: export: %w", err)
	}
	return append(b, '\n'), nil
}

// names lists the entries' names, for messages.
func (r ImportReport) names(imported bool) []string {
	var out []string
	for _, e := range r.Entries {
		if e.Imported == imported {
			out = append(out, e.Name)
		}
	}
	return out
}

// Summary is a one-line account of an import, for the UI.
func (r ImportReport) Summary() string {
	in, out := r.names(true), r.names(false)
	switch {
	case len(r.Entries) == 0:
		return "the file lists no servers"
	case len(out) == 0:
		return fmt.Sprintf("imported %d: %s", len(in), strings.Join(in, ", "))
	case len(in) == 0:
		return fmt.Sprintf("imported none; skipped %d: %s", len(out), strings.Join(out, ", "))
	}
	return fmt.Sprintf("imported %d (%s); skipped %d (%s)", len(in), strings.Join(in, ", "),
		len(out), strings.Join(out, ", "))
}

// jsonProblem says where and why data is not JSON, as a person reads it:
// "line 1, column 2: invalid character 'h' in literal true".
func jsonProblem(data []byte, err error) string {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return "it ends before the JSON does"
		}
		return err.Error()
	}
	before := data[:min(int(se.Offset), len(data))]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("line %d, column %d: %s", line, max(col-1, 1), se.Error())
}
