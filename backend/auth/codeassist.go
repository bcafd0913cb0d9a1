package auth

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"maestro/backend/chat"
)

// Code Assist account setup (docs/providers/gemini.md §Sign-in: Code
// Assist setup): loadCodeAssist, then, for a user with no tier yet,
// onboardUser and its long-running operation.

const (
	tierFree     = "free-tier"
	tierLegacy   = "legacy-tier"
	tierStandard = "standard-tier"
)

// ValidationRequiredError: Google must verify the account (VALIDATION_REQUIRED)
// before Code Assist serves it. The user opens URL, completes the steps,
// then signs in again. It is a chat.ErrAuthRequired.
type ValidationRequiredError struct {
	URL    string
	Reason string // Google's reasonMessage
}

func (e *ValidationRequiredError) Error() string {
	return fmt.Sprintf("Google needs to verify this account before Gemini can be used: open %s, "+
		"complete the steps, then sign in to Gemini again", e.URL)
}

// Is makes errors.Is(err, chat.ErrAuthRequired) true.
func (e *ValidationRequiredError) Is(target error) bool { return target == chat.ErrAuthRequired }

// IneligibleError: Code Assist offers this account no tier it can use
// without a project, and gives its reasons. It is a chat.ErrUnavailable.
type IneligibleError struct {
	Reasons []string
}

func (e *IneligibleError) Error() string {
	return "this Google account cannot use Gemini Code Assist: " + strings.Join(e.Reasons, "; ") +
		". Set GOOGLE_CLOUD_PROJECT to a Google Cloud project with Gemini Code Assist and sign in again, or add a Gemini API key"
}

// Is makes errors.Is(err, chat.ErrUnavailable) true.
func (e *IneligibleError) Is(target error) bool { return target == chat.ErrUnavailable }

// ProjectRequiredError: the account's tier needs a Google Cloud project and
// none is configured. It is a chat.ErrInvalid.
type ProjectRequiredError struct{}

func (*ProjectRequiredError) Error() string {
	return "this Google account needs a Google Cloud project for Gemini Code Assist: " +
		"set GOOGLE_CLOUD_PROJECT to the project's ID and sign in to Gemini again"
}

// Is makes errors.Is(err, chat.ErrInvalid) true.
func (*ProjectRequiredError) Is(target error) bool { return target == chat.ErrInvalid }

type caTier struct {
	ID                          string `json:"id"`
	Name                        string `json:"name"`
	IsDefault                   bool   `json:"isDefault"`
	UserDefinedCloudaicompanion bool   `json:"userDefinedCloudaicompanionProject"`
}

type caIneligibleTier struct {
	ReasonCode    string `json:"reasonCode"`
	ReasonMessage string `json:"reasonMessage"`
	TierID        string `json:"tierId"`
	ValidationURL string `json:"validationUrl"`
}

type caLoadResponse struct {
	CurrentTier             *caTier            `json:"currentTier"`
	AllowedTiers            []caTier           `json:"allowedTiers"`
	IneligibleTiers         []caIneligibleTier `json:"ineligibleTiers"`
	CloudaicompanionProject string             `json:"cloudaicompanionProject"`
	PaidTier                *caTier            `json:"paidTier"`
}

type caMetadata struct {
	IDEType     string `json:"ideType"`
	Platform    string `json:"platform"`
	PluginType  string `json:"pluginType"`
	DuetProject string `json:"duetProject,omitempty"`
}

type caSetupRequest struct {
	TierID                  string     `json:"tierId,omitempty"`
	CloudaicompanionProject string     `json:"cloudaicompanionProject,omitempty"`
	Metadata                caMetadata `json:"metadata"`
}

type caOperation struct {
	Name     string `json:"name"`
	Done     bool   `json:"done"`
	Response *struct {
		CloudaicompanionProject *struct {
			ID   string `json:"id"`
			Name string `json:"name"`
		} `json:"cloudaicompanionProject"`
	} `json:"response"`
}

func (op *caOperation) project() string {
	if op.Response == nil || op.Response.CloudaicompanionProject == nil {
		return ""
	}
	return op.Response.CloudaicompanionProject.ID
}

// codeAssist calls the setup methods with a fresh access token.
type codeAssist struct {
	hc    *http.Client
	base  string
	token string
	poll  time.Duration
}

type setupResult struct {
	project  string
	tierID   string
	tierName string
}

// setup resolves the project as gemini-cli's setupUser does
// (docs/providers/gemini.md §Sign-in: Code Assist setup).
// envProject is GOOGLE_CLOUD_PROJECT, possibly "".
func (c *codeAssist) setup(ctx context.Context, envProject string) (setupResult, error) {
	if envProject != "" && strings.Trim(envProject, "0123456789") == "" {
		return setupResult{}, chat.E(chat.ErrInvalid, "GOOGLE_CLOUD_PROJECT is %q, a project number; "+
			"set it to the project's ID and sign in to Gemini again", envProject)
	}
	md := caMetadata{IDEType: "IDE_UNSPECIFIED", Platform: "PLATFORM_UNSPECIFIED", PluginType: "GEMINI"}
	withProject := md
	withProject.DuetProject = envProject

	var load caLoadResponse
	if err := c.call(ctx, "loadCodeAssist", caSetupRequest{CloudaicompanionProject: envProject, Metadata: withProject}, &load); err != nil {
		return setupResult{}, err
	}
	if load.CurrentTier == nil {
		for _, t := range load.IneligibleTiers {
			if t.ReasonCode == "VALIDATION_REQUIRED" && t.ValidationURL != "" {
				return setupResult{}, &ValidationRequiredError{URL: t.ValidationURL, Reason: t.ReasonMessage}
			}
		}
	}

	if cur := load.CurrentTier; cur != nil {
		if load.PaidTier != nil && load.PaidTier.ID != "" {
			cur = load.PaidTier
		}
		res := setupResult{project: load.CloudaicompanionProject, tierID: cur.ID, tierName: cur.Name}
		if res.project == "" {
			if envProject == "" {
				return setupResult{}, ineligibleOrProjectRequired(load)
			}
			res.project = envProject
		}
		return res, nil
	}

	tier := caTier{ID: tierLegacy, UserDefinedCloudaicompanion: true}
	for _, t := range load.AllowedTiers {
		if t.IsDefault {
			tier = t
			break
		}
	}
	req := caSetupRequest{TierID: tier.ID, Metadata: md}
	if tier.ID != tierFree {
		// The free tier uses a Google-managed project; naming one fails
		// with Precondition Failed (docs/providers/gemini.md §Sign-in: Code
		// Assist setup).
		req.CloudaicompanionProject, req.Metadata = envProject, withProject
	}
	var op caOperation
	if err := c.call(ctx, "onboardUser", req, &op); err != nil {
		return setupResult{}, err
	}
	if !op.Done && op.Name != "" {
		name := op.Name
		for !op.Done {
			select {
			case <-ctx.Done():
				return setupResult{}, fmt.Errorf("gemini: wait for Code Assist onboarding: %w", context.Cause(ctx))
			case <-time.After(c.poll):
			}
			op = caOperation{}
			if err := c.get(ctx, name, &op); err != nil {
				return setupResult{}, err
			}
		}
	}
	res := setupResult{project: op.project(), tierID: tier.ID, tierName: tier.Name}
	if res.project == "" {
		if envProject == "" {
			return setupResult{}, ineligibleOrProjectRequired(load)
		}
		res.project = envProject
	}
	return res, nil
}

func ineligibleOrProjectRequired(load caLoadResponse) error {
	if len(load.IneligibleTiers) == 0 {
		return &ProjectRequiredError{}
	}
	var reasons []string
	for _, t := range load.IneligibleTiers {
		if r := clean(t.ReasonMessage, maxErrorDetail); r != "" {
			reasons = append(reasons, r)
		} else {
			reasons = append(reasons, clean(t.ReasonCode, 64))
		}
	}
	return &IneligibleError{Reasons: reasons}
}

// call is POST {base}/v1internal:{method}.
func (c *codeAssist) call(ctx context.Context, method string, body, out any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return fmt.Errorf("gemini: encode %s: %w", method, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1internal:"+method, bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("gemini: build %s: %w", method, err)
	}
	req.Header.Set("Content-Type", "application/json")
	return c.do(req, method, out)
}

// get is GET {base}/v1internal/{operation}.
func (c *codeAssist) get(ctx context.Context, operation string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/v1internal/"+operation, nil)
	if err != nil {
		return fmt.Errorf("gemini: build operation poll: %w", err)
	}
	return c.do(req, "onboarding operation", out)
}

func (c *codeAssist) do(req *http.Request, what string, out any) error {
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("User-Agent", userAgent)
	resp, err := c.hc.Do(req)
	if err != nil {
		if req.Context().Err() != nil {
			return fmt.Errorf("gemini: %s: %w", what, context.Cause(req.Context()))
		}
		return chat.E(chat.ErrUnavailable, "Gemini sign-in failed: could not reach Code Assist (%s): %w", what, stripURL(err))
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxTokenBody))
	if err != nil {
		return fmt.Errorf("gemini: read %s: %w", what, err)
	}
	if resp.StatusCode/100 != 2 {
		return c.failure(what, resp.StatusCode, b, out)
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("gemini: decode %s: %w", what, err)
	}
	return nil
}

// googleError is a Google API error body, bare or in a one-element array
// (docs/providers/gemini.md §Sign-in: Code Assist setup, and §Errors).
type googleError struct {
	Error struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Status  string `json:"status"`
		Details []struct {
			Reason   string            `json:"reason"`
			Metadata map[string]string `json:"metadata"`
			Links    []struct {
				URL string `json:"url"`
			} `json:"links"`
		} `json:"details"`
	} `json:"error"`
}

func parseGoogleError(b []byte) googleError {
	var g googleError
	if bytes.HasPrefix(bytes.TrimSpace(b), []byte("[")) {
		var arr []googleError
		if json.Unmarshal(b, &arr) == nil && len(arr) > 0 {
			return arr[0]
		}
		return g
	}
	_ = json.Unmarshal(b, &g)
	return g
}

// failure turns a non-2xx setup answer into plain words. A 403
// SECURITY_POLICY_VIOLATED (VPC Service Controls) on loadCodeAssist means
// the standard tier (docs/providers/gemini.md §Sign-in: Code Assist setup)
// and is not an error.
func (c *codeAssist) failure(what string, status int, body []byte, out any) error {
	g := parseGoogleError(body)
	for _, d := range g.Error.Details {
		switch d.Reason {
		case "SECURITY_POLICY_VIOLATED":
			if load, ok := out.(*caLoadResponse); ok && status == http.StatusForbidden {
				*load = caLoadResponse{CurrentTier: &caTier{ID: tierStandard}}
				return nil
			}
		case "VALIDATION_REQUIRED":
			link := d.Metadata["validation_link"]
			if link == "" {
				for _, dd := range g.Error.Details {
					for _, l := range dd.Links {
						if link == "" {
							link = l.URL
						}
					}
				}
			}
			if link != "" {
				return &ValidationRequiredError{URL: link, Reason: clean(g.Error.Message, maxErrorDetail)}
			}
		}
	}
	msg := clean(g.Error.Message, maxErrorDetail)
	if status == http.StatusUnauthorized {
		return chat.E(chat.ErrAuthRequired, "Gemini sign-in failed: Code Assist did not accept the new sign-in (HTTP 401 %s); try again", msg)
	}
	return chat.E(chat.ErrUnavailable, "Gemini sign-in failed: Code Assist %s answered HTTP %d %s: %s", what, status, g.Error.Status, msg)
}
