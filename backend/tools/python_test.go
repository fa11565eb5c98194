package tools

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestRunPython(t *testing.T) {
	cases := []struct {
		name, code string
		want       string // substring of the output
		wantErr    string // substring of the error; "" means success
		limit      bool   // the error is ErrPythonLimit
	}{
		{name: "arithmetic", code: "print(sum([x*x for x in range(10)]))", want: "285"},
		{name: "big integers are exact", code: "x = 1\nfor i in range(1, 31):\n  x *= i\nprint(x)", want: "265252859812191058636308480000000"},
		{name: "functions and dicts", code: "def f(d):\n  return sorted(d.items())\nprint(f({'b': 2, 'a': 1}))", want: `[("a", 1), ("b", 2)]`},
		{name: "korean text", code: `print("안녕" + "하세요", "한" in "한글")`, want: "안녕하세요 True"},
		{name: "sum of floats", code: "print(sum([0.5, 0.25], 1))", want: "1.75"},
		{name: "nothing printed", code: "x = 1", want: "printed nothing"},
		{name: "syntax error", code: "print(1", wantErr: "program.py:1"},
		{name: "runtime error", code: "print(1 // 0)", wantErr: "division by zero"},
		{name: "empty", code: "  \n", wantErr: "empty"},
		{name: "no import", code: "import os", wantErr: "program.py:1"},
		{name: "no load", code: `load("x.star", "y")`, wantErr: "load is not available"},
		{name: "no open", code: `open("/etc/passwd")`, wantErr: "undefined: open"},
		{name: "no clock", code: `print(time.now())`, wantErr: "undefined: time"},
		{name: "no recursion", code: "def f(n):\n  return f(n+1)\nf(0)", wantErr: "recursi"},
		{name: "endless loop", code: "while True:\n  pass", wantErr: "steps", limit: true},
		{name: "huge range", code: "print(len(list(range(1000000000))))", wantErr: "more than the 1000000 allowed"},
		{name: "too long", code: strings.Repeat("x=1\n", MaxPythonSource/4+1), wantErr: "longer than"},
		{name: "memory by doubling", code: "s = 'x'\nfor i in range(40):\n  s += s\nprint(len(s))", wantErr: "memory", limit: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := RunPython(context.Background(), c.code)
			switch {
			case c.wantErr == "" && !c.limit:
				if err != nil {
					t.Fatalf("error %v; output %q", err, out)
				}
				if !strings.Contains(out, c.want) {
					t.Fatalf("output %q does not contain %q", out, c.want)
				}
			default:
				if err == nil {
					t.Fatalf("no error; output %q", out)
				}
				if !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %q does not contain %q", err, c.wantErr)
				}
				if c.limit != errors.Is(err, ErrPythonLimit) {
					t.Fatalf("error %q: limit = %v, want %v", err, errors.Is(err, ErrPythonLimit), c.limit)
				}
			}
		})
	}
}

// TestRunPythonOutputIsBounded: a program printing megabytes returns the
// first MaxPythonOutput bytes and says how much was left out.
func TestRunPythonOutputIsBounded(t *testing.T) {
	out, err := RunPython(context.Background(), "for i in range(200000):\n  print('가나다라마바사아자차')")
	if err != nil {
		t.Fatal(err)
	}
	if len(out) > MaxPythonOutput+100 || !strings.Contains(out, "more bytes of output not shown") {
		t.Fatalf("output of %d bytes, tail %q", len(out), out[max(0, len(out)-80):])
	}
	if !strings.HasPrefix(out, "가나다라마바사아자차\n") {
		t.Fatalf("output starts %q", out[:40])
	}
}

// TestRunPythonStopsWithTheTurn: the turn's context ends a program that
// would otherwise run to its step limit.
func TestRunPythonStopsWithTheTurn(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := RunPython(ctx, "x = 0\nfor i in range(1000000):\n  for j in range(1000000):\n    x += 1")
	if !errors.Is(err, ErrPythonLimit) || !strings.Contains(err.Error(), "out of time") {
		t.Fatalf("error %v, want out of time", err)
	}
}

func TestRunPythonTool(t *testing.T) {
	tool := NewRunPython()
	if !tool.DefaultOff || tool.Reaches {
		t.Fatalf("run_python must be off by default and reach nothing: %+v", tool)
	}
	res, err := tool.Call(context.Background(), map[string]any{"code": "print(1 << 10)"})
	if err != nil || strings.TrimSpace(res.Text) != "1024" {
		t.Fatalf("%q, %v", res.Text, err)
	}
	if _, err := tool.Call(context.Background(), map[string]any{}); err == nil {
		t.Fatal("a call without code was accepted")
	}
}

func FuzzRunPython(f *testing.F) {
	for _, s := range []string{"print(1)", "while True: pass", "s='x'\nfor i in range(30): s += s", "def f(): f()\nf()", "print([0]*100000)", "\x00", "print('%s' % 1)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		out, _ := RunPython(ctx, src)
		if len(out) > MaxPythonOutput+100 {
			t.Fatalf("output of %d bytes", len(out))
		}
	})
}
