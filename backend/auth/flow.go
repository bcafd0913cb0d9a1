package auth

import (
	"context"
	"log/slog"
	"net/http"

	"golang.org/x/oauth2"
)

// flow is one provider's sign-in: its constants, the authorize URL, the
// code exchange and the refresh. Implementations are openaiFlow,
// anthropicFlow and geminiFlow; each follows the Sign-in section of its
// docs/providers/<provider>.md to the letter (parameter order, body
// encodings).
type flow interface {
	// provider is the chat.Provider* name; display is the product name the
	// user sees ("ChatGPT", "Claude", "Gemini").
	provider() string
	display() string
	// listen says where the loopback listener binds and what the redirect
	// URI names.
	listen() listenSpec
	// secrets returns a fresh PKCE pair and state.
	secrets() (PKCE, string)
	authURL(ep Endpoints, redirectURI string, p PKCE, state string) string
	// manualRedirect is the redirect URI of the paste flow, "" if the
	// provider has none.
	manualRedirect(ep Endpoints) string
	exchange(ctx context.Context, hc *http.Client, ep Endpoints, g grant) (*tokenEntry, error)
	refresh(ctx context.Context, hc *http.Client, ep Endpoints, refreshToken string) (*oauth2.Token, error)
	// refreshed updates what the entry says about the account after a
	// refresh (ChatGPT sends a new id_token).
	refreshed(e *tokenEntry)
	// finish completes a sign-in after the exchange (Gemini resolves the
	// Code Assist project); deps are the Manager's.
	finish(ctx context.Context, d finishDeps, e *tokenEntry) error
}

// listenSpec is where a flow's loopback listener binds.
type listenSpec struct {
	// ports are tried in order; 0 means a free port.
	ports []int
	path  string
	// redirectHost is the host the redirect URI names; "" means the bound
	// address itself.
	redirectHost string
}

// grant is what a code exchange needs.
type grant struct {
	code        string
	redirectURI string
	pkce        PKCE
	state       string
}

// finishDeps is what finish may use.
type finishDeps struct {
	hc  *http.Client
	ep  Endpoints
	log *slog.Logger
}
