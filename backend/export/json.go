package export

import (
	"bufio"
	"encoding/json"

	"maestro/backend/chat"
)

// jsonFormat names the JSON export's shape; a change to it gets a new
// version.
const jsonFormat = "maestro.session.v1"

// jsonDoc writes the JSON export, {"format", "session", "messages": […]},
// indented by two spaces, one message at a time: the document is framed
// by hand so no message waits for the next.
type jsonDoc struct {
	w *bufio.Writer
	n int // messages written
}

// jsonSession is the session as exported. Connectors, tool grants and
// folders are left out on purpose.
type jsonSession struct {
	ID           string `json:"id"`
	Title        string `json:"title"`
	Provider     string `json:"provider,omitempty"`
	Model        string `json:"model,omitempty"`
	SystemPrompt string `json:"systemPrompt,omitempty"`
	// Usage is the tokens every reply of the session cost, on every branch.
	Usage     *chat.Usage `json:"usage,omitempty"`
	CreatedAt string      `json:"createdAt"`
	UpdatedAt string      `json:"updatedAt"`
}

type jsonMessage struct {
	Seq       uint64      `json:"seq"`
	ID        string      `json:"id"`
	Role      string      `json:"role"`
	Status    string      `json:"status,omitempty"`
	Error     string      `json:"error,omitempty"`
	Provider  string      `json:"provider,omitempty"`
	Model     string      `json:"model,omitempty"`
	Usage     *chat.Usage `json:"usage,omitempty"`
	CreatedAt string      `json:"createdAt"`
	Parts     []jsonPart  `json:"parts"`
}

type jsonPart struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	CallID    string          `json:"callId,omitempty"`
	Name      string          `json:"name,omitempty"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Result    *envelope       `json:"result,omitempty"`
	MIMEType  string          `json:"mimeType,omitempty"`
	// URI and Server name an attached resource (its body is not exported).
	URI    string `json:"uri,omitempty"`
	Server string `json:"server,omitempty"`
	// Size and Data are an attached file's length and bytes (base64): the
	// export keeps what the user attached.
	Size int64  `json:"size,omitempty"`
	Data string `json:"data,omitempty"`
}

// envelope is what a tool result exports: what the model saw.
type envelope struct {
	Successful bool            `json:"successful"`
	Data       json.RawMessage `json:"data,omitempty"`
	Error      string          `json:"error,omitempty"`
	Truncated  bool            `json:"truncated,omitempty"`
}

func envelopeOf(r chat.ToolResult) envelope {
	e := envelope{Successful: r.Successful, Error: r.Error, Truncated: r.Truncated}
	if len(r.Data) > 0 {
		if json.Valid(r.Data) {
			e.Data = r.Data
		} else {
			e.Data, _ = json.Marshal(string(r.Data))
		}
	}
	return e
}

func (e *jsonDoc) begin(s chat.Session) error {
	format, _ := json.Marshal(jsonFormat)
	sess, err := json.MarshalIndent(jsonSession{
		ID: s.ID, Title: s.Title, Provider: s.Provider, Model: s.Model, SystemPrompt: s.SystemPrompt,
		Usage: usageOrNil(s.Usage), CreatedAt: timestamp(s.CreatedAt), UpdatedAt: timestamp(s.UpdatedAt),
	}, "  ", "  ")
	if err != nil {
		return err
	}
	e.w.WriteString("{\n  \"format\": ")
	e.w.Write(format)
	e.w.WriteString(",\n  \"session\": ")
	e.w.Write(sess)
	e.w.WriteString(",\n  \"messages\": [")
	return nil
}

func (e *jsonDoc) message(m chat.Message) error {
	b, err := json.MarshalIndent(jsonMessageOf(m), "    ", "  ")
	if err != nil {
		return err
	}
	if e.n > 0 {
		e.w.WriteByte(',')
	}
	e.n++
	e.w.WriteString("\n    ")
	e.w.Write(b)
	return nil
}

func (e *jsonDoc) end() error {
	if e.n > 0 {
		e.w.WriteString("\n  ")
	}
	_, err := e.w.WriteString("]\n}\n")
	return err
}

func jsonMessageOf(m chat.Message) jsonMessage {
	out := jsonMessage{
		Seq: m.Seq, ID: m.ID, Role: string(m.Role), Status: string(m.Status), Error: m.Error,
		Provider: m.Provider, Model: m.Model, Usage: m.Usage, CreatedAt: timestamp(m.CreatedAt),
		Parts: make([]jsonPart, 0, len(m.Parts)),
	}
	for _, p := range m.Parts {
		jp := jsonPart{Type: p.PartType()}
		switch p := p.(type) {
		case chat.TextPart:
			jp.Text = p.Text
		case chat.ReasoningPart:
			jp.Text = p.Text
		case chat.ToolCallPart:
			jp.CallID, jp.Name = p.Call.ID, p.Call.Name
			if args := p.Call.ReplayArguments(); json.Valid(args) {
				jp.Arguments = args
			}
		case chat.ToolResultPart:
			env := envelopeOf(p.Result)
			jp.CallID, jp.Name, jp.Result = p.Result.CallID, p.Result.Name, &env
		case chat.FilePart:
			jp.Name, jp.MIMEType, jp.Size, jp.Data = p.Name, p.MIMEType, p.Size, p.Data
		case chat.ResourcePart:
			jp.Name, jp.URI, jp.Server, jp.MIMEType = resourceName(p), p.URI, p.Server, p.MIMEType
		}
		out.Parts = append(out.Parts, jp)
	}
	return out
}

func usageOrNil(u chat.Usage) *chat.Usage {
	if u.IsZero() {
		return nil
	}
	return &u
}

// resourceName is how an attached resource is named in an export.
func resourceName(p chat.ResourcePart) string {
	if p.Title != "" {
		return p.Title
	}
	return p.Name
}
