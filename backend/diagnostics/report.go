package diagnostics

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"unicode/utf8"
)

// Report is what the app knows about itself, to be rendered by Text.
type Report struct {
	App     string // Maestro's version
	WebKit  string // WebKitGTK's runtime version, "" when not known
	OS      string // e.g. "Debian GNU/Linux 12 (bookworm)"
	DataDir string
	// Keychain is the system keychain's state in a sentence.
	Keychain   string
	Providers  []Provider
	Connectors []Connector
	// Log is the tail of maestro.log, oldest line first.
	Log []string
}

// Provider is one provider's sign-in state.
type Provider struct {
	Name  string // display name, e.g. "Claude"
	State string // e.g. "signed in (subscription)", "API key", "signed out"
}

// Connector is one MCP connector's state.
type Connector struct {
	Name     string
	State    string // ready, starting, failed, off…
	Protocol string // the negotiated protocol version, "" before a connection
	Detail   string // the error or the server's name and version
}

// Versions of the parts the app is built from, read from the binary.
type Versions struct {
	Go       string
	Wails    string
	MCP      string // mark3labs/mcp-go
	Platform string // GOOS/GOARCH
}

// BuildVersions reads the module versions compiled into the binary.
func BuildVersions() Versions {
	v := Versions{Go: runtime.Version(), Wails: "unknown", MCP: "unknown", Platform: runtime.GOOS + "/" + runtime.GOARCH}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	for _, m := range info.Deps {
		if m.Replace != nil {
			m = m.Replace
		}
		switch m.Path {
		case "github.com/wailsapp/wails/v2":
			v.Wails = m.Version
		case "github.com/mark3labs/mcp-go":
			v.MCP = m.Version
		}
	}
	return v
}

// Text renders r and v as plain text for a bug report, with every value in
// secrets and every credential-shaped string removed.
func Text(r Report, v Versions, secrets []string) string {
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	line("Maestro diagnostics")
	line("")
	line("Maestro:   %s", orUnknown(r.App))
	line("Go:        %s", orUnknown(v.Go))
	line("Wails:     %s", orUnknown(v.Wails))
	line("WebKitGTK: %s", orUnknown(r.WebKit))
	line("mcp-go:    %s", orUnknown(v.MCP))
	line("OS:        %s (%s)", orUnknown(r.OS), orUnknown(v.Platform))
	line("Data:      %s", orUnknown(r.DataDir))
	line("Keychain:  %s", orUnknown(r.Keychain))
	line("")
	line("Providers")
	for _, p := range r.Providers {
		line("- %s: %s", p.Name, p.State)
	}
	line("")
	line("Connectors (%d)", len(r.Connectors))
	for _, c := range r.Connectors {
		proto := c.Protocol
		if proto == "" {
			proto = "no connection"
		}
		// "Name (state, …)", not "Name: state": a name such as "Secret
		// Manager" followed by a colon reads as a credential field to
		// Redact, which would blank the state.
		s := fmt.Sprintf("- %s (%s, protocol %s)", c.Name, c.State, proto)
		if c.Detail != "" {
			s += ": " + oneLine(c.Detail)
		}
		line("%s", s)
	}
	line("")
	line("Log (last %d lines)", len(r.Log))
	for _, l := range r.Log {
		line("%s", l)
	}
	return cutLines(Redact(b.String(), secrets), maxLineBytes)
}

// maxLineBytes bounds one line of the report (a long log line, a long
// error).
const maxLineBytes = 2 << 10

// cutLines cuts every line of s to max bytes, on a rune boundary.
func cutLines(s string, max int) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if len(l) <= max {
			continue
		}
		cut := max
		for cut > 0 && !utf8.RuneStart(l[cut]) {
			cut--
		}
		lines[i] = l[:cut] + "…"
	}
	return strings.Join(lines, "\n")
}

func orUnknown(s string) string {
	if strings.TrimSpace(s) == "" {
		return "unknown"
	}
	return s
}

// oneLine puts a detail on one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// OSName reads PRETTY_NAME from an os-release file (/etc/os-release).
func OSName(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "PRETTY_NAME="); ok {
			return strings.Trim(strings.TrimSpace(v), `"'`)
		}
	}
	return ""
}
