package mcp

import (
	"encoding/base64"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"maestro/backend/chat"
)

// featureRec records FeatureEvents.
type featureRec struct {
	mu      sync.Mutex
	prompts map[string]int
	changed map[string]int
	updated []updateEvent
}

type updateEvent struct {
	connector, uri string
	sessions       []string
}

func newFeatureRec() *featureRec {
	return &featureRec{prompts: map[string]int{}, changed: map[string]int{}}
}

func (f *featureRec) PromptsChanged(id string) {
	f.mu.Lock()
	f.prompts[id]++
	f.mu.Unlock()
}

func (f *featureRec) ResourcesChanged(id string) {
	f.mu.Lock()
	f.changed[id]++
	f.mu.Unlock()
}

func (f *featureRec) ResourceUpdated(id, uri string, sessions []string) {
	f.mu.Lock()
	f.updated = append(f.updated, updateEvent{id, uri, sessions})
	f.mu.Unlock()
}

func (f *featureRec) counts(id string) (prompts, resources int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.prompts[id], f.changed[id]
}

func (f *featureRec) updatesOf(uri string) []updateEvent {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []updateEvent
	for _, u := range f.updated {
		if u.uri == uri {
			out = append(out, u)
		}
	}
	return out
}

// TestServerEverythingPromptsAndResources drives the prompts and resources
// of the real server-everything over stdio and streamable HTTP.
func TestServerEverythingPromptsAndResources(t *testing.T) {
	t.Parallel()
	for _, tr := range everythingTransports(t) {
		t.Run(tr.name, func(t *testing.T) {
			t.Parallel()
			testEverythingFeatures(t, tr.c(t))
		})
	}
}

func testEverythingFeatures(t *testing.T, c Connector) {
	rec := newFeatureRec()
	h := newHarness(t, WithFeatureEvents(rec))
	c = h.add(c)
	sess, other := h.session(c.ID), h.session()
	ctx := t.Context()

	t.Run("offers", func(t *testing.T) {
		offers, err := h.sup.Offers(ctx, sess)
		if err != nil || len(offers) != 1 {
			t.Fatalf("Offers = %+v, %v", offers, err)
		}
		o := offers[0]
		if !o.Prompts || !o.Resources || !o.Subscribe || !o.Completions || o.Server != "Everything" || o.State != StateReady {
			t.Errorf("offer = %+v; want prompts, resources, subscriptions and completions of a ready Everything", o)
		}
	})
	t.Run("connector offering", func(t *testing.T) {
		o, err := h.sup.ConnectorOffering(ctx, c.ID)
		if err != nil || len(o.Errors) > 0 {
			t.Fatalf("ConnectorOffering = %+v, %v", o, err)
		}
		if !slices.ContainsFunc(o.Prompts, func(p Prompt) bool { return p.Name == "simple-prompt" }) {
			t.Errorf("offering prompts = %+v; want simple-prompt among them", o.Prompts)
		}
		if !slices.ContainsFunc(o.Templates, func(r ResourceTemplate) bool { return r.URITemplate == "demo://resource/dynamic/text/{resourceId}" }) {
			t.Errorf("offering templates = %+v; want the dynamic text template", o.Templates)
		}
		if len(o.Resources) == 0 {
			t.Errorf("offering has no resources; want the first page")
		}
	})
	t.Run("list prompts", func(t *testing.T) {
		list, err := h.sup.Prompts(ctx, sess)
		if err != nil || len(list.Unavailable) > 0 {
			t.Fatalf("Prompts: %+v, %v", list, err)
		}
		var names []string
		for _, p := range list.Prompts {
			names = append(names, p.Name)
		}
		for _, want := range []string{"args-prompt", "completable-prompt", "resource-prompt", "simple-prompt"} {
			if !slices.Contains(names, want) {
				t.Errorf("prompts %v lack %s", names, want)
			}
		}
		i := slices.IndexFunc(list.Prompts, func(p Prompt) bool { return p.Name == "args-prompt" })
		p := list.Prompts[i]
		if p.Title != "Arguments Prompt" || p.Server != "Everything" || p.ConnectorID != c.ID || len(p.Arguments) != 2 ||
			p.Arguments[0].Name != "city" || !p.Arguments[0].Required || p.Arguments[1].Required {
			t.Errorf("args-prompt = %+v; want city (required) and state", p)
		}
	})
	t.Run("a session without the connector sees none of it", func(t *testing.T) {
		list, err := h.sup.Prompts(ctx, other)
		if err != nil || len(list.Prompts) != 0 {
			t.Errorf("Prompts(other) = %+v, %v; want none", list, err)
		}
		if _, err := h.sup.GetPrompt(ctx, other, c.ID, "simple-prompt", nil); !errors.Is(err, chat.ErrNotFound) {
			t.Errorf("GetPrompt(other) = %v; want ErrNotFound", err)
		}
		if _, err := h.sup.ReadResource(ctx, other, c.ID, "demo://resource/dynamic/text/1"); !errors.Is(err, chat.ErrNotFound) {
			t.Errorf("ReadResource(other) = %v; want ErrNotFound", err)
		}
	})
	t.Run("get with arguments", func(t *testing.T) {
		res, err := h.sup.GetPrompt(ctx, sess, c.ID, "args-prompt", map[string]string{"city": "Paris", "state": "Île-de-France"})
		if err != nil {
			t.Fatal(err)
		}
		parts := res.Parts()
		if len(parts) != 1 || parts[0].(chat.TextPart).Text != "What's weather in Paris, Île-de-France?" {
			t.Errorf("parts = %#v", parts)
		}
	})
	t.Run("a missing required argument is refused before sending", func(t *testing.T) {
		_, err := h.sup.GetPrompt(ctx, sess, c.ID, "args-prompt", map[string]string{"state": "Texas"})
		if !errors.Is(err, chat.ErrInvalid) || !strings.Contains(err.Error(), "needs city") {
			t.Errorf("err = %v; want ErrInvalid naming city", err)
		}
	})
	t.Run("the server's refusal is its message", func(t *testing.T) {
		_, err := h.sup.GetPrompt(ctx, sess, c.ID, "resource-prompt", map[string]string{"resourceType": "Video", "resourceId": "1"})
		if !errors.Is(err, chat.ErrInvalid) || !strings.Contains(err.Error(), "Invalid resourceType: Video") {
			t.Errorf("err = %v; want the server's message", err)
		}
		_, err = h.sup.GetPrompt(ctx, sess, c.ID, "no-such-prompt", nil)
		if !errors.Is(err, chat.ErrInvalid) || !strings.Contains(err.Error(), "no-such-prompt") {
			t.Errorf("unknown prompt: err = %v; want ErrInvalid naming it", err)
		}
	})
	t.Run("a prompt with an embedded resource", func(t *testing.T) {
		for _, kind := range []string{"Text", "Blob"} {
			res, err := h.sup.GetPrompt(ctx, sess, c.ID, "resource-prompt", map[string]string{"resourceType": kind, "resourceId": "3"})
			if err != nil {
				t.Fatal(err)
			}
			parts := res.Parts()
			if len(parts) != 2 {
				t.Fatalf("%s: parts = %#v; want text and a resource", kind, parts)
			}
			rp, ok := parts[1].(chat.ResourcePart)
			if !ok || rp.ConnectorID != c.ID || rp.Server != "Everything" || !strings.HasSuffix(rp.URI, "/"+strings.ToLower(kind)+"/3") {
				t.Fatalf("%s: resource = %#v", kind, parts[1])
			}
			text, ok := rp.TextContent()
			if !ok || !strings.HasPrefix(text, "Resource 3: This is a ") {
				t.Errorf("%s: content %q; want the resource's text", kind, text)
			}
			if kind == "Blob" && rp.Data == "" {
				t.Errorf("blob resource kept no bytes: %#v", rp)
			}
		}
	})
	t.Run("completions", func(t *testing.T) {
		got, err := h.sup.Complete(ctx, sess, c.ID, CompletionRef{Prompt: "completable-prompt"}, "department", "Sa", nil)
		if err != nil || !slices.Equal(got.Values, []string{"Sales"}) {
			t.Errorf("department Sa = %+v, %v; want Sales", got, err)
		}
		got, err = h.sup.Complete(ctx, sess, c.ID, CompletionRef{Prompt: "completable-prompt"}, "name", "", map[string]string{"department": "Sales"})
		if err != nil || !slices.Equal(got.Values, []string{"David", "Eve", "Frank"}) {
			t.Errorf("name after Sales = %+v, %v; want David, Eve, Frank", got, err)
		}
		got, err = h.sup.Complete(ctx, sess, c.ID, CompletionRef{URITemplate: "demo://resource/dynamic/text/{resourceId}"}, "resourceId", "42", nil)
		if err != nil || !slices.Equal(got.Values, []string{"42"}) {
			t.Errorf("template resourceId 42 = %+v, %v; want 42", got, err)
		}
	})
	t.Run("templates and read", func(t *testing.T) {
		list, err := h.sup.ResourceTemplates(ctx, sess)
		if err != nil || len(list.Templates) < 2 {
			t.Fatalf("ResourceTemplates = %+v, %v", list, err)
		}
		i := slices.IndexFunc(list.Templates, func(tp ResourceTemplate) bool { return tp.Name == "Dynamic Text Resource" })
		if i < 0 || list.Templates[i].URITemplate != "demo://resource/dynamic/text/{resourceId}" || !slices.Equal(list.Templates[i].Variables, []string{"resourceId"}) {
			t.Fatalf("templates = %+v", list.Templates)
		}
		uri, err := ExpandTemplate(list.Templates[i].URITemplate, map[string]string{"resourceId": "7"})
		if err != nil || uri != "demo://resource/dynamic/text/7" {
			t.Fatalf("ExpandTemplate = %q, %v", uri, err)
		}
		parts, err := h.sup.ReadResource(ctx, sess, c.ID, uri)
		if err != nil || len(parts) != 1 || !strings.HasPrefix(parts[0].Text, "Resource 7: This is a plaintext resource") ||
			parts[0].URI != uri || parts[0].MIMEType != "text/plain" {
			t.Fatalf("ReadResource = %+v, %v", parts, err)
		}
		blob, err := h.sup.ReadResource(ctx, sess, c.ID, "demo://resource/dynamic/blob/7")
		if err != nil || len(blob) != 1 || blob[0].Data == "" {
			t.Fatalf("ReadResource(blob) = %+v, %v", blob, err)
		}
		if raw, _ := base64.StdEncoding.DecodeString(blob[0].Data); !strings.HasPrefix(string(raw), "Resource 7: This is a base64 blob") || blob[0].Size != int64(len(raw)) {
			t.Errorf("blob %q, size %d", raw, blob[0].Size)
		}
		if _, err := h.sup.ReadResource(ctx, sess, c.ID, "demo://resource/dynamic/text/zero"); !errors.Is(err, chat.ErrInvalid) {
			t.Errorf("a bad URI: err = %v; want the server's refusal", err)
		}
	})
	t.Run("list resources", func(t *testing.T) {
		page, err := h.sup.Resources(ctx, sess, c.ID, "")
		if err != nil || len(page.Resources) == 0 {
			t.Fatalf("Resources = %+v, %v", page, err)
		}
		i := slices.IndexFunc(page.Resources, func(r Resource) bool { return r.Name == "features.md" })
		if i < 0 || page.Resources[i].MIMEType != "text/markdown" || !strings.HasPrefix(page.Resources[i].URI, "demo://resource/static/document/") {
			t.Fatalf("resources = %+v", page.Resources)
		}
		parts, err := h.sup.ReadResource(ctx, sess, c.ID, page.Resources[i].URI)
		if err != nil || len(parts) != 1 || !strings.Contains(parts[0].Text, "#") {
			t.Errorf("read features.md = %+v, %v", parts, err)
		}
	})
	t.Run("tool results carry links and embedded resources", func(t *testing.T) {
		res := h.call(ctx, sess, "everything.get-resource-links", `{"count":2}`, nil)
		if !res.Successful || len(res.Attachments) != 2 {
			t.Fatalf("get-resource-links = %+v", res)
		}
		link := res.Attachments[1]
		if link.Type != chat.AttachmentResourceLink || link.URI != "demo://resource/dynamic/text/2" || link.Name != "Text Resource 2" {
			t.Fatalf("link = %+v", link)
		}
		parts, err := h.sup.ReadResource(ctx, sess, c.ID, link.URI) // opened on demand
		if err != nil || !strings.HasPrefix(parts[0].Text, "Resource 2:") {
			t.Fatalf("read the link = %+v, %v", parts, err)
		}
		ref := h.call(ctx, sess, "everything.get-resource-reference", `{"resourceType":"Text","resourceId":5}`, nil)
		if !ref.Successful || len(ref.Attachments) != 1 || ref.Attachments[0].Type != chat.AttachmentResource ||
			ref.Attachments[0].URI != "demo://resource/dynamic/text/5" || !strings.HasPrefix(ref.Attachments[0].Text, "Resource 5:") {
			t.Fatalf("get-resource-reference = %+v", ref)
		}
	})
	t.Run("subscriptions", func(t *testing.T) {
		uri := "demo://resource/dynamic/text/9"
		if err := h.sup.Subscribe(ctx, sess, c.ID, uri); err != nil {
			t.Fatal(err)
		}
		text(t, h.call(ctx, sess, "everything.toggle-subscriber-updates", `{}`, nil))
		defer h.call(t.Context(), sess, "everything.toggle-subscriber-updates", `{}`, nil)
		h.waitFor("an update of the followed resource", func() bool { return len(rec.updatesOf(uri)) > 0 })
		u := rec.updatesOf(uri)[0]
		if u.connector != c.ID || !slices.Equal(u.sessions, []string{sess}) {
			t.Errorf("update = %+v; want the connector and the following session", u)
		}
		if err := h.sup.Unsubscribe(ctx, sess, c.ID, uri); err != nil {
			t.Fatal(err)
		}
		if got := h.sup.mustRunner(t, c.ID).subs.followers(uri); len(got) != 0 {
			t.Errorf("followers after Unsubscribe = %v", got)
		}
	})
	t.Run("a completed prompt reaches each provider", func(t *testing.T) {
		promptReachesProviders(t, h, sess, c.ID)
	})
	t.Run("resource list_changed", func(t *testing.T) {
		if _, err := h.sup.Resources(ctx, sess, c.ID, ""); err != nil {
			t.Fatal(err)
		}
		_, before := rec.counts(c.ID)
		data := "data:text/plain;base64," + base64.StdEncoding.EncodeToString([]byte("hello, gzip"))
		res := h.call(ctx, sess, "everything.gzip-file-as-resource", `{"name":"hello.gz","data":"`+data+`","outputType":"resourceLink"}`, nil)
		if !res.Successful || len(res.Attachments) != 1 || res.Attachments[0].URI != "demo://resource/session/hello.gz" {
			t.Fatalf("gzip-file-as-resource = %+v", res)
		}
		h.waitFor("resources/list_changed", func() bool { _, n := rec.counts(c.ID); return n > before })
		page, err := h.sup.Resources(ctx, sess, c.ID, "")
		if err != nil || !slices.ContainsFunc(page.Resources, func(r Resource) bool { return r.URI == "demo://resource/session/hello.gz" }) {
			t.Errorf("the new resource is not listed: %+v, %v", page, err)
		}
	})
}

// promptReachesProviders completes a prompt's arguments from the server,
// gets it with an embedded resource, and sends it as a user turn to each
// provider's adapter and fake: each fake sees the prompt's text and the
// resource.
func promptReachesProviders(t *testing.T, h *harness, sess, connectorID string) {
	ctx := t.Context()
	dept, err := h.sup.Complete(ctx, sess, connectorID, CompletionRef{Prompt: "completable-prompt"}, "department", "Sal", nil)
	if err != nil || len(dept.Values) != 1 {
		t.Fatalf("department: %+v, %v", dept, err)
	}
	name, err := h.sup.Complete(ctx, sess, connectorID, CompletionRef{Prompt: "completable-prompt"}, "name", "", map[string]string{"department": dept.Values[0]})
	if err != nil || len(name.Values) == 0 {
		t.Fatalf("name: %+v, %v", name, err)
	}
	promo, err := h.sup.GetPrompt(ctx, sess, connectorID, "completable-prompt", map[string]string{"department": dept.Values[0], "name": name.Values[0]})
	if err != nil {
		t.Fatal(err)
	}
	embedded, err := h.sup.GetPrompt(ctx, sess, connectorID, "resource-prompt", map[string]string{"resourceType": "Text", "resourceId": "6"})
	if err != nil {
		t.Fatal(err)
	}
	msg := chat.Message{ID: "u1", Role: chat.RoleUser, Parts: append(promo.Parts(), embedded.Parts()...)}
	for provider, send := range providerFakes(t) {
		body := send(chat.Request{Messages: []chat.Message{msg}})
		for _, want := range []string{"Please promote David to the head of the Sales team.", "demo://resource/dynamic/text/6", "Resource 6: This is a plaintext resource"} {
			if !strings.Contains(body, want) {
				t.Errorf("%s: the request lacks %q", provider, want)
			}
		}
	}
}

func (s *Supervisor) mustRunner(t testing.TB, id string) *runner {
	t.Helper()
	r, err := s.runner(id)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
