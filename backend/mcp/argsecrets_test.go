package mcp

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestSuggestSecretArgs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want []int
	}{
		{[]string{"-y", "@modelcontextprotocol/server-github", "--token=ghp_abc"}, []int{2}},
		{[]string{"--api-key", "abc123def"}, []int{1}},
		{[]string{"--header", "Authorization: Bearer eyJhbGciOi.x.y"}, []int{1}},
		{[]string{"-e", "GITHUB_PERSONAL_ACCESS_TOKEN=ghp_0123456789abcdefghij0123"}, []int{1}},
		{[]string{"run", "sk-ant-api03-abcdefghijklmnopqrstuv"}, []int{1}},
		{[]string{"--key", "AIzaSyA0123456789abcdefghijklmnopqrstu"}, []int{1}},
		{[]string{"xoxb-1234567890-abcdefghij", "glpat-abcdefghijklmnopqrst"}, []int{0, 1}},
		{[]string{"--db", "postgres://me:hunter2@localhost/db"}, []int{1}},
		{[]string{"DB_PASSWORD=hunter2"}, []int{0}},
		// Not secrets: paths, variables, names that only contain a word.
		{[]string{"--token-file", "/run/secrets/token", "--token=$TOKEN", "--sort-key=name"}, nil},
		{[]string{"-y", "@modelcontextprotocol/server-filesystem", "/home/me"}, nil},
		{[]string{"--api-key"}, nil},
		{[]string{"--token=${secret:1}"}, nil},
		{[]string{"sk-learn"}, nil},
	}
	for _, tt := range tests {
		if got := SuggestSecretArgs(tt.args); !slices.Equal(got, tt.want) {
			t.Errorf("SuggestSecretArgs(%q) = %v; want %v", tt.args, got, tt.want)
		}
	}
}

func TestHideArgSecrets(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		args        []string
		old         []string // ArgSecrets before
		marked      []int
		wantArgs    []string
		wantSecrets []string
		wantErr     string
	}{
		{"the value of a flag", []string{"--token=s3cret", "-v"}, nil, []int{0},
			[]string{"--token=${secret:1}", "-v"}, []string{"s3cret"}, ""},
		{"a bearer header keeps its name", []string{"--header", "Authorization: Bearer abc.def.ghi"}, nil, []int{1},
			[]string{"--header", "Authorization: Bearer ${secret:1}"}, []string{"abc.def.ghi"}, ""},
		{"any argument the user marks", []string{"serve", "plain-looking"}, nil, []int{1},
			[]string{"serve", "${secret:1}"}, []string{"plain-looking"}, ""},
		{"kept references renumbered", []string{"--a=${secret:2}", "--token=new"}, []string{"gone", "kept"}, []int{1},
			[]string{"--a=${secret:1}", "--token=${secret:2}"}, []string{"kept", "new"}, ""},
		{"a reference without its secret", []string{"--token=${secret:3}"}, []string{"x"}, nil,
			nil, nil, "not stored"},
		{"an index out of range", []string{"a"}, nil, []int{4}, nil, nil, "no argument 5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := Connector{Name: "x", Command: "x", Args: tt.args, ArgSecrets: tt.old}
			_, err := c.HideArgSecrets(tt.marked)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("HideArgSecrets: %v; want an error with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(c.Args, tt.wantArgs) || !slices.Equal(c.ArgSecrets, tt.wantSecrets) {
				t.Errorf("got args %q secrets %q; want %q %q", c.Args, c.ArgSecrets, tt.wantArgs, tt.wantSecrets)
			}
			run, err := c.RunArgs()
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range run {
				if hasSecretRef(a) {
					t.Errorf("RunArgs left a reference: %q", run)
				}
			}
		})
	}
}

// TestArgumentSecretsStayInTheKeychain: a stdio connector with a token in
// its arguments. The store, the state events, the connector's log and the
// status never hold the token; the server process gets it.
func TestArgumentSecretsStayInTheKeychain(t *testing.T) {
	t.Parallel()
	const token = "ghp_0123456789abcdefghijABCDEFGHIJ"
	h := newHarness(t)
	ctx := t.Context()
	c := selfServer(t, "Args", "serve")
	c.Args = []string{"--token=" + token, "--verbose"}
	if _, err := c.HideArgSecrets(SuggestSecretArgs(c.Args)); err != nil {
		t.Fatal(err)
	}
	c = h.add(c)
	if st := h.settle(c.ID); st.State != StateReady {
		t.Fatalf("state = %+v", st)
	}
	sess := h.session(c.ID)
	if got := text(t, h.call(ctx, sess, "args.args", `{}`, nil)); !strings.Contains(got, "--token="+token) {
		t.Errorf("the server's arguments = %q; want the token filled in", got)
	}

	raws, err := h.st.Connectors(ctx)
	if err != nil {
		t.Fatal(err)
	}
	h.events.mu.Lock()
	events, _ := json.Marshal(struct {
		S []ConnectorStatus
		L []LogLine
	}{h.events.states, h.events.logs})
	h.events.mu.Unlock()
	logs, _ := h.sup.Logs(c.ID)
	logText, _ := json.Marshal(logs)
	for what, b := range map[string][]byte{"the store": raws[0], "the events": events, "the log": logText} {
		if strings.Contains(string(b), token) {
			t.Errorf("%s holds the token: %s", what, b)
		}
	}
	if !strings.Contains(string(raws[0]), `--token=${secret:1}`) {
		t.Errorf("stored = %s; want the reference", raws[0])
	}
	if v, _ := h.secrets.Get(ctx, secretsAccount(c.ID)); !strings.Contains(v, token) {
		t.Errorf("keychain = %q; want the token", v)
	}

	// A second supervisor gets it back from the keychain.
	sup2 := NewSupervisor(WithConnectorStore(h.st), WithSecrets(h.secrets))
	defer sup2.Close()
	if err := sup2.Start(ctx); err != nil {
		t.Fatal(err)
	}
	got, err := sup2.Connector(c.ID)
	if run, _ := got.RunArgs(); err != nil || !slices.Equal(run, []string{"--token=" + token, "--verbose"}) {
		t.Errorf("loaded args = %q (run %q), %v", got.Args, run, err)
	}
	// The mcpServers export is the file the user asked for: it works
	// elsewhere, so it has the value (as it has env values).
	out, err := sup2.Export()
	if err != nil || !strings.Contains(string(out), "--token="+token) {
		t.Errorf("export = %s, %v; want the token filled in", out, err)
	}
}

func TestImportMovesArgumentSecrets(t *testing.T) {
	t.Parallel()
	const key = "sk-ant-api03-abcdefghijklmnopqrstuvwx"
	file := `{"mcpServers": {"claude": {"command": "npx", "args": ["-y", "some-server", "--api-key", "` + key + `"]}}}`
	h := newHarness(t)
	rep, err := h.sup.Import(t.Context(), []byte(file))
	if err != nil || rep.Imported() != 1 {
		t.Fatalf("import = %+v, %v", rep, err)
	}
	e := rep.Entries[0]
	if !slices.Contains(e.Notes, "argument 4 looked like a secret: its value is kept in the keychain") {
		t.Errorf("notes = %q", e.Notes)
	}
	raws, _ := h.st.Connectors(t.Context())
	if len(raws) != 1 || strings.Contains(string(raws[0]), key) {
		t.Errorf("stored = %s; want no key", raws)
	}
	got, _ := h.sup.Connector(e.Connector.ID)
	if run, err := got.RunArgs(); err != nil || run[3] != key {
		t.Errorf("run args = %q, %v", run, err)
	}

	// Without a keychain the server is imported as it was, with a note.
	plain := NewSupervisor(WithConnectorStore(openStore(t, "")))
	defer plain.Close()
	rep, err = plain.Import(t.Context(), []byte(file))
	if err != nil || rep.Imported() != 1 || !slices.ContainsFunc(rep.Entries[0].Notes, func(n string) bool { return strings.Contains(n, "no keychain") }) {
		t.Errorf("import without a keychain = %+v, %v", rep, err)
	}
}

// TestStartMovesOldArgumentSecrets: a connector stored before secret
// arguments existed, with a token in plain text, has it moved to the
// keychain once at start (with a note); one whose arguments the user
// already chose about is left as it is.
func TestStartMovesOldArgumentSecrets(t *testing.T) {
	t.Parallel()
	const token = "ghp_0123456789abcdefghijABCDEFGHIJ"
	h := newHarness(t)
	ctx := t.Context()
	old := Connector{ID: "old", Name: "Old", Transport: TransportStdio, Command: "true", Args: []string{"--token=" + token}}
	chosen := Connector{ID: "chosen", Name: "Chosen", Transport: TransportStdio, Command: "true", Args: []string{"--token=" + token}, ArgsChecked: true}
	for _, c := range []Connector{old, chosen} {
		if err := h.st.PutConnector(ctx, c.ID, storedConnector{Connector: c}); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.sup.Start(ctx); err != nil {
		t.Fatal(err)
	}
	raws, _ := h.st.Connectors(ctx)
	for _, raw := range raws {
		var st storedConnector
		_ = json.Unmarshal(raw, &st)
		if plain := strings.Contains(string(raw), token); plain != (st.ID == "chosen") {
			t.Errorf("%s stored with the token in plain text: %v; want %v", st.ID, plain, st.ID == "chosen")
		}
	}
	got, _ := h.sup.Connector("old")
	if run, err := got.RunArgs(); err != nil || run[0] != "--token="+token || !got.ArgsChecked {
		t.Errorf("old connector: args %q run %q, checked %v, %v", got.Args, run, got.ArgsChecked, err)
	}
	logs, _ := h.sup.Logs("old")
	if !slices.ContainsFunc(logs, func(l LogLine) bool { return strings.Contains(l.Text, "argument 1 looked like a secret") }) {
		t.Errorf("log = %+v; want the note", logs)
	}
}
