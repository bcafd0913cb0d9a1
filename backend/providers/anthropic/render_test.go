package anthropic

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"maestro/backend/chat"
)

var update = flag.Bool("update", false, "rewrite golden files")

var _ chat.Model = (*Model)(nil)

func renderBody(t testing.TB, c renderCase) (*request, []string, []byte) {
	t.Helper()
	body, warns := toRequest(c.req, New(c.opts...).renderOptions())
	data, err := encodeBody(body)
	if err != nil {
		t.Fatalf("encode %s: %v", c.name, err)
	}
	var got bytes.Buffer
	if err := json.Indent(&got, data, "", "  "); err != nil {
		t.Fatalf("indent %s: %v", c.name, err)
	}
	got.WriteByte('\n')
	return body, warns, got.Bytes()
}

func TestRenderGolden(t *testing.T) {
	t.Parallel()
	for _, c := range renderCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			body, warns, got := renderBody(t, c)
			golden := filepath.Join("testdata", "golden", c.name+".json")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("read golden (run go test -update): %v", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("rendered body differs from %s (run go test -update and review the diff)\ngot:\n%s", golden, got)
			}
			for _, w := range c.warns {
				if !containsWarning(warns, w) {
					t.Errorf("warnings %q; want one containing %q", warns, w)
				}
			}
			if len(c.warns) == 0 && len(warns) > 0 {
				t.Errorf("got warnings %q; want none", warns)
			}
			if got := body.Thinking != nil; got != c.thinks {
				t.Errorf("thinking enabled = %v; want %v", got, c.thinks)
			}
			checkInvariants(t, body)
		})
	}
}

func containsWarning(warns []string, sub string) bool {
	for _, w := range warns {
		if strings.Contains(w, sub) {
			return true
		}
	}
	return false
}

var toolNameRE = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// checkInvariants asserts the rules the real service enforces on every
// rendered body, independently of the goldens.
func checkInvariants(t *testing.T, body *request) {
	t.Helper()
	if body.MaxTokens <= 0 {
		t.Errorf("max_tokens = %d; want > 0", body.MaxTokens)
	}
	if th := body.Thinking; th != nil && th.Type == "enabled" && (body.MaxTokens <= th.BudgetTokens || th.BudgetTokens < minThinkingBudget) {
		t.Errorf("max_tokens %d, budget %d; want 1024 <= budget < max_tokens", body.MaxTokens, th.BudgetTokens)
	}
	if limit := Lookup(body.Model).MaxOutputTokens; limit > 0 && body.MaxTokens > limit {
		t.Errorf("max_tokens %d > %d, the output limit of %s", body.MaxTokens, limit, body.Model)
	}
	if data, err := encodeBody(body); err != nil || bytes.Count(data, []byte(`"cache_control"`)) > maxBreakpoints {
		t.Errorf("%d cache_control blocks (err %v); want at most %d", bytes.Count(data, []byte(`"cache_control"`)), err, maxBreakpoints)
	}
	for _, tl := range body.Tools {
		if !toolNameRE.MatchString(tl.Name) {
			t.Errorf("tool name %q breaks the name rule", tl.Name)
		}
	}
	for i, m := range body.Messages {
		if i > 0 && body.Messages[i-1].Role == m.Role {
			t.Errorf("messages %d and %d are both %s", i-1, i, m.Role)
		}
		if len(m.Content) == 0 {
			t.Errorf("message %d is empty", i)
		}
		var uses []string
		for _, b := range m.Content {
			if tu, ok := b.(toolUseBlock); ok {
				uses = append(uses, tu.ID)
				if !toolNameRE.MatchString(tu.Name) {
					t.Errorf("tool_use name %q breaks the name rule", tu.Name)
				}
			}
		}
		if len(uses) == 0 {
			continue
		}
		if i+1 >= len(body.Messages) {
			t.Fatalf("message %d has tool_use but nothing follows", i)
		}
		next := body.Messages[i+1].Content
		for k, id := range uses {
			tr, ok := next[k].(toolResultBlock)
			if !ok || tr.ToolUseID != id {
				t.Errorf("message %d content %d: got %#v; want the tool_result for %s", i+1, k, next[k], id)
			}
		}
	}
}

func TestRenderMaxTokens(t *testing.T) {
	t.Parallel()
	low, high := &chat.Reasoning{Effort: "low"}, &chat.Reasoning{Effort: "high"}
	tests := []struct {
		name       string
		model      string
		info       chat.ModelInfo
		max        int
		reasoning  *chat.Reasoning
		wantMax    int
		wantType   string // thinking.type, "" for none
		wantBudget int
		wantEffort string
	}{
		{"default", "m", chat.ModelInfo{}, 0, nil, 8192, "", 0, ""},
		{"explicit", "m", chat.ModelInfo{}, 1000, nil, 1000, "", 0, ""},
		{"effort low", "m", chat.ModelInfo{}, 0, low, 8192, "enabled", 2048, ""},
		{"effort medium", "m", chat.ModelInfo{}, 0, &chat.Reasoning{Effort: "medium"}, 12288, "enabled", 8192, ""},
		{"effort high", "m", chat.ModelInfo{}, 0, high, 28672, "enabled", 24576, ""},
		{"budget wins", "m", chat.ModelInfo{}, 0, &chat.Reasoning{Effort: "low", BudgetTokens: 5000}, 9096, "enabled", 5000, ""},
		{"budget below minimum", "m", chat.ModelInfo{}, 0, &chat.Reasoning{BudgetTokens: 10}, 8192, "enabled", 1024, ""},
		{"max below budget", "m", chat.ModelInfo{}, 2000, low, 4048, "enabled", 2048, ""},
		{"max above budget", "m", chat.ModelInfo{}, 30000, high, 30000, "enabled", 24576, ""},
		{"output limit", "claude-haiku-4-5", chat.ModelInfo{}, 200000, nil, 64000, "", 0, ""},
		{"output limit under default", "claude-haiku-4-5", chat.ModelInfo{}, 0, nil, 8192, "", 0, ""},
		{"budget fits under the limit", "claude-opus-4-1", chat.ModelInfo{}, 40000, high, 32000, "enabled", 24576, ""},
		{"budget lowered under the limit", "claude-opus-4-1", chat.ModelInfo{}, 0, &chat.Reasoning{BudgetTokens: 40000}, 32000, "enabled", 27904, ""},
		{"catalog minimum budget", "m", chat.ModelInfo{ID: "m", MinThinkingBudget: 2048}, 0, &chat.Reasoning{BudgetTokens: 1500}, 8192, "enabled", 2048, ""},
		{"catalog maximum budget", "m", chat.ModelInfo{ID: "m", MaxThinkingBudget: 4000}, 0, high, 8192, "enabled", 4000, ""},
		{"no room for thinking", "m", chat.ModelInfo{ID: "m", MaxOutputTokens: 1200}, 0, low, 1200, "", 0, ""},
		{"adaptive with effort", "claude-opus-4-7", chat.ModelInfo{}, 0, low, 8192, "adaptive", 0, "low"},
		{"adaptive high", "claude-opus-4-7", chat.ModelInfo{}, 0, high, 28672, "adaptive", 0, "high"},
		{"adaptive, efforts unknown", "claude-sonnet-4-6", chat.ModelInfo{}, 0, high, 28672, "adaptive", 0, ""},
		{"adaptive from the catalog", "claude-next", chat.ModelInfo{ID: "claude-next", MaxOutputTokens: 20000, Thinking: chat.ThinkingAdaptive,
			Efforts: []string{"high"}}, 0, high, 20000, "adaptive", 0, "high"},
		{"thinks by default", "claude-opus-5", chat.ModelInfo{}, 0, nil, 12288, "", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			req := chat.Request{Model: tt.model, Info: tt.info, MaxOutputTokens: tt.max, Reasoning: tt.reasoning, Messages: []chat.Message{user("hi")}}
			body, warns := toRequest(req, renderOptions{})
			typ, budget, effort := "", 0, ""
			if body.Thinking != nil {
				typ, budget = body.Thinking.Type, body.Thinking.BudgetTokens
			}
			if body.OutputConfig != nil {
				effort = body.OutputConfig.Effort
			}
			if body.MaxTokens != tt.wantMax || typ != tt.wantType || budget != tt.wantBudget || effort != tt.wantEffort {
				t.Errorf("got max_tokens %d, thinking %q %d, effort %q (warnings %q); want %d, %q %d, %q",
					body.MaxTokens, typ, budget, effort, warns, tt.wantMax, tt.wantType, tt.wantBudget, tt.wantEffort)
			}
		})
	}
}

func TestRenderIsPure(t *testing.T) {
	t.Parallel()
	for _, c := range renderCases() {
		_, _, a := renderBody(t, c)
		_, _, b := renderBody(t, c)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two renders differ", c.name)
		}
	}
}

func TestEnvelopeText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		res  chat.ToolResult
		want string
	}{
		{chat.ToolResult{Successful: true, Data: raw(`{ "a" : [1, 2] }`)}, `{"successful":true,"data":{"a":[1,2]}}`},
		{chat.ToolResult{Successful: false, Error: "boom <b>"}, `{"successful":false,"error":"boom <b>"}`},
		{chat.ToolResult{Successful: true}, `{"successful":true}`},
		{chat.ToolResult{Successful: true, Data: raw(`not json`)}, `{"successful":true,"data":"not json"}`},
	}
	for _, tt := range tests {
		if got := envelopeText(tt.res); got != tt.want {
			t.Errorf("envelopeText(%+v) = %s; want %s", tt.res, got, tt.want)
		}
	}
}

// TestRenderSchemaCache checks that a warm cache renders exactly what a
// cold render does, invalid schemas included.
func TestRenderSchemaCache(t *testing.T) {
	t.Parallel()
	req := withTools(chat.Request{Messages: []chat.Message{user("hi")}})
	req.Tools = append(req.Tools,
		chat.Tool{Name: "bad__json", InputSchema: raw(`{"type":`)},
		chat.Tool{Name: "bad__array", InputSchema: raw(`[1,2]`)},
		chat.Tool{Name: "spaced", InputSchema: raw(" {\n \"type\" : \"object\" }\n")})
	cold, coldWarns := toRequest(req, renderOptions{})
	want, _ := encodeBody(cold)
	opts := renderOptions{schemas: &schemaCache{}}
	for i := range 3 {
		body, warns := toRequest(req, opts)
		got, _ := encodeBody(body)
		if !bytes.Equal(got, want) || len(warns) != len(coldWarns) || len(warns) != 2 {
			t.Errorf("render %d with cache: %s, %q; want %s, %q", i, got, warns, want, coldWarns)
		}
	}
	if !bytes.Contains(want, []byte(`{"name":"spaced","input_schema":{"type":"object"},"cache_control":{"type":"ephemeral"}}`)) {
		t.Errorf("schema not compacted: %s", want)
	}
}
