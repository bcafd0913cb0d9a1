package mcp

import "context"

// SetNewChats records whether a connector is switched on in every new
// chat (Connector.NewChats, the Settings page's list). The running server
// is not restarted: which chats start with it is nothing the server sees
// (Update keeps a server whose config changed only on Maestro's side).
func (s *Supervisor) SetNewChats(ctx context.Context, id string, on bool) (Connector, error) {
	return s.Modify(ctx, id, func(c *Connector) error {
		c.NewChats = on
		return nil
	})
}
