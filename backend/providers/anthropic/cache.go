package anthropic

import (
	"encoding/json"
	"sync"
)

// maxCachedSchemas bounds the schema cache; past it the cache starts over.
const maxCachedSchemas = 4096

// schemaCache maps an input schema as given to its compacted form, or to
// nil when it is not a JSON object. A session re-renders the same tools on
// every step, so after the first request compacting is a map lookup. Only
// schemas that are not already compact are kept: checking one that is
// (providers.IsCompactJSON) costs less than looking it up and caching it.
// It is safe for concurrent use; mu guards m. A nil *schemaCache caches
// nothing.
type schemaCache struct {
	mu sync.RWMutex
	m  map[string]json.RawMessage
}

func (c *schemaCache) get(schema []byte) (json.RawMessage, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.m[string(schema)]
	return v, ok
}

// put stores a copy of v, so the cache never aliases a request's buffer.
func (c *schemaCache) put(schema []byte, v json.RawMessage) {
	if c == nil {
		return
	}
	if v != nil {
		v = append(json.RawMessage(nil), v...)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCachedSchemas {
		c.m = make(map[string]json.RawMessage)
	}
	c.m[string(schema)] = v
}
