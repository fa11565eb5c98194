package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ollama/ollama/api"
)

// Small models often write a tool call into the reply's text instead of
// the structured tool_calls field: a bare JSON object
// {"name": "calculator", "arguments": {...}} ("parameters" in some
// templates, {"function": {...}} in others), a list of them, Hermes and
// Qwen's <tool_call>…</tool_call>, or a fenced ```json block. Ollama only
// parses the form the model's own template declares, so the rest arrives as
// an answer that shows JSON to the person and runs nothing.
//
// TextToolCalls reads those forms back, but only when they name a tool the
// request offered with arguments that fit its schema, and only when the
// calls end the reply; anything else stays an answer. The stream filter
// (textCallFilter) holds back text that starts like a call until it can
// tell, so a call that runs is never shown.

// maxHeldText bounds what the stream filter holds back while it cannot
// tell a call from an answer. Real calls are a few hundred bytes; beyond
// this the text is shown, and so is never run as a call.
const maxHeldText = 8 << 10

// TextToolCalls returns the tool calls written at the end of content, and
// the text before them (what the person may see). ok is false when content
// holds no such calls, or when a call names a tool not in offered or has
// arguments its schema refuses: content is then an answer.
func TextToolCalls(content string, offered api.Tools) (calls []api.ToolCall, shown string, ok bool) {
	calls, at, ok := findCalls(content, offered)
	if !ok {
		return nil, content, false
	}
	return calls, strings.TrimRightFunc(content[:at], isSpace), true
}

// findCalls is TextToolCalls with the offset where the calls begin.
func findCalls(content string, offered api.Tools) ([]api.ToolCall, int, bool) {
	if len(offered) == 0 {
		return nil, 0, false
	}
	for _, at := range callStarts(content, 0) {
		if calls, err := parseCalls(content[at:], offered, false); err == nil {
			return calls, at, true
		}
	}
	return nil, 0, false
}

// callStarts lists where a call may begin at or after from: the start of
// each line (after its indentation) and every <tool_call> tag.
func callStarts(s string, from int) []int {
	var out []int
	add := func(i int) {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
			i++
		}
		if i < len(s) && strings.IndexByte("{[`<", s[i]) >= 0 {
			out = append(out, i)
		}
	}
	if ls := strings.LastIndexByte(s[:from], '\n') + 1; strings.TrimLeft(s[ls:from], " \t\r") == "" {
		add(from)
	}
	for i := from; i < len(s); i++ {
		switch {
		case s[i] == '\n':
			add(i + 1)
		case s[i] == '<' && strings.HasPrefix(s[i:], tagOpen):
			out = append(out, i)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

const (
	tagOpen  = "<tool_call>"
	tagClose = "</tool_call>"
	fence    = "```"
)

// errIncomplete means the text may still become a call as more arrives.
var errIncomplete = errors.New("incomplete tool call")

// parseCalls reads s as nothing but tool calls (and space between them).
// It returns errIncomplete when s is a proper beginning of such text.
// Inside a tag or a fence (jsonOnly) the calls are JSON values only.
func parseCalls(s string, offered api.Tools, jsonOnly bool) ([]api.ToolCall, error) {
	var calls []api.ToolCall
	for {
		s = strings.TrimLeftFunc(s, isSpace)
		if s == "" {
			if len(calls) == 0 {
				return nil, errIncomplete
			}
			return calls, nil
		}
		var (
			got  []api.ToolCall
			rest string
			err  error
		)
		switch {
		case s[0] == '{' || s[0] == '[':
			got, rest, err = parseValue(s, offered)
		case jsonOnly:
			return nil, fmt.Errorf("text that is not a tool call: %q", cut(s, 20))
		case strings.HasPrefix(s, tagOpen):
			inner, after, closed := strings.Cut(s[len(tagOpen):], tagClose)
			if !closed {
				// Still arriving, or a model that ends its reply without
				// the closing tag: both are read as far as they go.
				inner = strings.TrimSuffix(inner, partialSuffix(inner, tagClose))
			}
			got, err = parseCalls(inner, offered, true)
			rest = after
		case strings.HasPrefix(tagOpen, s):
			return nil, errIncomplete
		case strings.HasPrefix(s, fence):
			got, rest, err = parseFence(s, offered)
		case strings.HasPrefix(fence, s):
			return nil, errIncomplete
		default:
			return nil, fmt.Errorf("text that is not a tool call: %q", cut(s, 20))
		}
		if err != nil {
			return nil, err
		}
		calls = append(calls, got...)
		s = rest
	}
}

// parseFence reads a fenced block whose language is empty, json or
// tool_call and whose body is calls.
func parseFence(s string, offered api.Tools) (calls []api.ToolCall, rest string, err error) {
	head, body, ok := strings.Cut(s[len(fence):], "\n")
	if !ok {
		if isFenceLang(head) {
			return nil, "", errIncomplete
		}
		return nil, "", fmt.Errorf("a %q block is not a tool call", head)
	}
	if !isFenceLang(head) {
		return nil, "", fmt.Errorf("a %q block is not a tool call", head)
	}
	inner, after, closed := strings.Cut(body, fence)
	if !closed {
		inner = strings.TrimSuffix(inner, partialSuffix(inner, fence))
	}
	calls, err = parseCalls(inner, offered, true)
	return calls, after, err
}

// partialSuffix is the longest proper beginning of mark that ends s.
func partialSuffix(s, mark string) string {
	for n := len(mark) - 1; n > 0; n-- {
		if strings.HasSuffix(s, mark[:n]) {
			return mark[:n]
		}
	}
	return ""
}

func isFenceLang(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "json", "tool_call", "tool_calls":
		return true
	}
	return false
}

// parseValue decodes the JSON value at the start of s as a call or a list
// of calls and returns what follows it.
func parseValue(s string, offered api.Tools) ([]api.ToolCall, string, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	var v any
	if err := dec.Decode(&v); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return nil, "", errIncomplete
		}
		return nil, "", err
	}
	rest := s[dec.InputOffset():]
	var items []any
	switch x := v.(type) {
	case map[string]any:
		items = []any{x}
	case []any:
		if len(x) == 0 {
			return nil, "", errors.New("an empty list is not a tool call")
		}
		items = x
	default:
		return nil, "", fmt.Errorf("a JSON %T is not a tool call", v)
	}
	calls := make([]api.ToolCall, 0, len(items))
	for _, it := range items {
		obj, ok := it.(map[string]any)
		if !ok {
			return nil, "", fmt.Errorf("a JSON %T is not a tool call", it)
		}
		name, args, err := callParts(obj)
		if err != nil {
			return nil, "", err
		}
		tool, ok := offeredTool(offered, name)
		if !ok {
			return nil, "", fmt.Errorf("tool %q was not offered", name)
		}
		if err := checkArgs(tool.Function.Parameters, args); err != nil {
			return nil, "", fmt.Errorf("%s: %w", name, err)
		}
		fa := api.NewToolCallFunctionArguments()
		for _, k := range slices.Sorted(maps.Keys(args)) {
			fa.Set(k, args[k])
		}
		calls = append(calls, api.ToolCall{Function: api.ToolCallFunction{Name: name, Arguments: fa}})
	}
	return calls, rest, nil
}

// callParts reads {"name", "arguments"|"parameters"} or the OpenAI shape
// {"type": "function", "function": {...}}. Other keys mean the object is
// data, not a call.
func callParts(obj map[string]any) (string, map[string]any, error) {
	if fn, ok := obj["function"].(map[string]any); ok {
		for k := range obj {
			if k != "function" && k != "type" && k != "id" {
				return "", nil, fmt.Errorf("unexpected key %q beside a function", k)
			}
		}
		return callParts(fn)
	}
	name, _ := obj["name"].(string)
	if strings.TrimSpace(name) == "" {
		return "", nil, errors.New("no tool name")
	}
	var raw any
	seen := 0
	for k, v := range obj {
		switch k {
		case "name", "type", "id":
		case "arguments", "parameters":
			raw = v
			seen++
		default:
			return "", nil, fmt.Errorf("unexpected key %q in a tool call", k)
		}
	}
	if seen > 1 {
		return "", nil, errors.New("both arguments and parameters")
	}
	switch a := raw.(type) {
	case nil:
		return name, map[string]any{}, nil
	case map[string]any:
		return name, a, nil
	case string: // OpenAI sends the arguments as a JSON string
		var m map[string]any
		if err := json.Unmarshal([]byte(a), &m); err != nil || m == nil {
			return "", nil, errors.New("arguments are not a JSON object")
		}
		return name, m, nil
	}
	return "", nil, errors.New("arguments are not a JSON object")
}

func offeredTool(offered api.Tools, name string) (api.Tool, bool) {
	for _, t := range offered {
		if t.Function.Name == name {
			return t, true
		}
	}
	return api.Tool{}, false
}

// checkArgs holds args to the tool's parameter schema: every required
// parameter present and every known one of its declared type (a number in
// a string counts as a number, as the tools accept it). Keys the schema
// does not know are left to the tool, which drops them.
func checkArgs(p api.ToolFunctionParameters, args map[string]any) error {
	for _, r := range p.Required {
		v, ok := args[r]
		if !ok || v == nil {
			return fmt.Errorf("missing required argument %q", r)
		}
	}
	for name, prop := range p.Properties.All() {
		v, ok := args[name]
		if !ok || v == nil {
			continue
		}
		if len(prop.Type) > 0 && !slices.ContainsFunc(prop.Type, func(t string) bool { return fitsType(t, v) }) {
			return fmt.Errorf("argument %q is not of type %s", name, strings.Join(prop.Type, " or "))
		}
		if len(prop.Enum) > 0 && !slices.ContainsFunc(prop.Enum, func(e any) bool { return fmt.Sprint(e) == fmt.Sprint(v) }) {
			return fmt.Errorf("argument %q is not one of %v", name, prop.Enum)
		}
	}
	return nil
}

func fitsType(t string, v any) bool {
	switch t {
	case "string":
		_, ok := v.(string)
		return ok
	case "number", "integer":
		f, ok := v.(float64)
		if s, isStr := v.(string); isStr {
			var err error
			f, err = strconv.ParseFloat(strings.TrimSpace(s), 64)
			ok = err == nil
		}
		return ok && !math.IsNaN(f) && !math.IsInf(f, 0) && (t == "number" || f == math.Trunc(f))
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "null":
		return v == nil
	}
	return true // a type this check does not know: the tool decides
}

func isSpace(r rune) bool { return r == ' ' || r == '\n' || r == '\t' || r == '\r' }

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// textCallFilter sits between a streamed reply and its reader when tools
// were offered. Text is passed on as it comes, except from a point where a
// tool call may begin: that part waits until it is clearly not a call
// (then it is passed on) or the reply ends (finish decides).
type textCallFilter struct {
	offered api.Tools
	emit    func(Chunk) // the reader; nil: nobody reads the stream
	content strings.Builder
	sent    int  // bytes of content passed on
	free    bool // gave up holding back (too long): everything passes
	emitted bool // something reached the reader
}

func (f *textCallFilter) pass(ch Chunk) {
	if f.emit != nil {
		f.emitted = true
		f.emit(ch)
	}
}

func (f *textCallFilter) push(ch Chunk) {
	if ch.Content == "" {
		if ch.Thinking != "" || len(ch.ToolCalls) > 0 {
			f.pass(ch)
		}
		return
	}
	f.content.WriteString(ch.Content)
	s := f.content.String()
	upTo := len(s)
	if !f.free {
		upTo = f.holdFrom(s)
		if len(s)-upTo > maxHeldText {
			f.free, upTo = true, len(s)
		}
	}
	if ch.Thinking != "" || upTo > f.sent {
		f.pass(Chunk{Content: s[f.sent:upTo], Thinking: ch.Thinking})
		f.sent = upTo
	}
}

// holdFrom is where the text may no longer be passed on: the first place
// from which what arrived so far could still be calls, else its end.
func (f *textCallFilter) holdFrom(s string) int {
	for _, at := range callStarts(s, f.sent) {
		if _, err := parseCalls(s[at:], f.offered, false); err == nil || errors.Is(err, errIncomplete) {
			return at
		}
	}
	// A tag cut by the chunk boundary, at the very end.
	return len(s) - len(partialSuffix(s[f.sent:], tagOpen))
}

// finish decides at the end of the reply: calls that were never shown
// become structured calls and their text is dropped; otherwise what was
// held back is passed on.
func (f *textCallFilter) finish(msg *api.Message) {
	if len(msg.ToolCalls) == 0 && !f.free {
		if calls, at, ok := findCalls(msg.Content, f.offered); ok && at >= f.sent {
			shown := strings.TrimRightFunc(msg.Content[:at], isSpace)
			if len(shown) > f.sent {
				f.pass(Chunk{Content: shown[f.sent:]})
			}
			msg.ToolCalls, msg.Content = calls, shown
			return
		}
	}
	if s := f.content.String(); len(s) > f.sent {
		f.pass(Chunk{Content: s[f.sent:]})
		f.sent = len(s)
	}
}
