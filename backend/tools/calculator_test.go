package tools

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEvaluate(t *testing.T) {
	tests := []struct {
		in, want string
		wantErr  error
		errText  string
	}{
		{in: "123 * 456", want: "56088"},
		{in: "123×456", want: "56088"},
		{in: "123 x 456", want: "56088"},
		{in: "2 x 3 x 4", want: "24"},
		{in: "1,234 + 1", want: "1235"},
		{in: "2^10", want: "1024"},
		{in: "2**10", want: "1024"},
		{in: "3²", want: "9"},
		{in: "10 ÷ 4", want: "2.5"},
		{in: "7 / 2", want: "3.5"},
		{in: "0.1 + 0.2", want: "0.3"},
		{in: "sqrt(2) * sqrt(2)", want: "2"},
		{in: "15% of 200", want: "30"},
		{in: "200 * 15%", want: "30"},
		{in: "10 % 3", want: "1"},
		{in: "10 % -3", want: "1"},
		{in: "mod(7.5, 2)", want: "1.5"},
		{in: "min(3, 1, 2) + max(4, 9)", want: "10"},
		{in: "round(pi * 100) / 100", want: "3.14"},
		{in: "ln(e)", want: "1"},
		{in: "log(1000)", want: "3"},
		{in: "abs(-5) + floor(2.7) + ceil(2.1)", want: "10"},
		{in: "(29 + 12) * 12 =", want: "492"},
		{in: "-0", want: "0"},
		{in: "1e20", want: "1e+20"},
		{in: "0x10", want: "16"},
		{in: "1/3", want: "0.333333333333"},
		{in: "abc", wantErr: ErrInvalidArgs, errText: "unknown name abc"},
		{in: "", wantErr: ErrInvalidArgs, errText: "empty"},
		{in: "1 +", wantErr: ErrInvalidArgs},
		{in: "1/0", wantErr: ErrMath, errText: "division by zero"},
		{in: "7 % 0", wantErr: ErrMath, errText: "divides by zero"},
		{in: "sqrt(-1)", wantErr: ErrMath, errText: "not a number"},
		{in: "1e308 * 10", wantErr: ErrMath, errText: "infinite"},
		{in: "'a' + 'b'", wantErr: ErrInvalidArgs},
		{in: "[1, 2]", wantErr: ErrInvalidArgs},
		{in: `len("abc")`, wantErr: ErrInvalidArgs, errText: "unknown name len"},
		{in: "max()", wantErr: ErrInvalidArgs},
		{in: "sqrt", wantErr: ErrInvalidArgs},
		{in: strings.Repeat("(", 300) + "1" + strings.Repeat(")", 300), wantErr: ErrInvalidArgs, errText: "longer than 500"},
		{in: "123456789012345 + 1", want: "123456789012346"},
	}
	for _, tt := range tests {
		name := tt.in
		if len(name) > 30 {
			name = name[:30]
		}
		t.Run(name, func(t *testing.T) {
			got, err := Evaluate(tt.in)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || !strings.Contains(err.Error(), tt.errText) {
					t.Fatalf("Evaluate(%q) = %q, %v; want %v containing %q", tt.in, got, err, tt.wantErr, tt.errText)
				}
				if strings.Contains(err.Error(), "\n") {
					t.Errorf("error spans lines: %q", err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("Evaluate(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestFormatNumber(t *testing.T) {
	for in, want := range map[float64]string{56088: "56088", 2.5: "2.5", -3: "-3", 1e-9: "1e-09", 123456789012345: "123456789012345", 1e15: "1e+15"} {
		if got := FormatNumber(in); got != want {
			t.Errorf("FormatNumber(%v) = %q, want %q", in, got, want)
		}
	}
}

func TestCalculatorTool(t *testing.T) {
	r := mustRegistry(t, NewCalculator())
	tests := []struct {
		args     map[string]any
		wantText string
	}{
		{map[string]any{"expression": "123 * 456"}, "56088"},
		{map[string]any{"expression": "abc"}, "Error: calculator: invalid arguments: cannot calculate \"abc\""},
		{map[string]any{}, "Error: invalid arguments for calculator: \"expression\" is required"},
		{map[string]any{"expression": 12.0}, "12"},
	}
	for _, tt := range tests {
		out := r.Run(context.Background(), Call{Name: "calculator", Args: tt.args})
		if !strings.HasPrefix(out.Result.Text, tt.wantText) {
			t.Errorf("calculator(%v) = %q, want prefix %q", tt.args, out.Result.Text, tt.wantText)
		}
	}
}

func FuzzEvaluate(f *testing.F) {
	for _, s := range []string{"123 * 456", "2^10", "15% of 200", "1/0", "7 % 0", "sqrt(-1)", "max(1,2,3)",
		"((((1))))", "1,234,567 x 2", "abc", "'a'", "[1]", "{a: 1}", "1 ?? 2", "1 ? 2 : 3", "pi()", "e^e^e^e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := Evaluate(in)
		if err != nil {
			if got != "" {
				t.Errorf("result %q with error %v", got, err)
			}
			return
		}
		if got == "" || strings.Contains(got, "NaN") || strings.Contains(got, "Inf") || !utf8.ValidString(got) {
			t.Errorf("Evaluate(%q) = %q", in, got)
		}
	})
}

func BenchmarkEvaluate(b *testing.B) {
	for b.Loop() {
		if _, err := Evaluate("(123 * 456 + sqrt(2)) / 7"); err != nil {
			b.Fatal(err)
		}
	}
}
