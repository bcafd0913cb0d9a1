package anthropicfake

import (
	"bytes"
	"encoding/json"
)

// maxBreakpoints is the most cache_control blocks the real API accepts.
const maxBreakpoints = 4

// hasCacheControl reports whether a block carries a cache_control member.
func hasCacheControl(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && !bytes.Equal(raw, []byte("null"))
}

// systemBlocks reads a system prompt given as blocks; a string (or none)
// has none.
func (q *wireRequest) systemBlocks() []wireBlock {
	sys := bytes.TrimSpace(q.System)
	if len(sys) == 0 || sys[0] != '[' {
		return nil
	}
	var blocks []wireBlock
	_ = json.Unmarshal(sys, &blocks)
	return blocks
}

// checkSystem refuses a cache breakpoint on an empty system text block.
func (q *wireRequest) checkSystem() *rejection {
	for i, b := range q.systemBlocks() {
		if b.Type == "text" && (b.Text == nil || *b.Text == "") && hasCacheControl(b.CacheControl) {
			return invalid("cache: empty text block", "system.%d.text: cache_control cannot be set for empty text blocks", i)
		}
	}
	return nil
}

// checkBreakpoints counts the cache_control blocks in tools, system and
// messages (tool_result content included) and refuses more than four, with
// the real message (docs/providers/anthropic.md, "Caching").
func (q *wireRequest) checkBreakpoints() *rejection {
	n := 0
	for _, t := range q.Tools {
		if hasCacheControl(t.CacheControl) {
			n++
		}
	}
	n += countBreakpoints(q.systemBlocks())
	for _, m := range q.Messages {
		n += countBreakpoints(m.blocks)
	}
	if n > maxBreakpoints {
		return invalid("cache: too many breakpoints", "A maximum of %d blocks with cache_control may be provided. Found %d.", maxBreakpoints, n)
	}
	return nil
}

func countBreakpoints(blocks []wireBlock) int {
	n := 0
	for _, b := range blocks {
		if hasCacheControl(b.CacheControl) {
			n++
		}
		if c := bytes.TrimSpace(b.Content); b.Type == "tool_result" && len(c) > 0 && c[0] == '[' {
			if nested, ok := parseContent(c); ok {
				n += countBreakpoints(nested)
			}
		}
	}
	return n
}
