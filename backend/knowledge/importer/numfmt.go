package importer

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// An Excel number format code says how a cell shows its number: a budget
// sheet's 1500000 in `[$₩-412]#,##0` is shown ₩1,500,000, and a person
// searches for, and asks about, what they see. Excel keeps only the value
// and the code, so the code is applied here (OpenDocument keeps the shown
// text: sheets.go). What is read: up to three sections for positive,
// negative and zero numbers (`#,##0;(#,##0);"-"`), or chosen by their
// conditions (`[>=1000]#,##0,"K";0`); digit placeholders 0, # and ?; the
// decimal point; a comma between placeholders (thousands) or after them
// (each divides by 1,000); %; scientific E+ and E-; fractions (`# ?/?`,
// `# ?/8`: numfrac.go); literal text in quotes, after a backslash, or as
// it stands (₩, 원, $, -, (, )); a currency in brackets ([$₩-412],
// [$$-409]: the text before the dash); `_x` (the width of x: a space) and
// `*x` (fill: nothing); General inside a section. Colours ([Red]) and
// locales ([$-412]) show nothing. Where Excel and LibreOffice Calc
// differ, or Excel cannot be run here to see, the code is read as Calc
// shows it (TestNumberFormatsByLibreOffice): a negative number takes its
// minus sign only in the first section. A date is not read here (dates
// are written as dates: excelDate; durations: duration.go). The parse is
// bounded (maxFormatCode); the output by the number's digits (309 at
// most) and maxFormatDecimals.
const (
	// maxFormatCode bounds the code parsed: Excel's own limit is 255
	// characters.
	maxFormatCode = 1024
	// maxFormatDecimals bounds the decimals shown (Excel shows 30).
	maxFormatDecimals = 30
)

// numFormat is a parsed number format code: its sections for positive,
// negative and zero numbers (the fourth, for text, is not kept). nil, or
// one without sections, shows numbers as General.
type numFormat struct {
	sections []fmtSection
}

type fmtKind byte

const (
	tokLit     fmtKind = iota // text shown as it is
	tokDigit                  // a digit placeholder: ch is 0, # or ?
	tokPoint                  // the decimal point
	tokExp                    // E+ or E-: ch is the sign shown
	tokGeneral                // General: the number as General
	tokComma                  // a comma, until it is known to group, scale or be text
	tokSlash                  // a fraction's slash
)

type fmtTok struct {
	kind fmtKind
	ch   byte
	text string
}

type fmtSection struct {
	toks       []fmtTok
	intN       int  // digit placeholders before the point (or the exponent)
	intZeros   int  // of which are 0: digits always shown
	fracN      int  // digit placeholders after the point
	expN       int  // digit placeholders after the exponent's sign
	thousands  bool // a comma between placeholders: digits in groups of three
	scale      int  // commas after the last placeholder: ÷1,000 each
	percent    int  // % signs: ×100 each
	exp        bool // scientific
	general    bool // General inside
	hasDigits  bool // any placeholder at all (`"-"` alone has none)
	expSignAll bool // E+: the exponent's sign always shown
	// cond is the section's condition ([>=1000]); nil for none.
	cond *fmtCond
	// frac, when set, makes the section a fraction's (# ?/?: numfrac.go).
	frac *fracParts
}

// fmtCond is a section's condition: [>=1000] is {">=", 1000}.
type fmtCond struct {
	op string
	v  float64
}

// holds says whether v meets the condition.
func (c *fmtCond) holds(v float64) bool {
	switch c.op {
	case "<":
		return v < c.v
	case "<=", "=<":
		return v <= c.v
	case ">":
		return v > c.v
	case ">=", "=>":
		return v >= c.v
	case "=":
		return v == c.v
	}
	return v != c.v // <>
}

// condOf reads a condition's brackets' text ("<=-1000"); nil for none.
func condOf(inner string) *fmtCond {
	op := inner[:len(inner)-len(strings.TrimLeft(inner, "<>="))]
	switch op {
	case "<", "<=", "=<", ">", ">=", "=>", "=", "<>":
	default:
		return nil
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(inner[len(op):]), 64)
	if err != nil || math.IsNaN(v) {
		return nil
	}
	return &fmtCond{op: op, v: v}
}

// parseNumFormat parses an Excel number format code; nil for one it does
// not read (General, a date, a condition it cannot read), whose numbers
// are shown as General.
func parseNumFormat(code string) *numFormat {
	if len(code) > maxFormatCode || code == "" || strings.EqualFold(code, "General") {
		return nil
	}
	var f numFormat
	for i, sec := range splitSections(code) {
		if i == 3 {
			break // the text section
		}
		s, ok := parseSection(sec)
		if !ok {
			return nil
		}
		f.sections = append(f.sections, s)
	}
	if len(f.sections) == 0 {
		return nil
	}
	return &f
}

// splitSections splits code at its semicolons, outside quotes, brackets
// and escapes.
func splitSections(code string) []string {
	var out []string
	start, quoted, bracket := 0, false, false
	for i := 0; i < len(code); i++ {
		switch c := code[i]; {
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '[':
			bracket = true
		case c == ']':
			bracket = false
		case bracket:
		case c == '\\' || c == '_' || c == '*':
			i++
		case c == ';':
			out = append(out, code[start:i])
			start = i + 1
		}
	}
	return append(out, code[start:])
}

// parseSection reads one section's tokens; false for what is not read
// here (a condition that is none, a fraction with a point, a date or time
// code, a text placeholder).
func parseSection(code string) (fmtSection, bool) {
	var s fmtSection
	var toks []fmtTok
	lit := func(t string) {
		if t == "" {
			return
		}
		if n := len(toks); n > 0 && toks[n-1].kind == tokLit {
			toks[n-1].text += t
			return
		}
		toks = append(toks, fmtTok{kind: tokLit, text: t})
	}
	for i := 0; i < len(code); {
		r, size := utf8.DecodeRuneInString(code[i:])
		c := code[i]
		switch {
		case c == '"':
			end := strings.IndexByte(code[i+1:], '"')
			if end < 0 {
				lit(code[i+1:])
				i = len(code)
				continue
			}
			lit(code[i+1 : i+1+end])
			i += end + 2
			continue
		case c == '\\':
			if i+1 < len(code) {
				_, n := utf8.DecodeRuneInString(code[i+1:])
				lit(code[i+1 : i+1+n])
				i += 1 + n
				continue
			}
		case c == '_':
			lit(" ")
			if i+1 < len(code) {
				_, n := utf8.DecodeRuneInString(code[i+1:])
				i += 1 + n
				continue
			}
		case c == '*':
			if i+1 < len(code) {
				_, n := utf8.DecodeRuneInString(code[i+1:])
				i += 1 + n
				continue
			}
		case c == '[':
			end := strings.IndexByte(code[i:], ']')
			if end < 0 {
				return s, false
			}
			inner := code[i+1 : i+end]
			switch {
			case strings.HasPrefix(inner, "$"):
				sym, _, _ := strings.Cut(inner[1:], "-")
				lit(sym)
			case inner != "" && strings.IndexByte("<>=", inner[0]) >= 0:
				if s.cond = condOf(inner); s.cond == nil {
					return s, false
				}
			case strings.Trim(strings.ToLower(inner), "hms") == "":
				return s, false // elapsed time: a date's
			}
			// A colour ([Red], [Color10]) shows nothing.
			i += end + 1
			continue
		case len(code)-i >= 7 && strings.EqualFold(code[i:i+7], "General"):
			toks = append(toks, fmtTok{kind: tokGeneral})
			s.general = true
			i += 7
			continue
		case c == '0' || c == '#' || c == '?':
			toks = append(toks, fmtTok{kind: tokDigit, ch: c})
			s.hasDigits = true
			switch {
			case s.exp:
				s.expN++
			case hasPoint(toks):
				s.fracN++
			default:
				s.intN++
				if c == '0' {
					s.intZeros++
				}
			}
		case c == '.' && !s.exp && !hasPoint(toks):
			toks = append(toks, fmtTok{kind: tokPoint})
		case c == ',':
			toks = append(toks, fmtTok{kind: tokComma})
		case c == '%':
			s.percent++
			lit("%")
		case (c == 'E' || c == 'e') && i+1 < len(code) && (code[i+1] == '+' || code[i+1] == '-') && s.hasDigits && !s.exp:
			s.exp, s.expSignAll = true, code[i+1] == '+'
			toks = append(toks, fmtTok{kind: tokExp, ch: code[i+1]})
			i += 2
			continue
		case c == '/' && s.hasDigits:
			if s.exp || hasPoint(toks) || s.frac != nil {
				return s, false // a fraction with a point, an exponent or two slashes
			}
			toks = append(toks, fmtTok{kind: tokSlash})
			s.frac = &fracParts{}
		case c == '@' || strings.IndexByte("yYmMdDhHsSgGeEbB", c) >= 0 && c < utf8.RuneSelf:
			// A text placeholder, or a date or time code (and the letters
			// Excel refuses unquoted): not a number's format.
			return s, false
		default:
			lit(string(r))
		}
		i += size
	}
	if s.frac != nil {
		return fractionSection(s, toks)
	}
	// A comma between two placeholders groups thousands; a run of commas
	// right after a placeholder and before none scales; any other is
	// text. Those that group or scale show nothing.
	s.toks = make([]fmtTok, 0, len(toks))
	for i := 0; i < len(toks); i++ {
		if toks[i].kind != tokComma {
			s.toks = append(s.toks, toks[i])
			continue
		}
		run := i
		for run < len(toks) && toks[run].kind == tokComma {
			run++
		}
		afterDigit := i > 0 && toks[i-1].kind == tokDigit
		switch {
		case afterDigit && run < len(toks) && toks[run].kind == tokDigit:
			s.thousands = true
		case afterDigit:
			s.scale += run - i
		default:
			for range run - i {
				s.toks = append(s.toks, fmtTok{kind: tokLit, text: ","})
			}
		}
		i = run - 1
	}
	return s, true
}

func hasPoint(toks []fmtTok) bool {
	for _, t := range toks {
		if t.kind == tokPoint {
			return true
		}
	}
	return false
}

// format shows v as the code does.
func (f *numFormat) format(v float64) string {
	if f == nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return generalNumber(v)
	}
	i := f.section(v)
	if i < 0 {
		return generalNumber(v) // no section takes it
	}
	s, sign := &f.sections[i], ""
	// Only the first section gives a negative number its minus sign, as
	// LibreOffice Calc shows it (the second is the negative numbers' own,
	// or a condition's, whose text says what it is), unless its condition
	// is itself for negative numbers ([<0]).
	if v < 0 && i == 0 && (s.cond == nil || !(s.cond.op == "<" || s.cond.op == "<=" || s.cond.op == "=<") || s.cond.v != 0) {
		sign = "-"
	}
	v = math.Abs(v)
	if s.frac != nil {
		return s.fraction(v, sign)
	}
	out := s.format(v)
	if sign != "" && strings.ContainsFunc(out, func(r rune) bool { return r >= '1' && r <= '9' }) {
		out = sign + out // a negative number rounded to zero has no sign
	}
	return out
}

// section is the section that shows v; -1 for none. Without conditions:
// one section shows every number; two, positive and zero, then negative;
// three, positive, negative, zero. With a condition ([>=1000]) in the
// first or second section: the first section whose condition holds (one
// without a condition holds for any number), else the third.
func (f *numFormat) section(v float64) int {
	n := len(f.sections)
	conditional := f.sections[0].cond != nil || n > 1 && f.sections[1].cond != nil
	switch {
	case !conditional && n == 1:
		return 0
	case !conditional && v < 0:
		return 1
	case !conditional && v == 0 && n >= 3:
		return 2
	case !conditional:
		return 0
	}
	for i := range min(n, 2) {
		if c := f.sections[i].cond; c == nil || c.holds(v) {
			return i
		}
	}
	if n >= 3 {
		return 2
	}
	return -1
}

// generalNumber is v in Excel's General format, to 15 digits.
func generalNumber(v float64) string { return strconv.FormatFloat(v, 'g', 15, 64) }

func (s *fmtSection) format(v float64) string {
	if !s.hasDigits {
		var b strings.Builder
		for _, t := range s.toks {
			if t.kind == tokGeneral {
				b.WriteString(generalNumber(v))
			} else {
				b.WriteString(t.text)
			}
		}
		return b.String()
	}
	for range s.percent {
		v *= 100
	}
	for range s.scale {
		v /= 1000
	}
	frac := min(s.fracN, maxFormatDecimals)
	exp := 0
	if s.exp && v != 0 {
		// The exponent leaves as many digits before the point as the
		// code has 0s there; ##0.0E+0 (a # among them) is engineering
		// notation, the exponent a multiple of the places.
		step, width := 1, max(s.intZeros, 1)
		if s.intN > s.intZeros && s.intN > 1 {
			step, width = s.intN, s.intN
		}
		// The decimal exponent of v's 15 digits (math.Log10 is off for
		// subnormal numbers: -308 for 5e-324).
		_, x, _ := strings.Cut(strconv.FormatFloat(v, 'e', 14, 64), "e")
		e, _ := strconv.Atoi(x)
		exp = e - width + 1
		if step > 1 {
			exp = floorDiv(e, step) * step
		}
		if m, _ := decimalDigits(pow10(v, -exp), frac); len(m) > width {
			exp += step // the mantissa rounded up to another digit
		}
		v = pow10(v, -exp)
	}
	intDigits, fracDigits := decimalDigits(v, frac)
	if intDigits == "0" {
		intDigits = ""
	}
	intOut := s.integerPlaces(intDigits)
	fracOut := s.fractionPlaces(fracDigits)
	var b strings.Builder
	ii, fi, ei := 0, 0, 0
	inFrac, inExp := false, false
	expText := s.exponent(exp)
	for _, t := range s.toks {
		switch t.kind {
		case tokLit:
			b.WriteString(t.text)
		case tokGeneral:
			b.WriteString(generalNumber(v))
		case tokPoint:
			b.WriteByte('.')
			inFrac = true
		case tokExp:
			b.WriteByte('E')
			if exp < 0 {
				b.WriteByte('-')
			} else if s.expSignAll {
				b.WriteByte('+')
			}
			inExp = true
		case tokDigit:
			switch {
			case inExp:
				if ei < len(expText) {
					b.WriteString(expText[ei])
				}
				ei++
			case inFrac:
				if fi < len(fracOut) {
					b.WriteString(fracOut[fi])
				}
				fi++
			default:
				if ii < len(intOut) {
					b.WriteString(intOut[ii])
				}
				ii++
			}
		}
	}
	return b.String()
}

// integerPlaces is what each placeholder of the integer shows: digits
// from the right, the first placeholder taking any more there are, an
// empty place shown as 0 (for 0), a space (?) or nothing (#). With
// thousands, the whole integer, grouped, is the first's.
func (s *fmtSection) integerPlaces(digits string) []string {
	out := make([]string, s.intN)
	if s.intN == 0 {
		return out
	}
	if s.thousands {
		if pad := s.intZeros - len(digits); pad > 0 {
			digits = strings.Repeat("0", pad) + digits
		}
		out[0] = groupThousands(digits)
		return out
	}
	places := s.placeholders(false)
	for j := s.intN - 1; j >= 0; j-- {
		switch {
		case j == 0 && digits != "":
			out[j] = digits
		case digits != "":
			out[j], digits = digits[len(digits)-1:], digits[:len(digits)-1]
		case places[j] == '0':
			out[j] = "0"
		case places[j] == '?':
			out[j] = " "
		}
	}
	return out
}

// fractionPlaces is what each placeholder after the point shows: its
// digit, but for trailing zeros in # (nothing) and ? (a space) places.
func (s *fmtSection) fractionPlaces(digits string) []string {
	places := s.placeholders(true)
	out := make([]string, len(places))
	trailing := true
	for j := len(places) - 1; j >= 0; j-- {
		d := "0"
		if j < len(digits) {
			d = digits[j : j+1]
		}
		if trailing && d == "0" && places[j] != '0' {
			if places[j] == '?' {
				out[j] = " "
			}
			continue
		}
		trailing = false
		out[j] = d
	}
	return out
}

// exponent is what each placeholder of the exponent shows: its digits,
// at least as many as there are places.
func (s *fmtSection) exponent(exp int) []string {
	digits := strconv.Itoa(abs(exp))
	if pad := s.expN - len(digits); pad > 0 {
		digits = strings.Repeat("0", pad) + digits
	}
	out := make([]string, s.expN)
	if s.expN == 0 {
		return out
	}
	for j := s.expN - 1; j > 0; j-- {
		out[j], digits = digits[len(digits)-1:], digits[:len(digits)-1]
	}
	out[0] = digits
	return out
}

// placeholders lists the placeholder characters of the integer (or of
// the fraction), in order.
func (s *fmtSection) placeholders(fraction bool) []byte {
	var out []byte
	inFrac := false
	for _, t := range s.toks {
		switch t.kind {
		case tokPoint:
			inFrac = true
		case tokExp:
			return out
		case tokDigit:
			if inFrac == fraction && (!fraction || len(out) < maxFormatDecimals) {
				out = append(out, t.ch)
			}
		}
	}
	return out
}

// decimalDigits writes v ≥ 0 rounded half away from zero to frac
// decimals, from its 15 significant digits as Excel keeps them (so 2.675
// is 2.68, not the 2.67 of its binary value): the integer's digits ("0"
// for none) and frac decimals.
func decimalDigits(v float64, frac int) (string, string) {
	if math.IsInf(v, 0) || math.IsNaN(v) || v < 0 {
		return "0", strings.Repeat("0", frac)
	}
	e := strconv.FormatFloat(v, 'e', 14, 64) // d.dddddddddddddde±x
	mant, expPart, _ := strings.Cut(e, "e")
	digits := []byte(mant[:1] + mant[2:])
	x, _ := strconv.Atoi(expPart)
	point := x + 1 // digits before the point
	keep := point + frac
	switch {
	case keep < 0:
		digits = nil
	case keep < len(digits):
		up := digits[keep] >= '5'
		digits = digits[:keep]
		for i := len(digits) - 1; up && i >= 0; i-- {
			if digits[i] == '9' {
				digits[i] = '0'
			} else {
				digits[i]++
				up = false
			}
		}
		if up {
			digits = append([]byte{'1'}, digits...)
			point++
		}
	}
	// Place the point: pad with zeros on either side as needed.
	if point <= 0 {
		digits = append([]byte(strings.Repeat("0", -point+1)), digits...)
		point = 1
	}
	for len(digits) < point+frac {
		digits = append(digits, '0')
	}
	intPart := strings.TrimLeft(string(digits[:point]), "0")
	if intPart == "" {
		intPart = "0"
	}
	return intPart, string(digits[point : point+frac])
}

func groupThousands(digits string) string {
	if len(digits) <= 3 {
		return digits
	}
	var b strings.Builder
	first := len(digits) % 3
	if first > 0 {
		b.WriteString(digits[:first])
	}
	for i := first; i < len(digits); i += 3 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(digits[i : i+3])
	}
	return b.String()
}

// pow10 is v×10ⁿ, in two steps so that 10ⁿ itself does not overflow
// (a number near the smallest float64 has an exponent of -324).
func pow10(v float64, n int) float64 {
	half := n / 2
	return v * math.Pow(10, float64(half)) * math.Pow(10, float64(n-half))
}

func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// builtinFormats are the codes of Excel's built-in number formats, which
// a file names by id without writing their code. The currency ones (5–8,
// 42, 44) are the locale's, and the file does not say which: they are
// read in the forms ECMA-376 gives them (§18.8.30), the United States'
// dollar, as LibreOffice Calc shows them in that locale (a file written
// by a Korean Excel or by Calc writes its own code for its ₩, with the id:
// that code is read instead, as any custom one is).
var builtinFormats = map[int]string{
	1: "0", 2: "0.00", 3: "#,##0", 4: "#,##0.00",
	5: `"$"#,##0_);\("$"#,##0\)`, 6: `"$"#,##0_);[Red]\("$"#,##0\)`, 7: `"$"#,##0.00_);\("$"#,##0.00\)`, 8: `"$"#,##0.00_);[Red]\("$"#,##0.00\)`,
	9: "0%", 10: "0.00%", 11: "0.00E+00", 12: "# ?/?", 13: "# ??/??",
	37: "#,##0 ;(#,##0)", 38: "#,##0 ;[Red](#,##0)", 39: "#,##0.00;(#,##0.00)", 40: "#,##0.00;[Red](#,##0.00)",
	41: `_(* #,##0_);_(* \(#,##0\);_(* "-"_);_(@_)`, 42: `_("$"* #,##0_);_("$"* \(#,##0\);_("$"* "-"_);_(@_)`,
	43: `_(* #,##0.00_);_(* \(#,##0.00\);_(* "-"??_);_(@_)`, 44: `_("$"* #,##0.00_);_("$"* \(#,##0.00\);_("$"* "-"??_);_(@_)`, 48: "##0.0E+0",
}
