package store

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	bolt "go.etcd.io/bbolt"

	"maestro/backend/chat"
)

// SearchHit is one session that matches a search: its title matched, or a
// message did (Seq is that message; 0 for a title-only match).
type SearchHit struct {
	SessionID  string
	Title      string
	Snippet    string
	Seq        uint64
	UpdatedAt  time.Time
	TitleMatch bool
}

// snippetContext is how many characters of context a snippet keeps around
// the match, split either side.
const snippetContext = 80

// searchMessage is the part of a stored message that search reads; it skips
// decoding tool results and provider data. A resource's text is decoded
// but not searched: a resource is found by its name, title and URI, a file
// by its name.
type searchMessage struct {
	Seq    uint64 `json:"seq"`
	Status string `json:"status"`
	Parts  []struct {
		Type  string `json:"type"`
		Text  string `json:"text"`
		Name  string `json:"name"`
		Title string `json:"title"`
		URI   string `json:"uri"`
		Call  struct {
			Name string `json:"name"`
		} `json:"call"`
	} `json:"parts"`
}

// Search finds sessions whose title or message text (text parts, tool call
// names, attached files' names, attached resources' names and URIs)
// contains query, case-insensitively. It returns at most limit hits,
// one per session: title matches first, then the most recently updated. A
// message hit is the session's latest matching message. Everything is read
// in one transaction.
func (s *Store) Search(ctx context.Context, query string, limit int) ([]SearchHit, error) {
	q := strings.ToLower(strings.TrimSpace(query))
	if q == "" || limit <= 0 {
		return []SearchHit{}, nil
	}
	m := newMatcher(q)
	var hits []SearchHit
	err := s.view(ctx, func(tx *bolt.Tx) error {
		sessions, err := mustBucket(tx, bucketSessions)
		if err != nil {
			return err
		}
		all, err := mustBucket(tx, bucketMessages)
		if err != nil {
			return err
		}
		return eachJSON(sessions, func(_ []byte, sess chat.Session) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			hit, ok, err := m.session(sess, all.Bucket([]byte(sess.ID)))
			if ok {
				hits = append(hits, hit)
			}
			return err
		})
	})
	if err != nil {
		return nil, fmt.Errorf("store: search: %w", err)
	}
	sortHits(hits)
	if len(hits) > limit {
		hits = hits[:limit]
	}
	if hits == nil {
		hits = []SearchHit{}
	}
	return hits, nil
}

// matcher looks for one lower-cased query in sessions.
type matcher struct {
	q  string
	qb []byte
	// prefilter: the query has no character JSON escapes, so it can be
	// looked for in the raw record first, which skips decoding messages
	// that cannot match.
	prefilter bool
}

func newMatcher(q string) matcher {
	escaped := strings.ContainsAny(q, "<>&\"\\") ||
		strings.IndexFunc(q, func(r rune) bool { return r < 0x20 || r == 0x2028 || r == 0x2029 }) >= 0
	return matcher{q: q, qb: []byte(q), prefilter: !escaped}
}

// session returns sess's hit and whether it matched: by its title, or by
// its latest matching message in msgs (which may be nil).
func (m matcher) session(sess chat.Session, msgs *bolt.Bucket) (SearchHit, bool, error) {
	hit := SearchHit{SessionID: sess.ID, Title: sess.Title, UpdatedAt: sess.UpdatedAt,
		TitleMatch: strings.Contains(strings.ToLower(sess.Title), m.q)}
	found, err := m.latestMessage(sess.ID, msgs, &hit)
	if err != nil || !found && !hit.TitleMatch {
		return SearchHit{}, false, err
	}
	if !found {
		hit.Snippet = sess.Title
	}
	return hit, true, nil
}

// latestMessage walks msgs from the newest and records the first message
// that matches in hit.
func (m matcher) latestMessage(sessionID string, msgs *bolt.Bucket, hit *SearchHit) (bool, error) {
	if msgs == nil {
		return false, nil
	}
	c := msgs.Cursor()
	for k, raw := c.Last(); k != nil; k, raw = c.Prev() {
		if raw == nil || m.prefilter && !bytes.Contains(bytes.ToLower(raw), m.qb) {
			continue
		}
		var msg searchMessage
		if err := json.Unmarshal(raw, &msg); err != nil {
			return false, fmt.Errorf("decode message %q of session %s: %w", k, sessionID, err)
		}
		if msg.Status == "superseded" {
			continue
		}
		if snip, ok := m.message(msg); ok {
			hit.Snippet, hit.Seq = snip, msg.Seq
			return true, nil
		}
	}
	return false, nil
}

// message returns the snippet of the first part of msg that matches: its
// text, a tool call's name, a file's name, or a resource's name and URI.
func (m matcher) message(msg searchMessage) (string, bool) {
	for _, p := range msg.Parts {
		var text string
		switch p.Type {
		case "text":
			text = p.Text
		case "tool_call":
			text = p.Call.Name
		case "file":
			text = p.Name
		case "resource":
			text = strings.Join(strings.Fields(p.Title+" "+p.Name+" "+p.URI), " ")
		default:
			continue
		}
		if snip, ok := Snippet(text, m.q); ok {
			return snip, true
		}
	}
	return "", false
}

// sortHits puts title matches first, then the most recently updated.
func sortHits(hits []SearchHit) {
	slices.SortStableFunc(hits, func(a, b SearchHit) int {
		if a.TitleMatch != b.TitleMatch {
			if a.TitleMatch {
				return -1
			}
			return 1
		}
		if c := b.UpdatedAt.Compare(a.UpdatedAt); c != 0 {
			return c
		}
		return cmp.Compare(b.SessionID, a.SessionID)
	})
}

// Snippet finds lowerQuery (already lower-cased) in text case-insensitively
// and returns the match with about snippetContext characters of context,
// whitespace collapsed and "…" marking cuts.
func Snippet(text, lowerQuery string) (string, bool) {
	if !strings.Contains(strings.ToLower(text), lowerQuery) {
		return "", false
	}
	runes := []rune(text)
	lower := make([]rune, len(runes))
	for i, r := range runes {
		lower[i] = unicode.ToLower(r)
	}
	qr := []rune(lowerQuery)
	at := runeIndex(lower, qr)
	if at < 0 {
		return "", false
	}
	start := max(0, at-snippetContext/2)
	end := min(len(runes), at+len(qr)+snippetContext/2)
	snip := strings.Join(strings.Fields(string(runes[start:end])), " ")
	if start > 0 {
		snip = "…" + snip
	}
	if end < len(runes) {
		snip += "…"
	}
	return snip, true
}

func runeIndex(s, sub []rune) int {
	if len(sub) == 0 {
		return 0
	}
outer:
	for i := 0; i+len(sub) <= len(s); i++ {
		for j := range sub {
			if s[i+j] != sub[j] {
				continue outer
			}
		}
		return i
	}
	return -1
}
