package tools

import (
	"cmp"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"unicode"
)

// Limits on what one search returns, so a search_tools result stays well
// under the result cap even for servers with very long descriptions.
const (
	defaultSearchLimit = 8
	maxSearchLimit     = 20
	maxDescLen         = 600
	maxParamDescLen    = 200
	maxOutputSchemaLen = 4 << 10
)

// Descriptor describes one tool found by search_tools, for the model.
type Descriptor struct {
	// Name is the exposed name to call the tool by.
	Name string `json:"name"`
	// Server is the connector's display name.
	Server      string `json:"server"`
	Description string `json:"description,omitempty"`
	// Signature reads like a function: fs__read_file(path: string, head?: number).
	Signature string `json:"signature"`
	// Parameters documents each parameter on one line.
	Parameters string `json:"parameters,omitempty"`
	// OutputSchema is the tool's output schema, when it has one (and it is
	// not huge).
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`

	canonical string
	score     float64
}

type searchDoc struct {
	exact  []string // lowercased names that count as an exact hit
	name   map[string]bool
	desc   map[string]int
	params map[string]bool
}

// Search ranks the snapshot's tools against query and returns at most limit
// descriptors (default 8, at most 20) with names exposed for provider. An
// exact name (exposed, canonical or MCP name) ranks first; then tools score
// by TF-IDF over the query's words (stemmed, camelCase and snake_case
// split), weighting name words 3, description words 1 (more for repeats)
// and parameter names 1, with half credit for prefix matches, scaled by
// the share of query words matched. Ties go to the canonical name.
func (s Snapshot) Search(provider, query string, limit int) []Descriptor {
	if limit <= 0 {
		limit = defaultSearchLimit
	}
	limit = min(limit, maxSearchLimit)
	q := strings.ToLower(strings.TrimSpace(query))
	qterms := uniq(terms(query))
	if q == "" || s.search == nil {
		return nil
	}
	idx := s.search
	idx.once.Do(func() { idx.build(s.Entries, s.rules.rich) })

	n := float64(len(s.Entries))
	var hits []Descriptor
	for i, d := range idx.docs {
		score := 0.0
		if slices.Contains(d.exact, q) {
			score += 1000
		}
		matched := 0
		for _, t := range qterms {
			w := 0.0
			if d.name[t] {
				w += 3
			}
			if tf := d.desc[t]; tf > 0 {
				w += 1 + 0.5*float64(min(tf-1, 4))
			}
			if d.params[t] {
				w++
			}
			if w == 0 && len(t) >= 3 && d.prefix(t) {
				w = 0.5
			}
			if w > 0 {
				matched++
				score += w * math.Log(1+n/float64(1+idx.df[t]))
			}
		}
		if len(qterms) > 0 {
			score *= 0.5 + 0.5*float64(matched)/float64(len(qterms))
		}
		if score > 0 && !s.Entries[i].AppOnly {
			hits = append(hits, Descriptor{canonical: s.Entries[i].Canonical, score: score})
		}
	}
	slices.SortFunc(hits, func(a, b Descriptor) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return strings.Compare(a.canonical, b.canonical)
	})
	if len(hits) > limit {
		hits = hits[:limit]
	}
	for i := range hits {
		e := s.Entries[s.byCanonical[hits[i].canonical]]
		hits[i] = describe(e, s.rules.key(provider), s.rules.rich, hits[i])
	}
	return hits
}

// build indexes entries; their parameters are read from the schemas
// normalised for rich (the provider whose dialect keeps the most).
func (idx *searchIndex) build(entries []Entry, rich string) {
	idx.docs = make([]searchDoc, len(entries))
	idx.df = map[string]int{}
	for i, e := range entries {
		d := searchDoc{name: map[string]bool{}, desc: map[string]int{}, params: map[string]bool{}}
		d.exact = append(d.exact, strings.ToLower(e.Tool), strings.ToLower(e.Canonical), strings.ToLower(e.Server+"__"+e.Tool))
		for _, n := range e.Names {
			d.exact = append(d.exact, strings.ToLower(n))
		}
		if e.Title != "" {
			d.exact = append(d.exact, strings.ToLower(e.Title))
		}
		for _, t := range terms(e.Server + " " + e.ServerName + " " + e.Tool + " " + e.Title) {
			d.name[t] = true
		}
		for _, t := range terms(e.Description) {
			d.desc[t]++
		}
		for _, p := range paramNames(e.Schema(rich)) {
			for _, t := range terms(p) {
				d.params[t] = true
			}
		}
		seen := map[string]bool{}
		for _, m := range []map[string]bool{d.name, d.params} {
			for t := range m {
				seen[t] = true
			}
		}
		for t := range d.desc {
			seen[t] = true
		}
		for t := range seen {
			idx.df[t]++
		}
		idx.docs[i] = d
	}
}

func (d searchDoc) prefix(t string) bool {
	has := func(w string) bool { return strings.HasPrefix(w, t) }
	for w := range d.name {
		if has(w) {
			return true
		}
	}
	for w := range d.desc {
		if has(w) {
			return true
		}
	}
	for w := range d.params {
		if has(w) {
			return true
		}
	}
	return false
}

func paramNames(schema json.RawMessage) []string {
	v, err := decodeJSON(schema)
	if err != nil {
		return nil
	}
	o, _ := v.(*object)
	p, _ := o.get("properties")
	po, _ := p.(*object)
	if po == nil {
		return nil
	}
	return po.keys
}

var stopWords = set("a", "an", "the", "to", "of", "for", "in", "on", "and", "or", "with", "from", "by",
	"is", "are", "be", "it", "its", "me", "my", "i", "you", "your", "this", "that", "please", "can", "into",
	"at", "as", "all", "some", "any", "use", "using", "tool", "tools")

// terms splits s into lowercased, stemmed words: non-alphanumerics
// separate words, and so do lower→upper case changes (readFile → read
// file). Stop words and single letters are dropped.
func terms(s string) []string {
	var out []string
	var word []rune
	flush := func() {
		if len(word) > 1 {
			w := stem(strings.ToLower(string(word)))
			if !stopWords[w] {
				out = append(out, w)
			}
		}
		word = word[:0]
	}
	var prev rune
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if unicode.IsUpper(r) && unicode.IsLower(prev) {
				flush()
			}
			word = append(word, r)
		default:
			flush()
		}
		prev = r
	}
	flush()
	return out
}

// stem strips the commonest English suffixes, enough for "files" to match
// "file" and "reading" to match "read".
func stem(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 4 && strings.HasSuffix(w, "sses"):
		return w[:len(w)-2]
	case len(w) > 5 && strings.HasSuffix(w, "ing"):
		return w[:len(w)-3]
	case len(w) > 4 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed"):
		return w[:len(w)-2]
	case len(w) > 4 && (strings.HasSuffix(w, "xes") || strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes")):
		return w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us"):
		return w[:len(w)-1]
	}
	return w
}

func uniq(xs []string) []string {
	var out []string
	for _, x := range xs {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// describe renders an entry for the model, named for the provider of key,
// its parameters read from the schema normalised for rich.
func describe(e Entry, key, rich string, d Descriptor) Descriptor {
	d.Name = e.Names[key]
	d.Server = e.ServerName
	d.Description = clip(strings.TrimSpace(cmp.Or(e.Description, e.Title)), maxDescLen)
	var params []string
	var docs []string
	v, _ := decodeJSON(e.Schema(rich)) // the richest normalised form, $refs resolved
	root, _ := v.(*object)
	pv, _ := root.get("properties")
	props, _ := pv.(*object)
	required := map[string]bool{}
	if root != nil {
		required = stringSet(root, "required")
	}
	if props != nil {
		for _, name := range props.keys {
			ps, _ := props.vals[name].(*object)
			typ := typeString(ps)
			opt := "?"
			if required[name] {
				opt = ""
			}
			params = append(params, name+opt+": "+typ)
			line := "- " + name + " (" + typ
			if required[name] {
				line += ", required"
			}
			line += ")"
			if desc, ok := ps.str("description"); ok && strings.TrimSpace(desc) != "" {
				line += ": " + clip(strings.TrimSpace(desc), maxParamDescLen)
			}
			if def, ok := ps.get("default"); ok {
				line += " Default: " + clip(string(encodeJSON(def)), 80) + "."
			}
			docs = append(docs, line)
		}
	}
	d.Signature = d.Name + "(" + strings.Join(params, ", ") + ")"
	d.Parameters = strings.Join(docs, "\n")
	if len(e.OutputSchema) > 0 && len(e.OutputSchema) <= maxOutputSchemaLen {
		d.OutputSchema = e.OutputSchema
	}
	return d
}

// typeString renders a normalised schema's type like TypeScript:
// string, number[], "a" | "b", object, any.
func typeString(s *object) string {
	if s == nil {
		return "any"
	}
	if ev, ok := s.get("enum"); ok {
		if arr, ok := ev.([]any); ok && len(arr) > 0 {
			var alts []string
			for i, x := range arr {
				if i == 6 {
					alts = append(alts, "…")
					break
				}
				alts = append(alts, clip(string(encodeJSON(x)), 40))
			}
			return strings.Join(alts, " | ")
		}
	}
	var types []string
	switch t := s.vals["type"].(type) {
	case string:
		types = []string{t}
	case []any:
		for _, x := range t {
			if str, ok := x.(string); ok {
				types = append(types, str)
			}
		}
	}
	if len(types) == 0 {
		for _, k := range []string{"anyOf", "oneOf"} {
			if arr, ok := s.vals[k].([]any); ok {
				var alts []string
				for _, b := range arr {
					bo, _ := b.(*object)
					alts = append(alts, typeString(bo))
				}
				return strings.Join(uniq(alts), " | ")
			}
		}
		return "any"
	}
	for i, t := range types {
		if t == "array" {
			item, _ := s.vals["items"].(*object)
			it := typeString(item)
			if strings.Contains(it, " | ") {
				it = "(" + it + ")"
			}
			types[i] = it + "[]"
		}
	}
	return strings.Join(types, " | ")
}

// clip shortens s to about n bytes on a character boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return cutUTF8(s, n) + "…"
}
