package app

import (
	"encoding/json"
	"strings"
	"time"

	"maestro/backend/chat"
	"maestro/backend/mcp"
	"maestro/backend/providers/catalog"
)

// ErrorDTO is how an error reaches JavaScript: the rejected promise's value.
type ErrorDTO struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	// Provider, Reason and Code are set when a provider refused a request:
	// which provider, what to do about it (chat.ProviderKind: entitlement,
	// model_unavailable, rate_limit…) and the provider's own code, so the UI
	// shows a card for the case rather than parse the message. Detail is the
	// provider's own message.
	Provider string `json:"provider,omitempty"`
	Reason   string `json:"reason,omitempty"`
	Code     string `json:"code,omitempty"`
	Detail   string `json:"detail,omitempty"`
	// RetryAt is when a limit that ended a turn resets (Unix ms).
	RetryAt int64 `json:"retryAt,omitempty"`
}

func failureDTO(m chat.Message) *ErrorDTO {
	f := m.Failure
	if f == nil {
		return nil
	}
	return &ErrorDTO{Kind: f.Kind, Message: m.Error, Provider: f.Provider, Reason: f.Reason, Code: f.Code,
		Detail: f.Detail, RetryAt: millis(f.RetryAt)}
}

// FormatError is the ErrorFormatter given to Wails. It returns the
// ErrorDTO as JSON text: the Wails v2.15 runtime rejects a bound call's
// promise with new Error(value), which turns an object into the message
// "[object Object]" but keeps a string whole. The frontend decodes the
// Error's message back into {kind, message, …} (frontend/src/api/errors.ts).
func FormatError(err error) any {
	if err == nil {
		return nil
	}
	b, jerr := json.Marshal(errorDTO(err))
	if jerr != nil { // unreachable: ErrorDTO has only strings and numbers
		return err.Error()
	}
	return string(b)
}

func errorDTO(err error) *ErrorDTO {
	if err == nil {
		return nil
	}
	dto := &ErrorDTO{Kind: chat.Kind(err), Message: err.Error()}
	if he, ok := chat.AsProviderError(err); ok {
		dto.Provider, dto.Reason, dto.Code, dto.Detail = he.Provider, string(he.Kind), he.Code, he.Message
	}
	return dto
}

// StatusDTO describes the running app for the shell and Settings.
type StatusDTO struct {
	Version  string `json:"version"`
	DataDir  string `json:"dataDir"`
	DataFile string `json:"dataFile"`
	// StoreError is set when the data file could not be opened; the UI shows
	// it in place of the sessions.
	StoreError    *ErrorDTO `json:"storeError,omitempty"`
	LastSessionID string    `json:"lastSessionId"`
}

// SessionDTO is a session as the sidebar and header show it.
type SessionDTO struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	Provider string `json:"provider"`
	Model    string `json:"model"`
	// Times are Unix milliseconds.
	CreatedAt     int64 `json:"createdAt"`
	UpdatedAt     int64 `json:"updatedAt"`
	ToolsRevision int64 `json:"toolsRevision"`
	// Usage adds up what the session's stored replies report (context.go).
	Usage *UsageDTO `json:"usage,omitempty"`
}

// PartDTO is one part of a message; fields are set by Type: text and
// reasoning carry Text; tool_call carries CallID, Name, Server, Arguments;
// tool_result carries Result; file carries Name and MIMEType.
type PartDTO struct {
	Type      string         `json:"type"`
	Text      string         `json:"text,omitempty"`
	CallID    string         `json:"callId,omitempty"`
	Name      string         `json:"name,omitempty"`
	Server    string         `json:"server,omitempty"`
	Arguments string         `json:"arguments,omitempty"`
	Result    *ToolResultDTO `json:"result,omitempty"`
	MIMEType  string         `json:"mimeType,omitempty"`
	// URI, Title, ConnectorID and Size describe a file or resource part
	// (its bytes stay in Go: pages carry references).
	URI         string `json:"uri,omitempty"`
	Title       string `json:"title,omitempty"`
	ConnectorID string `json:"connectorId,omitempty"`
	Size        int64  `json:"size,omitempty"`
	// Ref names a file or resource part's stored bytes
	// (Sessions.Attachment reads them); Data is the base64 bytes of a
	// small one, kept inline (filePayload).
	Ref  string `json:"ref,omitempty"`
	Data string `json:"data,omitempty"`
}

// MessageDTO is a message as the chat pane shows it.
type MessageDTO struct {
	ID     string `json:"id"`
	Seq    uint64 `json:"seq"`
	Role   string `json:"role" ts:"Role"`
	Status string `json:"status" ts:"MessageStatus"`
	Error  string `json:"error,omitempty"`
	// Failure classifies Error (set on failed replies stored since
	// Maestro kept it), so the card reads as it did when the turn failed.
	Failure   *ErrorDTO `json:"failure,omitempty"`
	Parts     []PartDTO `json:"parts"`
	CreatedAt int64     `json:"createdAt"`
	Provider  string    `json:"provider,omitempty"`
	Model     string    `json:"model,omitempty"`
	RunID     string    `json:"runId,omitempty"`
	// Branch is set on a message that has other versions (made by editing
	// and resending); nil when it is the only one.
	Branch *BranchDTO `json:"branch,omitempty"`
	// Usage is what the provider reported for this reply (context.go).
	Usage *UsageDTO `json:"usage,omitempty"`
	// Summary is set on a summary node (role "summary"): what it stands
	// for in requests. Tokens is the message's estimated size.
	Summary *SummaryDTO `json:"summary,omitempty"`
	Tokens  int64       `json:"tokens,omitempty"`
}

// BranchDTO places a message among its versions, oldest first: Index is
// 0-based, Count includes the message, and Prev and Next are the Seq of
// the versions either side (0 at the ends), to pass to SwitchBranch.
type BranchDTO struct {
	Index int    `json:"index"`
	Count int    `json:"count"`
	Prev  uint64 `json:"prev"`
	Next  uint64 `json:"next"`
}

// SessionViewDTO is everything the chat pane needs to open a session: the
// session and its latest messages.
type SessionViewDTO struct {
	Session  SessionDTO   `json:"session"`
	Messages []MessageDTO `json:"messages"`
	// EarlierBefore, when not 0, is the seq to pass to EarlierMessages for
	// the messages before these; 0 means these start the session.
	EarlierBefore uint64 `json:"earlierBefore"`
}

// MessagePageDTO is a page of older messages (EarlierMessages).
type MessagePageDTO struct {
	Messages []MessageDTO `json:"messages"`
	// EarlierBefore is as in SessionViewDTO.
	EarlierBefore uint64 `json:"earlierBefore"`
}

// KeychainDTO reports whether the OS keychain can be used.
type KeychainDTO struct {
	Available bool   `json:"available"`
	Message   string `json:"message"`
}

func millis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func sessionDTO(s chat.Session) SessionDTO {
	return SessionDTO{
		ID: s.ID, Title: s.Title, Provider: s.Provider, Model: s.Model,
		CreatedAt: millis(s.CreatedAt), UpdatedAt: millis(s.UpdatedAt), ToolsRevision: s.ToolsRevision,
		Usage: usageDTO(s.Usage),
	}
}

func messageDTO(m chat.Message) MessageDTO {
	parts := make([]PartDTO, 0, len(m.Parts))
	for _, p := range m.Parts {
		dto := PartDTO{Type: p.PartType()}
		switch p := p.(type) {
		case chat.TextPart:
			dto.Text = p.Text
		case chat.ReasoningPart:
			dto.Text = p.Text
		case chat.ToolCallPart:
			// A call whose arguments were not a JSON object shows the text
			// the model sent, as it is replayed to models.
			dto.CallID, dto.Name, dto.Arguments = p.Call.ID, p.Call.Name, string(p.Call.ReplayArguments())
			dto.Server, _, _ = strings.Cut(p.Call.Name, ".")
		case chat.ToolResultPart:
			r := toolResultDTO(p.Result)
			dto.CallID, dto.Name, dto.Result = p.Result.CallID, p.Result.Name, &r
		case chat.FilePart:
			dto.Name, dto.MIMEType, dto.Size, dto.URI = p.Name, p.MIMEType, p.Size, p.URI
			dto.Ref, dto.Data, dto.Size = filePayload(p.Ref, p.Data, p.Size)
		case chat.ResourcePart:
			dto.Name, dto.MIMEType, dto.Size, dto.URI = p.Name, p.MIMEType, p.Size, p.URI
			dto.Ref, dto.Data, dto.Size = filePayload(p.Ref, p.Data, p.Size)
			dto.Title, dto.Server, dto.ConnectorID = p.Title, p.Server, p.ConnectorID
		}
		parts = append(parts, dto)
	}
	status := string(m.Status)
	if status == "" {
		status = string(chat.StatusComplete)
	}
	return MessageDTO{
		ID: m.ID, Seq: m.Seq, Role: string(m.Role), Status: status, Error: m.Error, Failure: failureDTO(m),
		Parts: parts, CreatedAt: millis(m.CreatedAt), Provider: m.Provider, Model: m.Model, RunID: m.RunID,
		Usage: messageUsage(m), Summary: summaryDTO(m.Summary), Tokens: m.Tokens,
	}
}

// SendResultDTO is what SendMessage returns: the stored user message and
// the run that is producing the reply ("" when no reply is produced).
type SendResultDTO struct {
	RunID   string     `json:"runId"`
	Message MessageDTO `json:"message"`
}

// ModelDTO is one model of a provider.
type ModelDTO struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// ContextWindow and MaxOutputTokens are in tokens; 0 when unknown.
	ContextWindow   int  `json:"contextWindow,omitempty"`
	MaxOutputTokens int  `json:"maxOutputTokens,omitempty"`
	Reasoning       bool `json:"reasoning,omitempty"`
	Preview         bool `json:"preview,omitempty"`
	// Unavailable is the provider's message when it refused this model for
	// the account.
	Unavailable string `json:"unavailable,omitempty"`
}

// ProviderModelsDTO is one provider in the model picker.
type ProviderModelsDTO struct {
	Provider    string     `json:"provider" ts:"ProviderId"`
	DisplayName string     `json:"displayName"`
	Available   bool       `json:"available"`
	Models      []ModelDTO `json:"models"`
	// Source is "service" (the provider's own list, fetched at FetchedAt,
	// Unix ms) or "builtin" (Maestro's list: not fetched for this account).
	Source    string `json:"source" ts:"ModelSource"`
	FetchedAt int64  `json:"fetchedAt,omitempty"`
	// Error is why the last refresh of the list failed.
	Error string `json:"error,omitempty"`
}

func providerModelsDTOs(ps []catalog.Provider) []ProviderModelsDTO {
	out := make([]ProviderModelsDTO, 0, len(ps))
	for _, p := range ps {
		dto := ProviderModelsDTO{Provider: p.ID, DisplayName: p.DisplayName, Available: p.Available,
			Source: p.Source, FetchedAt: millis(p.FetchedAt), Error: p.Err, Models: make([]ModelDTO, 0, len(p.Models))}
		for _, m := range p.Models {
			dto.Models = append(dto.Models, ModelDTO{ID: m.ID, Name: m.Name, ContextWindow: m.ContextWindow,
				MaxOutputTokens: m.MaxOutputTokens, Reasoning: m.Reasoning, Preview: m.Preview, Unavailable: m.Unavailable})
		}
		out = append(out, dto)
	}
	return out
}

// RunDTO is run:started.
type RunDTO struct {
	RunID     string `json:"runId"`
	SessionID string `json:"sessionId"`
}

// StepDTO is run:step.
type StepDTO struct {
	RunID         string `json:"runId"`
	SessionID     string `json:"sessionId"`
	Step          int    `json:"step"`
	Attempt       int    `json:"attempt"`
	Provider      string `json:"provider"`
	Model         string `json:"model"`
	ToolsRevision int64  `json:"toolsRevision"`
	ToolCount     int    `json:"toolCount"`
}

// RetryDTO is run:retrying.
type RetryDTO struct {
	RunID   string `json:"runId"`
	Attempt int    `json:"attempt"`
	DelayMS int64  `json:"delayMs"`
	Reason  string `json:"reason"`
}

// UsageDTO counts tokens.
type UsageDTO struct {
	InputTokens  int64 `json:"inputTokens"`
	OutputTokens int64 `json:"outputTokens"`
	// ReasoningTokens, CacheReadTokens and CacheWriteTokens are set where
	// the provider reports them (chat.Usage).
	ReasoningTokens  int64 `json:"reasoningTokens,omitempty"`
	CacheReadTokens  int64 `json:"cacheReadTokens,omitempty"`
	CacheWriteTokens int64 `json:"cacheWriteTokens,omitempty"`
}

// FinishedDTO is run:finished, sent exactly once per run.
type FinishedDTO struct {
	RunID     string    `json:"runId"`
	SessionID string    `json:"sessionId"`
	Canceled  bool      `json:"canceled"`
	Error     *ErrorDTO `json:"error,omitempty"`
	RetryAt   int64     `json:"retryAt,omitempty"`
	Usage     UsageDTO  `json:"usage"`
}

// ToolEventDTO carries the tool:* events; fields are set per event.
type ToolEventDTO struct {
	RunID      string         `json:"runId"`
	CallID     string         `json:"callId"`
	Name       string         `json:"name,omitempty"`
	Server     string         `json:"server,omitempty"`
	Fragment   string         `json:"fragment,omitempty"`
	Arguments  string         `json:"arguments,omitempty"`
	Progress   float64        `json:"progress,omitempty"`
	Total      float64        `json:"total,omitempty"`
	Message    string         `json:"message,omitempty"`
	Level      string         `json:"level,omitempty"`
	Text       string         `json:"text,omitempty"`
	Result     *ToolResultDTO `json:"result,omitempty"`
	DurationMS int64          `json:"durationMs,omitempty"`
	// App is set on tool:running for a tool with an MCP App: its card
	// draws the view while the call runs, the result following.
	App *ToolAppDTO `json:"app,omitempty"`
}

// ApprovalDTO is approval:needed.
type ApprovalDTO struct {
	RunID     string `json:"runId"`
	RequestID string `json:"requestId"`
	CallID    string `json:"callId"`
	Name      string `json:"name"`
	Server    string `json:"server"`
	Arguments string `json:"arguments"`
	// ReadOnlyHint is set when the tool's server claims the tool only
	// reads: the dialog says the claim is the server's, not Maestro's.
	ReadOnlyHint bool `json:"readOnlyHint,omitempty"`
	// Hints are the tool's annotations (the server's claims), shown as
	// badges; Destructive says the protocol reads them as "may destroy".
	Hints       *chat.ToolHints `json:"hints,omitempty"`
	Destructive bool            `json:"destructive,omitempty"`
	// Change is set when the tool's definition changed since the user
	// allowed it: the dialog asks again and shows the diff.
	Change *chat.DefinitionChange `json:"change,omitempty"`
	// RequestedBy is "app" when an MCP App in a tool card asked for the
	// call rather than the model (Chat.AppCallTool).
	RequestedBy string `json:"requestedBy,omitempty"`
}

// SavedDTO is message:saved.
type SavedDTO struct {
	RunID     string     `json:"runId"`
	SessionID string     `json:"sessionId"`
	Message   MessageDTO `json:"message"`
}

// AttachmentDTO is an image, audio clip or resource of a tool result.
type AttachmentDTO struct {
	Type     string `json:"type"`
	MIMEType string `json:"mimeType,omitempty"`
	Data     string `json:"data,omitempty"`
	URI      string `json:"uri,omitempty"`
	Text     string `json:"text,omitempty"`
	Name     string `json:"name,omitempty"`
}

// UIRawCap bounds the raw result one UI event (tool:finished,
// message:saved, a session page) carries. The stored copy is bounded by
// tools.ResultLimits.Stored (1 MiB); the window gets its first 256 KiB, long
// texts cut with a note (mcp.CapJSON), and says the result was truncated.
const UIRawCap = 256 << 10

// ToolResultDTO is a tool result envelope as the UI shows it.
type ToolResultDTO struct {
	CallID     string `json:"callId"`
	Name       string `json:"name"`
	Successful bool   `json:"successful"`
	Data       string `json:"data,omitempty"`
	Error      string `json:"error,omitempty"`
	// Truncated is set when any copy was cut (the model's, the stored
	// one, this one); Size is then the result's size before the cuts.
	Truncated   bool            `json:"truncated,omitempty"`
	Size        int64           `json:"size,omitempty"`
	DurationMS  int64           `json:"durationMs,omitempty"`
	Attachments []AttachmentDTO `json:"attachments,omitempty"`
	Raw         string          `json:"raw,omitempty"`
	// App names the MCP App that renders this result (docs/APPS.md).
	App *ToolAppDTO `json:"app,omitempty"`
}

func toolResultDTO(r chat.ToolResult) ToolResultDTO {
	raw, cut := mcp.CapJSON(r.Raw, UIRawCap)
	dto := ToolResultDTO{
		CallID: r.CallID, Name: r.Name, Successful: r.Successful, Data: string(r.Data), Error: r.Error,
		Truncated: r.Truncated || cut, Size: r.Size, DurationMS: r.DurationMS, Raw: string(raw),
	}
	if cut && dto.Size == 0 {
		dto.Size = int64(len(r.Raw))
	}
	for _, at := range r.Attachments {
		dto.Attachments = append(dto.Attachments, AttachmentDTO(at))
	}
	dto.App = toolAppDTO(r.App)
	return dto
}

// toolAppDTO is a tool's MCP App for the UI; nil stays nil.
func toolAppDTO(a *chat.ToolApp) *ToolAppDTO {
	if a == nil {
		return nil
	}
	return &ToolAppDTO{ConnectorID: a.ConnectorID, ResourceURI: a.ResourceURI, Tool: a.Tool}
}

// SearchHitDTO is one session matching a sidebar search.
type SearchHitDTO struct {
	SessionID string `json:"sessionId"`
	Title     string `json:"title"`
	// Snippet is the match with some context around it.
	Snippet string `json:"snippet"`
	// Seq is the matching message; 0 when only the title matched.
	Seq       uint64 `json:"seq"`
	UpdatedAt int64  `json:"updatedAt"`
}

// ModelChoiceDTO names one model of one provider.
type ModelChoiceDTO struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
}
