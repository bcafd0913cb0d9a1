package app

import (
	"fmt"
	"os"
	"testing"

	"github.com/mark3labs/mcp-go/server"

	"maestro/backend/mcp/hostile"
)

// hostileEnv makes the test binary serve backend/mcp/hostile over stdio
// instead of running the tests, so the hostile suite talks to a real
// process (see hostileConnector).
const hostileEnv = "MAESTRO_APP_TEST_HOSTILE"

func TestMain(m *testing.M) {
	if os.Getenv(hostileEnv) != "" {
		if err := server.ServeStdio(hostile.New(hostile.Options{})); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
