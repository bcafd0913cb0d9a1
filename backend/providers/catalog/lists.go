package catalog

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"time"

	"maestro/backend/auth"
	"maestro/backend/chat"
)

// MaxAge is how long a fetched model list is trusted: the picker refreshes
// a list older than this in the background (docs/providers/README.md).
const MaxAge = 24 * time.Hour

// refreshTimeout bounds one fetch of a provider's list.
const refreshTimeout = 30 * time.Second

// Sources of a provider's list, as the picker shows it.
const (
	SourceService = "service" // fetched from the provider (and cached)
	SourceBuiltin = "builtin" // never fetched for this account: the built-in list
)

// Lists is where fetched model lists are kept between launches (the store's
// catalogs bucket). ErrNotFound wrapped by List means none is kept.
type Lists interface {
	ModelList(ctx context.Context, provider string, v any) error
	PutModelList(ctx context.Context, provider string, v any) error
}

// modelList is one provider's fetched list, as persisted.
type modelList struct {
	// Identity is the account the list was fetched for (see identity); a
	// list fetched for another account or key is not shown.
	Identity  string           `json:"identity"`
	FetchedAt time.Time        `json:"fetchedAt"`
	Models    []chat.ModelInfo `json:"models"`
	// Unavailable maps a model id to the provider's message when a request
	// for it was refused as not served to this account (KindModelUnavailable).
	Unavailable map[string]string `json:"unavailable,omitempty"`
	// Err is the last refresh failure, kept with the time it was tried
	// (FailedAt), so the picker can say why the list may be old.
	Err      string    `json:"error,omitempty"`
	FailedAt time.Time `json:"failedAt,omitzero"`
}

// Model is one model as the picker shows it.
type Model struct {
	chat.ModelInfo
	// Unavailable is the provider's message when it refused this model for
	// the account; "" when it is usable as far as Maestro knows.
	Unavailable string
}

// Attach gives the catalog the store its lists are kept in and a function
// called (from a background goroutine) whenever a provider's list changed.
// Until Attach, lists live in memory only.
func (c *Catalog) Attach(lists Lists, changed func(provider string)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.store, c.changed = lists, changed
}

// Close stops starting background refreshes and waits for running ones.
func (c *Catalog) Close() {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.wg.Wait()
}

// identity names the account a list belongs to without keeping a secret:
// another sign-in, plan or key is another list.
func identity(cr auth.Credentials, acct auth.Account) string {
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s|%s|%s|%s|%s|%s|%s|%s", cr.Provider, cr.Method, cr.APIKey,
		cr.AccountID, cr.Project, cr.BaseURL, acct.Email, acct.Plan)))
	return hex.EncodeToString(sum[:12])
}

// list returns provider's current list for the account ident, loading it
// from the store on first use: the zero list when the kept one belongs to
// another account. ok is false when no models were fetched for ident.
func (c *Catalog) list(ctx context.Context, provider, ident string) (modelList, bool) {
	c.mu.Lock()
	l, loaded := c.lists[provider]
	st := c.store
	c.mu.Unlock()
	if !loaded && st != nil {
		var stored modelList
		if err := st.ModelList(ctx, provider, &stored); err == nil {
			l, loaded = stored, true
			c.mu.Lock()
			if _, raced := c.lists[provider]; !raced {
				c.lists[provider] = stored
			}
			c.mu.Unlock()
		} else if !errors.Is(err, chat.ErrNotFound) {
			c.log.Warn("catalog: read stored model list", "provider", provider, "err", err)
		}
	}
	if !loaded || l.Identity != ident {
		return modelList{}, false
	}
	return l, len(l.Models) > 0
}

// stale reports whether l should be fetched again: never fetched for this
// account, older than MaxAge, or a failure less recent than MaxAge/24 ago
// is not retried sooner.
func (c *Catalog) stale(l modelList, ok bool) bool {
	now := c.now()
	if !l.FailedAt.IsZero() && now.Sub(l.FailedAt) < MaxAge/24 {
		return false
	}
	return !ok || now.Sub(l.FetchedAt) > MaxAge
}

// Refresh fetches provider's list now and keeps it. It fails when the
// provider has no credentials or the fetch fails; the kept list is then
// unchanged apart from the failure it records.
func (c *Catalog) Refresh(ctx context.Context, provider string) error {
	k, ok := kitFor(provider)
	if !ok {
		return chat.E(chat.ErrInvalid, "unknown provider %q", provider)
	}
	cr, err := c.creds.Credentials(ctx, provider)
	if err != nil {
		return err
	}
	ident := identity(cr, c.account(ctx, provider))
	m, err := c.Model(ctx, provider)
	if err != nil {
		return err
	}
	lister, ok := unwrap(m).(modelLister)
	if !ok {
		return fmt.Errorf("catalog: %s adapter cannot list models", provider)
	}
	fctx, cancel := context.WithTimeout(ctx, refreshTimeout)
	defer cancel()
	models, ferr := lister.Models(fctx)
	if ferr == nil && len(models) == 0 {
		ferr = fmt.Errorf("%s listed no models this account can chat with", k.name)
	}
	prev, _ := c.list(ctx, provider, ident)
	next := modelList{Identity: ident, FetchedAt: c.now(), Models: models,
		Unavailable: keepUnavailable(prev.Unavailable, models)}
	if ferr != nil {
		next = prev
		next.Identity, next.Err, next.FailedAt = ident, ferr.Error(), c.now()
	}
	c.keep(ctx, provider, next)
	if ferr != nil {
		return fmt.Errorf("catalog: list %s models: %w", provider, ferr)
	}
	c.log.Info("catalog: model list refreshed", "provider", provider, "models", len(models))
	return nil
}

// keepUnavailable keeps the marks of refused models the new list no longer
// offers: a model the fresh list offers is taken as usable again (a plan
// changes, and the service lists what the account's plan includes), while
// a session may still be set to one it dropped.
func keepUnavailable(prev map[string]string, models []chat.ModelInfo) map[string]string {
	var out map[string]string
	for id, msg := range prev {
		if slices.ContainsFunc(models, func(m chat.ModelInfo) bool { return m.ID == id }) {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[id] = msg
	}
	return out
}

// keep stores l as provider's list and reports the change.
func (c *Catalog) keep(ctx context.Context, provider string, l modelList) {
	c.mu.Lock()
	c.lists[provider] = l
	st, changed := c.store, c.changed
	c.mu.Unlock()
	if st != nil {
		if err := st.PutModelList(context.WithoutCancel(ctx), provider, l); err != nil {
			c.log.Warn("catalog: keep model list", "provider", provider, "err", err)
		}
	}
	if changed != nil {
		changed(provider)
	}
}

// RefreshSoon starts a background refresh of provider unless one runs; the
// change is reported through Attach's function.
func (c *Catalog) RefreshSoon(provider string) {
	c.mu.Lock()
	if c.closed || c.refreshing[provider] {
		c.mu.Unlock()
		return
	}
	c.refreshing[provider] = true
	c.wg.Add(1)
	c.mu.Unlock()
	go func() {
		defer c.wg.Done()
		defer func() {
			c.mu.Lock()
			delete(c.refreshing, provider)
			c.mu.Unlock()
		}()
		if err := c.Refresh(context.Background(), provider); err != nil {
			c.log.Warn("catalog: refresh model list", "provider", provider, "err", err)
		}
	}()
}

// markUnavailable records that provider refused model for this account and
// fetches its list again: the kept one offered a model the account cannot
// use, so it is out of date.
func (c *Catalog) markUnavailable(ctx context.Context, provider, model, msg string) {
	cr, err := c.creds.Credentials(ctx, provider)
	if err != nil {
		return
	}
	ident := identity(cr, c.account(ctx, provider))
	l, _ := c.list(ctx, provider, ident)
	l.Identity = ident
	if l.Unavailable[model] == msg {
		return
	}
	u := make(map[string]string, len(l.Unavailable)+1)
	for k, v := range l.Unavailable {
		u[k] = v
	}
	u[model] = msg
	l.Unavailable = u
	c.keep(ctx, provider, l)
	c.RefreshSoon(provider)
}

// account returns the signed-in account of provider, or the zero Account.
func (c *Catalog) account(ctx context.Context, provider string) auth.Account {
	accts, err := c.creds.Accounts(ctx)
	if err != nil {
		return auth.Account{}
	}
	for _, a := range accts {
		if a.Provider == provider {
			return a
		}
	}
	return auth.Account{}
}

// models is what the picker shows for provider: the fetched list when there
// is one for this account, else the built-in one; and whether to refresh.
func (c *Catalog) models(ctx context.Context, k kit, acct auth.Account) (out []Model, source string, l modelList) {
	cr, err := c.creds.Credentials(ctx, k.id)
	if err != nil {
		return builtinModels(k), SourceBuiltin, modelList{}
	}
	ident := identity(cr, acct)
	l, ok := c.list(ctx, k.id, ident)
	if c.stale(l, ok) {
		c.RefreshSoon(k.id)
	}
	if !ok {
		out = builtinModels(k)
		for i := range out {
			out[i].Unavailable = l.Unavailable[out[i].ID]
		}
		return out, SourceBuiltin, l
	}
	for _, m := range l.Models {
		out = append(out, Model{ModelInfo: m, Unavailable: l.Unavailable[m.ID]})
	}
	return out, SourceService, l
}

func builtinModels(k kit) []Model {
	var out []Model
	for _, m := range k.builtin() {
		out = append(out, Model{ModelInfo: m})
	}
	return out
}

// Info says what is known about model of provider: the fetched list's entry
// when it has one, else the adapter's built-in table, else the zero value.
func (c *Catalog) Info(ctx context.Context, provider, model string) chat.ModelInfo {
	k, ok := kitFor(provider)
	if !ok || model == "" {
		return chat.ModelInfo{}
	}
	c.mu.Lock()
	l := c.lists[provider]
	c.mu.Unlock()
	for _, m := range l.Models {
		if m.ID == model {
			return m
		}
	}
	return k.lookup(model)
}

// watched is an adapter whose refusals of a model for the account are
// written into the catalog, so the picker marks that model.
type watched struct {
	modelStreamer
	c        *Catalog
	provider string
}

func (w watched) Stream(ctx context.Context, req chat.Request) (chatSeq, error) {
	seq, err := w.modelStreamer.Stream(ctx, req)
	if he, ok := chat.AsProviderError(err); ok && he.Kind == chat.ProviderKindModelUnavailable {
		w.c.markUnavailable(context.WithoutCancel(ctx), w.provider, req.Model, he.Message)
	}
	return seq, err
}

// checkedWatched is a watched adapter that has attachment rules
// (chat.AttachmentChecker): the wrapper must not hide them, or a draft's
// files are not checked against the provider's limits before sending
// (agent.CheckAttachments).
type checkedWatched struct{ watched }

func (w checkedWatched) AttachmentRules(info chat.ModelInfo) chat.AttachmentRules {
	return w.modelStreamer.(chat.AttachmentChecker).AttachmentRules(info)
}

// watch wraps an adapter as watched, keeping its attachment rules visible.
func (c *Catalog) watch(m modelStreamer, provider string) chat.Model {
	w := watched{modelStreamer: m, c: c, provider: provider}
	if _, ok := m.(chat.AttachmentChecker); ok {
		return checkedWatched{w}
	}
	return w
}

// unwrap returns the adapter inside a watched one.
func unwrap(m any) any {
	switch w := m.(type) {
	case watched:
		return w.modelStreamer
	case checkedWatched:
		return w.modelStreamer
	}
	return m
}
