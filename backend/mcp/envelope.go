package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"maestro/backend/chat"
)

// DefaultResultCap is how much of a tool result's data is sent to the model
// when the caller gives no cap.
const DefaultResultCap = 32 << 10

// ArgumentsError lists what is wrong with a tool call's arguments, worded
// for the model to fix its next call. It is chat.ErrInvalid.
type ArgumentsError struct {
	Problems []string
}

func (e *ArgumentsError) Error() string {
	return "invalid arguments: " + strings.Join(e.Problems, "; ")
}

// Unwrap classifies the error as chat.ErrInvalid.
func (e *ArgumentsError) Unwrap() error { return chat.ErrInvalid }

// ValidateArguments checks a tool call's arguments against the tool's input
// schema before anything is sent to the server: the arguments must be a
// JSON object (empty input counts as {}), every required property must be
// there, top-level properties must have their declared type (and enum
// value), and when the schema closes the object (additionalProperties:
// false) no other property may appear. Nested values are left to the
// server. A schema that cannot be read is not enforced.
func ValidateArguments(schema json.RawMessage, args json.RawMessage) error {
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage("{}")
	}
	av, err := decodeJSON(args)
	if err != nil {
		return &ArgumentsError{Problems: []string{fmt.Sprintf("the arguments are not valid JSON (%v); send one JSON object", err)}}
	}
	ao, ok := av.(*object)
	if !ok {
		return &ArgumentsError{Problems: []string{fmt.Sprintf("the arguments must be a JSON object, got %s", article(jsonKind(av)))}}
	}
	so := decodedSchema(schema)
	if so == nil {
		return nil
	}
	n := &normalizer{root: so}
	so = n.derefShallow(so)
	var props *object
	if pv, ok := so.get("properties"); ok {
		props, _ = pv.(*object)
	}

	var problems []string
	if rv, ok := so.get("required"); ok {
		arr, _ := rv.([]any)
		for _, x := range arr {
			name, ok := x.(string)
			if !ok || ao.has(name) {
				continue
			}
			msg := fmt.Sprintf("missing required property %q", name)
			if ps, ok := props.get(name); ok {
				if t := typeList(n, ps); len(t) > 0 {
					msg += " (" + strings.Join(t, " or ") + ")"
				}
			}
			problems = append(problems, msg)
		}
	}
	closed := false
	if ap, ok := so.get("additionalProperties"); ok && ap == false {
		closed = true
	}
	for _, name := range ao.keys {
		val := ao.vals[name]
		ps, ok := props.get(name)
		if !ok {
			if closed {
				problems = append(problems, fmt.Sprintf("unknown property %q (allowed: %s)", name, strings.Join(props.keysOrNone(), ", ")))
			}
			continue
		}
		if p := checkValue(n, name, ps, val); p != "" {
			problems = append(problems, p)
		}
	}
	if len(problems) > 0 {
		return &ArgumentsError{Problems: problems}
	}
	return nil
}

// schemaCache keeps decoded input schemas, by their bytes: every call of
// a tool validates against the same schema, and decoding it is most of the
// cost. Decoded schemas are never modified. The cache is dropped whole
// when it grows past maxCachedSchemas.
var schemaCache struct {
	sync.Mutex
	m map[string]*object
}

const maxCachedSchemas = 4096

// decodedSchema returns schema as an object, or nil when it is not one.
func decodedSchema(schema json.RawMessage) *object {
	schemaCache.Lock()
	so, ok := schemaCache.m[string(schema)]
	schemaCache.Unlock()
	if ok {
		return so
	}
	if sv, err := decodeJSON(schema); err == nil {
		so, _ = sv.(*object)
	}
	schemaCache.Lock()
	if schemaCache.m == nil || len(schemaCache.m) >= maxCachedSchemas {
		schemaCache.m = map[string]*object{}
	}
	schemaCache.m[string(schema)] = so
	schemaCache.Unlock()
	return so
}

func (o *object) keysOrNone() []string {
	if o == nil || o.len() == 0 {
		return []string{"none"}
	}
	return o.keys
}

// typeList returns the known JSON types a property schema allows, or nil
// when it cannot tell (no type, unknown types, unresolvable $ref).
func typeList(n *normalizer, ps any) []string {
	po, ok := ps.(*object)
	if !ok {
		return nil
	}
	po = n.derefShallow(po)
	var raw []any
	switch t := po.vals["type"].(type) {
	case string:
		raw = []any{t}
	case []any:
		raw = t
	}
	if raw == nil {
		// anyOf/oneOf of typed branches.
		for _, k := range []string{"anyOf", "oneOf"} {
			arr, ok := po.vals[k].([]any)
			if !ok {
				continue
			}
			var out []string
			for _, b := range arr {
				bt := typeList(n, b)
				if bt == nil {
					return nil
				}
				for _, t := range bt {
					if !slices.Contains(out, t) {
						out = append(out, t)
					}
				}
			}
			return out
		}
		return nil
	}
	var out []string
	for _, x := range raw {
		s, _ := x.(string)
		s = strings.ToLower(s)
		if a, ok := typeAliases[s]; ok {
			s = a
		}
		if !knownTypes[s] {
			return nil
		}
		out = append(out, s)
	}
	return out
}

// checkValue checks one top-level argument and returns a problem or "".
func checkValue(n *normalizer, name string, ps, val any) string {
	types := typeList(n, ps)
	if len(types) > 0 && !slices.ContainsFunc(types, func(t string) bool { return hasType(val, t) }) {
		msg := fmt.Sprintf("property %q must be %s, got %s", name, alternatives(types), article(jsonKind(val)))
		if val == nil {
			msg += " (leave it out instead)"
		}
		return msg
	}
	po, ok := ps.(*object)
	if !ok {
		return ""
	}
	po = n.derefShallow(po)
	enum, ok := po.vals["enum"].([]any)
	if !ok || len(enum) == 0 {
		return ""
	}
	got := plain(val)
	for _, e := range enum {
		if reflect.DeepEqual(plain(e), got) {
			return ""
		}
	}
	opts := make([]string, len(enum))
	for i, e := range enum {
		opts[i] = string(encodeJSON(e))
	}
	return fmt.Sprintf("property %q must be one of %s, got %s", name, strings.Join(opts, ", "), encodeJSON(val))
}

// plain converts a decoded value to encoding/json's generic form, so equal
// numbers written differently (1 and 1.0) compare equal.
func plain(v any) any {
	var out any
	_ = json.Unmarshal(encodeJSON(v), &out)
	return out
}

func hasType(v any, t string) bool {
	switch t {
	case "null":
		return v == nil
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "number":
		_, ok := v.(json.Number)
		return ok
	case "integer":
		n, ok := v.(json.Number)
		return ok && isInteger(n)
	case "array":
		_, ok := v.([]any)
		return ok
	case "object":
		_, ok := v.(*object)
		return ok
	}
	return true
}

func article(kind string) string {
	switch kind {
	case "null":
		return "null"
	case "array", "integer", "object":
		return "an " + kind
	default:
		return "a " + kind
	}
}

func alternatives(types []string) string {
	parts := make([]string, len(types))
	for i, t := range types {
		parts[i] = article(t)
	}
	return strings.Join(parts, " or ")
}

// Normalize turns an MCP tools/call result into Maestro's envelope
// {successful, data, error}:
//   - successful is !IsError;
//   - data is structuredContent when present; else the text content when it
//     parses as a JSON object; else {"text": all text parts joined by
//     newlines}; {} when the result has no text at all;
//   - on IsError, error is the text (data is kept only from
//     structuredContent);
//   - images, audio and resources become Attachments (never base64 text in
//     data);
//   - Raw is the whole result as JSON, for the UI;
//   - data longer than capBytes (DefaultResultCap when capBytes <= 0) is cut
//     to about capBytes: {"text": "<the first bytes>", "note": "truncated:
//     …"}, with Truncated set. The error text is capped the same way.
//
// CallID, Name and DurationMS are left for the caller.
func Normalize(res *mcpgo.CallToolResult, capBytes int) chat.ToolResult {
	if capBytes <= 0 {
		capBytes = DefaultResultCap
	}
	if res == nil {
		return chat.ToolResult{Error: "the tool returned no result"}
	}
	out := chat.ToolResult{Successful: !res.IsError}
	if raw, err := json.Marshal(res); err == nil {
		out.Raw = raw
	}

	var texts []string
	for _, c := range res.Content {
		if t, ok := textOf(c); ok {
			texts = append(texts, t)
			continue
		}
		if a, ok := attachmentOf(c); ok {
			out.Attachments = append(out.Attachments, a)
		}
	}
	text := strings.Join(texts, "\n")

	var data []byte
	switch {
	case len(res.RawStructuredContent) > 0:
		data = compactJSON(res.RawStructuredContent)
	case res.StructuredContent != nil:
		data, _ = json.Marshal(res.StructuredContent)
	}

	if res.IsError {
		msg := strings.TrimSpace(text)
		if msg == "" {
			msg = "the tool reported an error without a message"
		}
		if len(msg) > capBytes {
			msg = cutUTF8(msg, capBytes) + "\n[" + truncationNote(len(msg), capBytes) + "]"
			out.Truncated = true
		}
		out.Error = msg
	} else if data == nil {
		trimmed := strings.TrimSpace(text)
		switch {
		case strings.HasPrefix(trimmed, "{") && json.Valid([]byte(trimmed)):
			data = compactJSON([]byte(trimmed))
		case len(texts) == 0:
			data = []byte("{}")
		default:
			data, _ = json.Marshal(map[string]string{"text": text})
			if len(data) > capBytes {
				out.Data, out.Truncated = truncateText(text, len(text), capBytes), true
				return out
			}
		}
	}
	if len(data) > capBytes {
		out.Data, out.Truncated = truncateText(string(data), len(data), capBytes), true
		return out
	}
	if data != nil {
		out.Data = data
	}
	return out
}

func compactJSON(b []byte) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		s, _ := json.Marshal(map[string]string{"text": string(b)})
		return s
	}
	return buf.Bytes()
}

// truncateText builds {"text": <a prefix of s>, "note": …} of at most
// capBytes bytes (the longest prefix that fits once escaped); total is the
// size of the result before truncation.
func truncateText(s string, total, capBytes int) json.RawMessage {
	note := truncationNote(total, capBytes)
	encode := func(n int) []byte {
		b, _ := json.Marshal(struct {
			Text string `json:"text"`
			Note string `json:"note"`
		}{cutUTF8(s, n), note})
		return b
	}
	lo, hi := 0, min(len(s), capBytes) // encode(lo) fits, or nothing does
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if len(encode(mid)) <= capBytes {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return encode(lo)
}

func truncationNote(total, capBytes int) string {
	return fmt.Sprintf("truncated: the result was %s; showing the first %s", humanSize(total), humanSize(capBytes))
}

// cutUTF8 returns at most n bytes of s, never splitting a character.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func humanSize(n int) string {
	switch {
	case n >= 10<<20:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 10<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%d bytes", n)
	}
}

func textOf(c mcpgo.Content) (string, bool) {
	switch t := c.(type) {
	case mcpgo.TextContent:
		return t.Text, true
	case *mcpgo.TextContent:
		return t.Text, t != nil
	}
	return "", false
}

func attachmentOf(c mcpgo.Content) (chat.Attachment, bool) {
	switch t := c.(type) {
	case mcpgo.ImageContent:
		return chat.Attachment{Type: "image", MIMEType: t.MIMEType, Data: t.Data}, true
	case *mcpgo.ImageContent:
		return attachmentOf(*t)
	case mcpgo.AudioContent:
		return chat.Attachment{Type: "audio", MIMEType: t.MIMEType, Data: t.Data}, true
	case *mcpgo.AudioContent:
		return attachmentOf(*t)
	case mcpgo.ResourceLink:
		return chat.Attachment{Type: "resource", URI: t.URI, MIMEType: t.MIMEType, Name: t.Name, Text: t.Description}, true
	case *mcpgo.ResourceLink:
		return attachmentOf(*t)
	case mcpgo.EmbeddedResource:
		switch r := t.Resource.(type) {
		case mcpgo.TextResourceContents:
			return chat.Attachment{Type: "resource", URI: r.URI, MIMEType: r.MIMEType, Text: r.Text}, true
		case *mcpgo.TextResourceContents:
			return chat.Attachment{Type: "resource", URI: r.URI, MIMEType: r.MIMEType, Text: r.Text}, true
		case mcpgo.BlobResourceContents:
			return chat.Attachment{Type: "resource", URI: r.URI, MIMEType: r.MIMEType, Data: r.Blob}, true
		case *mcpgo.BlobResourceContents:
			return chat.Attachment{Type: "resource", URI: r.URI, MIMEType: r.MIMEType, Data: r.Blob}, true
		}
	case *mcpgo.EmbeddedResource:
		return attachmentOf(*t)
	}
	return chat.Attachment{}, false
}

// ErrorResult is the envelope for a call that never reached a server: a
// denial, an unknown tool, a disabled connector, a missing sign-in.
func ErrorResult(callID, name, msg string) chat.ToolResult {
	return chat.ToolResult{CallID: callID, Name: name, Successful: false, Error: msg}
}

// UnauthorizedMessage is the error text for a tool whose connector needs a
// sign-in that has not happened.
func UnauthorizedMessage(connector string) string {
	return "unauthorized: sign in to " + connector
}
