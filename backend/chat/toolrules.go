package chat

// ToolRules are what one provider accepts in the tools a request declares:
// how a tool may be named, how many tools one request may carry and which
// dialect of JSON Schema its input schemas must be in. Each adapter
// declares its own (ToolRules in its dialect.go, with the sources of every
// number); the catalog hands them to backend/tools, which names, counts and
// normalises tools by them and never asks which provider it serves.
type ToolRules struct {
	// Provider is the provider the rules are for.
	Provider string
	// MaxTools is the most tools one request declares. A session with
	// more declares search_tools and a chosen few (backend/tools).
	MaxTools int
	// MaxNameLen is the longest tool name, in bytes (names are ASCII).
	MaxNameLen int
	// NameExtra lists the characters a name may contain besides the ASCII
	// letters and digits, '_' and '-' that every provider takes (all ASCII).
	NameExtra string
	// NameLetterFirst requires a name to start with a letter or '_'.
	NameLetterFirst bool
	// NameEllipsis replaces the middle of a name that is too long; it must
	// itself be a valid part of a name.
	NameEllipsis string
	// Schema is the dialect input schemas are rewritten into.
	Schema SchemaDialect
}

// SchemaDialect names a subset of JSON Schema a provider accepts for tool
// input schemas. backend/tools documents what each keeps and drops.
type SchemaDialect string

const (
	// SchemaJSON is JSON Schema draft 2020-12 with an object root and no
	// combinator at the root.
	SchemaJSON SchemaDialect = "json-schema"
	// SchemaJSONArrayItems is SchemaJSON in which every array schema has
	// "items".
	SchemaJSONArrayItems SchemaDialect = "json-schema-array-items"
	// SchemaOpenAPI is the subset an OpenAPI 3.0 Schema object can hold:
	// one type per schema, nullable instead of "null", anyOf only, a few
	// formats, no $ref.
	SchemaOpenAPI SchemaDialect = "openapi-3.0"
)
