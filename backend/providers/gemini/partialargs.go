package gemini

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"maestro/backend/chat"
)

// Streamed function-call arguments (Vertex "streamFunctionCallArguments";
// recorded in fixtures/supplementary-vercel-ai/google): a call opens with
// {name, willContinue:true}, each following piece carries partialArgs
// [{jsonPath:"$.location", stringValue:"Bos", willContinue:true}, …], a
// string continues while its jsonPath repeats, and an empty functionCall {}
// closes the call. The accumulator rebuilds the arguments object (keys in
// arrival order) and, for display, emits JSON text fragments whose
// concatenation is the final arguments text.

// maxArrayIndex bounds array indices in a jsonPath, so a hostile path
// cannot make the accumulator allocate without limit.
const maxArrayIndex = 1 << 12

type partialCall struct {
	index         int
	id, name, sig string
	acc           argAccumulator
}

func (pc *partialCall) absorb(fc *respFunctionCall, sig string, p *streamParser) {
	if pc.sig == "" {
		pc.sig = sig
	}
	if pc.id == "" {
		pc.id = fc.ID
	}
	if a := bytes.TrimSpace(fc.Args); len(a) > 0 && a[0] == '{' {
		pc.acc.whole = a
	}
	if d := pc.acc.add(fc.PartialArgs); d != "" {
		p.emit(chat.ToolCallDelta{Index: pc.index, Fragment: d})
	}
}

// segment is one step of a jsonPath: an object key or an array index.
type segment struct {
	key   string
	index int
	isIdx bool
}

// jsonNode is a value of the arguments tree. A leaf holds encoded JSON
// (raw) or a string being streamed (str, isStr).
type jsonNode struct {
	obj, arr bool
	keys     []string
	kids     map[string]*jsonNode
	items    []*jsonNode
	raw      []byte
	str      strings.Builder
	isStr    bool
}

// frame is an open container in the display text.
type frame struct {
	seg   segment
	isArr bool
	count int
}

type argAccumulator struct {
	root    *jsonNode
	whole   json.RawMessage // complete args sent instead of pieces
	text    []byte          // display text emitted so far
	stack   []frame
	openStr []segment // path of the string left open in text, if any
	desync  bool      // text no longer tracks the tree
}

// add applies pieces and returns the display fragment they produce.
func (a *argAccumulator) add(args []partialArg) string {
	start := len(a.text)
	for i := range args {
		a.apply(&args[i])
	}
	return string(a.text[start:])
}

func (a *argAccumulator) apply(pa *partialArg) {
	segs, ok := parsePath(pa.JSONPath)
	if !ok || len(segs) == 0 {
		return
	}
	if a.root == nil {
		a.root = &jsonNode{obj: true}
	}
	if pa.StringValue != nil {
		if n := a.root.lookup(segs); n != nil && n.isStr {
			n.str.WriteString(*pa.StringValue)
			if !samePath(a.openStr, segs) {
				a.desync = true
				return
			}
			a.text = appendEscaped(a.text, *pa.StringValue)
			if !pa.WillContinue {
				a.text = append(a.text, '"')
				a.openStr = nil
			}
			return
		}
	}
	leaf := &jsonNode{}
	switch {
	case pa.StringValue != nil:
		leaf.isStr = true
		leaf.str.WriteString(*pa.StringValue)
	case len(pa.NumberValue) > 0 && json.Valid(pa.NumberValue) && !bytes.Equal(pa.NumberValue, []byte("null")):
		leaf.raw = bytes.TrimSpace(pa.NumberValue)
	case pa.BoolValue != nil:
		leaf.raw = []byte(strconv.FormatBool(*pa.BoolValue))
	case len(pa.NullValue) > 0:
		leaf.raw = []byte("null")
	default:
		return
	}
	a.root.set(segs, leaf)
	a.navigate(segs)
	if leaf.isStr {
		a.text = append(a.text, '"')
		a.text = appendEscaped(a.text, leaf.str.String())
		if pa.WillContinue {
			a.openStr = segs
		} else {
			a.text = append(a.text, '"')
		}
	} else {
		a.text = append(a.text, leaf.raw...)
	}
}

// navigate writes the text that moves from the last written value to a new
// leaf at segs: closing containers that end, opening ones that start, the
// separating comma and the key.
func (a *argAccumulator) navigate(segs []segment) {
	if a.openStr != nil {
		a.text = append(a.text, '"')
		a.openStr = nil
	}
	if len(a.stack) == 0 {
		a.text = append(a.text, '{')
		a.stack = append(a.stack, frame{})
	}
	container, leaf := segs[:len(segs)-1], segs[len(segs)-1]
	common := 0
	for common < len(container) && common+1 < len(a.stack) && a.stack[common+1].seg == container[common] {
		common++
	}
	for len(a.stack) > common+1 {
		top := a.stack[len(a.stack)-1]
		a.stack = a.stack[:len(a.stack)-1]
		a.text = append(a.text, closer(top.isArr))
	}
	for i := common; i < len(container); i++ {
		a.member(container[i])
		next := leaf
		if i+1 < len(container) {
			next = container[i+1]
		}
		a.text = append(a.text, opener(next.isIdx))
		a.stack = append(a.stack, frame{seg: container[i], isArr: next.isIdx})
	}
	a.member(leaf)
}

// member writes the comma and key that precede a member of the innermost
// open container.
func (a *argAccumulator) member(s segment) {
	top := &a.stack[len(a.stack)-1]
	if top.count > 0 {
		a.text = append(a.text, ',')
	}
	top.count++
	if !s.isIdx {
		a.text = appendJSONString(a.text, s.key)
		a.text = append(a.text, ':')
	}
}

// finish returns the complete arguments and the display text still owed.
func (a *argAccumulator) finish() (json.RawMessage, string) {
	var final []byte
	switch {
	case a.whole != nil:
		final = a.whole
	case a.root != nil:
		final = a.root.appendJSON(nil)
	default:
		final = []byte("{}")
	}
	if a.desync || !bytes.HasPrefix(final, a.text) {
		return final, ""
	}
	return final, string(final[len(a.text):])
}

func (n *jsonNode) lookup(segs []segment) *jsonNode {
	for _, s := range segs {
		switch {
		case s.isIdx && n.arr && s.index < len(n.items) && n.items[s.index] != nil:
			n = n.items[s.index]
		case !s.isIdx && n.obj && n.kids[s.key] != nil:
			n = n.kids[s.key]
		default:
			return nil
		}
	}
	return n
}

// set stores leaf at segs, creating (or replacing mismatched) containers.
func (n *jsonNode) set(segs []segment, leaf *jsonNode) {
	for i, s := range segs {
		var child *jsonNode
		if i == len(segs)-1 {
			child = leaf
		} else {
			child = n.child(s)
			if next := segs[i+1]; child == nil || child.arr != next.isIdx || child.obj == next.isIdx {
				child = &jsonNode{obj: !next.isIdx, arr: next.isIdx}
			}
		}
		n.put(s, child)
		n = child
	}
}

func (n *jsonNode) child(s segment) *jsonNode {
	if s.isIdx {
		if s.index < len(n.items) {
			return n.items[s.index]
		}
		return nil
	}
	return n.kids[s.key]
}

func (n *jsonNode) put(s segment, child *jsonNode) {
	if s.isIdx {
		for len(n.items) <= s.index {
			n.items = append(n.items, nil)
		}
		n.items[s.index] = child
		return
	}
	if n.kids == nil {
		n.kids = map[string]*jsonNode{}
	}
	if _, ok := n.kids[s.key]; !ok {
		n.keys = append(n.keys, s.key)
	}
	n.kids[s.key] = child
}

func (n *jsonNode) appendJSON(b []byte) []byte {
	switch {
	case n == nil:
		return append(b, "null"...)
	case n.obj:
		b = append(b, '{')
		for i, k := range n.keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, k)
			b = append(b, ':')
			b = n.kids[k].appendJSON(b)
		}
		return append(b, '}')
	case n.arr:
		b = append(b, '[')
		for i, it := range n.items {
			if i > 0 {
				b = append(b, ',')
			}
			b = it.appendJSON(b)
		}
		return append(b, ']')
	case n.isStr:
		return appendJSONString(b, n.str.String())
	}
	return append(b, n.raw...)
}

// parsePath reads "$.a.b[0]['c d']". It reports false for anything else.
func parsePath(p string) ([]segment, bool) {
	if !strings.HasPrefix(p, "$") {
		return nil, false
	}
	p = p[1:]
	var segs []segment
	for p != "" {
		switch p[0] {
		case '.':
			p = p[1:]
			end := strings.IndexAny(p, ".[")
			if end < 0 {
				end = len(p)
			}
			if end == 0 {
				return nil, false
			}
			segs = append(segs, segment{key: p[:end]})
			p = p[end:]
		case '[':
			end := strings.IndexByte(p, ']')
			if end < 0 {
				return nil, false
			}
			inner := p[1:end]
			p = p[end+1:]
			if n := len(inner); n >= 2 && (inner[0] == '\'' || inner[0] == '"') && inner[n-1] == inner[0] {
				segs = append(segs, segment{key: inner[1 : n-1]})
				continue
			}
			i, err := strconv.Atoi(inner)
			if err != nil || i < 0 || i > maxArrayIndex {
				return nil, false
			}
			segs = append(segs, segment{index: i, isIdx: true})
		default:
			return nil, false
		}
	}
	return segs, true
}

func samePath(a, b []segment) bool {
	if a == nil || len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func opener(arr bool) byte {
	if arr {
		return '['
	}
	return '{'
}

func closer(arr bool) byte {
	if arr {
		return ']'
	}
	return '}'
}

// appendJSONString appends s as a JSON string literal.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	b = appendEscaped(b, s)
	return append(b, '"')
}

// appendEscaped appends the JSON-escaped body of s, without quotes, the way
// encoding/json would (so the display text matches the final arguments).
func appendEscaped(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a Go string always marshals
	return append(b, q[1:len(q)-1]...)
}
