package auth

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"maestro/backend/chat"
	"maestro/backend/providers/gemini/geminifake"
)

// TestGeminiProjectResolution signs in to Gemini against each Code Assist
// account scenario (docs/providers/gemini.md §Sign-in: Code Assist setup).
func TestGeminiProjectResolution(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		scenario geminifake.Scenario
		polls    int
		project  string // GOOGLE_CLOUD_PROJECT
		// On success:
		wantProject, wantPlan string
		// The setup calls, and the project onboardUser named ("-" if none).
		wantCalls   []string
		wantOnboard string
		// On failure:
		wantKind error
		wantErr  []string
	}{
		{name: "new free user", scenario: geminifake.ScenarioFree, polls: 3,
			wantProject: "maestro-fake-free-project", wantPlan: "Gemini Code Assist for individuals",
			wantCalls:   []string{"loadCodeAssist", "onboardUser", "operations/onboard-1", "operations/onboard-1", "operations/onboard-1"},
			wantOnboard: "-"},
		{name: "free user, project set", scenario: geminifake.ScenarioFree, polls: 0, project: "my-proj",
			// The free tier gets its managed project; naming one would fail.
			wantProject: "maestro-fake-free-project", wantPlan: "Gemini Code Assist for individuals",
			wantCalls: []string{"loadCodeAssist", "onboardUser"}, wantOnboard: "-"},
		{name: "onboarded", scenario: geminifake.ScenarioOnboarded,
			wantProject: "maestro-fake-free-project", wantPlan: "Gemini Code Assist for individuals",
			wantCalls: []string{"loadCodeAssist"}},
		{name: "standard with GOOGLE_CLOUD_PROJECT", scenario: geminifake.ScenarioStandard, project: "my-proj",
			wantProject: "my-proj", wantPlan: "Gemini Code Assist", wantCalls: []string{"loadCodeAssist"}},
		{name: "new standard user with GOOGLE_CLOUD_PROJECT", scenario: geminifake.ScenarioStandardNew, polls: 1, project: "my-proj",
			wantProject: "my-proj", wantPlan: "Gemini Code Assist",
			wantCalls: []string{"loadCodeAssist", "onboardUser", "operations/onboard-1"}, wantOnboard: "my-proj"},
		{name: "standard without project", scenario: geminifake.ScenarioStandard,
			wantKind: chat.ErrInvalid, wantErr: []string{"needs a Google Cloud project", "GOOGLE_CLOUD_PROJECT"}},
		{name: "new standard user without project", scenario: geminifake.ScenarioStandardNew,
			wantKind: chat.ErrInvalid, wantErr: []string{"GOOGLE_CLOUD_PROJECT"}},
		{name: "validation required", scenario: geminifake.ScenarioValidation,
			wantKind: chat.ErrAuthRequired, wantErr: []string{"verify this account", geminifake.ValidationURL, "sign in to Gemini again"}},
		{name: "ineligible", scenario: geminifake.ScenarioIneligible,
			wantKind: chat.ErrUnavailable, wantErr: []string{"cannot use Gemini Code Assist", geminifake.IneligibleMessage}},
		{name: "ineligible with GOOGLE_CLOUD_PROJECT", scenario: geminifake.ScenarioIneligible, project: "my-proj",
			wantProject: "my-proj", wantPlan: "Gemini Code Assist", wantOnboard: "my-proj"},
		{name: "project number", scenario: geminifake.ScenarioStandard, project: "123456789012",
			wantKind: chat.ErrInvalid, wantErr: []string{"project number", "project's ID"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, envConfig{
				ge:       []geminifake.Option{geminifake.WithCodeAssistScenario(tt.scenario), geminifake.WithOnboardPolls(tt.polls)},
				endpoint: func(ep *Endpoints) { ep.GoogleCloudProject = tt.project },
			})
			u := e.signIn(chat.ProviderGemini)
			if tt.wantKind != nil {
				checkFailedGeminiSignIn(t, e, u, tt.wantKind, tt.wantErr)
				return
			}
			if u.Status != LoginSignedIn {
				t.Fatalf("status = %s (%v); want signed_in", u.Status, u.Err)
			}
			if u.Account.Project != tt.wantProject || u.Account.Plan != tt.wantPlan {
				t.Errorf("project, plan = %q, %q; want %q, %q", u.Account.Project, u.Account.Plan, tt.wantProject, tt.wantPlan)
			}
			if got := e.entry(chat.ProviderGemini).Project; got != tt.wantProject {
				t.Errorf("saved project = %q; want %q", got, tt.wantProject)
			}
			checkCodeAssistCalls(t, e.ge.CodeAssistRequests(), tt.wantCalls, tt.project, tt.wantOnboard)
		})
	}
}

// checkFailedGeminiSignIn checks a sign-in that must fail with kind and
// mention each of wantErr, and save nothing.
func checkFailedGeminiSignIn(t *testing.T, e *env, u LoginUpdate, kind error, wantErr []string) {
	t.Helper()
	if u.Status != LoginFailed {
		t.Fatalf("status = %s; want failed", u.Status)
	}
	wantKind(t, u.Err, kind)
	for _, w := range wantErr {
		if !strings.Contains(u.Err.Error(), w) {
			t.Errorf("err = %q; want it to mention %q", u.Err, w)
		}
	}
	if _, err := e.kc.Get(t.Context(), oauthEntryName(chat.ProviderGemini)); !errors.Is(err, ErrNotFound) {
		t.Errorf("a failed sign-in was saved (%v)", err)
	}
}

// checkCodeAssistCalls checks the Code Assist setup calls (when wantCalls
// is set) and what each body says: the metadata, the project
// loadCodeAssist names (project, the configured one) and the one
// onboardUser names (wantOnboard, "-" for none).
func checkCodeAssistCalls(t *testing.T, reqs []geminifake.CodeAssistRequest, wantCalls []string, project, wantOnboard string) {
	t.Helper()
	if wantCalls != nil {
		var got []string
		for _, r := range reqs {
			got = append(got, strings.TrimPrefix(strings.TrimPrefix(r.Path, "/v1internal:"), "/v1internal/"))
		}
		if strings.Join(got, " ") != strings.Join(wantCalls, " ") {
			t.Errorf("setup calls = %v; want %v", got, wantCalls)
		}
	}
	for _, r := range reqs {
		var body struct {
			Project  *string `json:"cloudaicompanionProject"`
			Metadata struct {
				IDEType, Platform, PluginType string
				DuetProject                   *string
			} `json:"metadata"`
		}
		if len(r.Body) == 0 {
			continue
		}
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatal(err)
		}
		if body.Metadata.IDEType != "IDE_UNSPECIFIED" || body.Metadata.Platform != "PLATFORM_UNSPECIFIED" || body.Metadata.PluginType != "GEMINI" {
			t.Errorf("%s metadata = %+v", r.Path, body.Metadata)
		}
		switch {
		case strings.HasSuffix(r.Path, "loadCodeAssist"):
			if project == "" && (body.Project != nil || body.Metadata.DuetProject != nil) {
				t.Errorf("loadCodeAssist named a project although none is set: %s", r.Body)
			}
			if project != "" && (body.Project == nil || *body.Project != project) {
				t.Errorf("loadCodeAssist body %s; want cloudaicompanionProject %q", r.Body, project)
			}
		case strings.HasSuffix(r.Path, "onboardUser"):
			got := "-"
			if body.Project != nil {
				got = *body.Project
			}
			if got != wantOnboard {
				t.Errorf("onboardUser project = %q; want %q (body %s)", got, wantOnboard, r.Body)
			}
		}
	}
}

func TestGeminiSecurityPolicyMeansStandard(t *testing.T) {
	t.Parallel()
	srv := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(403)
		_, _ = w.Write([]byte(`[{"error":{"code":403,"message":"Request is prohibited by organization's policy.","status":"PERMISSION_DENIED",` +
			`"details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"SECURITY_POLICY_VIOLATED"}]}}]`))
	}))
	ca := &codeAssist{hc: http.DefaultClient, base: srv, token: "t", poll: 1}
	res, err := ca.setup(t.Context(), "vpc-proj")
	if err != nil || res.project != "vpc-proj" || res.tierID != tierStandard {
		t.Errorf("setup = %+v, %v; want standard tier with the configured project", res, err)
	}
	_, err = ca.setup(t.Context(), "")
	var pre *ProjectRequiredError
	if !errors.As(err, &pre) {
		t.Errorf("setup without project = %v; want ProjectRequiredError", err)
	}
}
