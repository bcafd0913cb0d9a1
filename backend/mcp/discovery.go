package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"maestro/backend/chat"
)

// The MCP-only steps of a sign-in, as the MCP authorization spec orders
// them and the conformance suite checks them (docs/CONFORMANCE.md, the
// auth/* scenarios): protected resource metadata (RFC 9728), authorization
// server metadata (RFC 8414 and OpenID Connect Discovery, path-aware), the
// 2025-03-26 fallbacks, and the choice of scopes. The OAuth building blocks
// they feed are backend/auth's.

// discovery is what a sign-in needs to know about the servers.
type discovery struct {
	resource string
	prm      *resourceMetadata
	issuer   string
	as       authServerMetadata
	// found is false when the endpoints are the 2025-03-26 defaults.
	found bool
}

type resourceMetadata struct {
	Resource             string   `json:"resource"`
	AuthorizationServers []string `json:"authorization_servers"`
	ScopesSupported      []string `json:"scopes_supported"`
}

type authServerMetadata struct {
	Issuer                        string   `json:"issuer"`
	AuthorizationEndpoint         string   `json:"authorization_endpoint"`
	TokenEndpoint                 string   `json:"token_endpoint"`
	RegistrationEndpoint          string   `json:"registration_endpoint"`
	ScopesSupported               []string `json:"scopes_supported"`
	CodeChallengeMethodsSupported []string `json:"code_challenge_methods_supported"`
	TokenEndpointAuthMethods      []string `json:"token_endpoint_auth_methods_supported"`
	ClientIDMetadataDocument      bool     `json:"client_id_metadata_document_supported"`
}

// discover finds what a sign-in to cfg's server needs, after ch: the
// protected resource metadata, then the authorization server's.
func discover(ctx context.Context, base http.RoundTripper, cfg Connector, ch challenge) (discovery, error) {
	server, err := url.Parse(cfg.URL)
	if err != nil {
		return discovery{}, chat.E(chat.ErrInvalid, "bad server URL %q", cfg.URL)
	}
	d := discovery{resource: canonicalResource(server)}
	if err := d.findResource(ctx, base, cfg.URL, server, ch); err != nil {
		return discovery{}, err
	}
	origin := (&url.URL{Scheme: server.Scheme, Host: server.Host}).String()
	legacy := d.issuer == ""
	if legacy {
		d.issuer = origin // 2025-03-26: the MCP server's origin is the authorization server
	}
	if err := d.findAuthServer(ctx, base, cfg.OAuth.AuthServerMetadataURL, legacy, origin); err != nil {
		return discovery{}, err
	}
	return d, nil
}

// resourceMetadataURLs lists where the protected resource metadata may be
// (RFC 9728): the challenge's resource_metadata when it is on the server's
// origin, then the path-aware well-known location, then the root one.
func resourceMetadataURLs(server *url.URL, ch challenge) []string {
	var urls []string
	if ch.ResourceMetadata != "" {
		if u, err := url.Parse(ch.ResourceMetadata); err == nil && sameOrigin(u, server) {
			urls = append(urls, ch.ResourceMetadata)
		}
	}
	origin := (&url.URL{Scheme: server.Scheme, Host: server.Host}).String()
	if p := strings.TrimSuffix(server.EscapedPath(), "/"); p != "" {
		urls = append(urls, origin+"/.well-known/oauth-protected-resource"+p)
	}
	return append(urls, origin+"/.well-known/oauth-protected-resource")
}

// findResource reads the first protected resource metadata found, checks
// that it names this server, and takes the resource and the authorization
// server from it. Finding none is not an error: the 2025-03-26 rules apply.
func (d *discovery) findResource(ctx context.Context, base http.RoundTripper, rawURL string, server *url.URL, ch challenge) error {
	for _, u := range resourceMetadataURLs(server, ch) {
		var prm resourceMetadata
		if getJSON(ctx, base, u, &prm) == nil && (len(prm.AuthorizationServers) > 0 || prm.Resource != "") {
			d.prm = &prm
			break
		}
	}
	if d.prm == nil {
		return nil
	}
	if d.prm.Resource != "" {
		if !resourceMatches(d.prm.Resource, server) {
			return chat.E(chat.ErrInvalid,
				"the server's protected resource metadata is for %q, not %q: refusing to sign in", d.prm.Resource, rawURL)
		}
		d.resource = d.prm.Resource
	}
	if len(d.prm.AuthorizationServers) > 0 {
		d.issuer = d.prm.AuthorizationServers[0]
	}
	return nil
}

// findAuthServer reads the authorization server metadata of d.issuer
// (metadataURL when the connector names one). Without any, a legacy
// (2025-03-26) server gets the default endpoints at its origin.
func (d *discovery) findAuthServer(ctx context.Context, base http.RoundTripper, metadataURL string, legacy bool, origin string) error {
	urls := []string{metadataURL}
	if metadataURL == "" {
		var err error
		if urls, err = authServerMetadataURLs(d.issuer); err != nil {
			return err
		}
	}
	for _, u := range urls {
		var m authServerMetadata
		if getJSON(ctx, base, u, &m) != nil || m.AuthorizationEndpoint == "" || m.TokenEndpoint == "" {
			continue
		}
		if !legacy && m.Issuer != "" && strings.TrimSuffix(m.Issuer, "/") != strings.TrimSuffix(d.issuer, "/") {
			return chat.E(chat.ErrInvalid, "the authorization server metadata at %s names issuer %q, not %q", u, m.Issuer, d.issuer)
		}
		d.as, d.found = m, true
		return nil
	}
	if !legacy {
		return chat.E(chat.ErrUnavailable, "no authorization server metadata for %s", d.issuer)
	}
	d.as = authServerMetadata{
		AuthorizationEndpoint: origin + "/authorize",
		TokenEndpoint:         origin + "/token",
		RegistrationEndpoint:  origin + "/register",
	}
	return nil
}

// authServerMetadataURLs lists where an issuer's metadata may be, in the
// order MCP asks for: RFC 8414 then OpenID Connect, path-aware.
func authServerMetadataURLs(issuer string) ([]string, error) {
	u, err := url.Parse(issuer)
	if err != nil || u.Host == "" {
		return nil, chat.E(chat.ErrInvalid, "bad authorization server %q", issuer)
	}
	origin := u.Scheme + "://" + u.Host
	p := strings.TrimSuffix(u.EscapedPath(), "/")
	if p == "" {
		return []string{
			origin + "/.well-known/oauth-authorization-server",
			origin + "/.well-known/openid-configuration",
		}, nil
	}
	return []string{
		origin + "/.well-known/oauth-authorization-server" + p,
		origin + "/.well-known/openid-configuration" + p,
		origin + p + "/.well-known/openid-configuration",
	}, nil
}

// canonicalResource is the server URL without fragment and query, as RFC
// 8707 wants the resource parameter.
func canonicalResource(u *url.URL) string {
	c := url.URL{Scheme: strings.ToLower(u.Scheme), Host: strings.ToLower(u.Host), Path: u.Path, RawPath: u.RawPath}
	return c.String()
}

// resourceMatches reports whether a protected resource names the server:
// same origin, and a path that is the server's or a prefix of it.
func resourceMatches(resource string, server *url.URL) bool {
	r, err := url.Parse(resource)
	if err != nil || !sameOrigin(r, server) {
		return false
	}
	rp := strings.TrimSuffix(r.Path, "/")
	sp := strings.TrimSuffix(server.Path, "/")
	return rp == "" || rp == sp || strings.HasPrefix(sp, rp+"/")
}

func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Host, b.Host)
}

// chooseScopes picks the scopes to ask for: the connector's, else the
// challenge's, else the resource's scopes_supported, else none. A step-up
// (a 403) keeps prev, what the refused token could do; offline_access is
// added when the authorization server lists it.
func chooseScopes(cfg Connector, ch challenge, d discovery, prev string) []string {
	var scopes []string
	switch {
	case len(cfg.OAuth.Scopes) > 0:
		scopes = slices.Clone(cfg.OAuth.Scopes)
	case ch.Scope != "":
		scopes = strings.Fields(ch.Scope)
	case d.prm != nil && len(d.prm.ScopesSupported) > 0:
		scopes = slices.Clone(d.prm.ScopesSupported)
	}
	if ch.Status == http.StatusForbidden {
		for _, s := range strings.Fields(prev) {
			if !slices.Contains(scopes, s) {
				scopes = append(scopes, s)
			}
		}
	}
	if slices.Contains(d.as.ScopesSupported, "offline_access") && !slices.Contains(scopes, "offline_access") {
		scopes = append(scopes, "offline_access")
	}
	return scopes
}

// getJSON reads a metadata document.
func getJSON(ctx context.Context, base http.RoundTripper, u string, v any) error {
	ctx, cancel := context.WithTimeout(ctx, oauthHTTPTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("MCP-Protocol-Version", DefaultProtocolVersion)
	resp, err := base.RoundTrip(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	return json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(v)
}
