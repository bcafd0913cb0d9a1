package app

import (
	"slices"

	"maestro/backend/agent"
	"maestro/backend/auth"
	"maestro/backend/chat"
	"maestro/backend/export"
	"maestro/backend/mcp"
	"maestro/backend/providers/catalog"
)

// The Go↔TypeScript contract (frontend/src/api/contract.gen.ts) is
// generated from this package by cmd/maestro-contract: the services' bound
// methods (App's fields), the DTOs they take and return, Events with their
// payloads, and Unions. A string field tagged ts:"Name", or a value of a
// named Go type called Name, is typed in TypeScript as the union Name.

// JSONTypes are the types the contract also describes because a DTO
// carries them as JSON text: ElicitationDTO.Schema is an mcp.Form.
var JSONTypes = []any{mcp.Form{}}

// Union is a set of strings the contract names for TypeScript.
type Union struct {
	Name   string
	Doc    string
	Values []string
}

// Unions are the contract's unions, each taken from the constants that
// define it. A Go string type named like a union (ThemeChoice,
// ApprovalDecision, ExportFormat, ElicitationAction, MenuCommand) is typed
// as that union wherever it appears, bound methods' parameters included.
var Unions = []Union{
	{"ProviderId", "A provider, as Go spells it (chat.Providers).", chat.Providers()},
	{"Role", "Who wrote a message.", strs(chat.RoleUser, chat.RoleAssistant, chat.RoleTool)},
	{"MessageStatus", "Where a stored message stands; superseded attempts are never shown.",
		strs(chat.StatusComplete, chat.StatusStreaming, chat.StatusCanceled, chat.StatusFailed, agent.StatusSuperseded)},
	{"ErrorKind", "The kind of a failure (chat.Kind); a stored failure may also be interrupted.",
		[]string{chat.KindNotFound, chat.KindInvalid, chat.KindUnavailable, chat.KindAuthRequired, chat.KindCanceled,
			chat.KindConflict, chat.KindInternal}},
	{"AccountMethod", "How Maestro holds a provider's credentials.", strs(auth.MethodOAuth, auth.MethodAPIKey)},
	{"LoginStatus", "The progress of a browser sign-in; the last three end it.",
		strs(auth.LoginWaiting, auth.LoginExchanging, auth.LoginSignedIn, auth.LoginFailed, auth.LoginCanceled)},
	{"Transport", "How Maestro reaches an MCP server.", strs(mcp.TransportStdio, mcp.TransportHTTP, mcp.TransportSSE)},
	{"ConnectorState", "A connector's state.",
		strs(mcp.StateStarting, mcp.StateReady, mcp.StateError, mcp.StateRestarting, mcp.StateStopped)},
	{"LogSource", "Where a connector's log line comes from: the server's stderr, its log messages, or Maestro.",
		[]string{mcp.SourceStderr, mcp.SourceServer, mcp.SourceMaestro}},
	{"ElicitationMode", "What a server asks of the user: a form, or consent to open a URL.", []string{mcp.ElicitForm, mcp.ElicitURL}},
	{"ElicitationAction", "The user's answer to an elicitation.", []string{mcp.ActionAccept, mcp.ActionDecline, mcp.ActionCancel}},
	{"ModelSource", "Where a provider's model list comes from.", []string{catalog.SourceService, catalog.SourceBuiltin}},
	{"DeltaKind", "What streamed text is.", []string{DeltaText, DeltaReasoning}},
	{"ApprovalDecision", "An answer to approval:needed (Chat.AnswerApproval).",
		strs(DecisionAllowOnce, DecisionAlwaysAllow, DecisionDeny)},
	{"ExportFormat", "A format of Sessions.Export.", strs(export.Formats()...)},
	{"ThemeChoice", "A theme of Settings.SetTheme.", strs(ThemeSystem, ThemeLight, ThemeDark)},
	{"MenuCommand", "A command of menu:command.", strs(MenuCommands()...)},
}

func strs[S ~string](v ...S) []string {
	out := make([]string, len(v))
	for i, s := range v {
		out[i] = string(s)
	}
	return slices.Clip(out)
}
