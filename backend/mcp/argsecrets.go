package mcp

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"maestro/backend/chat"
)

// Secrets in a stdio connector's arguments (--token=…, --api-key …,
// "Authorization: Bearer …", a key with a known prefix) are kept like env
// and header values: in the keychain. Connector.Args then holds the
// argument with its secret part replaced by a reference ${secret:N}
// (1-based into Connector.ArgSecrets), and only the process Maestro starts
// sees the value (RunArgs). The store, connector:state events, the
// connector's log and the UI see the reference. A connector stored before
// this existed has its secret-looking arguments moved once, at Start
// (Connector.ArgsChecked). The value does leave
// Maestro in one place: Export, the mcpServers file the user asks for so
// that the servers work in another app (with the env and header values).

// secretRef renders the reference to ArgSecrets[n-1].
func secretRef(n int) string { return "${secret:" + strconv.Itoa(n) + "}" }

var secretRefRE = regexp.MustCompile(`\$\{secret:([0-9]+)\}`)

// hasSecretRef reports whether arg holds a reference to an argument secret.
func hasSecretRef(arg string) bool { return secretRefRE.MatchString(arg) }

// RunArgs returns the arguments with their secret references filled in,
// for the process only. A reference without its secret is an error (the
// keychain entry was not read).
func (c Connector) RunArgs() ([]string, error) {
	out := make([]string, len(c.Args))
	for i, a := range c.Args {
		var missing []string
		out[i] = secretRefRE.ReplaceAllStringFunc(a, func(ref string) string {
			n, _ := strconv.Atoi(secretRefRE.FindStringSubmatch(ref)[1])
			if n < 1 || n > len(c.ArgSecrets) {
				missing = append(missing, ref)
				return ref
			}
			return c.ArgSecrets[n-1]
		})
		if len(missing) > 0 {
			return nil, chat.E(chat.ErrUnavailable, "argument %d refers to %s, which is not in the keychain", i+1, strings.Join(missing, ", "))
		}
	}
	return out, nil
}

// argRefProblems lists the references in Args that name no ArgSecrets entry.
func (c Connector) argRefProblems() []string {
	var out []string
	for i, a := range c.Args {
		for _, m := range secretRefRE.FindAllStringSubmatch(a, -1) {
			if n, _ := strconv.Atoi(m[1]); n < 1 || n > len(c.ArgSecrets) {
				out = append(out, fmt.Sprintf("argument %d refers to %s, which is not stored: type the value again", i+1, m[0]))
			}
		}
	}
	return out
}

// Known prefixes of API keys and tokens, and the shapes around them.
var (
	// keyPrefixRE finds a key with a known prefix anywhere in an argument:
	// OpenAI and Anthropic (sk-, sk-ant-), GitHub (ghp_, gho_, ghu_, ghs_,
	// ghr_, github_pat_), Slack (xoxb-, xoxp-, …), Google (AIza), GitLab
	// (glpat-), Hugging Face (hf_), AWS access key ids (AKIA).
	keyPrefixRE = regexp.MustCompile(`\b(?:sk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|xox[abposr]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{30,}|glpat-[A-Za-z0-9_-]{16,}|hf_[A-Za-z0-9]{20,}|AKIA[0-9A-Z]{16})`)
	// bearerRE finds the credential of an Authorization value.
	bearerRE = regexp.MustCompile(`(?i)\b(?:bearer|basic|token)\s+([A-Za-z0-9._~+/=-]{8,})`)
	// userinfoRE finds the password of a URL with credentials.
	userinfoRE = regexp.MustCompile(`://[^/\s:@]+:([^/\s@]+)@`)
	// assignRE splits --name=value, -name=value and NAME=value.
	assignRE = regexp.MustCompile(`^(-{0,2})([A-Za-z][A-Za-z0-9_.-]*)=(.+)$`)
)

// secretWords end a flag or variable name that carries a secret
// (--token, --api-key, GITHUB_TOKEN, DB_PASSWORD). "key" counts only after
// a qualifier, or alone: --sort-key is not a secret.
var (
	secretWords  = []string{"token", "secret", "password", "passwd", "pwd", "apikey", "pat", "credential", "credentials"}
	keyQualifier = []string{"api", "access", "secret", "private", "auth", "client", "license", "master", "subscription"}
)

// secretName reports whether a flag or variable name (without dashes)
// names a secret.
func secretName(name string) bool {
	words := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '-' || r == '_' || r == '.' })
	if len(words) == 0 {
		return false
	}
	last := words[len(words)-1]
	if slices.Contains(secretWords, last) || (len(words) == 1 && last == "auth") {
		return true
	}
	if last == "key" {
		return len(words) == 1 || slices.Contains(keyQualifier, words[len(words)-2])
	}
	return false
}

// plausibleValue rules out values that are not the secret itself: empty,
// a variable reference, or a path.
func plausibleValue(v string) bool {
	return v != "" && !strings.HasPrefix(v, "$") && !strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "./") &&
		!strings.HasPrefix(v, "~/")
}

// secretSpan finds the secret part of args[i] (start, end byte offsets),
// or ok false. An argument that already holds a reference has none.
func secretSpan(args []string, i int) (start, end int, ok bool) {
	arg := args[i]
	if arg == "" || hasSecretRef(arg) {
		return 0, 0, false
	}
	if m := assignRE.FindStringSubmatchIndex(arg); m != nil && secretName(arg[m[4]:m[5]]) && plausibleValue(arg[m[6]:m[7]]) {
		return m[6], m[7], true
	}
	if i > 0 && !strings.HasPrefix(arg, "-") && plausibleValue(arg) {
		if prev := args[i-1]; strings.HasPrefix(prev, "-") && !strings.Contains(prev, "=") && secretName(strings.TrimLeft(prev, "-")) {
			return 0, len(arg), true
		}
	}
	for _, re := range []*regexp.Regexp{bearerRE, userinfoRE} {
		if m := re.FindStringSubmatchIndex(arg); m != nil {
			return m[2], m[3], true
		}
	}
	if m := keyPrefixRE.FindStringIndex(arg); m != nil {
		return m[0], m[1], true
	}
	return 0, 0, false
}

// SuggestSecretArgs returns the indexes of the arguments that look like
// they hold a secret (and do not hold a reference yet), for the connector
// form to offer to keep in the keychain.
func SuggestSecretArgs(args []string) []int {
	var out []int
	for i := range args {
		if _, _, ok := secretSpan(args, i); ok {
			out = append(out, i)
		}
	}
	return out
}

// HideArgSecrets moves the secret part of each marked argument into the
// keychain side of c: the argument keeps its visible part with a reference
// in place of the value (the part secretSpan finds, or the whole argument
// when it finds none). Arguments that already hold references keep them.
// References are renumbered so that ArgSecrets holds exactly the values
// that Args refers to, in order. It returns which arguments it changed.
func (c *Connector) HideArgSecrets(marked []int) ([]int, error) {
	if probs := c.argRefProblems(); len(probs) > 0 {
		return nil, chat.E(chat.ErrInvalid, "%s", strings.Join(probs, "; "))
	}
	args, old := slices.Clone(c.Args), c.ArgSecrets
	var secrets []string
	// Existing references first, renumbered in order of appearance.
	for i, a := range args {
		args[i] = secretRefRE.ReplaceAllStringFunc(a, func(ref string) string {
			n, _ := strconv.Atoi(secretRefRE.FindStringSubmatch(ref)[1])
			secrets = append(secrets, old[n-1])
			return secretRef(len(secrets))
		})
	}
	var changed []int
	for _, i := range slices.Compact(slices.Sorted(slices.Values(marked))) {
		if i < 0 || i >= len(args) {
			return nil, chat.E(chat.ErrInvalid, "there is no argument %d to keep in the keychain", i+1)
		}
		if args[i] == "" || hasSecretRef(args[i]) {
			continue
		}
		start, end, ok := secretSpan(args, i)
		if !ok {
			start, end = 0, len(args[i])
		}
		secrets = append(secrets, args[i][start:end])
		args[i] = args[i][:start] + secretRef(len(secrets)) + args[i][end:]
		changed = append(changed, i)
	}
	c.Args, c.ArgSecrets = args, secrets
	if len(c.ArgSecrets) == 0 {
		c.ArgSecrets = nil
	}
	return changed, nil
}
