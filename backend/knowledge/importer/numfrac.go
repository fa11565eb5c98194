package importer

import (
	"math"
	"strconv"
	"strings"
)

// A fraction's format (# ?/?, # ??/??, Excel's built-in 12 and 13; # ?/8
// with a denominator of its own) shows a number's whole part, then its
// fraction: 1.25 in # ?/? is 1 1/4. Without a whole part (?/?) the
// fraction holds it all: 5/4. As LibreOffice Calc shows them
// (TestNumberFormatsByLibreOffice): the fraction nearest the number whose
// denominator has no more digits than the code's placeholders (3.14159 in
// # ?/? is 3 1/7, in # ??/?? 3 14/99), or, for a denominator of its own,
// the numerator rounded half down (0.0625 in # ?/8 is 0, 0.1875 is 1/8)
// and not reduced (0.75 is 6/8); a fraction that rounds to nothing leaves
// the whole part alone (2, 0), one that rounds to a whole adds to it
// (0.99 in # ?/? is 1).

// fracParts are the placeholders of a fraction's parts.
type fracParts struct {
	whole, num, den []byte // the placeholders (0, # or ?) of each part
	fixed           int64  // the code's own denominator (# ?/8); 0: none
}

// maxFracDigits bounds the digits of a denominator found (????: 9999).
const maxFracDigits = 4

// fractionSection makes the tokens of a section with a slash a fraction:
// the run of placeholders just before the slash is the numerator, any
// before them the whole part, those after it (or a number) the
// denominator. A section that is none of these is not read (false).
func fractionSection(s fmtSection, toks []fmtTok) (fmtSection, bool) {
	slash := 0
	for toks[slash].kind != tokSlash {
		slash++
	}
	start := slash
	for start > 0 && toks[start-1].kind == tokDigit {
		start--
	}
	if start == slash {
		return s, false // no numerator: ? /? or "a"/?
	}
	f := s.frac
	var out []fmtTok
	for i, t := range toks {
		switch {
		case t.kind == tokComma && i > 0 && i < start && toks[i-1].kind == tokDigit && toks[i+1].kind == tokDigit:
			s.thousands = true // #,##0 ?/?: the whole part in groups of three
			continue
		case t.kind == tokComma:
			t = fmtTok{kind: tokLit, text: ","}
		case t.kind == tokDigit && i < start:
			f.whole = append(f.whole, t.ch)
		case t.kind == tokDigit && i < slash:
			f.num = append(f.num, t.ch)
		case t.kind == tokDigit:
			f.den = append(f.den, t.ch)
		case t.kind == tokPoint:
			t = fmtTok{kind: tokLit, text: "."}
		case t.kind == tokLit && i == slash+1:
			digits := len(t.text) - len(strings.TrimLeft(t.text, "0123456789"))
			if digits > 0 && f.den == nil {
				n, err := strconv.ParseInt(t.text[:min(digits, 9)], 10, 64)
				if err != nil || n == 0 {
					return s, false
				}
				f.fixed = n
				out = append(out, fmtTok{kind: tokDigit, ch: 'd'})
				if t.text = t.text[digits:]; t.text == "" {
					continue
				}
			}
		case t.kind == tokExp || t.kind == tokGeneral:
			return s, false
		}
		out = append(out, t)
	}
	if f.fixed == 0 && len(f.den) == 0 {
		return s, false // no denominator
	}
	s.toks = out
	return s, true
}

// fraction shows v ≥ 0 as the fraction section does, after sign.
func (s *fmtSection) fraction(v float64, sign string) string {
	f := s.frac
	for range s.percent {
		v *= 100
	}
	whole, rest := math.Floor(v), v-math.Floor(v)
	if len(f.whole) == 0 {
		whole, rest = 0, v
	}
	var num, den int64
	switch {
	case rest > 1e11 || whole > 1e15:
		return sign + generalNumber(v) // past the digits a fraction can show
	case f.fixed > 0:
		x := rest * float64(f.fixed)
		if x > 1e15 {
			return sign + generalNumber(v)
		}
		num, den = int64(math.Ceil(x-0.5)), f.fixed // half down, as Calc rounds
	default:
		num, den = nearestFraction(rest, int64(math.Pow10(min(len(f.den), maxFracDigits)))-1)
	}
	if len(f.whole) > 0 && num == den {
		whole, num = whole+1, 0
	}
	blank := len(f.whole) > 0 && num == 0 // the fraction rounds to nothing: the whole number alone
	wholeDigits := strconv.FormatFloat(whole, 'f', 0, 64)
	if whole == 0 {
		wholeDigits = ""
		if blank {
			wholeDigits = "0"
		}
	}
	if sign != "" && whole == 0 && num == 0 {
		sign = "" // rounded to zero
	}
	if num == 0 && len(f.whole) == 0 && f.fixed == 0 {
		den = 1 // 0/1
	}
	wholeOut := (&fmtSection{intN: len(f.whole), intZeros: strings.Count(string(f.whole), "0"), thousands: s.thousands, toks: placeholderToks(f.whole)}).integerPlaces(wholeDigits)
	numOut := places(f.num, strconv.FormatInt(num, 10), blank, true)
	denOut := places(f.den, strconv.FormatInt(den, 10), blank, false)
	var b strings.Builder
	b.WriteString(sign)
	wi, ni, di := 0, 0, 0
	part := 0 // 0: the whole part, 1: the numerator, 2: the denominator
	for _, t := range s.toks {
		switch {
		case t.kind == tokLit:
			b.WriteString(t.text)
		case t.kind == tokSlash:
			part = 2
			if blank {
				b.WriteByte(' ')
			} else {
				b.WriteByte('/')
			}
		case t.ch == 'd': // the code's own denominator
			if blank {
				b.WriteString(strings.Repeat(" ", len(strconv.FormatInt(den, 10))))
			} else {
				b.WriteString(strconv.FormatInt(den, 10))
			}
		case part == 0 && wi < len(f.whole):
			b.WriteString(wholeOut[wi])
			if wi++; wi == len(f.whole) {
				part = 1
			}
		case part == 0 || part == 1:
			part = 1
			if ni < len(numOut) {
				b.WriteString(numOut[ni])
			}
			ni++
		default:
			if di < len(denOut) {
				b.WriteString(denOut[di])
			}
			di++
		}
	}
	return b.String()
}

// placeholderToks are digit tokens of the placeholders.
func placeholderToks(ph []byte) []fmtTok {
	toks := make([]fmtTok, len(ph))
	for i, c := range ph {
		toks[i] = fmtTok{kind: tokDigit, ch: c}
	}
	return toks
}

// places is what each placeholder of a numerator (right-aligned) or a
// denominator (left-aligned) shows of digits: the first (or last) takes
// any more digits than there are places; an empty place is 0 for 0, a
// space for ? and nothing for #. blank shows none of the digits.
func places(ph []byte, digits string, blank, right bool) []string {
	out := make([]string, len(ph))
	if len(ph) == 0 {
		return out
	}
	if blank {
		digits = ""
	}
	empty := func(c byte) string {
		switch c {
		case '0':
			return "0"
		case '?':
			return " "
		}
		return ""
	}
	if right {
		for j := len(ph) - 1; j >= 0; j-- {
			switch {
			case j == 0 && digits != "":
				out[j] = digits
			case digits != "":
				out[j], digits = digits[len(digits)-1:], digits[:len(digits)-1]
			default:
				out[j] = empty(ph[j])
			}
		}
		return out
	}
	for j := range ph {
		switch {
		case j == len(ph)-1 && digits != "":
			out[j] = digits
		case digits != "":
			out[j], digits = digits[:1], digits[1:]
		default:
			out[j] = empty(ph[j])
		}
	}
	return out
}

// nearestFraction is the fraction p/q nearest x ≥ 0 whose denominator is
// at most maxDen (the best rational approximation: the last convergent
// of x's continued fraction within the bound, or the semiconvergent
// beyond it when that is nearer), from x's 15 significant digits.
func nearestFraction(x float64, maxDen int64) (int64, int64) {
	if maxDen < 1 {
		maxDen = 1
	}
	// x as n/d exactly, to the 15 digits Excel keeps (x < 1e11: fraction).
	d := int64(1_000_000_000_000_000)
	for w := x; w >= 1 && d > 1; w /= 10 {
		d /= 10
	}
	n := int64(math.Round(x * float64(d)))
	for n > 0 && n%10 == 0 && d > 1 {
		n, d = n/10, d/10
	}
	p0, q0, p1, q1 := int64(0), int64(1), int64(1), int64(0)
	for d != 0 {
		a := n / d
		if q1 != 0 && a > (maxDen-q0)/q1 {
			break
		}
		q2 := q0 + a*q1
		if q2 > maxDen {
			break
		}
		p0, q0, p1, q1 = p1, q1, p0+a*p1, q2
		n, d = d, n-a*d
	}
	if q1 == 0 {
		return int64(math.Round(x)), 1
	}
	k := (maxDen - q0) / q1
	bp, bq := p0+k*p1, q0+k*q1
	if math.Abs(float64(p1)/float64(q1)-x) <= math.Abs(float64(bp)/float64(bq)-x) {
		return p1, q1
	}
	return bp, bq
}
