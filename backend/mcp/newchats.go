package mcp

import "context"

// SetNewChats records whether a connector is switched on in every new
// chat (Connector.NewChats, the Settings page's list). Only that flag
// changes: unlike Update, the running server is not restarted, since which
// chats start with it is nothing the server sees.
func (s *Supervisor) SetNewChats(ctx context.Context, id string, on bool) (Connector, error) {
	s.cfgMu.Lock()
	defer s.cfgMu.Unlock()
	r, err := s.runner(id)
	if err != nil {
		return Connector{}, err
	}
	c := r.config()
	if c.NewChats == on {
		return c, nil
	}
	c.NewChats = on
	if err := saveConnector(ctx, s.store, s.secrets, c); err != nil {
		return Connector{}, err
	}
	r.mu.Lock()
	r.cfg.NewChats = on
	r.mu.Unlock()
	return c, nil
}
