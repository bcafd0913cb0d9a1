package tools

import (
	"slices"

	"maestro/backend/chat"
)

// ruleSet is the providers' rules a Registry serves. It is built once by
// NewRegistry and shared, never modified, by every snapshot and entry.
type ruleSet struct {
	// list is the rules in the order given; Entry.Names and Entry.Schemas
	// have one key per rule.
	list  []chat.ToolRules
	index map[string]int // provider → position in list
	// rich is the provider whose normalised schemas keep the most
	// (search_tools reads parameters from them): the first with a JSON
	// Schema dialect, else the first.
	rich string
}

func newRuleSet(rules []chat.ToolRules) *ruleSet {
	if len(rules) == 0 {
		panic("tools: a registry needs the rules of at least one provider")
	}
	rs := &ruleSet{list: slices.Clone(rules), index: make(map[string]int, len(rules)), rich: rules[0].Provider}
	for i, r := range rs.list {
		rs.list[i].MaxTools = max(r.MaxTools, 1)
		rs.index[r.Provider] = i
	}
	for _, d := range []chat.SchemaDialect{chat.SchemaJSONArrayItems, chat.SchemaJSON} {
		if i := slices.IndexFunc(rs.list, func(r chat.ToolRules) bool { return r.Schema == d }); i >= 0 {
			rs.rich = rs.list[i].Provider
			break
		}
	}
	return rs
}

// rules returns provider's rules; an unknown provider gets the first.
func (rs *ruleSet) rules(provider string) chat.ToolRules {
	if rs == nil {
		return chat.ToolRules{}
	}
	return rs.list[rs.index[provider]]
}

// key maps a provider to the key of its names and schemas; an unknown
// provider gets the first rules' key. Without rules (an entry not built by
// a registry) the provider is its own key.
func (rs *ruleSet) key(provider string) string {
	if rs == nil {
		return provider
	}
	return rs.list[rs.index[provider]].Provider
}
