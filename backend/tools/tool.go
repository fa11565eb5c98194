// Package tools holds the tools Wayfinder's agent may call: calculator,
// get_time, retrieve_docs, search_catalog, read_memory, web_search and
// read_file. None of them executes code, and none writes memories.
//
// A Tool is declared as data (name, description, parameters, time limit and
// a run function) so that the JSON schema the model sees and the validation
// its arguments get come from the same list and cannot drift apart. Small
// local models send sloppy arguments ("5" for 5, extra keys); validation
// coerces what is unambiguous and rejects the rest with a message the model
// can act on. The Registry runs calls and turns every failure (unknown tool,
// bad arguments, error, time-out, even a panic) into an error observation,
// because a failing tool must never end the person's turn (seeds 000/001).
package tools

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// Errors callers (and tests) can test for with errors.Is.
var (
	ErrUnknownTool = errors.New("unknown tool")
	ErrDisabled    = errors.New("tool is not enabled")
	ErrInvalidArgs = errors.New("invalid arguments")
	ErrTimeout     = errors.New("tool timed out")
	ErrPanic       = errors.New("tool crashed")
)

// DefaultTimeout applies to tools that do not set their own.
const DefaultTimeout = 10 * time.Second

// ParamType is a JSON schema type of a parameter.
type ParamType string

const (
	TypeString  ParamType = "string"
	TypeInteger ParamType = "integer"
	TypeNumber  ParamType = "number"
	TypeBoolean ParamType = "boolean"
)

// Param describes one argument of a tool.
type Param struct {
	Name        string
	Type        ParamType
	Description string
	Required    bool
	Enum        []string // allowed values of a string parameter, if limited
	Min, Max    *float64 // inclusive bounds of a number or integer
}

// Result is what a tool call produced: the text observation the model reads
// and the passages it may cite.
type Result struct {
	Text string
	// Sources are the passages of Text, in order, each Snippet holding the
	// passage as Text gives it. The agent shows them to the model from
	// here, numbered across the whole turn, so that [n] means one passage
	// whichever call found it.
	Sources []api.Source
	// Attachments are binary results saved in the data folder (an MCP
	// tool's images); the message shows them, Text says where they are.
	Attachments []api.Attachment
	// NoMatch is the query a search found nothing for: the live trace says
	// so in the person's language, where Text, for the model, is English.
	NoMatch string
	// Said is the live trace's line for a result found, in the person's
	// language, where Text, for the model, is English: a trace code and
	// its blanks. Empty: the trace shows Text (a figure, a program's output).
	Said Said
}

// Said is a sentence of the live trace (api.TraceCode) with its blanks.
type Said struct {
	Code api.TraceCode
	Args map[string]string
}

// RunFunc does a tool's work on validated arguments.
type RunFunc func(ctx context.Context, args Args) (Result, error)

// Tool is one callable tool.
type Tool struct {
	Name        string
	Description string
	Params      []Param
	// InputSchema, when set, is the schema of the arguments as the tool's
	// provider gave it (MCP tools: nested objects, arrays, anything JSON
	// Schema says) and Params is unused: Validate then only checks that
	// the required arguments are there and leaves the rest to the
	// provider, which validates its own input.
	InputSchema *ollama.ToolFunctionParameters
	// Timeout bounds one call; zero means DefaultTimeout.
	Timeout time.Duration
	// DefaultOff tools are left out of the schemas and refused until the
	// registry enables them (web_search: Wayfinder is offline-first).
	DefaultOff bool
	// Outside marks a tool whose results hold text Wayfinder did not write
	// (documents, files, web pages, what was remembered): text that may try
	// to steer the model. Once such text is in a model's context, the calls
	// it makes to tools that Reach need the person's approval.
	Outside bool
	// Reaches marks a tool that reads the person's files or goes to the
	// network on the model's behalf.
	Reaches bool
	Run     RunFunc

	// What the agent's approval gate reads besides Reaches (backend/agent
	// gate.go explains how a tool plugs in). AlwaysAsk tools need the
	// person's approval for every call, unless they allowed the tool for
	// good (MCP tools, which can act).
	AlwaysAsk bool
	// ReadOnly tools declare they change nothing (MCP's readOnlyHint):
	// the person may let such tools of a server run without asking.
	ReadOnly bool
	// Server is the MCP server that provides the tool; "" for Wayfinder's
	// own. The agent offers a server's tools on every loop.
	Server string
	// Origin names exactly what provides the tool (for MCP, a hash of the
	// server's command and arguments or its URL). "Always for this tool"
	// is kept with it, so a different program added under the same server
	// name does not inherit the old one's grants; "" for Wayfinder's own.
	Origin string
}

// Schema is the tool's description in the form Ollama's chat API takes.
func (t *Tool) Schema() ollama.Tool {
	if t.InputSchema != nil {
		return ollama.Tool{Type: "function", Function: ollama.ToolFunction{Name: t.Name, Description: t.Description, Parameters: *t.InputSchema}}
	}
	props := ollama.NewToolPropertiesMap()
	var required []string
	for _, p := range t.Params {
		prop := ollama.ToolProperty{Type: ollama.PropertyType{string(p.Type)}, Description: p.Description}
		for _, v := range p.Enum {
			prop.Enum = append(prop.Enum, v)
		}
		props.Set(p.Name, prop)
		if p.Required {
			required = append(required, p.Name)
		}
	}
	return ollama.Tool{
		Type: "function",
		Function: ollama.ToolFunction{
			Name:        t.Name,
			Description: t.Description,
			Parameters:  ollama.ToolFunctionParameters{Type: "object", Required: required, Properties: props},
		},
	}
}

func (t *Tool) timeout() time.Duration {
	if t.Timeout > 0 {
		return t.Timeout
	}
	return DefaultTimeout
}

// Call validates args and runs the tool within its time limit. Most callers
// go through Registry.Run, which also turns errors into observations.
func (t *Tool) Call(ctx context.Context, args map[string]any) (Result, error) {
	valid, err := t.Validate(args)
	if err != nil {
		return Result{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, t.timeout())
	defer cancel()
	return t.Run(ctx, valid)
}

// Validate checks args against the parameters and returns them normalised:
// strings trimmed, integers as int, numbers as float64, booleans as bool.
// Keys the tool does not declare are dropped: small models invent them, and
// refusing the whole call for an extra key would waste a model round.
func (t *Tool) Validate(args map[string]any) (Args, error) {
	if t.InputSchema != nil {
		return t.validateRaw(args)
	}
	out := make(Args, len(t.Params))
	var problems []string
	for _, p := range t.Params {
		raw, ok := args[p.Name]
		if !ok || raw == nil || (isString(raw) && strings.TrimSpace(raw.(string)) == "") {
			if p.Required {
				problems = append(problems, fmt.Sprintf("%q is required (%s)", p.Name, p.Description))
			}
			continue
		}
		v, err := coerce(p, raw)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%q %v", p.Name, err))
			continue
		}
		out[p.Name] = v
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("%w for %s: %s", ErrInvalidArgs, t.Name, strings.Join(problems, "; "))
	}
	return out, nil
}

// validateRaw checks the arguments of a tool with its provider's schema:
// the required ones must be there; the values go on as the model sent them.
func (t *Tool) validateRaw(args map[string]any) (Args, error) {
	var missing []string
	for _, name := range t.InputSchema.Required {
		if v, ok := args[name]; !ok || v == nil {
			missing = append(missing, strconv.Quote(name))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%w for %s: %s required", ErrInvalidArgs, t.Name, strings.Join(missing, ", "))
	}
	out := make(Args, len(args))
	for k, v := range args {
		out[k] = v
	}
	return out, nil
}

func isString(v any) bool { _, ok := v.(string); return ok }

func coerce(p Param, raw any) (any, error) {
	switch p.Type {
	case TypeString:
		var s string
		switch v := raw.(type) {
		case string:
			s = strings.TrimSpace(v)
		case float64, int, int64, bool:
			s = fmt.Sprint(v)
		default:
			return nil, fmt.Errorf("must be a string, got %T", raw)
		}
		if len(p.Enum) > 0 && !slices.Contains(p.Enum, s) {
			return nil, fmt.Errorf("must be one of %s, got %q", strings.Join(p.Enum, ", "), s)
		}
		return s, nil
	case TypeInteger, TypeNumber:
		f, err := toFloat(raw)
		if err != nil {
			return nil, err
		}
		if p.Type == TypeInteger && f != math.Trunc(f) {
			return nil, fmt.Errorf("must be a whole number, got %v", f)
		}
		if (p.Min != nil && f < *p.Min) || (p.Max != nil && f > *p.Max) {
			return nil, fmt.Errorf("must be between %v and %v, got %v", deref(p.Min), deref(p.Max), f)
		}
		if p.Type == TypeInteger {
			return int(f), nil
		}
		return f, nil
	case TypeBoolean:
		switch v := raw.(type) {
		case bool:
			return v, nil
		case string:
			b, err := strconv.ParseBool(strings.TrimSpace(v))
			if err != nil {
				return nil, fmt.Errorf("must be true or false, got %q", v)
			}
			return b, nil
		}
		return nil, fmt.Errorf("must be true or false, got %T", raw)
	}
	return nil, fmt.Errorf("has unsupported type %q", p.Type)
}

func toFloat(raw any) (float64, error) {
	switch v := raw.(type) {
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, errors.New("must be a finite number")
		}
		return v, nil
	case int:
		return float64(v), nil
	case int64:
		return float64(v), nil
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, fmt.Errorf("must be a number, got %q", v)
		}
		return f, nil
	}
	return 0, fmt.Errorf("must be a number, got %T", raw)
}

func deref(p *float64) any {
	if p == nil {
		return "any"
	}
	return *p
}

func bound(v float64) *float64 { return &v }

// Args are validated, normalised arguments. The getters return the zero
// value for an absent optional argument.
type Args map[string]any

// String returns a string argument.
func (a Args) String(name string) string { s, _ := a[name].(string); return s }

// Int returns an integer argument, or def when it is absent.
func (a Args) Int(name string, def int) int {
	if v, ok := a[name].(int); ok {
		return v
	}
	return def
}

// Float returns a number argument, or def when it is absent.
func (a Args) Float(name string, def float64) float64 {
	if v, ok := a[name].(float64); ok {
		return v
	}
	return def
}

// Bool returns a boolean argument, or def when it is absent.
func (a Args) Bool(name string, def bool) bool {
	if v, ok := a[name].(bool); ok {
		return v
	}
	return def
}
