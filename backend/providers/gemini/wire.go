package gemini

import "encoding/json"

// Request side. Field names follow what gemini-cli sends (camelCase inside
// the request, snake_case for the Code Assist envelope fields and session_id).
//
// Field order is the order on the wire, and it is chosen for implicit
// caching (docs/providers/gemini.md §Caching): everything that stays the
// same for the steps of one turn comes first, the contents (which only grow)
// come last, so a request's body starts with the previous step's body minus
// its closing brackets.

// envelope is the Code Assist request body (docs/providers/gemini.md
// §Endpoints & headers).
type envelope struct {
	Model        string           `json:"model"`
	Project      string           `json:"project,omitempty"`
	UserPromptID string           `json:"user_prompt_id,omitempty"`
	Request      *generateRequest `json:"request"`
}

// generateRequest is the GenerateContentRequest; it is the whole body in
// API-key mode, where SessionID must be empty (the public API rejects
// unknown fields).
type generateRequest struct {
	SystemInstruction *content          `json:"systemInstruction,omitempty"`
	Tools             []tool            `json:"tools,omitempty"`
	GenerationConfig  *generationConfig `json:"generationConfig,omitempty"`
	SessionID         string            `json:"session_id,omitempty"`
	Contents          []content         `json:"contents"`
}

type content struct {
	Role  string `json:"role"`
	Parts []part `json:"parts"`
}

// part is one Part. Text is a pointer because an empty text part that
// carries a thought signature must be replayed as "text":"".
type part struct {
	Text             *string           `json:"text,omitempty"`
	Thought          bool              `json:"thought,omitempty"`
	InlineData       *blob             `json:"inlineData,omitempty"`
	FileData         *fileData         `json:"fileData,omitempty"`
	FunctionCall     *functionCall     `json:"functionCall,omitempty"`
	FunctionResponse *functionResponse `json:"functionResponse,omitempty"`
	ThoughtSignature string            `json:"thoughtSignature,omitempty"`
}

type blob struct {
	MIMEType string `json:"mimeType"`
	Data     string `json:"data"`
}

type fileData struct {
	MIMEType string `json:"mimeType,omitempty"`
	FileURI  string `json:"fileUri"`
}

type functionCall struct {
	ID   string          `json:"id,omitempty"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// functionResponse is one tool result. Parts carries images for models that
// take multimodal function responses (Gemini 3).
type functionResponse struct {
	ID       string         `json:"id,omitempty"`
	Name     string         `json:"name"`
	Response responseObject `json:"response"`
	Parts    []responsePart `json:"parts,omitempty"`
}

// responsePart is a FunctionResponsePart: inline data only.
type responsePart struct {
	InlineData *blob `json:"inlineData"`
}

// responseObject is FunctionResponse.response. Google documents "output" for
// a function's output and "error" for its failure; gemini-cli uses the same
// keys. Exactly one is set, holding the envelope as JSON text.
type responseObject struct {
	Output string `json:"output,omitempty"`
	Error  string `json:"error,omitempty"`
}

// tool is one Tool entry. Declarations go under "functionDeclarations"
// only, as gemini-cli sends them; the snake_case spelling beside it is
// either rejected or read as every declaration twice
// (docs/providers/gemini.md §Request rules).
type tool struct {
	FunctionDeclarations []functionDeclaration `json:"functionDeclarations,omitempty"`
}

type functionDeclaration struct {
	Name                 string          `json:"name"`
	Description          string          `json:"description,omitempty"`
	ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema,omitempty"`
}

type generationConfig struct {
	Temperature     *float64        `json:"temperature,omitempty"`
	MaxOutputTokens int             `json:"maxOutputTokens,omitempty"`
	ThinkingConfig  *thinkingConfig `json:"thinkingConfig,omitempty"`
}

// thinkingConfig sets either a budget (Gemini 2.5) or a level (Gemini 3),
// never both: the service rejects the pair.
type thinkingConfig struct {
	ThinkingBudget  *int   `json:"thinkingBudget,omitempty"`
	ThinkingLevel   string `json:"thinkingLevel,omitempty"`
	IncludeThoughts bool   `json:"includeThoughts"`
}

// Response side.

// streamPayload is one SSE data payload in either dialect: the Code Assist
// wrapper {"response":…,"traceId":…} or a bare GenerateContentResponse
// (embedded, so its fields decode at the top level), or an error object the
// server sends in place of a chunk.
type streamPayload struct {
	Response *generateResponse `json:"response"`
	TraceID  string            `json:"traceId"`
	Error    *googleError      `json:"error"`
	generateResponse
}

type generateResponse struct {
	Candidates     []candidate     `json:"candidates"`
	UsageMetadata  *usageMetadata  `json:"usageMetadata"`
	ResponseID     string          `json:"responseId"`
	PromptFeedback *promptFeedback `json:"promptFeedback"`
}

type candidate struct {
	Content       *respContent `json:"content"`
	FinishReason  string       `json:"finishReason"`
	FinishMessage string       `json:"finishMessage"`
}

type respContent struct {
	Parts []respPart `json:"parts"`
}

type respPart struct {
	Text             *string           `json:"text"`
	Thought          bool              `json:"thought"`
	ThoughtSignature string            `json:"thoughtSignature"`
	FunctionCall     *respFunctionCall `json:"functionCall"`
}

// respFunctionCall is a complete call ({name, args, id?}) or, when the
// server streams arguments (Vertex streamFunctionCallArguments), one piece
// of one: {name, willContinue:true} opens it, {partialArgs:[…]} extends it
// and an empty {} closes it.
type respFunctionCall struct {
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Args         json.RawMessage `json:"args"`
	PartialArgs  []partialArg    `json:"partialArgs"`
	WillContinue bool            `json:"willContinue"`
}

type partialArg struct {
	JSONPath     string          `json:"jsonPath"`
	StringValue  *string         `json:"stringValue"`
	NumberValue  json.RawMessage `json:"numberValue"`
	BoolValue    *bool           `json:"boolValue"`
	NullValue    json.RawMessage `json:"nullValue"`
	WillContinue bool            `json:"willContinue"`
}

// usageMetadata counts are pointers: a chunk leaves out the counts it does
// not know (or that are zero, as proto3 JSON omits zeros), which is not
// the same as a count of zero (docs/providers/gemini.md §Usage).
type usageMetadata struct {
	PromptTokenCount        *int64 `json:"promptTokenCount"`
	CandidatesTokenCount    *int64 `json:"candidatesTokenCount"`
	ThoughtsTokenCount      *int64 `json:"thoughtsTokenCount"`
	CachedContentTokenCount *int64 `json:"cachedContentTokenCount"`
}

// googleError is the "error" member of a Google API error body.
type googleError struct {
	Code    int               `json:"code"`
	Message string            `json:"message"`
	Status  string            `json:"status"`
	Details []json.RawMessage `json:"details"`
}

// errorDetail is the union of the google.rpc detail types we read:
// ErrorInfo, RetryInfo, QuotaFailure and Help.
type errorDetail struct {
	Type       string            `json:"@type"`
	Reason     string            `json:"reason"`
	Domain     string            `json:"domain"`
	Metadata   map[string]string `json:"metadata"`
	RetryDelay string            `json:"retryDelay"`
	Violations []struct {
		QuotaID     string `json:"quotaId"`
		Description string `json:"description"`
	} `json:"violations"`
	Links []struct {
		Description string `json:"description"`
		URL         string `json:"url"`
	} `json:"links"`
}
