package app

// SetNewChats switches a connector on or off in every new chat (the
// Settings page's "Connectors for new chats"). The connector keeps running:
// only the chats made from now on change.
func (c *Connectors) SetNewChats(id string, on bool) (ConnectorDTO, error) {
	run, ctx, cancel, err := c.ready()
	if err != nil {
		return ConnectorDTO{}, err
	}
	defer cancel()
	cfg, err := run.sup.SetNewChats(ctx, id, on)
	if err != nil {
		return ConnectorDTO{}, err
	}
	c.remember(cfg)
	return connectorNow(run.sup, id)
}
