// Package gemini is Maestro's adapter for Google Gemini. It speaks two
// dialects of the same GenerateContent protocol:
//
//   - Code Assist (the default, "Login with Google"): POST
//     {base}/v1internal:streamGenerateContent?alt=sse on
//     cloudcode-pa.googleapis.com, with the request wrapped in the envelope
//     {model, project, user_prompt_id, request:{…, session_id}} and every SSE
//     payload wrapped as {"response": …, "traceId": …}. Authentication comes
//     from the *http.Client (an oauth2 client); the adapter adds none.
//   - API key (WithAPIKey): the public Generative Language API, POST
//     {base}/v1beta/models/{model}:streamGenerateContent?alt=sse with the
//     x-goog-api-key header, the bare request as body and bare
//     GenerateContentResponse payloads.
//
// toRequest renders canonical history (chat.Request) into the wire request as
// a pure function; parseStream turns the SSE body into chat events; classify
// turns Google error bodies into *chat.ProviderError; Models, Builtin and
// Lookup say which models there are. The wire contract, with its sources, is
// docs/providers/gemini.md.
//
// History follows gemini-cli (google-gemini/gemini-cli
// packages/core/src/core/geminiChat.ts): tools under functionDeclarations
// only; roles alternate, with a user message after an unanswered
// function-response turn preceded by gemini-cli's placeholder model turn
// "[The previous response was interrupted before it completed.]"
// (closeUnansweredToolResponseTurn, commit 56f9688b30) and any other
// same-role neighbours coalesced (coalesceConsecutiveRoles); thought parts
// never replayed; audio and video from tool results moved to a user turn of
// their own after a model acknowledgement (extractBinaryInjections).
//
// Before rendering, Stream fits the history to AttachmentRules (this
// provider's types and sizes, attachments.go): an attachment of the latest
// user message the service would refuse is a chat.AttachmentError and
// nothing is sent; one of an earlier message becomes a note. Files,
// resources and tool results' links are rendered as the docs' §Attachments
// says.
//
// Concurrency: a *Model is immutable after New and safe for concurrent use;
// each Stream call owns its HTTP response. The sequence Stream returns must
// be ranged by one goroutine, once; stopping the range (or reaching its end)
// closes the response body.
package gemini
