package tools

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"unicode/utf8"

	"maestro/backend/chat"
)

// hashLen is the number of hex digits of sha256(canonical) appended to names
// that collide; it grows if a suffixed name still collides.
const hashLen = 6

// maxSlugLen bounds a server slug, so that server__tool keeps room for the
// tool part inside 63 characters.
const maxSlugLen = 24

// ServerSlug derives the server part of canonical names (server.tool) from a
// connector's display name: ASCII letters and digits lowercased, every other
// run of characters (spaces, punctuation, '-', '.', non-ASCII) one '_', no
// leading or trailing '_', at most 24 characters. "My Files ✓" → "my_files".
// A name with no ASCII letter or digit becomes "server".
func ServerSlug(displayName string) string {
	var b strings.Builder
	pendingSep := false
	for _, r := range displayName {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
		case r >= 'A' && r <= 'Z':
			r += 'a' - 'A'
		default:
			pendingSep = b.Len() > 0
			continue
		}
		if pendingSep {
			if b.Len()+1 >= maxSlugLen {
				break
			}
			b.WriteByte('_')
			pendingSep = false
		}
		if b.Len() >= maxSlugLen {
			break
		}
		b.WriteRune(r)
	}
	if b.Len() == 0 {
		return "server"
	}
	return strings.TrimRight(b.String(), "_")
}

// splitCanonical splits server.tool at the first '.': server slugs have no
// dots, tool names may.
func splitCanonical(canonical string) (server, tool string) {
	server, tool, ok := strings.Cut(canonical, ".")
	if !ok {
		return "", canonical
	}
	return server, tool
}

// Names are built from canonical names (server.tool) by each provider's
// chat.ToolRules: server__tool (docs/providers/README.md §Tool names), every
// character the rules do not allow replaced by '_', the middle of a name
// too long replaced by the rules' ellipsis, and a hash suffix for names
// that collide. The rules and their sources are in each adapter's
// dialect.go.

// baseName is canonical's exposed name for rule before collisions are
// resolved: server__tool, sanitised, shortened to fit.
func baseName(rule chat.ToolRules, canonical string) string {
	server, tool := splitCanonical(canonical)
	s := tool
	if server != "" {
		s = server + "__" + tool
	}
	return fit(rule, sanitize(rule, s), rule.MaxNameLen)
}

// sanitize replaces every character rule does not allow with '_' (one per
// character, not per byte) and, where the rule asks, makes the first
// character a letter or '_'.
func sanitize(rule chat.ToolRules, s string) string {
	b := make([]byte, 0, len(s)+1)
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b = append(b, byte(r))
		case r < utf8.RuneSelf && strings.ContainsRune(rule.NameExtra, r):
			b = append(b, byte(r))
		default:
			b = append(b, '_')
		}
	}
	if len(b) == 0 {
		b = append(b, '_')
	}
	if rule.NameLetterFirst && !(b[0] == '_' || b[0] >= 'a' && b[0] <= 'z' || b[0] >= 'A' && b[0] <= 'Z') {
		b = append([]byte{'_'}, b...)
	}
	return string(b)
}

// fit middle-ellipsises s (already sanitised, so ASCII) to at most max
// bytes: the start and the end are kept, the rule's ellipsis goes between.
func fit(rule chat.ToolRules, s string, max int) string {
	if len(s) <= max {
		return s
	}
	keep := max - len(rule.NameEllipsis)
	tail := keep / 2
	head := keep - tail
	return s[:head] + rule.NameEllipsis + s[len(s)-tail:]
}

// withHash appends "_" and n hex digits of sha256(canonical) to canonical's
// base name, shortening the base so the result still fits.
func withHash(rule chat.ToolRules, canonical string, n int) string {
	sum := sha256.Sum256([]byte(canonical))
	suffix := "_" + hex.EncodeToString(sum[:])[:n]
	server, tool := splitCanonical(canonical)
	s := tool
	if server != "" {
		s = server + "__" + tool
	}
	return fit(rule, sanitize(rule, s), rule.MaxNameLen-len(suffix)) + suffix
}

// ExposedNames assigns every canonical name its exposed name under rule,
// and returns them aligned with canonicals. The result depends only on the
// set of names, never on their order: names that collide after sanitising
// (or with a reserved name such as search_tools) all get a suffix from the
// hash of their canonical name, and the suffix grows until every name is
// unique. Duplicated canonical names get the same exposed name.
func ExposedNames(rule chat.ToolRules, canonicals []string) []string {
	out := make([]string, len(canonicals))
	level := make([]int, len(canonicals)) // 0: base name; n: n hex digits
	for i, c := range canonicals {
		out[i] = baseName(rule, c)
	}
	for range 8 { // 6, 12, … 54 hex digits; sha256 has 64
		owners := make(map[string]string, len(out)) // exposed → canonical
		clash := make(map[string]bool)
		for i, name := range out {
			if reserved(name) {
				clash[name] = true
				continue
			}
			if prev, ok := owners[name]; ok && prev != canonicals[i] {
				clash[name] = true
			}
			owners[name] = canonicals[i]
		}
		if len(clash) == 0 {
			return out
		}
		for i, name := range out {
			if clash[name] {
				level[i] += hashLen
				out[i] = withHash(rule, canonicals[i], level[i])
			}
		}
	}
	return out
}

// reserved names belong to Maestro's built-in tools.
func reserved(name string) bool { return name == SearchToolName }

// ExposedName is canonical's exposed name under rule when it is the only
// tool (no collisions to resolve).
func ExposedName(rule chat.ToolRules, canonical string) string {
	return ExposedNames(rule, []string{canonical})[0]
}

// ValidName reports whether name satisfies rule.
func ValidName(rule chat.ToolRules, name string) bool {
	if name == "" || len(name) > rule.MaxNameLen {
		return false
	}
	return sanitize(rule, name) == name
}

// assignSlugs gives each connector a unique server slug. Connectors whose
// display names slug to the same value are ordered by id (ids mint in time
// order, so the oldest connector keeps the bare slug and adding a connector
// never renames an existing one); the others get "_" and 4 hex digits of
// sha256(id).
func assignSlugs(names map[string]string) map[string]string {
	ids := make([]string, 0, len(names))
	for id := range names {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	out := make(map[string]string, len(ids))
	taken := make(map[string]bool, len(ids))
	for _, id := range ids {
		slug := ServerSlug(names[id])
		if taken[slug] {
			sum := sha256.Sum256([]byte(id))
			h := hex.EncodeToString(sum[:])
			base := slug
			if len(base) > maxSlugLen-5 {
				base = base[:maxSlugLen-5]
			}
			for n := 4; n <= len(h); n += 4 {
				slug = base + "_" + h[:n]
				if !taken[slug] {
					break
				}
			}
		}
		taken[slug] = true
		out[id] = slug
	}
	return out
}
