package diagnostics

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// planted are secrets of every kind the app holds or a log may carry.
var planted = map[string]string{
	"anthropic key":    "sk-ant-api03-Zx9yQ2wE4rT6uI8oP0aS1dF3gH5jK7lZ",
	"openai key":       "sk-proj-Abc123Def456Ghi789Jkl012Mno345",
	"gemini key":       "AIzaSyD-planted-9f8e7d6c5b4a3b2c1d0e",
	"google access":    "ya29.a0AfH6SMBplantedAccessTokenValue123",
	"google refresh":   "1//0gPlantedRefreshTokenValue-abcdefgh",
	"jwt":              "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJwbGFudGVkIn0.c2lnbmF0dXJlLXBsYW50ZWQ",
	"github token":     "ghp_PlantedGithubToken1234567890abcd",
	"connector env":    "hunter2-correct-horse-battery",
	"connector header": "X7pQ-planted-header-value",
	"argument secret":  "argsecret-planted-42",
	"oauth client":     "planted-client-secret-zz",
	"query token":      "qtok-planted-998877",
	"bearer in log":    "opaqueBearerPlanted0099",
	"password field":   "pw-planted-Q1W2E3",
}

// report plants every secret somewhere a careless report would show it.
func report() (Report, []string) {
	p := planted
	known := []string{p["anthropic key"], p["connector env"], p["connector header"], p["argument secret"]}
	return Report{
		App: "1.2.3", WebKit: "2.50.6", OS: "Debian GNU/Linux 12 (bookworm)",
		DataDir:  "/home/ada/.local/share/maestro",
		Keychain: "The system keychain is available.",
		Providers: []Provider{
			{Name: "ChatGPT", State: "signed out"},
			{Name: "Claude", State: "API key"},
			{Name: "Gemini", State: "signed in (subscription)"},
		},
		Connectors: []Connector{
			{Name: "Everything", State: "ready", Protocol: "2025-11-25", Detail: "mcp-servers/everything 2.0.0"},
			{Name: "GitHub", State: "failed", Detail: "npx -y server --token " + p["argument secret"] + " exited: GITHUB_TOKEN=" + p["github token"]},
			{Name: "Files", State: "starting"},
			{Name: "Secret Manager", State: "ready", Protocol: "2026-07-28"},
		},
		Log: []string{
			`{"level":"INFO","msg":"turn done","input_tokens":1234,"output_tokens":56}`,
			`{"level":"WARN","msg":"request","header":"Authorization: Bearer ` + p["bearer in log"] + `"}`,
			`{"level":"ERROR","msg":"refresh","body":{"access_token":"` + p["google access"] + `","refresh_token":"` + p["google refresh"] + `","id_token":"` + p["jwt"] + `"}}`,
			`{"level":"INFO","msg":"open","url":"https://auth.example/cb?state=s1&access_token=` + p["query token"] + `&x=1"}`,
			`{"level":"INFO","msg":"keys","gemini":"` + p["gemini key"] + `","openai":"` + p["openai key"] + `"}`,
			`{"level":"INFO","msg":"connector env","env":"API_TOKEN=` + p["connector env"] + `","header":"` + p["connector header"] + `"}`,
			`{"level":"INFO","msg":"login","form":"client_secret=` + p["oauth client"] + `&password=` + p["password field"] + `"}`,
			`{"level":"INFO","msg":"long","v":"` + strings.Repeat("x", 2040) + p["connector env"] + `"}`,
		},
	}, known
}

func TestTextHasNoPlantedSecret(t *testing.T) {
	t.Parallel()
	r, known := report()
	text := Text(r, Versions{Go: "go1.26.8", Wails: "v2.15.0", MCP: "v1.2.1", Platform: "linux/amd64"}, known)
	for name, secret := range planted {
		// No 8-byte piece of any secret may survive: a cut or a partial
		// match would leave one.
		for i := 0; i+8 <= len(secret); i++ {
			if piece := secret[i : i+8]; strings.Contains(text, piece) {
				t.Errorf("the %s leaks: %q (from %q) is in the report", name, piece, secret)
				break
			}
		}
	}
	for _, keep := range []string{`"input_tokens":1234`, "Everything (ready, protocol 2025-11-25)", "Files (starting, protocol no connection)",
		"Secret Manager (ready, protocol 2026-07-28)", "WebKitGTK: 2.50.6", "Claude: API key"} {
		if !strings.Contains(text, keep) {
			t.Errorf("the report lost %q, which is no secret", keep)
		}
	}
	golden := filepath.Join("testdata", "report.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if text != string(want) {
		t.Errorf("the report differs from %s (run with -update and read the diff):\n%s", golden, text)
	}
}

func TestRedact(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		secrets  []string
		want     string
	}{
		{"exact value", "env FOO=abcdef123 set", []string{"abcdef123"}, "env FOO=[redacted] set"},
		{"short values are not matched", "a yes b", []string{"yes"}, "a yes b"},
		{"the longer of two overlapping secrets goes whole", "k=secretvalue-long", []string{"secretvalue", "secretvalue-long"}, "k=[redacted]"},
		{"bearer", "Authorization: Bearer abc.def-ghi", nil, "Authorization: Bearer [redacted]"},
		{"json token field", `{"refresh_token":"r-123456"}`, nil, `{"refresh_token":"[redacted]"}`},
		{"counts stay", `{"max_tokens":8192,"cached_tokens":0}`, nil, `{"max_tokens":8192,"cached_tokens":0}`},
		{"query parameter", "GET /cb?code=abc123&state=xyz", nil, "GET /cb?code=[redacted]&state=xyz"},
		{"flag", "run --api-key=abcd1234 --verbose", nil, "run --api-key=[redacted] --verbose"},
		{"URL password", "Remote (ready) https://me:hunter22@mcp.example.com/mcp", nil, "Remote (ready) https://me:[redacted]@mcp.example.com/mcp"},
		{"URL user only, and a port", "https://me@mcp.example.com:8443/mcp", nil, "https://me@mcp.example.com:8443/mcp"},
		{"plain text stays", "the model used 3 tools and a key idea", nil, "the model used 3 tools and a key idea"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := Redact(tt.in, tt.secrets); got != tt.want {
				t.Errorf("Redact(%q) = %q; want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestLogTail(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if lines, err := LogTail(filepath.Join(dir, "missing.log"), 10); err != nil || lines != nil {
		t.Errorf("missing log: %v, %v; want no lines and no error", lines, err)
	}
	small := filepath.Join(dir, "small.log")
	os.WriteFile(small, []byte("one\ntwo\nthree\n"), 0o600)
	if lines, _ := LogTail(small, 2); strings.Join(lines, "|") != "two|three" {
		t.Errorf("last 2 of 3 lines = %q", lines)
	}
	empty := filepath.Join(dir, "empty.log")
	os.WriteFile(empty, nil, 0o600)
	if lines, err := LogTail(empty, 5); err != nil || len(lines) != 0 {
		t.Errorf("empty log: %q, %v", lines, err)
	}
	// A log far over the read bound: only whole lines from its end.
	big := filepath.Join(dir, "big.log")
	var b strings.Builder
	for i := 0; b.Len() < 3*maxTailBytes; i++ {
		b.WriteString(strings.Repeat("y", 97) + "\n")
	}
	b.WriteString("last \xff line\n")
	os.WriteFile(big, []byte(b.String()), 0o600)
	lines, err := LogTail(big, 100000)
	if err != nil {
		t.Fatal(err)
	}
	if got := lines[len(lines)-1]; got != "last \uFFFD line" {
		t.Errorf("last line = %q; want invalid UTF-8 replaced", got)
	}
	if len(lines[0]) != 97 {
		t.Errorf("first line has %d bytes; want a whole line (97), the cut one dropped", len(lines[0]))
	}
	total := 0
	for _, l := range lines {
		total += len(l) + 1
	}
	if total > maxTailBytes {
		t.Errorf("read %d bytes of lines; want at most %d", total, maxTailBytes)
	}
}

func TestOSName(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "os-release")
	os.WriteFile(p, []byte("NAME=\"Debian GNU/Linux\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nID=debian\n"), 0o600)
	if got := OSName(p); got != "Debian GNU/Linux 12 (bookworm)" {
		t.Errorf("OSName = %q", got)
	}
	if got := OSName(filepath.Join(t.TempDir(), "none")); got != "" {
		t.Errorf("OSName of a missing file = %q; want empty", got)
	}
}
