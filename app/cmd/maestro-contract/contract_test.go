package main

import (
	"bytes"
	"flag"
	"os"
	"reflect"
	"strings"
	"testing"

	"maestro/app"
)

var update = flag.Bool("update", false, "rewrite frontend/src/api/contract.gen.ts")

// contractFile is the committed contract, from this package's directory.
const contractFile = "../../../frontend/src/api/contract.gen.ts"

// TestContractIsCurrent: the committed contract is what the Go side says.
// A renamed JSON field, a new bound method or event changes it; make
// bindings (or this test with -update) rewrites it, and tsc then fails
// where the frontend still uses the old shape.
func TestContractIsCurrent(t *testing.T) {
	t.Parallel()
	got, err := Generate("../..")
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(contractFile, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(contractFile)
	if err != nil {
		t.Fatalf("%v (run make bindings)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale: run make bindings (or go test ./app/cmd/maestro-contract -update) and commit it", contractFile)
	}
}

// TestServicesAreAppsFields: the services the contract describes (App's
// exported fields) are the ones Wails binds (App.Services).
func TestServicesAreAppsFields(t *testing.T) {
	t.Parallel()
	var names []string
	for _, s := range services() {
		names = append(names, s.Name())
	}
	var bound []string
	for _, s := range (&app.App{}).Services() {
		bound = append(bound, reflect.TypeOf(s).Elem().Name())
	}
	if strings.Join(names, ",") != strings.Join(bound, ",") {
		t.Errorf("App's service fields %v; Services() binds %v", names, bound)
	}
}

type inner struct {
	A int `json:"a"`
}

type sample struct {
	inner
	Name     string            `json:"name"`
	Provider string            `json:"provider" ts:"ProviderId"`
	Kinds    []string          `json:"kinds,omitempty" ts:"Role"`
	Ptr      *inner            `json:"ptr"`
	Opt      *inner            `json:"opt,omitempty"`
	Map      map[string][]bool `json:"map"`
	Raw      []byte            `json:"raw"`
	Anon     struct {
		B uint64 `json:"b"`
	} `json:"anon"`
	Skipped string `json:"-"`
	hidden  string
}

type weird struct {
	C chan int `json:"c"`
}

type badUnion struct {
	N int `json:"n" ts:"Role"`
}

type unknownUnion struct {
	S string `json:"s" ts:"Nope"`
}

func TestTypes(t *testing.T) {
	t.Parallel()
	g := &gen{docs: &docs{types: map[string]string{}, fields: map[string]string{}}, unions: map[string]app.Union{},
		structs: map[string]reflect.Type{}}
	for _, u := range app.Unions {
		g.unions[u.Name] = u
	}
	var body bytes.Buffer
	if err := g.fields(&body, reflect.TypeFor[sample](), "sample", ""); err != nil {
		t.Fatal(err)
	}
	want := `a: number
name: string
provider: ProviderId
kinds?: Role[]
ptr: inner | null
opt?: inner
map: Record<string, boolean[]>
raw: string
anon: {b: number}
`
	if got := body.String(); got != want {
		t.Errorf("fields =\n%s\nwant\n%s", got, want)
	}
	if _, ok := g.structs["inner"]; !ok {
		t.Error("the struct a field points to was not collected")
	}
	for _, bad := range []reflect.Type{reflect.TypeFor[weird](), reflect.TypeFor[badUnion](), reflect.TypeFor[unknownUnion]()} {
		if err := g.fields(&bytes.Buffer{}, bad, bad.Name(), ""); err == nil {
			t.Errorf("%s: no error; want one", bad.Name())
		}
	}
}
