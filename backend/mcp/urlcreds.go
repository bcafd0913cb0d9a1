package mcp

import (
	"encoding/base64"
	"maps"
	"net/url"
	"strings"

	"maestro/backend/chat"
)

// moveURLCredentials takes the credentials out of a remote connector's URL
// (https://user:password@host/…) and puts them where secrets live: an
// Authorization: Basic header, whose value the keychain keeps like every
// header value (docs/SECURITY.md). The request the server gets is the same
// (Go's HTTP client sends a URL's user info as that header); the stored
// config, the connector list, its log and Diagnostics no longer carry
// the password. A URL with credentials and an Authorization header of its
// own is refused: one of them would be silently dropped.
func (c *Connector) moveURLCredentials() error {
	if c.kind() == TransportStdio || c.kind() == TransportInProcess || c.URL == "" {
		return nil
	}
	u, err := url.Parse(c.URL)
	if err != nil || u.User == nil {
		return nil // Validate says what is wrong with a bad URL
	}
	for k := range c.Headers {
		if strings.EqualFold(k, "Authorization") {
			return chat.E(chat.ErrInvalid, "the URL carries a user name and password and an Authorization header is set too; keep one of them")
		}
	}
	pass, _ := u.User.Password()
	cred := base64.StdEncoding.EncodeToString([]byte(u.User.Username() + ":" + pass))
	u.User = nil
	c.URL = u.String()
	h := maps.Clone(c.Headers)
	if h == nil {
		h = map[string]string{}
	}
	h["Authorization"] = "Basic " + cred
	c.Headers = h
	return nil
}
