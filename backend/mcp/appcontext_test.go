package mcp

import (
	"fmt"
	"strings"
	"testing"

	"maestro/backend/chat"
)

var testApp = chat.ToolApp{ConnectorID: "c1", ResourceURI: "ui://clock/app.html", Tool: "get-time"}

// texts are the parts' contexts as the view said them.
func texts(parts []chat.ResourcePart) []string {
	out := make([]string, len(parts))
	for i, p := range parts {
		_, out[i], _ = strings.Cut(p.Text, ":\n")
	}
	return out
}

func TestAppContextsSet(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		app        chat.ToolApp
		text, json string
		wantErr    string
	}{
		{"text", testApp, "row 3 selected", "", ""},
		{"structured", testApp, "", `{"row":3}`, ""},
		{"not a ui:// resource", chat.ToolApp{ConnectorID: "c1", ResourceURI: "https://evil.example/x", Tool: "t"}, "x", "", "ui:// resource"},
		{"no connector", chat.ToolApp{ResourceURI: "ui://a"}, "x", "", "ui:// resource"},
		{"too big", testApp, strings.Repeat("a", MaxAppContext+1), "", "at most 16 KiB"},
		{"not UTF-8", testApp, "\xff\xfe", "", "UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var a AppContexts
			err := a.Set("s1", "call-1", tt.app, "Clock", tt.text, tt.json)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Set = %v; want an error saying %q", err, tt.wantErr)
				}
				if parts, _ := a.Pending("s1"); len(parts) != 0 {
					t.Errorf("a refused context is pending: %+v", parts)
				}
				return
			}
			if err != nil {
				t.Fatalf("Set: %v", err)
			}
			parts, _ := a.Pending("s1")
			if len(parts) != 1 {
				t.Fatalf("pending = %+v; want one", parts)
			}
			p := parts[0]
			if p.URI != tt.app.ResourceURI || p.ConnectorID != "c1" || p.Server != "Clock" || !strings.HasSuffix(p.Text, ":\n"+strings.TrimSpace(tt.text+"\n"+tt.json)) {
				t.Errorf("part = %+v", p)
			}
			if h := p.ModelText(); !strings.Contains(h, `"State of the get-time app" ui://clock/app.html from Clock`) || !strings.Contains(h, "not a request from the user") {
				t.Errorf("the model reads %q; want it to name the app and say it is not the user", h)
			}
		})
	}
}

// TestAppContextsPending: a view's newer update replaces its older one;
// the newest views win past the cap; sent forgets only what was sent, so
// an update that arrives while the message is stored waits for the next.
func TestAppContextsPending(t *testing.T) {
	t.Parallel()
	var a AppContexts
	set := func(call, text string) {
		t.Helper()
		if err := a.Set("s1", call, testApp, "Clock", text, ""); err != nil {
			t.Fatal(err)
		}
	}
	set("v1", "old")
	set("v2", "two")
	set("v1", "new")
	if err := a.Set("s2", "v9", testApp, "Clock", "other chat", ""); err != nil {
		t.Fatal(err)
	}
	parts, sent := a.Pending("s1")
	if got := fmt.Sprint(texts(parts)); got != "[two new]" {
		t.Errorf("pending = %s; want [two new] (v1's newer update replaces its old one)", got)
	}
	set("v2", "three") // arrives while the message is being stored
	sent()
	if parts, _ := a.Pending("s1"); fmt.Sprint(texts(parts)) != "[three]" {
		t.Errorf("after sent: %v; want [three] kept for the next message", texts(parts))
	}
	if parts, _ := a.Pending("s2"); len(parts) != 1 {
		t.Errorf("another chat's context = %v; want it untouched", texts(parts))
	}
	set("v2", "") // cleared
	if parts, _ := a.Pending("s1"); len(parts) != 0 {
		t.Errorf("after clearing: %v; want none", texts(parts))
	}
	for i := range maxAppContexts + 3 {
		set(fmt.Sprintf("c%02d", i), fmt.Sprintf("t%02d", i))
	}
	parts, _ = a.Pending("s1")
	if got := texts(parts); len(got) != maxAppContexts || got[0] != "t03" || got[len(got)-1] != fmt.Sprintf("t%02d", maxAppContexts+2) {
		t.Errorf("over the cap: %v; want the newest %d", texts(parts), maxAppContexts)
	}
}
