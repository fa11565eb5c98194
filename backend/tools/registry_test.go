package tools

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	ollama "github.com/ollama/ollama/api"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func echoTool(name string) *Tool {
	return &Tool{Name: name, Params: []Param{{Name: "s", Type: TypeString}},
		Run: func(ctx context.Context, a Args) (Result, error) {
			return Result{Text: name + ":" + a.String("s")}, nil
		}}
}

func mustRegistry(t *testing.T, ts ...*Tool) *Registry {
	t.Helper()
	r, err := NewRegistry(nil, ts...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRegistryRun(t *testing.T) {
	slow := &Tool{Name: "slow", Timeout: 20 * time.Millisecond,
		Run: func(ctx context.Context, a Args) (Result, error) { <-ctx.Done(); return Result{}, ctx.Err() }}
	// stubborn ignores its context: the registry must still return on time.
	release := make(chan struct{})
	stubborn := &Tool{Name: "stubborn", Timeout: 20 * time.Millisecond,
		Run: func(ctx context.Context, a Args) (Result, error) { <-release; return Result{Text: "late"}, nil }}
	defer close(release)
	panicky := &Tool{Name: "panicky", Run: func(context.Context, Args) (Result, error) { panic("boom") }}
	failing := &Tool{Name: "failing", Run: func(context.Context, Args) (Result, error) { return Result{}, errors.New("disk on fire") }}
	needsArg := &Tool{Name: "needs", Params: []Param{{Name: "q", Type: TypeString, Required: true, Description: "query"}},
		Run: func(context.Context, Args) (Result, error) { return Result{Text: "ok"}, nil }}
	off := echoTool("off")
	off.DefaultOff = true
	r := mustRegistry(t, echoTool("echo"), slow, stubborn, panicky, failing, needsArg, off)

	tests := []struct {
		call     Call
		wantText string
		wantErr  error
	}{
		{Call{Name: "echo", Args: map[string]any{"s": "hi"}}, "echo:hi", nil},
		{Call{Name: "nope", Args: nil}, `Error: unknown tool "nope"; available tools: echo, slow, stubborn, panicky, failing, needs`, ErrUnknownTool},
		{Call{Name: "off", Args: nil}, "Error: off: tool is not enabled", ErrDisabled},
		{Call{Name: "needs", Args: map[string]any{}}, `Error: invalid arguments for needs: "q" is required`, ErrInvalidArgs},
		{Call{Name: "failing", Args: nil}, "Error: failing: disk on fire", nil},
		{Call{Name: "panicky", Args: nil}, "Error: panicky: tool crashed", ErrPanic},
		{Call{Name: "slow", Args: nil}, "Error: slow: tool timed out after 20ms", ErrTimeout},
		{Call{Name: "stubborn", Args: nil}, "Error: stubborn: tool timed out after 20ms", ErrTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.call.Name, func(t *testing.T) {
			out := r.Run(context.Background(), tt.call)
			if !strings.HasPrefix(out.Result.Text, tt.wantText) {
				t.Errorf("text = %q, want prefix %q", out.Result.Text, tt.wantText)
			}
			if tt.wantErr != nil && !errors.Is(out.Err, tt.wantErr) {
				t.Errorf("err = %v, want %v", out.Err, tt.wantErr)
			}
			if (tt.wantText[:6] == "Error:") != (out.Err != nil) {
				t.Errorf("err = %v for text %q", out.Err, out.Result.Text)
			}
		})
	}
}

func TestRegistryCancelledTurnIsNotATimeout(t *testing.T) {
	slow := &Tool{Name: "slow", Timeout: time.Minute,
		Run: func(ctx context.Context, a Args) (Result, error) { <-ctx.Done(); return Result{}, ctx.Err() }}
	r := mustRegistry(t, slow)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out := r.Run(ctx, Call{Name: "slow"})
	if !errors.Is(out.Err, context.Canceled) || errors.Is(out.Err, ErrTimeout) {
		t.Fatalf("err = %v, want context.Canceled", out.Err)
	}
}

func TestRegistryRunAllParallelOrdered(t *testing.T) {
	const n = 8
	var running, peak atomic.Int32
	gate := make(chan struct{})
	wait := &Tool{Name: "wait", Params: []Param{{Name: "i", Type: TypeInteger}},
		Run: func(ctx context.Context, a Args) (Result, error) {
			cur := running.Add(1)
			for {
				p := peak.Load()
				if cur <= p || peak.CompareAndSwap(p, cur) {
					break
				}
			}
			if cur == n {
				close(gate) // the last one to arrive lets everyone go
			}
			select {
			case <-gate:
			case <-ctx.Done():
				return Result{}, ctx.Err()
			}
			// Finish in reverse order of arrival to prove results are
			// ordered by call, not by completion.
			time.Sleep(time.Duration(n-a.Int("i", 0)) * time.Millisecond)
			return Result{Text: fmt.Sprint(a.Int("i", 0))}, nil
		}}
	r := mustRegistry(t, wait, echoTool("echo"))
	var calls []Call
	for i := range n {
		calls = append(calls, Call{Name: "wait", Args: map[string]any{"i": float64(i)}})
	}
	calls = append(calls, Call{Name: "missing"})
	outs := r.RunAll(context.Background(), calls)
	if len(outs) != n+1 {
		t.Fatalf("%d outcomes", len(outs))
	}
	for i := range n {
		if outs[i].Err != nil || outs[i].Result.Text != fmt.Sprint(i) {
			t.Errorf("outcome %d = %q, %v", i, outs[i].Result.Text, outs[i].Err)
		}
	}
	if !errors.Is(outs[n].Err, ErrUnknownTool) || outs[n].Call.Name != "missing" {
		t.Errorf("last outcome = %+v", outs[n])
	}
	if peak.Load() != n {
		t.Errorf("peak concurrency %d, want %d", peak.Load(), n)
	}
	if got := r.RunAll(context.Background(), nil); len(got) != 0 {
		t.Errorf("RunAll(nil) = %v", got)
	}
}

func TestRegistrySchemasAndEnable(t *testing.T) {
	off := echoTool("web")
	off.DefaultOff = true
	r := mustRegistry(t, echoTool("a"), off, echoTool("b"))
	names := func(ts []ollama.Tool) string {
		var s []string
		for _, t := range ts {
			s = append(s, t.Function.Name)
		}
		return strings.Join(s, ",")
	}
	if got := names(r.Schemas()); got != "a,b" {
		t.Errorf("schemas = %s, want a,b (web off by default)", got)
	}
	on, err := r.WithEnabled("web", true)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(on.Schemas()); got != "a,web,b" {
		t.Errorf("enabled schemas = %s", got)
	}
	if out := on.Run(context.Background(), Call{Name: "web", Args: map[string]any{"s": "x"}}); out.Err != nil {
		t.Errorf("enabled web: %v", out.Err)
	}
	if got := names(r.Schemas()); got != "a,b" {
		t.Errorf("WithEnabled changed the original registry: %s", got)
	}
	if _, err := r.WithEnabled("zzz", true); !errors.Is(err, ErrUnknownTool) {
		t.Errorf("enable unknown: %v", err)
	}
	if _, err := NewRegistry(nil, echoTool("a"), echoTool("a")); err == nil {
		t.Error("duplicate tool names accepted")
	}
	if _, err := NewRegistry(nil, &Tool{Name: "x"}); err == nil {
		t.Error("tool without Run accepted")
	}
}

func TestRegistryTruncatesObservation(t *testing.T) {
	big := &Tool{Name: "big", Run: func(context.Context, Args) (Result, error) {
		return Result{Text: strings.Repeat("가", 100)}, nil
	}}
	r := mustRegistry(t, big).WithMaxObservation(10)
	out := r.Run(context.Background(), Call{Name: "big"})
	if !strings.HasPrefix(out.Result.Text, strings.Repeat("가", 10)+"\n[... cut") {
		t.Errorf("text = %q", out.Result.Text)
	}
}

func TestCallFromOllama(t *testing.T) {
	args := ollama.NewToolCallFunctionArguments()
	args.Set("expression", "1+1")
	c := CallFromOllama(ollama.ToolCall{Function: ollama.ToolCallFunction{Name: "calculator", Arguments: args}})
	if c.Name != "calculator" || c.Args["expression"] != "1+1" {
		t.Errorf("call = %+v", c)
	}
	empty := CallFromOllama(ollama.ToolCall{Function: ollama.ToolCallFunction{Name: "get_time"}})
	if empty.Args == nil {
		t.Error("nil args map")
	}
	r := mustRegistry(t, NewCalculator())
	if out := r.Run(context.Background(), c); out.Result.Text != "2" {
		t.Errorf("calculator via ollama call = %q, %v", out.Result.Text, out.Err)
	}
}

func TestCallKeyAndMessage(t *testing.T) {
	a := Call{Name: "retrieve_docs", Args: map[string]any{"query": "영상", "top_k": 3.0}}
	b := Call{Name: "retrieve_docs", Args: map[string]any{"top_k": 3.0, "query": "영상"}}
	c := Call{Name: "retrieve_docs", Args: map[string]any{"query": "영상", "top_k": 4.0}}
	if a.Key() != b.Key() || a.Key() == c.Key() {
		t.Errorf("keys: %q %q %q", a.Key(), b.Key(), c.Key())
	}
	if got := (Call{Name: "get_time"}).Key(); got != "get_time{}" {
		t.Errorf("empty key = %q", got)
	}
	m := Outcome{Call: Call{ID: "call_1", Name: "calculator"}, Result: Result{Text: "56088"}}.Message()
	if m.Role != "tool" || m.Content != "56088" || m.ToolName != "calculator" || m.ToolCallID != "call_1" {
		t.Errorf("message = %+v", m)
	}
}

func BenchmarkRegistryRunCalculator(b *testing.B) {
	r, _ := NewRegistry(nil, NewCalculator())
	call := Call{Name: "calculator", Args: map[string]any{"expression": "123 * 456"}}
	for b.Loop() {
		if out := r.Run(context.Background(), call); out.Err != nil {
			b.Fatal(out.Err)
		}
	}
}

func TestRegistryWith(t *testing.T) {
	base, err := NewRegistry(nil, NewCalculator())
	if err != nil {
		t.Fatal(err)
	}
	extra := &Tool{Name: "srv__echo", Run: func(_ context.Context, a Args) (Result, error) { return Result{Text: "ok"}, nil }}
	r, err := base.With(extra)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Names(); len(got) != 2 || got[1] != "srv__echo" {
		t.Fatalf("names %v", got)
	}
	if len(base.Names()) != 1 {
		t.Fatalf("the base registry changed: %v", base.Names())
	}
	if o := r.Run(context.Background(), Call{Name: "srv__echo"}); o.Err != nil || o.Result.Text != "ok" {
		t.Fatalf("run: %+v", o)
	}
	if _, err := r.With(&Tool{Name: "calculator", Run: extra.Run}); err == nil {
		t.Fatal("a taken name was accepted")
	}
}
