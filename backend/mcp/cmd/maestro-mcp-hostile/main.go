// Command maestro-mcp-hostile is a stdio MCP server whose tools attack the
// host (backend/mcp/hostile lists them). The end-to-end suite registers it
// as a connector in the real app to show each attack fails there too.
//
//	maestro-mcp-hostile [-deep-schema] [-garbage]
//
// With -garbage it writes a banner and a status line to stdout, where only
// JSON-RPC belongs, and never answers: the host must say so rather than
// time out silently.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"maestro/backend/mcp/hostile"
)

func main() {
	deep := flag.Bool("deep-schema", false, "add a tool whose input schema is nested 10,000 levels deep")
	garbage := flag.Bool("garbage", false, "write a banner to stdout and never answer")
	flag.Parse()
	if *garbage {
		fmt.Println("Hostile MCP server v6.6.6 starting…")
		fmt.Println("listening on stdio (not really)")
		time.Sleep(time.Hour)
		return
	}
	if err := server.ServeStdio(hostile.New(hostile.Options{DeepSchema: *deep})); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
