package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"maestro/backend/chat"
)

func TestRedactArguments(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{`{"path":"/tmp/notes.txt","count":3}`, `{"count":3,"path":"/tmp/notes.txt"}`},
		{`{"token":"abc123","apiKey":"k-1","password":"hunter2","sort_key":"name"}`,
			`{"apiKey":"[redacted]","password":"[redacted]","sort_key":"name","token":"[redacted]"}`},
		{`{"headers":{"Authorization":"Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig"}}`, `{"headers":{"Authorization":"Bearer [redacted]"}}`},
		{`{"note":"use ghp_abcdefghijklmnopqrstuvwxyz0123 to push","url":"https://bob:s3cr3t@example.com/x"}`,
			`{"note":"use [redacted] to push","url":"https://bob:[redacted]@example.com/x"}`},
		{`{"args":["--token=abc123def","--verbose"]}`, `{"args":["--token=[redacted]","--verbose"]}`},
		{`{"big":12345678901234567890}`, `{"big":12345678901234567890}`},
		{`not json Bearer abcdefgh12345`, `"not json Bearer [redacted]"`},
		{``, ``},
	} {
		if got := string(RedactArguments(json.RawMessage(tc.in))); got != tc.want {
			t.Errorf("RedactArguments(%s) = %s\nwant %s", tc.in, got, tc.want)
		}
	}
	huge := `{"text":"` + strings.Repeat("a", 100<<10) + `"}`
	got := RedactArguments(json.RawMessage(huge))
	if len(got) > auditArgsCap || !bytes.Contains(got, []byte(`"truncated"`)) {
		t.Errorf("huge arguments kept %d bytes", len(got))
	}
}

// TestAuditLog: records are kept per connector, redacted, and exported as
// JSON Lines, oldest first.
func TestAuditLog(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	log := NewAuditLog(openStore(t, ""))
	at := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)
	for i, r := range []chat.AuditRecord{
		{ConnectorID: "c1", Tool: "files.write", Arguments: json.RawMessage(`{"path":"/a","token":"t0p-s3cret"}`),
			ApprovedBy: chat.ApprovedByUser, How: chat.HowAllowOnce, Outcome: chat.OutcomeOK, DurationMS: 12},
		{ConnectorID: "c2", Tool: "web.fetch", ApprovedBy: chat.ApprovedByPolicy, How: chat.HowReadOnly, Outcome: chat.OutcomeOK},
		{ConnectorID: "c1", Tool: "files.delete", Arguments: json.RawMessage(`{"path":"/"}`), ApprovedBy: chat.ApprovedByUser,
			How: chat.HowDenied, Outcome: chat.OutcomeDenied, Error: "the user denied this tool call"},
		{ConnectorID: "c1", Tool: "files.login", ApprovedBy: chat.ApprovedByGrant, How: chat.HowAlwaysAllChats,
			Outcome: chat.OutcomeError, Error: "401: Bearer abcdefgh12345678 expired"},
	} {
		r.Time, r.SessionID, r.CallID = at.Add(time.Duration(i)*time.Minute), "s1", "call-"+string(rune('a'+i))
		if err := log.Record(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	recs, err := log.Records(ctx, "c1")
	if err != nil || len(recs) != 3 || recs[0].Tool != "files.write" || recs[2].Tool != "files.login" {
		t.Fatalf("records of c1 = %+v, %v", recs, err)
	}
	var buf bytes.Buffer
	if err := log.Export(ctx, "c1", &buf); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "t0p-s3cret") || strings.Contains(buf.String(), "abcdefgh12345678") {
		t.Errorf("a secret reached the export:\n%s", buf.String())
	}
	sc := bufio.NewScanner(&buf)
	n := 0
	for sc.Scan() {
		var r chat.AuditRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("line %d is not a record: %v: %s", n+1, err, sc.Text())
		}
		n++
	}
	if n != 3 {
		t.Errorf("%d lines, want 3", n)
	}
	if err := log.Forget(ctx, "c1"); err != nil {
		t.Fatal(err)
	}
	if recs, _ := log.Records(ctx, "c1"); len(recs) != 0 {
		t.Errorf("records after Forget = %+v", recs)
	}
	if recs, _ := log.Records(ctx, "c2"); len(recs) != 1 {
		t.Errorf("another connector's records went too")
	}
}
