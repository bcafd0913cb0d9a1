package mcp

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"net/mail"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"maestro/backend/chat"
)

// Form is the flat schema of a form elicitation: an object whose
// properties are primitives. The protocol allows strings (with formats
// email, uri, date, date-time and length bounds), numbers and integers
// (with bounds), booleans, single-select enums (enum, or oneOf with const
// and title, or enum with the legacy enumNames) and multi-select enums
// (an array whose items are an enum or anyOf const).
//
// The transport decodes the schema into a Go map, so the server's property
// order is not known: required fields come first, then the rest, each
// group by name.
type Form struct {
	Title  string  `json:"title,omitempty"`
	Fields []Field `json:"fields"`
}

// Field kinds.
const (
	FieldString  = "string"
	FieldNumber  = "number"
	FieldInteger = "integer"
	FieldBoolean = "boolean"
	// FieldMulti is a multi-select enum: the value is a list of Options.
	FieldMulti = "multi"
)

// Field is one form field.
type Field struct {
	Name        string `json:"name"`
	Kind        string `json:"kind"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
	// Format is email, uri, date or date-time (strings only).
	Format    string   `json:"format,omitempty"`
	MinLength *int     `json:"minLength,omitempty"`
	MaxLength *int     `json:"maxLength,omitempty"`
	Minimum   *float64 `json:"minimum,omitempty"`
	Maximum   *float64 `json:"maximum,omitempty"`
	// Options are the allowed values of an enum (single or multi); Labels
	// are their titles, index for index ("" when none).
	Options  []string `json:"options,omitempty"`
	Labels   []string `json:"labels,omitempty"`
	MinItems *int     `json:"minItems,omitempty"`
	MaxItems *int     `json:"maxItems,omitempty"`
	// Default is the schema's default, already of the field's type.
	Default any `json:"default,omitempty"`
}

// ParseForm reads a requested schema. It is lenient about what it does not
// need (titles, descriptions, unknown keywords) and strict about what a
// form cannot show: a nested object, or a property without a usable type.
func ParseForm(schema any) (*Form, error) {
	b, err := json.Marshal(schema)
	if err != nil {
		return nil, chat.E(chat.ErrInvalid, "elicitation schema: %v", err)
	}
	var s struct {
		Type       string                     `json:"type"`
		Title      string                     `json:"title"`
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, chat.E(chat.ErrInvalid, "elicitation schema: %v", err)
	}
	if s.Type != "" && s.Type != "object" {
		return nil, chat.E(chat.ErrInvalid, "elicitation schema: type %q, want object", s.Type)
	}
	f := &Form{Title: s.Title}
	for name, raw := range s.Properties {
		field, err := parseField(name, raw)
		if err != nil {
			return nil, err
		}
		field.Required = slices.Contains(s.Required, name)
		f.Fields = append(f.Fields, field)
	}
	slices.SortFunc(f.Fields, func(a, b Field) int {
		if a.Required != b.Required {
			if a.Required {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.Name, b.Name)
	})
	return f, nil
}

type rawProp struct {
	Type        string          `json:"type"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Format      string          `json:"format"`
	MinLength   *int            `json:"minLength"`
	MaxLength   *int            `json:"maxLength"`
	Minimum     *float64        `json:"minimum"`
	Maximum     *float64        `json:"maximum"`
	Enum        []any           `json:"enum"`
	EnumNames   []string        `json:"enumNames"`
	OneOf       []constOption   `json:"oneOf"`
	AnyOf       []constOption   `json:"anyOf"`
	Items       *rawProp        `json:"items"`
	MinItems    *int            `json:"minItems"`
	MaxItems    *int            `json:"maxItems"`
	Default     json.RawMessage `json:"default"`
}

type constOption struct {
	Const any    `json:"const"`
	Title string `json:"title"`
}

func parseField(name string, raw json.RawMessage) (Field, error) {
	var p rawProp
	if err := json.Unmarshal(raw, &p); err != nil {
		return Field{}, chat.E(chat.ErrInvalid, "elicitation schema: field %q: %v", name, err)
	}
	f := Field{Name: name, Title: p.Title, Description: p.Description}
	switch p.Type {
	case "string", "":
		f.Kind = FieldString
		f.Format, f.MinLength, f.MaxLength = p.Format, p.MinLength, p.MaxLength
		f.Options, f.Labels = options(p.Enum, p.EnumNames, p.OneOf)
		if p.Type == "" && len(f.Options) == 0 {
			return Field{}, chat.E(chat.ErrInvalid, "elicitation schema: field %q has no type", name)
		}
		switch f.Format {
		case "", "email", "uri", "date", "date-time":
		default:
			f.Format = "" // an unknown format is only a hint
		}
	case "number", "integer":
		f.Kind = p.Type
		f.Minimum, f.Maximum = p.Minimum, p.Maximum
	case "boolean":
		f.Kind = FieldBoolean
	case "array":
		f.Kind = FieldMulti
		if p.Items != nil {
			f.Options, f.Labels = options(p.Items.Enum, p.Items.EnumNames, p.Items.AnyOf)
			if len(f.Options) == 0 {
				f.Options, f.Labels = options(nil, nil, p.Items.OneOf)
			}
		}
		if len(f.Options) == 0 {
			return Field{}, chat.E(chat.ErrInvalid, "elicitation schema: field %q is an array without enum items", name)
		}
		f.MinItems, f.MaxItems = p.MinItems, p.MaxItems
	default:
		return Field{}, chat.E(chat.ErrInvalid, "elicitation schema: field %q has type %q, which a form cannot show", name, p.Type)
	}
	if len(p.Default) > 0 && string(p.Default) != "null" {
		var d any
		if err := json.Unmarshal(p.Default, &d); err == nil && f.check(d) == "" {
			f.Default = normalizeValue(f, d)
		}
	}
	return f, nil
}

// options reads an enum's values and labels from enum (+ enumNames) or a
// oneOf/anyOf list of {const, title}.
func options(enum []any, names []string, consts []constOption) (vals, labels []string) {
	for i, e := range enum {
		s, ok := e.(string)
		if !ok {
			continue
		}
		vals = append(vals, s)
		label := ""
		if i < len(names) {
			label = names[i]
		}
		labels = append(labels, label)
	}
	for _, c := range consts {
		if s, ok := c.Const.(string); ok {
			vals = append(vals, s)
			labels = append(labels, c.Title)
		}
	}
	if len(vals) == 0 {
		return nil, nil
	}
	if !slices.ContainsFunc(labels, func(l string) bool { return l != "" }) {
		labels = nil
	}
	return vals, labels
}

// WithDefaults returns content with every missing field that has a default
// filled in (content itself is not modified). mcp-go does not do this; the
// protocol asks clients to.
func (f *Form) WithDefaults(content map[string]any) map[string]any {
	out := make(map[string]any, len(f.Fields))
	for k, v := range content {
		out[k] = v
	}
	for _, field := range f.Fields {
		if _, ok := out[field.Name]; !ok && field.Default != nil {
			out[field.Name] = field.Default
		}
	}
	return out
}

// Validate checks an answer (defaults already applied) and returns it
// normalised: integers as int64, numbers as float64, lists as []string.
// The error lists every problem, worded for the user.
func (f *Form) Validate(content map[string]any) (map[string]any, error) {
	var problems []string
	out := make(map[string]any, len(content))
	known := map[string]bool{}
	for _, field := range f.Fields {
		known[field.Name] = true
		v, ok := content[field.Name]
		if !ok || v == nil {
			if field.Required {
				problems = append(problems, fmt.Sprintf("%s is required", field.label()))
			}
			continue
		}
		if msg := field.check(v); msg != "" {
			problems = append(problems, field.label()+" "+msg)
			continue
		}
		out[field.Name] = normalizeValue(field, v)
	}
	var extra []string
	for k := range content {
		if !known[k] {
			extra = append(extra, k)
		}
	}
	slices.Sort(extra)
	for _, k := range extra {
		problems = append(problems, fmt.Sprintf("%q is not a field of this form", k))
	}
	if len(problems) > 0 {
		return nil, chat.E(chat.ErrInvalid, "%s", strings.Join(problems, "; "))
	}
	return out, nil
}

func (f Field) label() string { return cmp.Or(f.Title, f.Name) }

// check returns what is wrong with v, or "".
func (f Field) check(v any) string {
	switch f.Kind {
	case FieldString:
		return f.checkString(v)
	case FieldNumber, FieldInteger:
		return f.checkNumber(v)
	case FieldBoolean:
		if _, ok := v.(bool); !ok {
			return "must be true or false"
		}
		return ""
	case FieldMulti:
		return f.checkMulti(v)
	}
	return "has an unknown kind"
}

func (f Field) checkString(v any) string {
	s, ok := v.(string)
	if !ok {
		return "must be text"
	}
	if len(f.Options) > 0 {
		if !slices.Contains(f.Options, s) {
			return "must be one of " + strings.Join(quoteAll(f.Options), ", ")
		}
		return ""
	}
	n := utf8.RuneCountInString(s)
	if f.MinLength != nil && n < *f.MinLength {
		return fmt.Sprintf("must be at least %d characters", *f.MinLength)
	}
	if f.MaxLength != nil && n > *f.MaxLength {
		return fmt.Sprintf("must be at most %d characters", *f.MaxLength)
	}
	return checkFormat(f.Format, s)
}

func (f Field) checkNumber(v any) string {
	x, ok := number(v)
	if !ok {
		return "must be a number"
	}
	if f.Kind == FieldInteger && x != math.Trunc(x) {
		return "must be a whole number"
	}
	if f.Minimum != nil && x < *f.Minimum {
		return fmt.Sprintf("must be at least %v", *f.Minimum)
	}
	if f.Maximum != nil && x > *f.Maximum {
		return fmt.Sprintf("must be at most %v", *f.Maximum)
	}
	return ""
}

func (f Field) checkMulti(v any) string {
	list, ok := stringList(v)
	if !ok {
		return "must be a list of choices"
	}
	for _, s := range list {
		if !slices.Contains(f.Options, s) {
			return fmt.Sprintf("has %q, which is not one of %s", s, strings.Join(quoteAll(f.Options), ", "))
		}
	}
	if f.MinItems != nil && len(list) < *f.MinItems {
		return fmt.Sprintf("needs at least %d choices", *f.MinItems)
	}
	if f.MaxItems != nil && len(list) > *f.MaxItems {
		return fmt.Sprintf("allows at most %d choices", *f.MaxItems)
	}
	return ""
}

func checkFormat(format, s string) string {
	switch format {
	case "email":
		a, err := mail.ParseAddress(s)
		if err != nil || a.Address != s {
			return "must be an email address"
		}
	case "uri":
		u, err := url.Parse(s)
		if err != nil || u.Scheme == "" || (u.Host == "" && u.Opaque == "") {
			return "must be a URL"
		}
	case "date":
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			return "must be a date (YYYY-MM-DD)"
		}
	case "date-time":
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			return "must be a date and time (RFC 3339)"
		}
	}
	return ""
}

func normalizeValue(f Field, v any) any {
	switch f.Kind {
	case FieldInteger:
		x, _ := number(v)
		return int64(x)
	case FieldNumber:
		x, _ := number(v)
		return x
	case FieldMulti:
		list, _ := stringList(v)
		return list
	}
	return v
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

func stringList(v any) ([]string, bool) {
	switch x := v.(type) {
	case []string:
		return x, true
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	return nil, false
}

func quoteAll(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = fmt.Sprintf("%q", x)
	}
	return out
}
