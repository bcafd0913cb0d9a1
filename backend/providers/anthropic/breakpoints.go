package anthropic

// maxBreakpoints is the most cache_control blocks a request may carry; a
// fifth is a 400 ("A maximum of 4 blocks with cache_control may be
// provided. Found 5.").
const maxBreakpoints = 4

// markBreakpoints puts prompt-cache breakpoints on the stable prefix of
// body (docs/providers/anthropic.md, "Caching"). The cached prefix runs in
// the order tools, system, messages, so:
//
//   - the last tool caches the tool list;
//   - the last system block caches the tools and the system prompt;
//   - the last block of the latest user message caches the whole history,
//     which the next step of the turn resends unchanged;
//   - the last block of the user message before it is where the previous
//     request put its breakpoint, so this request reads that cache entry
//     exactly even when the assistant turn in between has more blocks than
//     the API's look-back of about 20 reaches.
//
// That is four at most. Thinking blocks and empty text blocks cannot carry
// cache_control; a user message's last block is never one of them, but the
// search steps back over any that would be.
func markBreakpoints(body *request) {
	n := 0
	if k := len(body.Tools); k > 0 {
		body.Tools[k-1].cache = true
		n++
	}
	if k := len(body.System); k > 0 && body.System[k-1].Text != "" {
		body.System[k-1].Cache = ephemeral
		n++
	}
	users := 0
	for i := len(body.Messages) - 1; i >= 0 && users < 2 && n < maxBreakpoints; i-- {
		if body.Messages[i].Role != roleUser {
			continue
		}
		users++
		if markLastBlock(body.Messages[i].Content) {
			n++
		}
	}
}

// markLastBlock marks the last block of content that may carry a
// breakpoint, and reports whether there was one.
func markLastBlock(content []any) bool {
	for i := len(content) - 1; i >= 0; i-- {
		if b, ok := withBreakpoint(content[i]); ok {
			content[i] = b
			return true
		}
	}
	return false
}

// withBreakpoint returns b marked as a breakpoint, or false for a block
// that cannot carry one (thinking, redacted thinking, empty text).
func withBreakpoint(b any) (any, bool) {
	switch b := b.(type) {
	case textBlock:
		if b.Text == "" {
			return b, false
		}
		b.Cache = ephemeral
		return b, true
	case mediaBlock:
		b.Cache = ephemeral
		return b, true
	case toolResultBlock:
		b.Cache = ephemeral
		return b, true
	}
	return b, false
}
