package chat

import (
	"encoding/base64"
	"strings"
)

// Token estimates. Maestro sizes a request before it sends it, from what
// the provider last reported (Usage.InputTokens of the last reply) plus an
// estimate of what was added since; these functions are that estimate.
// They count what a model reads, not the JSON around it, and err on the
// generous side: text at BytesPerToken bytes a token (English prose runs
// at about four, code and JSON at about three), a few tokens for the
// framing of each message and part, a flat cost for each image, and
// nothing for reasoning, which providers drop from earlier turns (the
// reported usage counts what they keep). docs/CONTEXT.md explains how the
// estimate and the reported counts combine.
const (
	// BytesPerToken is how many bytes of text the estimate counts as one
	// token.
	BytesPerToken = 3
	// MessageOverheadTokens frames one message (role, separators).
	MessageOverheadTokens = 4
	// PartOverheadTokens frames one part (a block or an item).
	PartOverheadTokens = 3
	// CallOverheadTokens frames a tool call or result (ids, names).
	CallOverheadTokens = 10
	// ImageTokens is what an image is counted as, whatever its size: about
	// what a 1,000 × 1,000 picture costs on the provider that charges the
	// most for it.
	ImageTokens = 1600
)

// EstimateText estimates the tokens of s.
func EstimateText(s string) int64 { return estimateBytes(len(s)) }

func estimateBytes(n int) int64 {
	if n <= 0 {
		return 0
	}
	return int64((n + BytesPerToken - 1) / BytesPerToken)
}

// EstimateTokens estimates what m adds to a request. A summary node is
// counted as the message that carries its text in requests.
func EstimateTokens(m Message) int64 {
	n := int64(MessageOverheadTokens)
	for _, p := range m.Parts {
		n += PartOverheadTokens + estimatePart(p)
	}
	return n
}

func estimatePart(p Part) int64 {
	switch p := p.(type) {
	case TextPart:
		return EstimateText(p.Text)
	case ReasoningPart:
		return 0
	case ToolCallPart:
		return CallOverheadTokens + EstimateText(p.Call.Name) + estimateBytes(len(p.Call.ReplayArguments()))
	case ToolResultPart:
		return EstimateResult(p.Result)
	case FilePart:
		return estimateFile(p.MIMEType, p.Data)
	}
	return 0
}

// EstimateResult estimates a tool result as sent: its envelope (data or
// error) and its attachments.
func EstimateResult(r ToolResult) int64 {
	n := int64(CallOverheadTokens) + EstimateText(r.Name) + estimateBytes(len(r.Data)) + EstimateText(r.Error)
	for _, a := range r.Attachments {
		n += PartOverheadTokens
		switch {
		case a.Type == "image" && (a.Data != "" || a.URI != ""):
			n += ImageTokens
		default:
			n += EstimateText(a.Text)
		}
	}
	return n
}

// estimateFile counts an attachment: a flat cost for an image, the decoded
// size for anything else (text, a PDF's pages).
func estimateFile(mime, data string) int64 {
	if strings.HasPrefix(strings.ToLower(mime), "image/") {
		return ImageTokens
	}
	return estimateBytes(base64.StdEncoding.DecodedLen(len(data)))
}

// EstimateTool estimates one declared tool: its name, description and
// input schema.
func EstimateTool(t Tool) int64 {
	return CallOverheadTokens + EstimateText(t.Name) + EstimateText(t.Description) + estimateBytes(len(t.InputSchema))
}
