package app

import (
	"cmp"
	"context"
	"os"
	"path/filepath"
	"strings"

	"maestro/backend/auth"
	"maestro/backend/chat"
	"maestro/backend/diagnostics"
	"maestro/backend/mcp"
	"maestro/backend/prefs"
)

// PrefsDTO is the Settings page's rows (backend/prefs, docs/SETTINGS.md).
type PrefsDTO struct {
	Theme        ThemeChoice    `json:"theme"`
	DefaultModel ModelChoiceDTO `json:"defaultModel"`
	// Instructions are copied into each new chat's instructions.
	Instructions string `json:"instructions"`
	// Approval is the policy of connectors that set none.
	Approval string `json:"approval" ts:"ApprovalPolicy"`
	// CompactPercent is the share of the context window past which a
	// conversation is compacted.
	CompactPercent int    `json:"compactPercent"`
	LogLevel       string `json:"logLevel" ts:"LogLevel"`
	// BaseURLs are API hosts for API keys, by provider id.
	BaseURLs map[string]string `json:"baseUrls"`
	// BaseURLsFromEnv names the providers whose host an environment
	// variable sets (it wins over the row).
	BaseURLsFromEnv []string `json:"baseUrlsFromEnv"`
}

func prefsDTO(p prefs.Prefs) PrefsDTO {
	urls := map[string]string{}
	for k, v := range p.BaseURLs {
		urls[k] = v
	}
	var fromEnv []string
	for _, id := range chat.Providers() {
		if strings.TrimSpace(os.Getenv(prefs.BaseURLEnv[id])) != "" {
			fromEnv = append(fromEnv, id)
		}
	}
	return PrefsDTO{
		Theme: ThemeChoice(p.Theme), DefaultModel: ModelChoiceDTO(p.DefaultModel), Instructions: p.Instructions,
		Approval: string(p.Approval), CompactPercent: p.CompactPercent, LogLevel: string(p.LogLevel),
		BaseURLs: urls, BaseURLsFromEnv: nonNil(fromEnv),
	}
}

func (d PrefsDTO) prefs() prefs.Prefs {
	return prefs.Prefs{
		Theme: prefs.Theme(d.Theme), DefaultModel: prefs.ModelChoice(d.DefaultModel), Instructions: d.Instructions,
		Approval: chat.ToolPolicy(d.Approval), CompactPercent: d.CompactPercent, LogLevel: prefs.LogLevel(d.LogLevel),
		BaseURLs: d.BaseURLs,
	}
}

// Prefs reads the Settings rows; a damaged row reads as its default.
func (s *Settings) Prefs() (PrefsDTO, error) {
	run, ctx, cancel, err := s.core.call()
	if err != nil {
		return PrefsDTO{}, err
	}
	defer cancel()
	p, err := prefs.Load(ctx, run.store)
	if err != nil {
		return PrefsDTO{}, err
	}
	return prefsDTO(p), nil
}

// SavePrefs validates the rows as a whole, writes those that changed and
// applies them at once (log level, approval default, compaction
// threshold, base URLs). A refused set changes nothing.
func (s *Settings) SavePrefs(in PrefsDTO) (PrefsDTO, error) {
	run, ctx, cancel, err := s.core.call()
	if err != nil {
		return PrefsDTO{}, err
	}
	defer cancel()
	old, err := prefs.Load(ctx, run.store)
	if err != nil {
		return PrefsDTO{}, err
	}
	p, err := prefs.Save(ctx, run.store, old, in.prefs())
	if err != nil {
		return PrefsDTO{}, err
	}
	s.core.applyPrefs(run, p)
	return prefsDTO(p), nil
}

// applyPrefs puts the rows that act on running parts into effect.
func (c *core) applyPrefs(run *running, p prefs.Prefs) {
	if c.logLevel != nil {
		c.logLevel.Set(p.LogLevel.Slog())
	}
	if err := run.agent.SetApprovalDefault(p.Approval); err != nil {
		c.log.Warn("approval default", "err", err)
	}
	if err := run.agent.SetCompactThreshold(float64(p.CompactPercent) / 100); err != nil {
		c.log.Warn("compaction threshold", "err", err)
	}
	if c.apiBases != nil {
		c.apiBases(p.APIBases(os.Getenv))
	}
}

// loadPrefs applies the stored rows when the data file opens.
func (c *core) loadPrefs(ctx context.Context, run *running) {
	p, err := prefs.Load(ctx, run.store)
	if err != nil {
		c.log.Warn("read settings", "err", err)
	}
	c.applyPrefs(run, p)
}

// diagnosticsLogLines is how much of the log Diagnostics shows.
const diagnosticsLogLines = 60

// Diagnostics is the bug-report text (backend/diagnostics): versions,
// data folder, keychain, providers, connectors with their protocol and
// the log tail, with the stored API keys and connector secrets, and
// anything shaped like a credential, removed.
func (s *Settings) Diagnostics() (string, error) {
	ctx, cancel, err := s.core.rootCall()
	if err != nil {
		return "", err
	}
	defer cancel()
	r := diagnostics.Report{
		App: s.core.version, WebKit: WebKitVersion(), OS: diagnostics.OSName("/etc/os-release"),
		DataDir: s.core.dataDir, Keychain: "The system keychain is available.",
	}
	if err := s.keychain.Probe(ctx); err != nil {
		r.Keychain = err.Error()
	}
	secrets := s.providerReport(ctx, &r)
	secrets = append(secrets, s.connectorReport(ctx, &r)...)
	if lines, err := diagnostics.LogTail(filepath.Join(s.core.dataDir, logName), diagnosticsLogLines); err != nil {
		r.Log = []string{err.Error()}
	} else {
		r.Log = lines
	}
	return diagnostics.Text(r, diagnostics.BuildVersions(), secrets), nil
}

// providerReport fills r's providers and returns the stored API keys.
func (s *Settings) providerReport(ctx context.Context, r *diagnostics.Report) []string {
	accounts := map[string]auth.Account{}
	if list, err := s.signIns.Accounts(ctx); err == nil {
		for _, a := range list {
			accounts[a.Provider] = a
		}
	}
	var secrets []string
	for _, p := range s.catalog.Providers(ctx) {
		state := "signed out"
		if a, ok := accounts[p.ID]; ok {
			state = "signed in (subscription)"
			if a.Method == auth.MethodAPIKey {
				state = "API key"
			}
		}
		r.Providers = append(r.Providers, diagnostics.Provider{Name: p.DisplayName, State: state})
		if key, err := s.keychain.Get(ctx, "apikey:"+p.ID); err == nil && key != "" {
			secrets = append(secrets, key)
		}
	}
	return secrets
}

// connectorReport fills r's connectors and returns their stored secrets.
func (s *Settings) connectorReport(ctx context.Context, r *diagnostics.Report) []string {
	run, _, cancel, err := s.core.call()
	if err != nil {
		return nil
	}
	defer cancel()
	var secrets []string
	for _, cfg := range run.sup.Connectors() {
		c := diagnostics.Connector{Name: cfg.DisplayName(), State: "off"}
		if st, err := run.sup.Status(cfg.ID); err == nil && !cfg.Disabled {
			c.State, c.Protocol, c.Detail = string(st.State), st.Protocol, cmp.Or(st.Error, st.Server)
		}
		r.Connectors = append(r.Connectors, c)
		secrets = append(secrets, mcp.SecretValues(ctx, s.secrets, cfg)...)
	}
	return secrets
}
