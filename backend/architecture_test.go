// The rules of Maestro's layout (docs/ARCHITECTURE.md), checked on the
// source: which package may import which, and how long a file may grow.
// The complexity rule (no function over 25) is gocyclo's, run by make
// test-go.
package backend_test

import (
	"bufio"
	"bytes"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// importRules say what each part of backend/ may import, directly or
// through other packages of Maestro's. Packages are named by their path in
// the module; "x/..." is x and everything below it. Only the code that
// ships is checked: a test may import across these lines (openai's tests
// run backend/tools' normaliser on OpenAI's dialect) as long as Go allows
// it.
var importRules = []struct {
	pkgs string
	rule string
	// allowed reports whether an import (a package of Maestro's by its
	// path in the module, or another module's package by its import path)
	// is allowed.
	allowed func(imp string) bool
}{
	{"backend/chat", "imports nothing of Maestro's", only()},
	{"backend/desktop", "imports nothing of Maestro's", only()},
	{"backend/diagnostics", "imports nothing of Maestro's", only()},
	{"backend/agent", "imports only backend/chat of Maestro's", only("backend/chat")},
	{"backend/tools", "imports only backend/chat of Maestro's", only("backend/chat")},
	{"backend/providers/...", "never imports backend/mcp, backend/tools or backend/agent",
		never("backend/mcp/...", "backend/tools/...", "backend/agent/...")},
	{"backend/mcp/...", "never imports backend/providers", never("backend/providers/...")},
	{"backend/toolbox", "imports only backend/agent, backend/tools, backend/mcp and what they import",
		only("backend/chat", "backend/agent", "backend/tools", "backend/mcp", "backend/auth")},
	{"backend/sampling", "never imports backend/providers or backend/store (it is given models and sessions)",
		never("backend/providers/...", "backend/store/...")},
	{"backend/export", "imports only backend/chat and backend/agent", only("backend/chat", "backend/agent")},
	{"backend/...", "never imports app or Wails", never("app/...", "github.com/wailsapp/...")},
}

// maxFileLines bounds a Go file that is neither a test nor generated.
const maxFileLines = 600

func TestImportDirection(t *testing.T) {
	t.Parallel()
	root, module := moduleRoot(t)
	pkgs := parseImports(t, root, module)
	for _, r := range importRules {
		for _, pkg := range sortedKeys(pkgs) {
			if !matches(r.pkgs, pkg) {
				continue
			}
			for _, imp := range reachable(pkgs, pkg) {
				if !r.allowed(imp.path) {
					t.Errorf("%s imports %s%s: %s %s", pkg, display(module, imp.path), imp.via, r.pkgs, r.rule)
				}
			}
		}
	}
}

func TestFileLength(t *testing.T) {
	t.Parallel()
	root, _ := moduleRoot(t)
	for _, path := range goFiles(t, root) {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		n, generated := lineCount(t, filepath.Join(root, path))
		if !generated && n > maxFileLines {
			t.Errorf("%s has %d lines; a Go file that is not a test or generated has at most %d", path, n, maxFileLines)
		}
	}
}

// only allows the listed packages of Maestro's, and any other module's.
func only(ours ...string) func(string) bool {
	return func(imp string) bool { return !isOurs(imp) || slices.Contains(ours, imp) }
}

// never allows everything but the listed packages or trees.
func never(pkgs ...string) func(string) bool {
	return func(imp string) bool {
		return !slices.ContainsFunc(pkgs, func(p string) bool { return matches(p, imp) })
	}
}

// isOurs tells Maestro's packages (paths in the module, with no dot in
// their first element) from other modules' (github.com/…, golang.org/…)
// and the standard library's (which have no dot either, but are never
// imported under the module's path, so parseImports leaves them out).
func isOurs(imp string) bool {
	first, _, _ := strings.Cut(imp, "/")
	return !strings.Contains(first, ".")
}

func matches(pattern, pkg string) bool {
	if tree, ok := strings.CutSuffix(pattern, "/..."); ok {
		return pkg == tree || strings.HasPrefix(pkg, tree+"/")
	}
	return pkg == pattern
}

// pkgImports maps a package of Maestro's (its path in the module) to what
// its shipped files import: Maestro's packages by their path in the
// module, other modules' by their import path. The standard library is
// left out.
type pkgImports map[string][]string

func parseImports(t *testing.T, root, module string) pkgImports {
	t.Helper()
	pkgs := pkgImports{}
	fset := token.NewFileSet()
	for _, path := range goFiles(t, root) {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(root, path), nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		pkg := filepath.ToSlash(filepath.Dir(path))
		if _, ok := pkgs[pkg]; !ok {
			pkgs[pkg] = nil
		}
		for _, is := range f.Imports {
			imp, err := strconv.Unquote(is.Path.Value)
			if err != nil {
				t.Fatal(err)
			}
			if rel, ok := strings.CutPrefix(imp, module+"/"); ok {
				imp = rel
			} else if !strings.Contains(strings.Split(imp, "/")[0], ".") {
				continue // the standard library
			}
			if !slices.Contains(pkgs[pkg], imp) {
				pkgs[pkg] = append(pkgs[pkg], imp)
			}
		}
	}
	return pkgs
}

type reached struct {
	path string
	via  string // " (through a, b)" when not imported directly
}

// reachable lists everything pkg imports, directly or through packages of
// Maestro's, each once, with the shortest chain that reaches it.
func reachable(pkgs pkgImports, pkg string) []reached {
	parent := map[string]string{pkg: ""}
	queue := []string{pkg}
	var out []reached
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, imp := range pkgs[cur] {
			if _, seen := parent[imp]; seen {
				continue
			}
			parent[imp] = cur
			out = append(out, reached{path: imp, via: chain(parent, cur, pkg)})
			if isOurs(imp) {
				queue = append(queue, imp)
			}
		}
	}
	return out
}

func chain(parent map[string]string, from, root string) string {
	var steps []string
	for p := from; p != root; p = parent[p] {
		steps = append([]string{p}, steps...)
	}
	if len(steps) == 0 {
		return ""
	}
	return " (through " + strings.Join(steps, ", ") + ")"
}

func display(module, imp string) string {
	if isOurs(imp) {
		return module + "/" + imp
	}
	return imp
}

// moduleRoot finds go.mod above the test's folder and reads the module path.
func moduleRoot(t *testing.T) (root, module string) {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			m := regexp.MustCompile(`(?m)^module\s+(\S+)`).FindSubmatch(data)
			if m == nil {
				t.Fatalf("%s/go.mod names no module", dir)
			}
			return dir, string(m[1])
		}
		if parent := filepath.Dir(dir); parent != dir {
			dir = parent
			continue
		}
		t.Fatal("no go.mod above the test")
	}
}

// goFiles lists the module's Go files, relative to root, leaving out what
// Go leaves out of packages (testdata, and folders starting with . or _)
// and the frontend's dependencies.
func goFiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && path != root && (name == "testdata" || name == "node_modules" ||
			strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(name, ".go") {
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// generatedRE is the marker of a generated Go file (go help generate).
var generatedRE = regexp.MustCompile(`^// Code generated .* DO NOT EDIT\.$`)

// lineCount counts a file's lines and reports whether it is generated.
func lineCount(t *testing.T, path string) (int, bool) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	generated := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "package ") {
			break
		}
		generated = generated || generatedRE.MatchString(line)
	}
	return bytes.Count(data, []byte("\n")) + boolInt(len(data) > 0 && data[len(data)-1] != '\n'), generated
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func sortedKeys(m pkgImports) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
