package auth

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"time"
)

// jwtClaims decodes a JWT's payload without verifying it. Clients only read
// their own tokens here (docs/providers/openai.md §Sign-in: token
// exchange): the token came straight from the token endpoint over TLS, and
// nothing is authorized on its strength.
func jwtClaims(token string, v any) error {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return errors.New("not a JWT")
	}
	payload := strings.TrimRight(parts[1], "=")
	b, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil {
		return errors.New("JWT payload is not base64url")
	}
	if err := json.Unmarshal(b, v); err != nil {
		return errors.New("JWT payload is not a JSON object")
	}
	return nil
}

// jwtExpiry is a JWT's exp claim, or the zero time.
func jwtExpiry(token string) time.Time {
	var c struct {
		Exp json.Number `json:"exp"`
	}
	if jwtClaims(token, &c) != nil {
		return time.Time{}
	}
	if n, err := c.Exp.Int64(); err == nil && n > 0 {
		return time.Unix(n, 0)
	}
	return time.Time{}
}

// chatGPTIdentity is what the ChatGPT id_token says about the account
// (docs/providers/openai.md §Sign-in: token exchange).
type chatGPTIdentity struct {
	Email     string
	AccountID string
	Plan      string
	UserID    string
}

// parseChatGPTIDToken reads the https://api.openai.com/auth claim and the
// email of a ChatGPT id_token.
func parseChatGPTIDToken(idToken string) (chatGPTIdentity, error) {
	var c struct {
		Email string `json:"email"`
		Auth  struct {
			AccountID string `json:"chatgpt_account_id"`
			Plan      string `json:"chatgpt_plan_type"`
			UserID    string `json:"chatgpt_user_id"`
			LegacyID  string `json:"user_id"`
		} `json:"https://api.openai.com/auth"`
		Profile struct {
			Email string `json:"email"`
		} `json:"https://api.openai.com/profile"`
	}
	if err := jwtClaims(idToken, &c); err != nil {
		return chatGPTIdentity{}, err
	}
	id := chatGPTIdentity{Email: c.Email, AccountID: c.Auth.AccountID, Plan: c.Auth.Plan, UserID: c.Auth.UserID}
	if id.Email == "" {
		id.Email = c.Profile.Email
	}
	if id.UserID == "" {
		id.UserID = c.Auth.LegacyID
	}
	return id, nil
}
