// Command maestro-contract writes the Go↔TypeScript contract of the app
// package: frontend/src/api/contract.gen.ts, with the unions, the DTOs as
// interfaces, the bound services as typed calls on window.go.app, and the
// events with their payloads. make bindings runs it; its test (and make
// check-bindings) fails when the committed file is stale.
//
// Usage, from the repository root:
//
//	go run ./app/cmd/maestro-contract [-o frontend/src/api/contract.gen.ts]
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	out := flag.String("o", "frontend/src/api/contract.gen.ts", "the file to write")
	src := flag.String("src", "app", "the app package's directory (for its doc comments)")
	flag.Parse()
	b, err := Generate(*src)
	if err == nil {
		err = os.WriteFile(*out, b, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "maestro-contract:", err)
		os.Exit(1)
	}
}
