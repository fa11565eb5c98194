package pdftext

import (
	"fmt"
	"strings"
	"unicode"
)

// This file writes PDFs whose text is stored out of reading order, the way
// Hancom Office documents exported through macOS are: on each line the
// Hangul (or Latin) glyphs are one text object and the digits and
// punctuation another, drawn after it. The fonts are CID fonts without an
// embedded program, like the subsets those exports carry: readers take the
// text from the ToUnicode map and the positions from the widths.

// docFont is one CID-keyed font of a generated document.
type docFont struct {
	name  string       // resource name, e.g. "FA"
	base  string       // BaseFont
	codes map[rune]int // rune → CID, numbered in order of first use
	runes []rune       // CID-1 → rune
}

func newDocFont(name, base string) *docFont {
	return &docFont{name: name, base: base, codes: map[rune]int{}}
}

func (f *docFont) code(r rune) int {
	if c, ok := f.codes[r]; ok {
		return c
	}
	f.runes = append(f.runes, r)
	f.codes[r] = len(f.runes)
	return len(f.runes)
}

// advance is a glyph's width in 1/1000 em: full width for Hangul and CJK
// symbols, Helvetica-like widths for ASCII.
func advance(r rune) float64 {
	switch {
	case r == ' ':
		return 278
	case unicode.Is(unicode.Hangul, r), r >= 0x2460 && r <= 0x24ff, r >= 0x3000 && r <= 0x303f, r == '·', r == '○', r == '□', r == '■', r == '※':
		return 1000
	case r >= '0' && r <= '9':
		return 556
	case strings.ContainsRune("iljI.,:;'!|", r):
		return 250
	case strings.ContainsRune("ftr()[]-/\"", r):
		return 333
	case strings.ContainsRune("mwMW%@", r):
		return 889
	case unicode.IsUpper(r):
		return 667
	}
	return 540
}

// objects returns the font's four objects numbered from first: the Type0
// font, its CIDFont, the descriptor and the ToUnicode CMap.
func (f *docFont) objects(first int) []string {
	var w strings.Builder
	for i, r := range f.runes {
		fmt.Fprintf(&w, "%d [%d] ", i+1, int(advance(r)))
	}
	var cmap strings.Builder
	cmap.WriteString("/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n" +
		"/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n" +
		"/CMapName /Adobe-Identity-UCS def /CMapType 2 def\n" +
		"1 begincodespacerange <0000> <FFFF> endcodespacerange\n")
	for start := 0; start < len(f.runes); start += 100 {
		end := min(start+100, len(f.runes))
		fmt.Fprintf(&cmap, "%d beginbfchar\n", end-start)
		for i := start; i < end; i++ {
			fmt.Fprintf(&cmap, "<%04X> <%s>\n", i+1, utf16Hex(f.runes[i]))
		}
		cmap.WriteString("endbfchar\n")
	}
	cmap.WriteString("endcmap CMapName currentdict /CMap defineresource pop end end")
	return []string{
		fmt.Sprintf("<< /Type /Font /Subtype /Type0 /BaseFont /%s /Encoding /Identity-H /DescendantFonts [%d 0 R] /ToUnicode %d 0 R >>", f.base, first+1, first+3),
		fmt.Sprintf("<< /Type /Font /Subtype /CIDFontType2 /BaseFont /%s /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor %d 0 R /DW 1000 /W [%s] /CIDToGIDMap /Identity >>", f.base, first+2, w.String()),
		fmt.Sprintf("<< /Type /FontDescriptor /FontName /%s /Flags 4 /FontBBox [-50 -200 1050 900] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 700 /StemV 80 >>", f.base),
		pdfStream(cmap.String()),
	}
}

func utf16Hex(r rune) string {
	if r < 0x10000 {
		return fmt.Sprintf("%04X", r)
	}
	r -= 0x10000
	return fmt.Sprintf("%04X%04X", 0xd800+(r>>10), 0xdc00+(r&0x3ff))
}

func pdfStream(s string) string {
	return fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(s), s)
}

// placed is a glyph set on a page: its rune, font, size, origin and the
// direction of its baseline in quarter turns counter-clockwise.
type placed struct {
	r    rune
	font *docFont
	size float64
	x, y float64
	turn int
}

// typeset lays text out on one baseline from (x, y), left to right in the
// direction turn, and returns the glyphs with their fonts. Runes that
// second() claims go to font b, the others to a. Spaces are not drawn
// (Hancom exports leave gaps) unless drawSpaces; tracking is extra space
// after every glyph in em (negative: Hancom's 자간).
type setter struct {
	a, b       *docFont
	second     func(rune) bool
	size       float64
	tracking   float64
	drawSpaces bool
	bScale     float64 // size of font b's glyphs relative to size (0: same)
	bRise      float64 // baseline shift of font b's glyphs in points
}

// width is the advance of text in points.
func (s setter) width(text string) float64 {
	w := 0.0
	for _, r := range plain(text) {
		w += advance(r)/1000*s.size + s.tracking*s.size
	}
	return w
}

// line sets one line; extra is added to every space (justification).
// Text between "{^" and "}" is a superscript: smaller, raised, drawn with
// font b like a footnote mark.
func (s setter) line(text string, x, y float64, turn int, extra float64) []placed {
	var out []placed
	pos := 0.0
	dx, dy := turnVec(turn)
	sup := false
	for i, r := range text {
		if strings.HasPrefix(text[i:], "{^") {
			sup = true
			continue
		}
		if sup && r == '^' && i > 0 && text[i-1] == '{' {
			continue
		}
		if sup && r == '}' {
			sup = false
			continue
		}
		size, rise, f := s.size, 0.0, s.a
		if s.second(r) || sup {
			f = s.b
			if s.bScale > 0 {
				size = s.size * s.bScale
			}
			rise = s.bRise
		}
		if sup {
			size, rise = s.size*0.6, s.size*0.4
		}
		adv := advance(r)/1000*size + s.tracking*s.size
		if r == ' ' {
			adv += extra
		}
		if r != ' ' || s.drawSpaces {
			// The rise moves the glyph across its baseline: perpendicular to
			// the direction of writing.
			out = append(out, placed{r: r, font: f, size: size, turn: turn,
				x: x + dx*pos - dy*rise, y: y + dy*pos + dx*rise})
		}
		pos += adv
	}
	return out
}

// plain drops the superscript markup: the text a reader sees.
func plain(text string) string {
	return strings.NewReplacer("{^", "", "}", "").Replace(text)
}

func turnVec(turn int) (float64, float64) {
	switch ((turn % 4) + 4) % 4 {
	case 1:
		return 0, 1
	case 2:
		return -1, 0
	case 3:
		return 0, -1
	}
	return 1, 0
}

// wrap breaks a paragraph into lines no wider than width, at spaces.
func (s setter) wrap(par string, width float64) []string {
	var lines []string
	cur := ""
	for _, w := range strings.Fields(par) {
		next := w
		if cur != "" {
			next = cur + " " + w
		}
		if cur != "" && s.width(next) > width {
			lines = append(lines, cur)
			cur = w
			continue
		}
		cur = next
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// column sets paragraphs into a column of the given width from its top-left
// baseline, justified like Hancom's default; it returns the glyphs of each
// line and the lines' text.
func (s setter) column(pars []string, x, top, width, leading float64, turn int) ([][]placed, []string) {
	var glyphs [][]placed
	var texts []string
	dx, dy := turnVec(turn)
	off := 0.0 // distance from the first baseline, against the glyphs' "up"
	for _, par := range pars {
		lines := s.wrap(par, width)
		for i, l := range lines {
			extra := 0.0
			if n := strings.Count(l, " "); i < len(lines)-1 && n > 0 {
				extra = (width - s.width(l)) / float64(n)
			}
			glyphs = append(glyphs, s.line(l, x+off*dy, top-off*dx, turn, extra))
			texts = append(texts, plain(l))
			off += leading
		}
		off += leading / 2
	}
	return glyphs, texts
}

// drawStyle says how a line's glyphs of one font become text objects.
type drawStyle int

const (
	// drawRuns: one Tm + Tj per run of adjacent glyphs of the font.
	drawRuns drawStyle = iota
	// drawTJ: one TJ per line and font, kerning over the other font's glyphs.
	drawTJ
)

// content writes glyph lines as a content stream. For every line the
// glyphs of font a come first, then those of font b (Hancom style). With
// pageSplit all lines' font-a glyphs come before any font-b glyph.
func content(lines [][]placed, a, b *docFont, style drawStyle, pageSplit bool) string {
	var sb strings.Builder
	emit := func(line []placed, f *docFont) {
		var gs []placed
		for _, g := range line {
			if g.font == f {
				gs = append(gs, g)
			}
		}
		if len(gs) == 0 {
			return
		}
		fmt.Fprintf(&sb, "BT\n")
		curSize := -1.0
		i := 0
		for i < len(gs) {
			g := gs[i]
			// A run: glyphs that follow each other at their natural advance.
			j := i + 1
			for j < len(gs) && gs[j].size == g.size && gs[j].turn == g.turn &&
				near(gs[j-1], gs[j]) && (style == drawTJ || adjacent(line, gs[j-1], gs[j])) {
				j++
			}
			if g.size != curSize {
				fmt.Fprintf(&sb, "/%s %.2f Tf\n", f.name, g.size)
				curSize = g.size
			}
			dx, dy := turnVec(g.turn)
			fmt.Fprintf(&sb, "%.4f %.4f %.4f %.4f %.3f %.3f Tm\n", dx, dy, -dy, dx, g.x, g.y)
			if style == drawTJ {
				sb.WriteString("[")
				for k := i; k < j; k++ {
					if k > i {
						// Distance beyond the previous glyph's advance, in
						// thousandths of the font size, negated as TJ wants.
						prev := gs[k-1]
						end := prev.x*dx + prev.y*dy + advance(prev.r)/1000*prev.size
						gap := gs[k].x*dx + gs[k].y*dy - end
						if n := -gap * 1000 / g.size; n > 0.5 || n < -0.5 {
							fmt.Fprintf(&sb, "%.1f ", n)
						}
					}
					fmt.Fprintf(&sb, "<%04X>", f.code(gs[k].r))
				}
				sb.WriteString("] TJ\n")
			} else {
				sb.WriteString("<")
				for k := i; k < j; k++ {
					fmt.Fprintf(&sb, "%04X", f.code(gs[k].r))
				}
				sb.WriteString("> Tj\n")
			}
			i = j
		}
		sb.WriteString("ET\n")
	}
	if pageSplit {
		for _, l := range lines {
			emit(l, a)
		}
		for _, l := range lines {
			emit(l, b)
		}
		return sb.String()
	}
	for _, l := range lines {
		emit(l, a)
		emit(l, b)
	}
	return sb.String()
}

// near says whether two glyphs share a baseline (so one TJ can hold both).
func near(p, q placed) bool {
	dx, dy := turnVec(p.turn)
	across := -(q.x-p.x)*dy + (q.y-p.y)*dx
	return across < 0.01 && across > -0.01
}

// adjacent says whether q follows p at exactly p's advance (nothing of the
// other font between them, no stretched space): one Tj draws both.
func adjacent(line []placed, p, q placed) bool {
	dx, dy := turnVec(p.turn)
	along := (q.x-p.x)*dx + (q.y-p.y)*dy
	return along-advance(p.r)/1000*p.size < 0.01 && along-advance(p.r)/1000*p.size > -0.01
}

// genPage is one page of a generated document.
type genPage struct {
	w, h    float64
	rotate  int
	content string
}

// genDoc writes pages that use the given fonts.
func genDoc(pages []genPage, fonts ...*docFont) []byte {
	n := len(pages)
	fontBase := 3 + 2*n
	var res strings.Builder
	res.WriteString("/Font <<")
	for i, f := range fonts {
		fmt.Fprintf(&res, " /%s %d 0 R", f.name, fontBase+4*i)
	}
	res.WriteString(" >>")
	kids := make([]string, n)
	objs := []string{"<< /Type /Catalog /Pages 2 0 R >>", ""}
	for i, p := range pages {
		kids[i] = fmt.Sprintf("%d 0 R", 3+2*i)
		rot := ""
		if p.rotate != 0 {
			rot = fmt.Sprintf(" /Rotate %d", p.rotate)
		}
		objs = append(objs,
			fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.0f %.0f]%s /Contents %d 0 R /Resources << %s >> >>", p.w, p.h, rot, 4+2*i, res.String()),
			pdfStream(p.content))
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), n)
	for i, f := range fonts {
		objs = append(objs, f.objects(fontBase+4*i)...)
	}
	return buildPDF(objs, "")
}

// isASCII sends digits, Latin letters and ASCII punctuation to the second
// font, as Hancom does for the Latin face of a Korean document.
func isASCII(r rune) bool { return r < 0x80 && r != ' ' }

// isDigitOrPunct sends digits and punctuation to the second font (an
// English document whose numerals come from another face).
func isDigitOrPunct(r rune) bool {
	return r != ' ' && (unicode.IsDigit(r) || unicode.IsPunct(r) || unicode.IsSymbol(r))
}
