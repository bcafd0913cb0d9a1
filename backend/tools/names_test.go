package tools

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"maestro/backend/chat"
)

// The providers' documented name rules (see names.go for sources).
var nameRegexps = map[string]*regexp.Regexp{
	chat.ProviderOpenAI:    regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`),
	chat.ProviderAnthropic: regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`),
	chat.ProviderGemini:    regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$`),
}

func TestServerSlug(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"plain", "filesystem", "filesystem"},
		{"display name with symbol", "My Files ✓", "my_files"},
		{"hyphen", "my-server", "my_server"},
		{"underscore", "my_server", "my_server"},
		{"dots and spaces", "  api.example.com  v2 ", "api_example_com_v2"},
		{"only unicode", "ファイル", "server"},
		{"empty", "", "server"},
		{"leading digit kept", "1Password", "1password"},
		{"long", strings.Repeat("abcdefghij", 5), "abcdefghijabcdefghijabcd"},
		{"long with separator at the cut", "abcdefghijklmnopqrstuvw xyz", "abcdefghijklmnopqrstuvw"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := ServerSlug(tt.in); got != tt.want {
				t.Errorf("ServerSlug(%q) = %q; want %q", tt.in, got, tt.want)
			}
			if got := ServerSlug(tt.in); len(got) > maxSlugLen || strings.ContainsAny(got, ".") {
				t.Errorf("ServerSlug(%q) = %q: longer than %d or has a dot", tt.in, got, maxSlugLen)
			}
		})
	}
}

func TestExposedName(t *testing.T) {
	t.Parallel()
	long := "srv." + strings.Repeat("x", 90) + "_middle_" + strings.Repeat("y", 100) + "_end"
	tests := []struct {
		name      string
		canonical string
		want      map[string]string // provider → name; "" = only check validity
	}{
		{"simple", "fs.read_file", map[string]string{
			chat.ProviderOpenAI: "fs__read_file", chat.ProviderAnthropic: "fs__read_file", chat.ProviderGemini: "fs__read_file"}},
		{"hyphens kept", "everything.get-sum", map[string]string{
			chat.ProviderOpenAI: "everything__get-sum", chat.ProviderAnthropic: "everything__get-sum", chat.ProviderGemini: "everything__get-sum"}},
		{"unicode becomes one underscore per character", "fs.lire_fichier_élevé", map[string]string{
			chat.ProviderOpenAI: "fs__lire_fichier__lev_", chat.ProviderAnthropic: "fs__lire_fichier__lev_", chat.ProviderGemini: "fs__lire_fichier__lev_"}},
		{"spaces", "fs.read file", map[string]string{
			chat.ProviderOpenAI: "fs__read_file", chat.ProviderAnthropic: "fs__read_file", chat.ProviderGemini: "fs__read_file"}},
		{"dots in the tool name kept for Gemini only", "gh.repos.list", map[string]string{
			chat.ProviderOpenAI: "gh__repos_list", chat.ProviderAnthropic: "gh__repos_list", chat.ProviderGemini: "gh__repos.list"}},
		{"colon kept for Gemini only", "k8s.pods:list", map[string]string{
			chat.ProviderOpenAI: "k8s__pods_list", chat.ProviderAnthropic: "k8s__pods_list", chat.ProviderGemini: "k8s__pods:list"}},
		{"leading digit needs an underscore for Gemini", "1password.get_item", map[string]string{
			chat.ProviderOpenAI: "1password__get_item", chat.ProviderAnthropic: "1password__get_item", chat.ProviderGemini: "_1password__get_item"}},
		{"200 characters", long, map[string]string{
			chat.ProviderOpenAI:    "srv__" + strings.Repeat("x", 27) + "_" + strings.Repeat("y", 27) + "_end",
			chat.ProviderAnthropic: "srv__" + strings.Repeat("x", 27) + "_" + strings.Repeat("y", 27) + "_end",
			chat.ProviderGemini:    "srv__" + strings.Repeat("x", 25) + "..." + strings.Repeat("y", 26) + "_end"}},
		{"no server part", "loose", map[string]string{
			chat.ProviderOpenAI: "loose", chat.ProviderAnthropic: "loose", chat.ProviderGemini: "loose"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for _, p := range Providers {
				got := ExposedName(rulesFor(p), tt.canonical)
				if want := tt.want[p]; got != want {
					t.Errorf("ExposedName(%s, %q) = %q; want %q", p, tt.canonical, got, want)
				}
				if !nameRegexps[p].MatchString(got) {
					t.Errorf("ExposedName(%s, %q) = %q breaks the provider's rule %s", p, tt.canonical, got, nameRegexps[p])
				}
				if !ValidName(rulesFor(p), got) {
					t.Errorf("ValidName(%s, %q) = false; want true", p, got)
				}
			}
		})
	}
}

func TestExposedNamesCollisions(t *testing.T) {
	t.Parallel()
	longA := "srv." + strings.Repeat("a", 100) + "_one_" + strings.Repeat("z", 100)
	longB := "srv." + strings.Repeat("a", 100) + "_two_" + strings.Repeat("z", 100)
	tests := []struct {
		name       string
		canonicals []string
		// suffixed are the canonicals whose names must carry a hash suffix.
		suffixed []string
	}{
		{"prefixed tool vs prefixed server", []string{"a.b__c", "a__b.c"}, []string{"a.b__c", "a__b.c"}},
		{"space vs underscore", []string{"fs.read file", "fs.read_file", "fs.write_file"}, []string{"fs.read file", "fs.read_file"}},
		{"dot vs underscore (not for Gemini)", []string{"gh.repos.list", "gh.repos_list"}, nil},
		{"same head and tail after ellipsis", []string{longA, longB}, []string{longA, longB}},
		{"unicode vs underscore", []string{"fs.é", "fs._"}, []string{"fs.é", "fs._"}},
		{"no collision", []string{"fs.read_file", "fs.write_file"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for _, p := range Providers {
				got := ExposedNames(rulesFor(p), tt.canonicals)
				checkNames(t, p, tt.canonicals, got)
				for i, c := range tt.canonicals {
					base := baseName(rulesFor(p), c)
					wantSuffix := slices.Contains(tt.suffixed, c)
					if tt.name == "dot vs underscore (not for Gemini)" {
						wantSuffix = p != chat.ProviderGemini
					}
					if gotSuffix := got[i] != base; gotSuffix != wantSuffix {
						t.Errorf("%s: %q → %q (base %q): suffixed = %v; want %v", p, c, got[i], base, gotSuffix, wantSuffix)
					}
				}
			}
		})
	}
}

// checkNames asserts the properties every name set must have: valid for the
// provider, unique per canonical, reversible.
func checkNames(t *testing.T, provider string, canonicals, names []string) {
	t.Helper()
	if len(names) != len(canonicals) {
		t.Fatalf("%s: got %d names for %d canonicals", provider, len(names), len(canonicals))
	}
	owner := map[string]string{}
	for i, n := range names {
		if !nameRegexps[provider].MatchString(n) {
			t.Errorf("%s: %q → %q breaks %s", provider, canonicals[i], n, nameRegexps[provider])
		}
		if n == SearchToolName {
			t.Errorf("%s: %q → the reserved name %q", provider, canonicals[i], n)
		}
		if prev, ok := owner[n]; ok && prev != canonicals[i] {
			t.Errorf("%s: %q and %q both → %q", provider, prev, canonicals[i], n)
		}
		owner[n] = canonicals[i]
	}
}

func TestExposedNamesDeterministic(t *testing.T) {
	t.Parallel()
	canon := trickyCanonicals()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, p := range Providers {
		want := map[string]string{}
		for i, n := range ExposedNames(rulesFor(p), canon) {
			want[canon[i]] = n
		}
		checkNames(t, p, canon, ExposedNames(rulesFor(p), canon))
		for range 20 {
			shuffled := slices.Clone(canon)
			rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			for i, n := range ExposedNames(rulesFor(p), shuffled) {
				if want[shuffled[i]] != n {
					t.Fatalf("%s: %q → %q after a shuffle; want %q (order-dependent)", p, shuffled[i], n, want[shuffled[i]])
				}
			}
		}
	}
}

func TestExposedNamesReservedName(t *testing.T) {
	t.Parallel()
	// A canonical without a server part could be exposed as search_tools.
	for _, p := range Providers {
		got := ExposedNames(rulesFor(p), []string{"search_tools", "fs.read"})
		checkNames(t, p, []string{"search_tools", "fs.read"}, got)
	}
}

func trickyCanonicals() []string {
	out := []string{
		"a.b__c", "a__b.c", "fs.read file", "fs.read_file", "fs.read-file", "fs.é", "fs._",
		"gh.repos.list", "gh.repos_list", "1password.get", "_1password.get",
		"srv." + strings.Repeat("q", 200), "srv." + strings.Repeat("q", 199) + "r",
		"my_server.x", "my_server_1a2b.x", "k8s.pods:list", "k8s.pods_list",
	}
	for i := range 40 {
		out = append(out, "bulk.tool_"+strings.Repeat("n", i))
	}
	return out
}

func TestAssignSlugs(t *testing.T) {
	t.Parallel()
	names := map[string]string{
		"01-old": "my-server",
		"02-new": "my_server",
		"03":     "My Server",
		"04":     "Files ✓",
	}
	got := assignSlugs(names)
	if got["01-old"] != "my_server" {
		t.Errorf("oldest connector slug = %q; want the bare %q", got["01-old"], "my_server")
	}
	seen := map[string]string{}
	for id, slug := range got {
		if prev, ok := seen[slug]; ok {
			t.Errorf("connectors %s and %s share slug %q", prev, id, slug)
		}
		seen[slug] = id
		if id != "01-old" && id != "04" && !strings.HasPrefix(slug, "my_server_") {
			t.Errorf("connector %s slug = %q; want my_server_<hash>", id, slug)
		}
	}
	if got["04"] != "files" {
		t.Errorf("slug of %q = %q; want %q", names["04"], got["04"], "files")
	}
	// Adding a newer connector renames nobody.
	names["05"] = "my server"
	again := assignSlugs(names)
	for id, slug := range got {
		if again[id] != slug {
			t.Errorf("after adding a connector, %s slug = %q; want %q", id, again[id], slug)
		}
	}
}
