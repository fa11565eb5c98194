package llm

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// offeredTools are the answer loop's kind of tools: a required string, an
// optional number with bounds, an enum, and one without parameters.
func offeredTools() api.Tools {
	props := func(kv ...any) *api.ToolPropertiesMap {
		m := api.NewToolPropertiesMap()
		for i := 0; i+1 < len(kv); i += 2 {
			m.Set(kv[i].(string), kv[i+1].(api.ToolProperty))
		}
		return m
	}
	fn := func(name string, required []string, p *api.ToolPropertiesMap) api.Tool {
		return api.Tool{Type: "function", Function: api.ToolFunction{Name: name,
			Parameters: api.ToolFunctionParameters{Type: "object", Required: required, Properties: p}}}
	}
	return api.Tools{
		fn("calculator", []string{"expression"}, props("expression", api.ToolProperty{Type: api.PropertyType{"string"}})),
		fn("retrieve_docs", []string{"query"}, props(
			"query", api.ToolProperty{Type: api.PropertyType{"string"}},
			"top_k", api.ToolProperty{Type: api.PropertyType{"integer"}},
			"scope", api.ToolProperty{Type: api.PropertyType{"string"}, Enum: []any{"documents", "catalog"}})),
		fn("get_time", nil, props()),
	}
}

type wantCall struct {
	Name string
	Args map[string]any
}

func callsOf(calls []api.ToolCall) []wantCall {
	var out []wantCall
	for _, c := range calls {
		out = append(out, wantCall{c.Function.Name, c.Function.Arguments.ToMap()})
	}
	return out
}

func calc(expr string) wantCall {
	return wantCall{"calculator", map[string]any{"expression": expr}}
}

func TestTextToolCalls(t *testing.T) {
	tests := []struct {
		name    string
		content string
		want    []wantCall // nil: an answer
		shown   string
	}{
		{"bare object", `{"name": "calculator", "arguments": {"expression": "1234*5678"}}`, []wantCall{calc("1234*5678")}, ""},
		{"parameters instead of arguments", `{"name": "calculator", "parameters": {"expression": "2+2"}}`, []wantCall{calc("2+2")}, ""},
		{"openai shape, arguments as a string", `{"type": "function", "function": {"name": "calculator", "arguments": "{\"expression\": \"7*6\"}"}}`, []wantCall{calc("7*6")}, ""},
		{"tool_call tags", "<tool_call>\n{\"name\": \"calculator\", \"arguments\": {\"expression\": \"1+1\"}}\n</tool_call>", []wantCall{calc("1+1")}, ""},
		{"tag left open at the end", "<tool_call>{\"name\": \"calculator\", \"arguments\": {\"expression\": \"1+1\"}}", []wantCall{calc("1+1")}, ""},
		{"fenced json", "```json\n{\"name\": \"calculator\", \"arguments\": {\"expression\": \"3*3\"}}\n```", []wantCall{calc("3*3")}, ""},
		{"fence without language", "```\n{\"name\": \"get_time\"}\n```\n", []wantCall{{"get_time", map[string]any{}}}, ""},
		{"several calls in tags", "<tool_call>{\"name\": \"calculator\", \"arguments\": {\"expression\": \"1+1\"}}</tool_call>\n<tool_call>{\"name\": \"get_time\", \"arguments\": {}}</tool_call>",
			[]wantCall{calc("1+1"), {"get_time", map[string]any{}}}, ""},
		{"a list of calls", `[{"name": "calculator", "arguments": {"expression": "1"}}, {"name": "calculator", "arguments": {"expression": "2"}}]`, []wantCall{calc("1"), calc("2")}, ""},
		{"json lines", "{\"name\": \"calculator\", \"arguments\": {\"expression\": \"1\"}}\n{\"name\": \"calculator\", \"arguments\": {\"expression\": \"2\"}}", []wantCall{calc("1"), calc("2")}, ""},
		{"prose, then the call", "Let me calculate that.\n{\"name\": \"calculator\", \"arguments\": {\"expression\": \"9/3\"}}", []wantCall{calc("9/3")}, "Let me calculate that."},
		{"prose, then a tag on the same line", "계산해 볼게요 <tool_call>{\"name\": \"calculator\", \"arguments\": {\"expression\": \"9/3\"}}</tool_call>", []wantCall{calc("9/3")}, "계산해 볼게요"},
		{"number in a string for an integer", `{"name": "retrieve_docs", "arguments": {"query": "vrew", "top_k": "3"}}`, []wantCall{{"retrieve_docs", map[string]any{"query": "vrew", "top_k": "3"}}}, ""},
		{"enum value", `{"name": "retrieve_docs", "arguments": {"query": "x", "scope": "catalog"}}`, []wantCall{{"retrieve_docs", map[string]any{"query": "x", "scope": "catalog"}}}, ""},

		{"plain answer", "1234 × 5678 = 7,006,652", nil, ""},
		{"tool not offered", `{"name": "python", "arguments": {"code": "print(1)"}}`, nil, ""},
		{"required argument missing", `{"name": "calculator", "arguments": {"expr": "1+1"}}`, nil, ""},
		{"argument of the wrong type", `{"name": "calculator", "arguments": {"expression": 5}}`, nil, ""},
		{"integer that is not whole", `{"name": "retrieve_docs", "arguments": {"query": "x", "top_k": 2.5}}`, nil, ""},
		{"enum value not allowed", `{"name": "retrieve_docs", "arguments": {"query": "x", "scope": "web"}}`, nil, ""},
		{"data with a name", `{"name": "calculator", "price": "$5"}`, nil, ""},
		{"arguments not an object", `{"name": "calculator", "arguments": ["1+1"]}`, nil, ""},
		{"text after the call", "{\"name\": \"calculator\", \"arguments\": {\"expression\": \"1\"}}\nThe answer is 1.", nil, ""},
		{"python block", "```python\nprint({\"name\": \"calculator\"})\n```", nil, ""},
		{"a JSON example in the middle of prose", "Use this: {\"name\": \"calculator\", \"arguments\": {\"expression\": \"1\"}}", nil, ""},
		{"citation list", "[1] employee-handbook.pdf", nil, ""},
		{"one valid and one invalid call", "<tool_call>{\"name\": \"calculator\", \"arguments\": {\"expression\": \"1\"}}</tool_call><tool_call>{\"name\": \"nope\"}</tool_call>", nil, ""},
		{"empty list", "[]", nil, ""},
		{"broken json", `{"name": "calculator", "arguments": {"expression": "1"`, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls, shown, ok := TextToolCalls(tt.content, offeredTools())
			if ok != (tt.want != nil) {
				t.Fatalf("ok = %v, calls %v", ok, callsOf(calls))
			}
			if !ok {
				if shown != tt.content {
					t.Fatalf("an answer's text changed: %q", shown)
				}
				return
			}
			if d := cmp.Diff(tt.want, callsOf(calls)); d != "" {
				t.Errorf("calls (-want +got):\n%s", d)
			}
			if shown != tt.shown {
				t.Errorf("shown = %q, want %q", shown, tt.shown)
			}
		})
	}
	if _, _, ok := TextToolCalls(`{"name": "calculator", "arguments": {"expression": "1"}}`, nil); ok {
		t.Error("a call was read with no tools offered")
	}
}

// TestStreamHoldsBackTextCalls streams replies in small pieces through a
// client call with tools: a call written as text never reaches the reader
// and comes back structured; an answer reaches it whole, and text that is
// clearly not a call is not held back until the end.
func TestStreamHoldsBackTextCalls(t *testing.T) {
	tests := []struct {
		name   string
		chunks []string
		calls  []wantCall
		shown  string
		// early is text that must have reached the reader before the last
		// chunk was sent.
		early string
	}{
		{"bare call", []string{`{"na`, `me": "calc`, `ulator", "argu`, `ments": {"expression": "1234*5678"}}`}, []wantCall{calc("1234*5678")}, "", ""},
		{"tags split everywhere", []string{"<to", "ol_ca", "ll>\n{\"name\": \"calculator\", ", "\"arguments\": {\"expression\": \"2*3\"}}\n</to", "ol_call>"}, []wantCall{calc("2*3")}, "", ""},
		{"fence", []string{"``", "`json\n{\"name\": \"get_time\"", ", \"arguments\": {}}\n`", "``"}, []wantCall{{"get_time", map[string]any{}}}, "", ""},
		{"prose first", []string{"Let me ", "check.\n", "{\"name\": \"calculator\", ", "\"arguments\": {\"expression\": \"1+2\"}}"}, []wantCall{calc("1+2")}, "Let me check.", "Let me check.\n"},
		{"answer", []string{"The answer ", "is ", "42."}, nil, "The answer is 42.", "The answer is "},
		{"code block answer goes out at once", []string{"```python\n", "print(1)\n", "```"}, nil, "```python\nprint(1)\n```", "```python\nprint(1)\n"},
		{"json that is no call is shown", []string{"{\"name\": \"Alice\", ", "\"age\": 3}", "\nThat is the record."}, nil, "{\"name\": \"Alice\", \"age\": 3}\nThat is the record.", "{\"name\": \"Alice\", \"age\": 3}"},
		{"citation line", []string{"See ", "\n[1", "] handbook", " p. 3"}, nil, "See \n[1] handbook p. 3", "See \n[1] handbook"},
		{"invalid call is an answer", []string{`{"name": "calculator", `, `"arguments": {"x": 1}}`}, nil, `{"name": "calculator", "arguments": {"x": 1}}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got strings.Builder
			f := &textCallFilter{offered: offeredTools(), emit: func(ch Chunk) { got.WriteString(ch.Content) }}
			for i, c := range tt.chunks {
				if i == len(tt.chunks)-1 && got.String() != tt.early {
					t.Errorf("before the last chunk the reader had %q, want %q", got.String(), tt.early)
				}
				f.push(Chunk{Content: c})
			}
			msg := api.Message{Content: strings.Join(tt.chunks, "")}
			f.finish(&msg)
			if d := cmp.Diff(tt.calls, callsOf(msg.ToolCalls)); d != "" {
				t.Fatalf("calls (-want +got):\n%s", d)
			}
			// The space before a call may have gone out before the call began.
			if strings.TrimRight(got.String(), " \n") != tt.shown || msg.Content != tt.shown {
				t.Fatalf("streamed %q, content %q, want %q", got.String(), msg.Content, tt.shown)
			}
		})
	}
}

// TestChatReadsTextCalls is the filter inside a client call: the fake
// model prints a calculator call as text, in pieces.
func TestChatReadsTextCalls(t *testing.T) {
	srv := ollamatest.New(t)
	srv.Script(ollamatest.Reply{Chunks: []string{"<tool_call>", `{"name": "calculator", `, `"arguments": {"expression": "1234*5678"}}`, "</tool_call>"}})
	c := newClient(t, srv.URL())
	var got strings.Builder
	resp, err := c.Chat(context.Background(), ChatRequest{Model: model, Messages: user("1234*5678?"), Tools: offeredTools()},
		func(ch Chunk) { got.WriteString(ch.Content) })
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]wantCall{calc("1234*5678")}, callsOf(resp.Message.ToolCalls)); d != "" || got.Len() != 0 || resp.Message.Content != "" {
		t.Fatalf("calls (-want +got):\n%s\nstreamed %q, content %q", d, got.String(), resp.Message.Content)
	}
	// Without tools offered the same text is an answer.
	srv.Script(ollamatest.Reply{Text: `{"name": "calculator", "arguments": {"expression": "1"}}`})
	resp, err = c.Chat(context.Background(), ChatRequest{Model: model, Messages: user("json please")}, nil)
	if err != nil || len(resp.Message.ToolCalls) != 0 || !strings.Contains(resp.Message.Content, "calculator") {
		t.Fatalf("without tools: %+v, %v", resp.Message, err)
	}
}

// FuzzTextToolCalls feeds any text, cut into pieces anywhere, through the
// parser and the stream filter: neither may panic; what reaches the reader
// is always the start of the reply; a reply read as calls shows only the
// text before them and names only offered tools; any other reply reaches
// the reader whole.
func FuzzTextToolCalls(f *testing.F) {
	for _, s := range []string{
		`{"name": "calculator", "arguments": {"expression": "1234*5678"}}`,
		"<tool_call>\n{\"name\": \"calculator\", \"parameters\": {\"expression\": \"1+1\"}}\n</tool_call>",
		"```json\n[{\"name\": \"get_time\"}, {\"name\": \"retrieve_docs\", \"arguments\": {\"query\": \"휴가\"}}]\n```",
		"Let me check.\n{\"type\": \"function\", \"function\": {\"name\": \"calculator\", \"arguments\": \"{\\\"expression\\\": \\\"2\\\"}\"}}",
		"The answer is 42.\n[1] handbook",
		"```python\nprint(1)\n```",
		"<tool_call>{\"name\": \"nope\"}</tool_call>",
		"{\"name\": \"calculator\", \"arguments\": {\"expression\": \"1\"}}\ntrailing",
	} {
		f.Add(s, []byte{3, 7, 1})
	}
	offered := offeredTools()
	f.Fuzz(func(t *testing.T, content string, cuts []byte) {
		calls, shown, ok := TextToolCalls(content, offered)
		if ok {
			if len(calls) == 0 || !strings.HasPrefix(content, shown) {
				t.Fatalf("calls %v, shown %q", callsOf(calls), shown)
			}
			for _, c := range calls {
				if _, found := offeredTool(offered, c.Function.Name); !found {
					t.Fatalf("call of a tool not offered: %q", c.Function.Name)
				}
			}
		} else if shown != content {
			t.Fatalf("an answer's text changed")
		}

		var got strings.Builder
		filter := &textCallFilter{offered: offered, emit: func(ch Chunk) {
			got.WriteString(ch.Content)
			if !strings.HasPrefix(content, got.String()) {
				t.Fatalf("the reader got %q, not the start of %q", got.String(), content)
			}
		}}
		rest := content
		for i := 0; rest != ""; i++ {
			n := len(rest)
			if len(cuts) > 0 {
				n = min(n, 1+int(cuts[i%len(cuts)]))
			}
			filter.push(Chunk{Content: rest[:n]})
			rest = rest[n:]
		}
		msg := api.Message{Content: content}
		filter.finish(&msg)
		if len(msg.ToolCalls) > 0 {
			if !ok || msg.Content != shown || strings.TrimRight(got.String(), " \t\r\n") != shown {
				t.Fatalf("ran calls but showed %q (shown %q, ok %v)", got.String(), shown, ok)
			}
		} else if got.String() != content || msg.Content != content {
			t.Fatalf("an answer reached the reader as %q", got.String())
		}
	})
}
