package pdftext

// Footnotes: a line that is a note of the page is no table's row.

// noteMark is a note's mark raised after a word on a line of the page
// ("학칙¹", "한다.²", "text³⁾"): its number, and the line's baseline and
// text size.
type noteMark struct {
	n          int
	base, size float64
}

// noteMarks finds the notes' marks on a page's lines (bands, top to
// bottom): one or two digits, with a closing bracket or not, set right
// after a glyph of the line (no farther than a third of its size), raised
// above its baseline by a fifth of its size or more and smaller than the
// line's text (sameMark of it at most: wkhtmltopdf sets <sup> in the
// text's own size, raised by half).
func noteMarks(bands []band) []noteMark {
	var marks []noteMark
	for _, b := range bands {
		size := textSize(b.items)
		its := b.items
		for i := 1; i < len(its); i++ {
			g, it := its[i-1], its[i]
			if !isDigit(it.r) || isDigit(g.r) || g.space || g.r == 0 || !raisedAfter(g, it, size) {
				continue
			}
			n, j := 0, i
			for ; j < len(its) && j-i < noteDigits && isDigit(its[j].r) && raisedAfter(g, its[j], size); j++ {
				n = 10*n + int(its[j].r-'0')
			}
			if j < len(its) && isDigit(its[j].r) && raisedAfter(g, its[j], size) {
				continue // a longer number: a power, a unit's exponent
			}
			marks = append(marks, noteMark{n, b.base, size})
			i = j
		}
	}
	return marks
}

// raisedAfter says whether the glyph it, after g on a line of text size
// size, is raised as a note's mark beside g.
func raisedAfter(g, it item, size float64) bool {
	return it.h <= sameMark*size && it.h < g.h*sameMark && it.base >= g.base+0.2*g.h && it.x0-g.x1 <= g.h/3
}

// noteLines says which of the lines (bands, top to bottom, with their
// bars and text sizes) are the page's notes, written with no bar: a group
// of lines one under the other whose bars line up (one at least overlapping
// one of the next line's) in one size is notes only where every line of it
// is a note (footnote). A table set smaller than the text, numbered 1, 2,
// 3, … under marks "¹" and "²", has rows 1 and 2 that look like notes and
// rows 3 and 4 that do not; its rows keep their bars, all of them, where
// taking them from rows 1 and 2 alone read "1 서울 1,204" over "3 | 대구
// | 512".
func noteLines(bands []band, bars [][][2]float64, sizes []float64, marks []noteMark) []bool {
	notes := make([]bool, len(bands))
	if len(marks) == 0 {
		return notes
	}
	for i, b := range bands {
		notes[i] = bars[i] != nil && footnote(b.items, b.base, marks)
	}
	for i := 0; i < len(bands); {
		j, all := i, notes[i]
		for j+1 < len(bands) && bars[j] != nil && barsMeet(bars[j], bars[j+1]) &&
			max(sizes[j], sizes[j+1]) <= min(sizes[j], sizes[j+1])/noteSize {
			j++
			all = all && notes[j]
		}
		for k := i; k <= j; k++ {
			notes[k] = notes[k] && all
		}
		i = j + 1
	}
	return notes
}

// barsMeet says whether one of a line's bars overlaps one of the next's.
func barsMeet(a, b [][2]float64) bool {
	for _, g := range a {
		for _, p := range b {
			if min(g[1], p[1]) > max(g[0], p[0]) {
				return true
			}
		}
	}
	return false
}

// footnote says whether a line is one of the page's notes: it starts
// with the number of a mark raised on a line above it (noteDigits at
// most, then a bracket, a full stop or a gap), and its text is smaller
// than that line's, as a note is set under its page's text. A table's
// rows that start "1", "2" beside a date ("1   2022. 6. 30.   개정") read
// as its rows; a note does not, and its number, its date and its words,
// set a tab apart by LibreOffice and Hancom, line up with the next
// note's as a table's columns do ("1 | 2022. 6. 30. | 개정").
func footnote(items []item, base float64, marks []noteMark) bool {
	if len(marks) == 0 {
		return false
	}
	n, digits := 0, 0
	var prev *item
	for i := range items {
		it := &items[i]
		if it.space || prev != nil && it.x0-prev.x1 > wordGap*it.h {
			break // a tab or a space after the number
		}
		if !isDigit(it.r) {
			break
		}
		n, digits, prev = 10*n+int(it.r-'0'), digits+1, it
	}
	if digits == 0 || digits > noteDigits {
		return false
	}
	size := textSize(items)
	for _, m := range marks {
		if m.n == n && m.base > base && size < noteSize*m.size {
			return true
		}
	}
	return false
}

// noteSize is the share of its mark's line's text size under which a line
// is set as a note: LibreOffice's 9 points under 10.5, Hancom's 9 under
// 10, LaTeX's \footnotesize.
const noteSize = 0.95
