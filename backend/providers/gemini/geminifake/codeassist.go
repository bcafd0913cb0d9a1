package geminifake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
)

// Code Assist account setup (docs/providers/gemini.md §Sign-in: Code Assist
// setup): loadCodeAssist, onboardUser and the long-running operation it
// starts.
const (
	LoadCodeAssistPath = "/v1internal:loadCodeAssist"
	OnboardUserPath    = "/v1internal:onboardUser"
	OperationsPrefix   = "/v1internal/operations/"
	codeAssistControl  = "/_fake/codeassist"
)

// Scenario is the account loadCodeAssist describes.
type Scenario string

const (
	// ScenarioFree is a new user offered the free tier: onboarding (with no
	// project) yields a Google-managed project. Afterwards the account is
	// onboarded.
	ScenarioFree Scenario = "free"
	// ScenarioOnboarded is a free-tier user with a managed project.
	ScenarioOnboarded Scenario = "onboarded"
	// ScenarioStandard is a user already on the standard tier with no
	// project on record: the client must supply GOOGLE_CLOUD_PROJECT.
	ScenarioStandard Scenario = "standard"
	// ScenarioStandardNew is a new user whose default tier is standard:
	// onboarding needs the client's project.
	ScenarioStandardNew Scenario = "standard-new"
	// ScenarioValidation is an account Google must verify first
	// (ineligibleTiers with VALIDATION_REQUIRED and a validationUrl).
	ScenarioValidation Scenario = "validation"
	// ScenarioIneligible is an account the free tier refuses
	// (INELIGIBLE_ACCOUNT); only the standard tier, with a project, works.
	ScenarioIneligible Scenario = "ineligible"
)

// ValidationURL is where ScenarioValidation sends the user.
const ValidationURL = "https://accounts.google.com/signin/continue?sarp=1&scc=1&plt=fake-validation"

// IneligibleMessage is ScenarioIneligible's reasonMessage.
const IneligibleMessage = "Your current account is not eligible for Gemini Code Assist for individuals " +
	"because it is not currently available in your location."

// CodeAssistRequest is one setup call the fake received (bodies only: they
// hold no secrets).
type CodeAssistRequest struct {
	Method string          `json:"method"`
	Path   string          `json:"path"`
	Body   json.RawMessage `json:"body,omitempty"`
}

type codeAssistState struct {
	mu        sync.Mutex
	scenario  Scenario
	managed   string // the free tier's managed project
	polls     int    // operation GETs before done
	onboarded string // project once onboarding finished
	tier      string
	ops       map[string]*operation
	seq       int
	log       []CodeAssistRequest
}

type operation struct {
	remaining int
	project   string // "" when onboarding yields no project
}

func newCodeAssistState() *codeAssistState {
	return &codeAssistState{scenario: ScenarioFree, polls: 1, ops: map[string]*operation{}}
}

// WithCodeAssistScenario sets the account loadCodeAssist describes
// (default ScenarioFree).
func WithCodeAssistScenario(sc Scenario) Option {
	return func(s *Server) { s.oauthConfig().ca.scenario = sc }
}

// WithOnboardPolls sets how many operation GETs answer done:false before
// the onboarding operation is done (default 1; 0 makes onboardUser answer
// done at once).
func WithOnboardPolls(n int) Option { return func(s *Server) { s.oauthConfig().ca.polls = max(n, 0) } }

// WithManagedProject sets the project the free tier hands out (default
// the WithProject project, else "maestro-fake-free-project").
func WithManagedProject(p string) Option { return func(s *Server) { s.oauthConfig().ca.managed = p } }

// CodeAssistRequests returns the setup calls received so far.
func (s *Server) CodeAssistRequests() []CodeAssistRequest {
	ca := s.oauth.ca
	ca.mu.Lock()
	defer ca.mu.Unlock()
	return append([]CodeAssistRequest(nil), ca.log...)
}

func (s *Server) mountCodeAssist() {
	s.mux.HandleFunc("POST "+LoadCodeAssistPath, s.loadCodeAssist)
	s.mux.HandleFunc("POST "+OnboardUserPath, s.onboardUser)
	s.mux.HandleFunc("GET "+OperationsPrefix+"{id}", s.getOperation)
	s.mux.HandleFunc("GET "+codeAssistControl, s.codeAssistState)
	s.mux.HandleFunc("POST "+codeAssistControl, s.codeAssistConfig)
}

type tier struct {
	ID                                 string `json:"id"`
	Name                               string `json:"name"`
	Description                        string `json:"description"`
	UserDefinedCloudaicompanionProject bool   `json:"userDefinedCloudaicompanionProject"`
	IsDefault                          bool   `json:"isDefault,omitempty"`
	HasAcceptedTos                     bool   `json:"hasAcceptedTos,omitempty"`
	HasOnboardedPreviously             bool   `json:"hasOnboardedPreviously,omitempty"`
}

type ineligibleTier struct {
	ReasonCode            string `json:"reasonCode"`
	ReasonMessage         string `json:"reasonMessage"`
	TierID                string `json:"tierId"`
	TierName              string `json:"tierName"`
	ValidationURL         string `json:"validationUrl,omitempty"`
	ValidationURLLinkText string `json:"validationUrlLinkText,omitempty"`
}

const (
	freeName     = "Gemini Code Assist for individuals"
	standardName = "Gemini Code Assist"
)

func freeTier(def bool) tier {
	return tier{ID: "free-tier", Name: freeName, IsDefault: def,
		Description: "Unlimited coding assistant with the most powerful Gemini models"}
}

func standardTier(def bool) tier {
	return tier{ID: "standard-tier", Name: standardName, IsDefault: def, UserDefinedCloudaicompanionProject: true,
		Description: "Unlimited coding assistant with the most powerful Gemini models"}
}

type loadResponse struct {
	CurrentTier             *tier            `json:"currentTier,omitempty"`
	AllowedTiers            []tier           `json:"allowedTiers,omitempty"`
	IneligibleTiers         []ineligibleTier `json:"ineligibleTiers,omitempty"`
	CloudaicompanionProject string           `json:"cloudaicompanionProject,omitempty"`
}

type clientMetadata struct {
	IdeType     string `json:"ideType"`
	Platform    string `json:"platform"`
	PluginType  string `json:"pluginType"`
	DuetProject string `json:"duetProject,omitempty"`
}

// setupRequest is a loadCodeAssist or onboardUser body.
type setupRequest struct {
	TierID                  string          `json:"tierId,omitempty"`
	CloudaicompanionProject string          `json:"cloudaicompanionProject,omitempty"`
	Metadata                *clientMetadata `json:"metadata"`
	Mode                    string          `json:"mode,omitempty"`
}

// readSetup checks the bearer, decodes the body and logs the call.
func (s *Server) readSetup(w http.ResponseWriter, r *http.Request) (*setupRequest, bool) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	ca := s.oauth.ca
	ca.mu.Lock()
	rec := CodeAssistRequest{Method: r.Method, Path: r.URL.Path}
	if json.Valid(body) {
		rec.Body = append(json.RawMessage(nil), body...)
	}
	ca.log = append(ca.log, rec)
	ca.mu.Unlock()
	if _, rj := s.bearerRejection(r); rj != nil {
		rj.write(w)
		return nil, false
	}
	if r.Method == http.MethodGet {
		return nil, true
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	var req setupRequest
	if err := dec.Decode(&req); err != nil {
		wrap(invalid("malformed setup request", "Invalid JSON payload received. %s", err.Error())).write(w)
		return nil, false
	}
	md := req.Metadata
	switch {
	case md == nil || md.IdeType == "" || md.Platform == "" || md.PluginType == "":
		wrap(invalid("metadata required", "metadata.ideType, metadata.platform and metadata.pluginType are required")).write(w)
		return nil, false
	case req.CloudaicompanionProject != "" && md.DuetProject != req.CloudaicompanionProject:
		wrap(invalid("duetProject must match", "metadata.duetProject must match cloudaicompanionProject")).write(w)
		return nil, false
	}
	return &req, true
}

// loadCodeAssist describes the account per the scenario.
func (s *Server) loadCodeAssist(w http.ResponseWriter, r *http.Request) {
	req, ok := s.readSetup(w, r)
	if !ok {
		return
	}
	ca := s.oauth.ca
	ca.mu.Lock()
	var res loadResponse
	switch {
	case ca.onboarded != "" || ca.scenario == ScenarioOnboarded:
		cur := freeTier(true)
		if ca.tier == "standard-tier" {
			cur = standardTier(true)
		}
		cur.HasAcceptedTos, cur.HasOnboardedPreviously = true, true
		res = loadResponse{CurrentTier: &cur, AllowedTiers: []tier{cur}, CloudaicompanionProject: ca.onboarded}
		if res.CloudaicompanionProject == "" {
			res.CloudaicompanionProject = ca.managed
		}
	case ca.scenario == ScenarioStandard:
		cur := standardTier(true)
		cur.HasAcceptedTos, cur.HasOnboardedPreviously = true, true
		// The service knows no project for this account; it echoes the
		// one the client names, if any.
		res = loadResponse{CurrentTier: &cur, AllowedTiers: []tier{cur}, CloudaicompanionProject: req.CloudaicompanionProject}
	case ca.scenario == ScenarioStandardNew:
		res = loadResponse{AllowedTiers: []tier{standardTier(true)}}
	case ca.scenario == ScenarioValidation:
		res = loadResponse{AllowedTiers: []tier{freeTier(true), standardTier(false)},
			IneligibleTiers: []ineligibleTier{{ReasonCode: "VALIDATION_REQUIRED",
				ReasonMessage: "Verify your account to continue.", TierID: "free-tier", TierName: freeName,
				ValidationURL: ValidationURL, ValidationURLLinkText: "Verify your account"}}}
	case ca.scenario == ScenarioIneligible:
		res = loadResponse{AllowedTiers: []tier{standardTier(true)},
			IneligibleTiers: []ineligibleTier{{ReasonCode: "INELIGIBLE_ACCOUNT",
				ReasonMessage: IneligibleMessage, TierID: "free-tier", TierName: freeName}}}
	default: // ScenarioFree
		res = loadResponse{AllowedTiers: []tier{freeTier(true), standardTier(false)}}
	}
	ca.mu.Unlock()
	writeSetupJSON(w, res)
}

// allowedTier reports whether the scenario lets the account onboard to id.
func (ca *codeAssistState) allowedTier(id string) bool {
	switch ca.scenario {
	case ScenarioFree, ScenarioValidation:
		return id == "free-tier" || id == "standard-tier"
	case ScenarioStandardNew, ScenarioIneligible, ScenarioStandard:
		return id == "standard-tier"
	}
	return id == "free-tier"
}

// onboardUser starts onboarding as a long-running operation. The free tier
// must not name a project (Precondition Failed, per gemini-cli's comment);
// other tiers get the project they name, or none.
func (s *Server) onboardUser(w http.ResponseWriter, r *http.Request) {
	req, ok := s.readSetup(w, r)
	if !ok {
		return
	}
	ca := s.oauth.ca
	ca.mu.Lock()
	defer ca.mu.Unlock()
	switch {
	case !ca.allowedTier(req.TierID):
		wrap(invalid("tier not allowed", "Tier %q is not allowed for this user.", req.TierID)).write(w)
		return
	case ca.scenario == ScenarioValidation:
		(&rejection{rule: "validation required", wrapped: true, err: apiError{Code: 403, Status: "PERMISSION_DENIED",
			Message: "Verify your account to continue.",
			Details: []detail{errorInfo("VALIDATION_REQUIRED", codeAssistService, map[string]string{"validation_link": ValidationURL})}}}).write(w)
		return
	case req.TierID == "free-tier" && req.CloudaicompanionProject != "":
		(&rejection{rule: "free tier takes no project", wrapped: true, err: apiError{Code: 400,
			Status: "FAILED_PRECONDITION", Message: "Precondition check failed."}}).write(w)
		return
	}
	op := &operation{remaining: ca.polls, project: req.CloudaicompanionProject}
	if req.TierID == "free-tier" {
		op.project = ca.managed
	}
	ca.seq++
	name := fmt.Sprintf("operations/onboard-%d", ca.seq)
	ca.ops[name] = op
	ca.tier = req.TierID
	writeSetupJSON(w, ca.opStatusLocked(name, op))
}

// opStatusLocked is an operation's current answer; a finished operation
// marks the account onboarded.
func (ca *codeAssistState) opStatusLocked(name string, op *operation) map[string]any {
	if op.remaining > 0 {
		return map[string]any{"name": name, "done": false}
	}
	resp := map[string]any{"@type": "type.googleapis.com/google.internal.cloud.code.v1internal.OnboardUserResponse"}
	if op.project != "" {
		resp["cloudaicompanionProject"] = map[string]string{"id": op.project, "name": op.project}
		ca.onboarded = op.project
	}
	return map[string]any{"name": name, "done": true, "response": resp}
}

// getOperation is GET /v1internal/operations/{id}: done:false until the
// scenario's number of polls has passed.
func (s *Server) getOperation(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.readSetup(w, r); !ok {
		return
	}
	ca := s.oauth.ca
	ca.mu.Lock()
	defer ca.mu.Unlock()
	name := "operations/" + r.PathValue("id")
	op, ok := ca.ops[name]
	if !ok {
		wrap(&rejection{rule: "unknown operation", err: apiError{Code: 404, Status: "NOT_FOUND", Message: msgEntityNotFound}}).write(w)
		return
	}
	if op.remaining > 0 {
		op.remaining--
		if op.remaining > 0 {
			writeSetupJSON(w, map[string]any{"name": name, "done": false})
			return
		}
	}
	writeSetupJSON(w, ca.opStatusLocked(name, op))
}

func writeSetupJSON(w http.ResponseWriter, v any) {
	b, _ := json.MarshalIndent(v, "", "  ")
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	_, _ = w.Write(append(b, '\n'))
}

// codeAssistState is GET /_fake/codeassist: the scenario, the onboarded
// project and the setup calls received.
func (s *Server) codeAssistState(w http.ResponseWriter, r *http.Request) {
	ca := s.oauth.ca
	ca.mu.Lock()
	v := map[string]any{"scenario": ca.scenario, "onboardedProject": ca.onboarded, "requests": ca.log}
	ca.mu.Unlock()
	writeSetupJSON(w, v)
}

// codeAssistConfig is POST /_fake/codeassist {"scenario", "polls",
// "managedProject"}: it also forgets any onboarding and the call log.
func (s *Server) codeAssistConfig(w http.ResponseWriter, r *http.Request) {
	var c struct {
		Scenario       Scenario `json:"scenario"`
		Polls          *int     `json:"polls"`
		ManagedProject string   `json:"managedProject"`
	}
	if err := json.NewDecoder(r.Body).Decode(&c); err != nil {
		http.Error(w, "codeassist: "+err.Error(), http.StatusBadRequest)
		return
	}
	ca := s.oauth.ca
	ca.mu.Lock()
	defer ca.mu.Unlock()
	if c.Scenario != "" {
		ca.scenario = c.Scenario
	}
	if c.Polls != nil {
		ca.polls = max(*c.Polls, 0)
	}
	if c.ManagedProject != "" {
		ca.managed = c.ManagedProject
	}
	ca.onboarded, ca.tier, ca.log = "", "", nil
	ca.ops = map[string]*operation{}
	w.WriteHeader(http.StatusNoContent)
}
