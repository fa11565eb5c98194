package importer

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// elapsed is a duration's format: [h]:mm:ss shows 1.5 days as 36:00:00,
// where a time of day would be 12:00; a timesheet's hours are in it. Its
// code may hold text, as a Korean timesheet's does: [h]"시간" mm"분"
// shows 1.5 days as 36시간 00분.
//
// As LibreOffice Calc shows one (TestNumberFormatsByLibreOffice): the
// value is rounded to the seconds shown (to whole seconds, or to the
// decimals of ss.00), then each unit shows what it holds, truncated: the
// first, in brackets, counts past the day (hours), hour (minutes) or
// minute (seconds), the others what is left under 60. 23:59:59.6 in
// [h]:mm is 24:00; 23:45:36 is 23:45. A negative duration has its sign
// first, before any text.
type elapsed struct {
	unit byte // 'h', 'm' or 's': the unit that counts past a day, hour or minute; 0: not a duration
	toks []durTok
	// decimals are the decimals of the seconds shown (ss.00: 2).
	decimals int
}

// durTok is a piece of a duration's code: text shown as it is, or a
// unit ('h', 'm', 's'; 'f' for the decimals of a second) shown at least
// width digits wide.
type durTok struct {
	unit  byte
	width int
	text  string
}

// maxDurationDecimals is as many decimals of a second as Excel shows.
const maxDurationDecimals = 3

// elapsedOf reads an elapsed-time code (its first section): a first
// bracket of h, m or s letters only, outside quotes, makes it one; a
// date's letters (y, d) or AM/PM make it a date's, not a duration's.
func elapsedOf(code string) elapsed {
	if len(code) > maxFormatCode {
		return elapsed{}
	}
	code = splitSections(code)[0]
	var e elapsed
	text := func(t string) {
		if n := len(e.toks); n > 0 && e.toks[n-1].unit == 0 {
			e.toks[n-1].text += t
			return
		}
		e.toks = append(e.toks, durTok{text: t})
	}
	for i := 0; i < len(code); {
		c := code[i]
		switch lower := c | 0x20; {
		case c == '"':
			end := strings.IndexByte(code[i+1:], '"')
			if end < 0 {
				end = len(code) - i - 1
			}
			text(code[i+1 : i+1+end])
			i += end + 2
			continue
		case c == '\\' || c == '_' || c == '*':
			if i+1 < len(code) {
				_, n := utf8.DecodeRuneInString(code[i+1:])
				if c == '\\' {
					text(code[i+1 : i+1+n])
				} else if c == '_' {
					text(" ")
				}
				i += 1 + n
				continue
			}
		case c == '[':
			end := strings.IndexByte(code[i:], ']')
			if end < 2 {
				return elapsed{}
			}
			inner := strings.ToLower(code[i+1 : i+end])
			i += end + 1
			if strings.Trim(inner, inner[:1]) != "" || strings.IndexByte("hms", inner[0]) < 0 {
				continue // a colour, a locale
			}
			if e.unit != 0 {
				return elapsed{} // two elapsed units: not a code Excel takes
			}
			e.unit = inner[0]
			e.toks = append(e.toks, durTok{unit: inner[0], width: min(len(inner), 10)})
			continue
		case lower == 'h' || lower == 'm' || lower == 's':
			n := 1
			for i+n < len(code) && code[i+n]|0x20 == lower {
				n++
			}
			e.toks = append(e.toks, durTok{unit: lower, width: min(n, 2)})
			i += n
			if lower == 's' && i+1 < len(code) && code[i] == '.' && code[i+1] == '0' {
				d := 0
				for i+1+d < len(code) && code[i+1+d] == '0' {
					d++
				}
				e.decimals = min(d, maxDurationDecimals)
				text(".")
				e.toks = append(e.toks, durTok{unit: 'f', width: e.decimals})
				i += 1 + d
			}
			continue
		case lower == 'y' || lower == 'd' || strings.HasPrefix(strings.ToUpper(code[i:]), "AM/PM") || strings.HasPrefix(strings.ToUpper(code[i:]), "A/P"):
			return elapsed{} // a date, or a time of day
		case c == '[' || c == '@':
			return elapsed{}
		}
		_, n := utf8.DecodeRuneInString(code[i:])
		text(code[i : i+n])
		i += n
	}
	if e.unit == 0 {
		return elapsed{}
	}
	return e
}

// format shows v days as the duration's format does.
func (e elapsed) format(v float64) string {
	if math.IsNaN(v) || math.Abs(v) > 1e9 {
		return generalNumber(v)
	}
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	scale := math.Pow(10, float64(e.decimals))
	ticks := int64(math.Round(v * 86400 * scale)) // in units of the last decimal of a second shown
	second := int64(scale)
	size := func(unit byte) int64 {
		switch unit {
		case 'h':
			return 3600 * second
		case 'm':
			return 60 * second
		}
		return second
	}
	var b strings.Builder
	b.WriteString(sign)
	for _, t := range e.toks {
		var n int64
		switch t.unit {
		case 0:
			b.WriteString(t.text)
			continue
		case 'f':
			n = ticks % second
		case e.unit:
			n = ticks / size(t.unit)
		case 'h':
			n = ticks / size('h') % 24
		default:
			n = ticks / size(t.unit) % 60
		}
		d := strconv.FormatInt(n, 10)
		if pad := t.width - len(d); pad > 0 {
			d = strings.Repeat("0", pad) + d
		}
		b.WriteString(d)
	}
	if sign != "" && !strings.ContainsFunc(b.String(), func(r rune) bool { return r >= '1' && r <= '9' }) {
		return b.String()[1:] // a duration rounded to nothing has no sign
	}
	return b.String()
}
