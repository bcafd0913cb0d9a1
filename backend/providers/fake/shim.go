// Package fake is a SHIM (issue 13): the scripted replies and the request
// recorder the provider fakes share are backend/providers/fakescript now.
// backend/auth/refresh_test.go, in the OAuth half of the issue being done
// alongside, still imports this path, so the names it uses stay here as
// aliases. Delete this package once nothing imports it.
package fake

import "maestro/backend/providers/fakescript"

type (
	Reply    = fakescript.Reply
	Script   = fakescript.Script
	Recorded = fakescript.Recorded
)
