package tools

import (
	"context"
	"errors"
	"fmt"
	"runtime/metrics"
	"strings"
	"time"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// run_python runs the model's code in Starlark, a Python dialect whose
// interpreter is written in Go and has no way out: no import, no open, no
// sockets, no clock, no environment. Only what this file predeclares exists
// (print, a bounded range, Starlark's own built-ins), so nothing the model
// writes runs outside that interpreter. CPython in a subprocess would need
// an OS sandbox per platform to give the same promise.
const (
	// MaxPythonSource bounds the program text (a model writes a few lines).
	MaxPythonSource = 20_000
	// MaxPythonSteps bounds the work: a few seconds of plain loops at most.
	MaxPythonSteps = 5_000_000
	// MaxPythonOutput bounds what print and the result may return.
	MaxPythonOutput = 16 << 10
	// MaxPythonRange bounds one range: Starlark's list(range(n)) builds the
	// list in a single step the step limit does not see.
	MaxPythonRange = 1_000_000
	// MaxPythonHeap is how much the heap may grow during one run before the
	// run is stopped; checked every few milliseconds, so one operation can
	// overshoot it (Starlark itself refuses a single repeat of 1 GiB or more).
	MaxPythonHeap = 256 << 20
)

// ErrPythonLimit marks a program stopped by one of the limits above.
var ErrPythonLimit = errors.New("program stopped")

// NewRunPython is the run_python tool. It is off until the person turns it
// on in Settings.
func NewRunPython() *Tool {
	return &Tool{
		Name: "run_python",
		Description: "Run a short program in a sandboxed Python dialect (Starlark: no import, no files, no network, no clock; " +
			"no classes, no recursion; integers are exact). What it print()s is returned. " +
			"Use it for calculations or data manipulation a calculator cannot do.",
		Params: []Param{{Name: "code", Type: TypeString, Required: true,
			Description: "the program, e.g. \"print(sum([x*x for x in range(10)]))\""}},
		Timeout:    5 * time.Second,
		DefaultOff: true,
		Run: func(ctx context.Context, args Args) (Result, error) {
			out, err := RunPython(ctx, args.String("code"))
			if err != nil {
				return Result{}, err
			}
			return Result{Text: out}, nil
		},
	}
}

// RunPython runs src and returns what it printed. Errors say what went wrong
// in words a model can act on (a syntax error with its line, a limit hit).
func RunPython(ctx context.Context, src string) (string, error) {
	if strings.TrimSpace(src) == "" {
		return "", errors.New("the program is empty")
	}
	if len(src) > MaxPythonSource {
		return "", fmt.Errorf("the program is longer than %d characters", MaxPythonSource)
	}
	if !utf8.ValidString(src) {
		return "", errors.New("the program is not valid UTF-8 text")
	}
	out := &boundedOutput{max: MaxPythonOutput}
	thread := &starlark.Thread{
		Name:  "run_python",
		Print: func(_ *starlark.Thread, msg string) { out.WriteLine(msg) },
		Load: func(*starlark.Thread, string) (starlark.StringDict, error) {
			return nil, errors.New("load is not available: the program runs alone")
		},
	}
	thread.SetMaxExecutionSteps(MaxPythonSteps)
	predeclared := starlark.StringDict{
		"range": starlark.NewBuiltin("range", boundedRange),
		"sum":   starlark.NewBuiltin("sum", sum),
	}

	done := make(chan struct{})
	stopped := make(chan string, 1)
	go watch(ctx, thread, done, stopped)
	opts := &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true}
	// Recursion stays off: each Starlark call is Go stack, and a deep
	// recursion within the step limit could exhaust it and end the app.
	_, err := starlark.ExecFileOptions(opts, thread, "program.py", src, predeclared)
	close(done)
	select {
	case reason := <-stopped:
		return out.String(), fmt.Errorf("%w: %s", ErrPythonLimit, reason)
	default:
	}
	if err != nil {
		var ee *starlark.EvalError
		switch {
		case errors.As(err, &ee) && strings.Contains(ee.Msg, "too many steps"):
			return out.String(), fmt.Errorf("%w: more than %d steps (an endless loop?)", ErrPythonLimit, MaxPythonSteps)
		case errors.As(err, &ee):
			return out.String(), fmt.Errorf("%s", ee.Backtrace())
		}
		return out.String(), err
	}
	if out.Len() == 0 {
		return "(the program printed nothing: print() the result)", nil
	}
	return out.String(), nil
}

// watch cancels the thread when the turn ends or the heap grows past
// MaxPythonHeap, saying why on stopped.
func watch(ctx context.Context, thread *starlark.Thread, done <-chan struct{}, stopped chan<- string) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	heap := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	base := heap()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	stop := func(reason string) {
		stopped <- reason
		thread.Cancel(reason)
	}
	for {
		select {
		case <-done:
			return
		case <-ctx.Done():
			stop("out of time")
			return
		case <-tick.C:
			if h := heap(); h > base && h-base > MaxPythonHeap {
				stop(fmt.Sprintf("used more than %d MB of memory", MaxPythonHeap>>20))
				return
			}
		}
	}
}

// boundedRange is Starlark's range with at most MaxPythonRange elements.
func boundedRange(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	v, err := starlark.Call(thread, starlark.Universe["range"], args, kwargs)
	if err != nil {
		return nil, err
	}
	if n := v.(starlark.Sequence).Len(); n > MaxPythonRange {
		return nil, fmt.Errorf("range of %d numbers is more than the %d allowed", n, MaxPythonRange)
	}
	return v, nil
}

// sum is Python's sum(iterable, start=0), which Starlark leaves out and
// models reach for first.
func sum(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var it starlark.Iterable
	var total starlark.Value = starlark.MakeInt(0)
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &it, &total); err != nil {
		return nil, err
	}
	iter := it.Iterate()
	defer iter.Done()
	var x starlark.Value
	for iter.Next(&x) {
		var err error
		if total, err = starlark.Binary(syntax.PLUS, total, x); err != nil {
			return nil, fmt.Errorf("sum: %w", err)
		}
	}
	return total, nil
}

// boundedOutput keeps the first max bytes printed and says how much was cut.
type boundedOutput struct {
	b       strings.Builder
	max     int
	dropped int
}

func (o *boundedOutput) WriteLine(s string) {
	s += "\n"
	if room := o.max - o.b.Len(); room < len(s) {
		if room > 0 {
			cut := room
			for cut > 0 && !utf8.RuneStart(s[cut]) {
				cut--
			}
			o.b.WriteString(s[:cut])
			s = s[cut:]
		}
		o.dropped += len(s)
		return
	}
	o.b.WriteString(s)
}

func (o *boundedOutput) Len() int { return o.b.Len() }

func (o *boundedOutput) String() string {
	if o.dropped > 0 {
		return o.b.String() + fmt.Sprintf("\n… %d more bytes of output not shown", o.dropped)
	}
	return o.b.String()
}
