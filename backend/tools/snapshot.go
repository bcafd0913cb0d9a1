package tools

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"maestro/backend/chat"
)

// SearchToolName is the built-in search tool's name, exposed and canonical
// alike. It has no server part, so no MCP tool's canonical name (server.tool)
// or exposed name (server__tool) can equal it.
const SearchToolName = "search_tools"

const searchToolSchema = `{"type":"object","properties":{` +
	`"query":{"type":"string","description":"What you want to do, in a few words, or a tool or server name."},` +
	`"limit":{"type":"integer","description":"At most this many tools (default 8, at most 20)."}},` +
	`"required":["query"]}`

// Tool is one tool as its server lists it: what a Registry takes from a
// connector (backend/mcp turns tools/list entries into Tools).
type Tool struct {
	Name        string
	Title       string
	Description string
	// InputSchema and OutputSchema are JSON Schemas as the server wrote
	// them; nil when it gave none.
	InputSchema  json.RawMessage
	OutputSchema json.RawMessage
	Annotations  *Annotations
	// Icons are the tool's icons, as the server gave them (SafeIcons keeps
	// the ones that may be shown).
	Icons []Icon
	// AppOnly marks a tool whose MCP Apps visibility excludes the model
	// (_meta.ui.visibility without "model"; docs/APPS.md): its app may
	// call it, the model never sees it.
	AppOnly bool
}

// Entry is one tool of a session's snapshot.
type Entry struct {
	// Canonical is server.tool; it names the tool in canonical history.
	Canonical string `json:"canonical"`
	// Server is the server slug (the part of Canonical before the dot).
	Server string `json:"server"`
	// ServerName is the connector's display name.
	ServerName string `json:"serverName"`
	// Tool is the MCP tool name, sent in tools/call.
	Tool        string `json:"tool"`
	ConnectorID string `json:"connectorId"`
	Title       string `json:"title,omitempty"`
	// Description is the server's, without the " (via …)" suffix that
	// SentDescription adds.
	Description string `json:"description,omitempty"`
	// InputSchema is the schema as the server gave it (the one arguments
	// are validated against); Schemas holds it normalised per provider.
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  *Annotations    `json:"annotations,omitempty"`
	// Icons are the ones that may be shown (SafeIcons), for the UI only.
	Icons []Icon `json:"icons,omitempty"`
	// Names maps provider → the exposed name.
	Names map[string]string `json:"names,omitempty"`
	// Builtin marks Maestro's own search_tools (no connector).
	Builtin bool `json:"builtin,omitempty"`
	// AppOnly marks a tool only its MCP App may call: it stays in the
	// snapshot (the Tools panel, the app's calls) but Overlay never
	// declares it and Search never returns it.
	AppOnly bool `json:"appOnly,omitempty"`

	// Schemas maps provider → normalised input schema; Warnings lists what
	// normalisation changed. Both are recomputed on load, never stored.
	Schemas  map[string]json.RawMessage `json:"-"`
	Warnings map[string][]string        `json:"-"`

	rules *ruleSet // the registry's, which maps an unknown provider
}

// Annotations are the MCP tool annotations: hints from the server, not
// guarantees. The spec: "clients MUST consider tool annotations to be
// untrusted unless they come from trusted servers"; Maestro shows them and
// grants nothing on them unless the user chose to trust the connector
// (Connector.TrustReadOnlyHints; docs/SECURITY.md).
type Annotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
}

// ReadOnlyHint reports the server's readOnlyHint: its claim that the tool
// does not modify its environment.
func (e Entry) ReadOnlyHint() bool {
	return e.Annotations != nil && e.Annotations.ReadOnlyHint != nil && *e.Annotations.ReadOnlyHint
}

// Name is the entry's exposed name for provider. A provider the registry
// has no rules for gets the first provider's.
func (e Entry) Name(provider string) string { return e.Names[e.rules.key(provider)] }

// Schema is the entry's input schema normalised for provider.
func (e Entry) Schema(provider string) json.RawMessage {
	if s, ok := e.Schemas[e.rules.key(provider)]; ok {
		return s
	}
	return json.RawMessage(emptyObjectSchema)
}

// SentDescription is the description declared to models: the server's
// description (or the title, or the tool name, when it has none) followed
// by " (via <server display name>)", so the model can tell apart tools of
// the same name on different servers.
func (e Entry) SentDescription() string {
	d := strings.TrimSpace(e.Description)
	if d == "" {
		d = cmp.Or(strings.TrimSpace(e.Title), e.Tool)
	}
	if e.Builtin {
		return d
	}
	return d + " (via " + e.ServerName + ")"
}

// Snapshot is a session's tool set at one revision. It is a value (see the
// package doc); the zero Snapshot has no tools.
type Snapshot struct {
	SessionID string
	Revision  int64
	// Entries are sorted by canonical name.
	Entries []Entry
	// Found lists the canonical names search_tools returned, most recent
	// first.
	Found []string

	rules       *ruleSet
	index       map[string]map[string]int // provider → exposed → entry
	byCanonical map[string]int
	search      *searchIndex
}

// storedSnapshot is the JSON kept in the store (schema in the package doc).
type storedSnapshot struct {
	Format   int      `json:"format"`
	Revision int64    `json:"revision"`
	Entries  []Entry  `json:"entries"`
	Found    []string `json:"found,omitempty"`
}

// Budget is the most tools Overlay declares for provider: its rules'
// MaxTools (the first provider's for an unknown one).
func (s Snapshot) Budget(provider string) int {
	return s.rules.rules(provider).MaxTools
}

// Overlay returns the tools to declare to provider and the map canonical →
// exposed name for every tool in the snapshot the model may see (plus
// search_tools when it is declared; AppOnly tools are never declared). When the snapshot fits the provider's budget every tool is
// declared. Otherwise the overlay is search_tools, then the tools
// search_tools returned (most recent first), then the tools in used
// (canonical names the session's history called, most relevant first),
// never more than the budget in all. Tools are declared in canonical order
// after search_tools, so the list is stable for prompt caching.
func (s Snapshot) Overlay(provider string, used []string) ([]chat.Tool, map[string]string) {
	key := s.rules.key(provider)
	names := make(map[string]string, len(s.Entries)+1)
	visible := make([]int, 0, len(s.Entries))
	for i, e := range s.Entries {
		if e.AppOnly {
			continue
		}
		names[e.Canonical] = e.Names[key]
		visible = append(visible, i)
	}
	budget := s.Budget(provider)
	if len(visible) <= budget {
		tools := make([]chat.Tool, len(visible))
		for j, i := range visible {
			tools[j] = s.Entries[i].declare(key)
		}
		return tools, names
	}
	names[SearchToolName] = SearchToolName
	chosen := make([]int, 0, budget-1)
	add := func(canonical string) {
		if len(chosen) >= budget-1 {
			return
		}
		if i, ok := s.byCanonical[canonical]; ok && !s.Entries[i].AppOnly && !slices.Contains(chosen, i) {
			chosen = append(chosen, i)
		}
	}
	for _, c := range s.Found {
		add(c)
	}
	for _, c := range used {
		add(c)
	}
	slices.Sort(chosen)
	tools := make([]chat.Tool, 0, len(chosen)+1)
	tools = append(tools, searchTool(len(visible)))
	for _, i := range chosen {
		tools = append(tools, s.Entries[i].declare(key))
	}
	return tools, names
}

func (e Entry) declare(key string) chat.Tool {
	return chat.Tool{Name: e.Names[key], Canonical: e.Canonical, Description: e.SentDescription(), InputSchema: e.Schema(key)}
}

func searchTool(total int) chat.Tool {
	return chat.Tool{
		Name:      SearchToolName,
		Canonical: SearchToolName,
		Description: fmt.Sprintf("Find more tools. This session has %d tools; only some are declared here. "+
			"Describe what you want to do (or give a tool or server name) and the best matches are returned "+
			"with their call signatures; they can be called from your next step.", total),
		InputSchema: json.RawMessage(searchToolSchema),
	}
}

// SearchEntry is the entry Resolve returns for search_tools.
func SearchEntry() Entry {
	return Entry{Canonical: SearchToolName, Tool: SearchToolName, Builtin: true,
		Description: searchTool(0).Description, InputSchema: json.RawMessage(searchToolSchema)}
}

// Resolve maps a name the model called (exposed for provider) to its entry,
// whether or not the current overlay declares it. search_tools resolves to
// SearchEntry. AppOnly tools resolve too (their app calls them by name);
// the agent refuses a model's call of one (agent.ToolInfo.AppOnly).
func (s Snapshot) Resolve(provider, exposed string) (Entry, bool) {
	if exposed == SearchToolName {
		return SearchEntry(), true
	}
	i, ok := s.index[s.rules.key(provider)][exposed]
	if !ok {
		return Entry{}, false
	}
	return s.Entries[i], true
}

// Lookup finds an entry by canonical name.
func (s Snapshot) Lookup(canonical string) (Entry, bool) {
	if canonical == SearchToolName {
		return SearchEntry(), true
	}
	i, ok := s.byCanonical[canonical]
	if !ok {
		return Entry{}, false
	}
	return s.Entries[i], true
}

// build makes a snapshot from entries (copied and sorted): exposed names
// for every provider, indexes, and found pruned to tools that still exist.
func (r *Registry) build(sessionID string, rev int64, entries []Entry, found []string) Snapshot {
	es := slices.Clone(entries)
	slices.SortFunc(es, func(a, b Entry) int { return strings.Compare(a.Canonical, b.Canonical) })
	canon := make([]string, len(es))
	byCanonical := make(map[string]int, len(es))
	for i, e := range es {
		canon[i] = e.Canonical
		byCanonical[e.Canonical] = i
	}
	rules := r.rules.list
	names := make([][]string, len(rules))
	index := make(map[string]map[string]int, len(rules))
	for p, rule := range rules {
		names[p] = ExposedNames(rule, canon)
		idx := make(map[string]int, len(es))
		for i, n := range names[p] {
			idx[n] = i
		}
		index[rule.Provider] = idx
	}
	for i := range es {
		m := make(map[string]string, len(rules))
		for p, rule := range rules {
			m[rule.Provider] = names[p][i]
		}
		es[i].Names = m
		es[i].rules = r.rules
	}
	return Snapshot{
		SessionID:   sessionID,
		Revision:    rev,
		Entries:     es,
		Found:       pruneFound(byCanonical, found),
		rules:       r.rules,
		index:       index,
		byCanonical: byCanonical,
		search:      &searchIndex{},
	}
}

// pruneFound keeps the found names that still exist, once each, at most
// maxFound.
func pruneFound(byCanonical map[string]int, found []string) []string {
	var kept []string
	for _, c := range found {
		if _, ok := byCanonical[c]; ok && !slices.Contains(kept, c) && len(kept) < maxFound {
			kept = append(kept, c)
		}
	}
	return kept
}

// sameContent reports whether two snapshots declare the same tools (the
// revision aside).
func sameContent(a, b Snapshot) bool {
	return slices.Equal(a.Found, b.Found) && slices.EqualFunc(a.Entries, b.Entries, sameEntry)
}

func sameEntry(a, b Entry) bool {
	return a.Canonical == b.Canonical && a.Server == b.Server && a.ServerName == b.ServerName &&
		a.Tool == b.Tool && a.ConnectorID == b.ConnectorID && a.Title == b.Title &&
		a.Description == b.Description && bytes.Equal(a.InputSchema, b.InputSchema) &&
		bytes.Equal(a.OutputSchema, b.OutputSchema) && sameAnnotations(a.Annotations, b.Annotations) &&
		maps.Equal(a.Names, b.Names) && slices.EqualFunc(a.Icons, b.Icons, sameIcon) && a.AppOnly == b.AppOnly
}

func sameIcon(a, b Icon) bool {
	return a.Src == b.Src && a.MIMEType == b.MIMEType && a.Theme == b.Theme && slices.Equal(a.Sizes, b.Sizes)
}

func sameAnnotations(a, b *Annotations) bool {
	if a == nil || b == nil {
		return a == b
	}
	eq := func(x, y *bool) bool { return x == nil && y == nil || x != nil && y != nil && *x == *y }
	return a.Title == b.Title && eq(a.ReadOnlyHint, b.ReadOnlyHint) && eq(a.DestructiveHint, b.DestructiveHint) &&
		eq(a.IdempotentHint, b.IdempotentHint) && eq(a.OpenWorldHint, b.OpenWorldHint)
}

// prepareTools turns a connector's tool list into entries without server
// fields: schemas canonicalised and normalised for every provider. Tools
// without a name, and repeated names after the first, are skipped.
func prepareTools(tools []Tool, rs *ruleSet) []Entry {
	out := make([]Entry, 0, len(tools))
	seen := make(map[string]bool, len(tools))
	for _, t := range tools {
		if t.Name == "" || seen[t.Name] {
			continue
		}
		seen[t.Name] = true
		e := Entry{
			Tool:         t.Name,
			Title:        cmp.Or(t.Title, t.Annotations.title()),
			Description:  t.Description,
			InputSchema:  canonicalJSON(t.InputSchema, emptyObjectSchema),
			OutputSchema: canonicalJSON(t.OutputSchema, ""),
			Annotations:  t.Annotations.orNil(),
			Icons:        SafeIcons(t.Icons),
			AppOnly:      t.AppOnly,
		}
		normalizeEntry(&e, rs)
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.Tool, b.Tool) })
	return out
}

// restoreEntries recomputes what a stored snapshot leaves out.
func restoreEntries(stored []Entry, rs *ruleSet) []Entry {
	out := slices.Clone(stored)
	for i := range out {
		out[i].InputSchema = canonicalJSON(out[i].InputSchema, emptyObjectSchema)
		normalizeEntry(&out[i], rs)
	}
	return out
}

func normalizeEntry(e *Entry, rs *ruleSet) {
	e.Schemas = make(map[string]json.RawMessage, len(rs.list))
	e.Warnings = make(map[string][]string, len(rs.list))
	root, err := decodeJSON(e.InputSchema)
	for _, rule := range rs.list {
		p := rule.Provider
		if err != nil {
			e.Schemas[p] = json.RawMessage(emptyObjectSchema)
			e.Warnings[p] = []string{fmt.Sprintf("#: the schema is not valid JSON (%v); declared without parameters", err)}
			continue
		}
		out, warns := normalizeTree(rule.Schema, root)
		e.Schemas[p] = encodeJSON(out)
		if len(warns) > 0 {
			e.Warnings[p] = warns
		}
	}
}

// canonicalJSON is raw in the form encoding/json writes a RawMessage in
// (compact, HTML-escaped), so it survives a store round trip byte for byte
// and comparisons after a reload do not see spurious changes. Invalid JSON
// becomes fallback.
func canonicalJSON(raw json.RawMessage, fallback string) json.RawMessage {
	if len(bytes.TrimSpace(raw)) == 0 {
		if fallback == "" {
			return nil
		}
		return json.RawMessage(fallback)
	}
	out, err := json.Marshal(raw)
	if err != nil {
		if fallback == "" {
			return nil
		}
		return json.RawMessage(fallback)
	}
	return out
}

func (a *Annotations) title() string {
	if a == nil {
		return ""
	}
	return a.Title
}

// orNil is a copy of a, or nil when a says nothing.
func (a *Annotations) orNil() *Annotations {
	if a == nil || *a == (Annotations{}) {
		return nil
	}
	c := *a
	return &c
}

// searchIndex is built on the first search of a snapshot and shared by its
// copies.
type searchIndex struct {
	once sync.Once
	docs []searchDoc
	df   map[string]int
}
