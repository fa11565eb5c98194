package tools

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/expr-lang/expr"
)

// MaxExpressionLen bounds calculator input: expr's parser is recursive, and
// deeply nested brackets cost time (100k of them took 300 ms here).
const MaxExpressionLen = 500

// ErrMath marks an expression that parsed but has no finite answer.
var ErrMath = errors.New("no finite result")

// mathEnv is everything an expression may name: math functions and
// constants, nothing else. Builtins (strings, maps, len, ...) are disabled,
// so an expression can compute but never reach anything outside arithmetic.
func mathEnv() map[string]any {
	return map[string]any{
		"sqrt": math.Sqrt, "cbrt": math.Cbrt, "pow": math.Pow, "abs": math.Abs,
		"floor": math.Floor, "ceil": math.Ceil, "round": math.Round, "trunc": math.Trunc,
		"log": math.Log10, "log10": math.Log10, "log2": math.Log2, "ln": math.Log,
		"exp": math.Exp, "sin": math.Sin, "cos": math.Cos, "tan": math.Tan,
		"asin": math.Asin, "acos": math.Acos, "atan": math.Atan, "atan2": math.Atan2,
		"hypot": math.Hypot, "mod": math.Mod,
		"min": variadic(math.Min), "max": variadic(math.Max),
		"pi": math.Pi, "e": math.E,
	}
}

func variadic(f func(a, b float64) float64) func(xs ...float64) (float64, error) {
	return func(xs ...float64) (float64, error) {
		if len(xs) == 0 {
			return 0, errors.New("needs at least one number")
		}
		m := xs[0]
		for _, x := range xs[1:] {
			m = f(m, x)
		}
		return m, nil
	}
}

// Human forms a person or a model types for arithmetic, rewritten into
// expr syntax. "^" needs no rewrite: expr reads it as a power.
var (
	percentOf  = regexp.MustCompile(`(?i)(\d+(?:\.\d+)?)\s*%\s*of\s+`)
	digitComma = regexp.MustCompile(`(\d),(\d{3})\b`)
	symbols    = strings.NewReplacer("×", "*", "÷", "/", "−", "-", "–", "-", "·", "*", "⋅", "*",
		"（", "(", "）", ")", "²", "^2", "³", "^3", "π", "pi")
)

func normalizeExpression(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimRight(s, "=?")
	s = symbols.Replace(s)
	s = percentOf.ReplaceAllString(s, "($1 / 100) * ")
	s = percentSign.ReplaceAllString(s, "($1 / 100)$2")
	// "1,234,567": thousands separators only where no function call could
	// mean an argument list. Run twice for overlapping groups.
	if !strings.Contains(s, "(") {
		s = digitComma.ReplaceAllString(s, "$1$2")
		s = digitComma.ReplaceAllString(s, "$1$2")
	}
	// "x" between numbers is a multiplication sign: "123 x 456". Twice,
	// because matches share digits in "2 x 3 x 4".
	s = timesX.ReplaceAllString(s, "$1*$2")
	s = timesX.ReplaceAllString(s, "$1*$2")
	return strings.TrimSpace(s)
}

// timesX needs a space on one side so that a hex literal (0x10) stays intact.
var timesX = regexp.MustCompile(`(\d)(?:\s+[xX]\s*|\s*[xX]\s+)(\d)`)

// percentSign is a trailing percent ("200 * 15%"); "7 % 3" and "7%3" stay
// modulo because a number follows, and so does "10 % -3" (a sign, not an
// operator, since no space follows it).
var percentSign = regexp.MustCompile(`(\d+(?:\.\d+)?)\s*%(\s*(?:$|[)*/]|[+\-]\s))`)

// Evaluate computes a math expression and formats the answer.
func Evaluate(input string) (string, error) {
	if utf8.RuneCountInString(input) > MaxExpressionLen {
		return "", fmt.Errorf("%w: expression is longer than %d characters", ErrInvalidArgs, MaxExpressionLen)
	}
	src := normalizeExpression(input)
	if src == "" {
		return "", fmt.Errorf("%w: empty expression", ErrInvalidArgs)
	}
	env := mathEnv()
	prog, err := expr.Compile(src, expr.Env(env), expr.DisableAllBuiltins(), expr.MaxNodes(500), expr.AsFloat64())
	if err != nil {
		return "", explain(src, err)
	}
	out, err := expr.Run(prog, env)
	if err != nil {
		return "", explain(src, err)
	}
	v, ok := out.(float64)
	if !ok {
		return "", fmt.Errorf("%w: %q is not a number", ErrInvalidArgs, src)
	}
	switch {
	case math.IsInf(v, 0):
		return "", fmt.Errorf("%w: %q is infinite (division by zero or a number too large)", ErrMath, src)
	case math.IsNaN(v):
		return "", fmt.Errorf("%w: %q is not a number (e.g. square root or logarithm of a negative number)", ErrMath, src)
	}
	return FormatNumber(v), nil
}

// explain turns expr's multi-line messages (with a caret drawing) into one
// line that tells the model what it may write instead.
func explain(src string, err error) error {
	msg, _, _ := strings.Cut(err.Error(), "\n")
	msg = strings.TrimSpace(msg)
	if strings.Contains(msg, "divide by zero") {
		return fmt.Errorf("%w: %q divides by zero", ErrMath, src)
	}
	return fmt.Errorf("%w: cannot calculate %q: %s. Use numbers, + - * / %% ^ and parentheses, "+
		"and functions such as sqrt, pow, abs, round, floor, ceil, log, ln, exp, sin, cos, tan, min, max, mod; constants pi and e",
		ErrInvalidArgs, src, msg)
}

// FormatNumber prints v the way a person writes it: 56088, not 56088.000000;
// 0.3, not 0.30000000000000004.
func FormatNumber(v float64) string {
	if v == 0 {
		return "0" // also turns -0 into 0
	}
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatFloat(v, 'f', -1, 64) // exact integers stay exact
	}
	// Twelve significant digits hide binary rounding noise.
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
	if err != nil {
		r = v
	}
	if a := math.Abs(r); a >= 1e-6 && a < 1e15 {
		return strconv.FormatFloat(r, 'f', -1, 64)
	}
	return strconv.FormatFloat(r, 'g', -1, 64)
}

// NewCalculator is the calculator tool.
func NewCalculator() *Tool {
	return &Tool{
		Name: "calculator",
		Description: "Evaluate an arithmetic expression exactly, e.g. \"123 * 456\", \"2^10\", \"sqrt(2) * 3\", " +
			"\"15% of 200\", \"(29 + 12) * 12\". Use it for every calculation instead of computing in your head.",
		Params: []Param{{Name: "expression", Type: TypeString, Required: true,
			Description: "the expression; functions: sqrt pow abs round floor ceil log (base 10) ln exp sin cos tan (radians) min max mod; constants pi e"}},
		Timeout: 2 * time.Second,
		Run: func(ctx context.Context, args Args) (Result, error) {
			v, err := Evaluate(args.String("expression"))
			if err != nil {
				return Result{}, err
			}
			return Result{Text: v}, nil
		},
	}
}
