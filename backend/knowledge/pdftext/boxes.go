package pdftext

// Check boxes drawn as paths. An HTML form's <input type="checkbox"> and
// <input type="radio">, printed by Chromium, are small squares with
// rounded corners and circles of Bézier curves, not glyphs; so are the
// boxes Hancom and Word draw before a form's options. The text layer then
// holds only the labels, and a question's options, an em or two apart,
// lined their gaps up down the form's rows as a table's columns do:
// "동의합니까? | 예 | 아니오". Each such box beside a label is read as the
// glyph of a box ("☐", "☑", "○", "◉"), so the options read as the glyph
// boxes do (cells.go): "동의합니까? | ☐ 예 ☑ 아니오", and the page shows
// which option was marked.

import (
	"cmp"
	"context"
	"math"
	"slices"
	"unicode"
)

// mark is a small path of a page, about square, that may draw a check
// box or a radio button, or a part of one (its white ground, its outline,
// the tick or the dot inside).
type mark struct {
	b      box
	shape  bool // a square or a circle, not an icon's outline or a tick
	round  bool // a circle
	inked  bool // filled with a colour other than white
	stroke bool // its outline drawn
	form   bool // drawn inside a form field's tag (Chromium's /Form)
	fill   rgb  // the fill's colour, when inked
	line   rgb  // the outline's colour, when stroked
}

// rgb is a path's colour.
type rgb [3]uint8

// ink says whether a fill is in the colour of ink, as a box filled to
// mark it is (black or a dark grey, or the colour of the box's outline),
// not a chart's colour: a legend's swatch is a square of colour in an
// outline (#c33, #36c, a light grey #999), where a box marked in colour
// has something drawn inside (Chromium's white tick on its blue).
func (c rgb) ink(line rgb, lined bool) bool {
	if lined && c == line {
		return true
	}
	hi, lo := max(c[0], c[1], c[2]), min(c[0], c[1], c[2])
	return hi < maxInkLevel && hi-lo <= maxInkTint
}

// formTag is the name of the marked content Chromium draws a form's
// field in (a tagged PDF's structure type Form), in UTF-16LE with its
// terminating zero, as FPDFPageObjMark_GetName writes it.
var formTag = []byte{'F', 0, 'o', 0, 'r', 0, 'm', 0, 0, 0}

// formTagged says whether a page object is drawn inside marked content
// tagged /Form: a form field's drawing, which a tagged PDF (Chromium's)
// marks so, where wkhtmltopdf and most producers tag nothing.
func (p *pdfium) formTagged(ctx context.Context, obj uint32) (bool, error) {
	n, err := p.call(ctx, "FPDFPageObj_CountMarks", uint64(obj))
	if err != nil || int32(n) <= 0 {
		return false, err
	}
	for i := uint32(0); i < min(n, 8); i++ {
		mk, err := p.call(ctx, "FPDFPageObj_GetMark", uint64(obj), uint64(i))
		if err != nil || mk == 0 {
			return false, err
		}
		// The name's room: the scratch past its first 16 bytes, the
		// length written at its start.
		s := uint64(p.scratch)
		ok, err := p.call(ctx, "FPDFPageObjMark_GetName", uint64(mk), s+16, scratchSize-16, s)
		if err != nil {
			return false, err
		}
		size, _ := p.m.Memory().ReadUint32Le(p.scratch)
		if ok == 0 || int(size) != len(formTag) {
			continue
		}
		if name, _ := p.m.Memory().Read(p.scratch+16, size); string(name) == string(formTag) {
			return true, nil
		}
	}
	return false, nil
}

// Bounds of a mark: a check box is at least a few points wide (Chromium
// draws 13 px, 9.75 pt, at any font size) and about square.
const (
	minMarkSide = 4.0  // narrowest box, in points
	maxMarkSide = 24.0 // widest box, in points
	markSquare  = 0.2  // its sides differ by this share of the longer at most
	// A page's marks are read within maxMarks paths and maxMarkPoints
	// segments in all: a form of 40 rows of three Chromium boxes (two or
	// three paths each, a radio button's ring 97 segments) takes about
	// 300 paths and 15,000 segments, read in about 50 ms of CPU (each
	// point one call into PDFium); a chart's thousands of markers stop
	// there.
	maxMarks      = 1000
	maxMarkPoints = 40000
	// A circle of Bézier curves takes 3 segments a curve: Chromium draws
	// a radio button's ring with 32 curves.
	maxMarkSegments = 160
	roundCorner     = 0.12 // see shapeOf
	shapeSlack      = 0.08 // see shapeOf
	// A box stands beside its label: the label's glyph starts (or ends)
	// within maxLabelGap font sizes of it (Chromium sets 3 px of margin
	// and a space, about half an em), and the box is minBoxSize to
	// maxBoxSize font sizes tall.
	maxLabelGap = 1.2
	minBoxSize  = 0.5
	maxBoxSize  = 1.5
	// A dot marks a radio button or a box when it is at most maxDotShare
	// of the box's side (Chromium's 5.9 pt in 10.7, wkhtmltopdf's 6.0 in
	// 8.9); a legend's swatch fills its outline (8.2 pt in 9.0).
	maxDotShare = 0.8
	// A fill is ink's colour (ink) when no channel reaches maxInkLevel
	// and they differ by maxInkTint at most: black, #333, #555, not
	// #999 nor a colour.
	maxInkLevel = 128
	maxInkTint  = 24
)

// shapeOf says what a path's points draw: a circle (every point within
// shapeSlack of its side from the circle its bounds hold; a Bézier's
// control points stand a little outside), a square (every point that
// near an edge of its bounds, and its corners reached, rounded or not:
// Chromium rounds 2 px on 13), or neither (an icon, a glyph drawn as a
// path, a tick).
func shapeOf(pts [][2]float64) (square, circle bool) {
	if len(pts) < 4 {
		return false, false
	}
	b := box{x0: math.Inf(1), y0: math.Inf(1), x1: math.Inf(-1), y1: math.Inf(-1)}
	for _, q := range pts {
		b.x0, b.x1 = min(b.x0, q[0]), max(b.x1, q[0])
		b.y0, b.y1 = min(b.y0, q[1]), max(b.y1, q[1])
	}
	w, h := b.x1-b.x0, b.y1-b.y0
	side := max(w, h)
	if !(side > 0) || math.Abs(w-h) > shapeSlack*side {
		return false, false
	}
	cx, cy, r := (b.x0+b.x1)/2, (b.y0+b.y1)/2, side/2
	square, circle = true, true
	for _, q := range pts {
		if math.Abs(math.Hypot(q[0]-cx, q[1]-cy)-r) > shapeSlack*side {
			circle = false
		}
		edge := min(q[0]-b.x0, b.x1-q[0], q[1]-b.y0, b.y1-q[1])
		if edge > shapeSlack*side {
			square = false
		}
	}
	for _, c := range [][2]float64{{b.x0, b.y0}, {b.x0, b.y1}, {b.x1, b.y0}, {b.x1, b.y1}} {
		near := math.Inf(1)
		for _, q := range pts {
			near = min(near, math.Hypot(q[0]-c[0], q[1]-c[1]))
		}
		if near > roundCorner*side {
			square = false
		}
	}
	return square && !circle, circle
}

// small says whether a path's bounds in page space may be a mark.
func small(b box) bool {
	w, h := b.x1-b.x0, b.y1-b.y0
	return w >= minMarkSide && h >= minMarkSide && w <= maxMarkSide && h <= maxMarkSide &&
		math.Abs(w-h) <= markSquare*max(w, h)
}

// colorOf reads an object's fill or stroke colour (get, the PDFium
// function) and its alpha; ok is false when the object has none.
func (p *pdfium) colorOf(ctx context.Context, get string, obj uint32) (c rgb, alpha uint32, ok bool, err error) {
	s := uint64(p.scratch)
	found, err := p.call(ctx, get, uint64(obj), s, s+4, s+8, s+12)
	if err != nil || found == 0 {
		return rgb{}, 0, false, err
	}
	mem := p.m.Memory()
	r, _ := mem.ReadUint32Le(p.scratch)
	g, _ := mem.ReadUint32Le(p.scratch + 4)
	b, _ := mem.ReadUint32Le(p.scratch + 8)
	alpha, _ = mem.ReadUint32Le(p.scratch + 12)
	return rgb{uint8(min(r, 255)), uint8(min(g, 255)), uint8(min(b, 255))}, alpha, true, nil
}

// markOf reads what a small path draws: whether its segments are all
// curves, whether it is stroked, and whether it is filled with ink; and
// how many segments it read.
func (p *pdfium) markOf(ctx context.Context, obj uint32, b box) (mark, int, error) {
	m := mark{b: b}
	s := uint64(p.scratch)
	form, err := p.formTagged(ctx, obj)
	if err != nil {
		return m, 0, err
	}
	m.form = form
	n, err := p.call(ctx, "FPDFPath_CountSegments", uint64(obj))
	if err != nil || int32(n) <= 0 || n > maxMarkSegments {
		return m, 0, err
	}
	// The points, in the path's own space: a circle's stay away from the
	// corners of its bounds, a square's (rounded or not) reach them.
	var pts [][2]float64
	for i := uint32(0); i < n; i++ {
		seg, err := p.call(ctx, "FPDFPath_GetPathSegment", uint64(obj), uint64(i))
		if err != nil || seg == 0 {
			return m, 0, err
		}
		if ok, err := p.call(ctx, "FPDFPathSegment_GetPoint", uint64(seg), s, s+4); err != nil || ok == 0 {
			return m, 0, err
		}
		pts = append(pts, [2]float64{p.f32(0), p.f32(4)})
	}
	sq, circle := shapeOf(pts)
	m.shape, m.round = sq || circle, circle
	ok, err := p.call(ctx, "FPDFPath_GetDrawMode", uint64(obj), s, s+4)
	if err != nil || ok == 0 {
		return m, len(pts), err
	}
	fill, _ := p.m.Memory().ReadUint32Le(p.scratch)
	stroke, _ := p.m.Memory().ReadUint32Le(p.scratch + 4)
	m.stroke = stroke != 0
	if int32(fill) != fillModeNone {
		c, a, ok, err := p.colorOf(ctx, "FPDFPageObj_GetFillColor", obj)
		if err != nil {
			return m, len(pts), err
		}
		if ok {
			m.inked = a > 0 && min(c[0], c[1], c[2]) < 230
			m.fill = c
		}
	}
	if m.stroke {
		c, _, ok, err := p.colorOf(ctx, "FPDFPageObj_GetStrokeColor", obj)
		if err != nil {
			return m, len(pts), err
		}
		if ok {
			m.line = c
		}
	}
	return m, len(pts), nil
}

// checkBoxes returns the glyphs of the check boxes among a page's marks:
// a box (its parts, drawn one over another, taken together) that is
// visible (outlined or inked), stands on a line of upright text, as tall
// as its glyphs or a little less or more, has no glyph over it, and has a
// label's glyph within maxLabelGap font sizes after it or before it. A
// legend's swatch, a bullet or a drawing's dot has no such label or is
// no part of boxes drawn one over another.
func checkBoxes(gs []glyph, marks []mark) []placedBox {
	if len(marks) == 0 {
		return nil
	}
	// The boxes: the marks no other mark holds, each with the marks inside.
	holds := func(a, b box) bool {
		const slack = 1.0
		return b.x0 >= a.x0-slack && b.x1 <= a.x1+slack && b.y0 >= a.y0-slack && b.y1 <= a.y1+slack
	}
	var found []foundBox
	for i, m := range marks {
		outer := m.shape
		for j, o := range marks {
			if j != i && holds(o.b, m.b) && (!holds(m.b, o.b) || j < i) {
				outer = false
				break
			}
		}
		if !outer {
			continue
		}
		// A box is an outline with nothing or white inside (a box left
		// empty), or drawn in parts one over another: a white ground and
		// its outline, and when marked something inside: a tick or a
		// cross (Chromium's white tick on its blue ground, wkhtmltopdf's
		// two strokes), a dot smaller than the box, or a fill in ink's
		// colour. One path both inked and outlined is a chart's marker;
		// one inked and not outlined, a swatch or a bullet; a square of
		// colour filling its outline, with nothing inside, a legend's
		// swatch ("■ 매출 ■ 영업이익" of a chart printed by Chromium).
		parts, side := 0, 0.0
		var inside []mark
		stroke, form := false, false
		var line rgb
		for _, o := range marks {
			if holds(m.b, o.b) {
				parts++
				inside = append(inside, o)
				side = max(side, o.b.x1-o.b.x0, o.b.y1-o.b.y0)
				stroke = stroke || o.stroke
				if o.stroke && o.shape {
					line = o.line // the outline's, not a tick's
				}
				form = form || o.form
			}
		}
		marked, swatch := false, false
		for _, o := range inside {
			switch {
			case !o.shape:
				marked = true // a tick or a cross
			case !o.inked:
				// a white ground or an outline
			case max(o.b.x1-o.b.x0, o.b.y1-o.b.y0) <= maxDotShare*side:
				marked = true // a dot
			case o.fill.ink(line, stroke):
				marked = true // the box filled with ink
			default:
				swatch = true
			}
		}
		if parts == 1 && (m.inked || !m.stroke) || parts > 1 && !stroke && !marked || swatch && !marked {
			continue
		}
		if g, before, after, ok := boxGlyph(gs, m.b); ok {
			switch {
			case m.round && marked:
				g.r = '◉'
			case m.round:
				g.r = '○'
			case marked:
				g.r = '☑'
			default:
				g.r = '☐'
			}
			found = append(found, foundBox{g: g, before: before, after: after, form: form})
		}
	}
	return optionBoxes(gs, found)
}

// foundBox is a box found beside a label: the glyphs nearest before it
// and after it.
type foundBox struct {
	g             glyph
	before, after int  // places in the page's glyphs, -1 for none
	form          bool // tagged as a form field's drawing
}

// optionBoxes keeps the boxes that are a question's options: two or more
// on one line, of one kind and size, each beside a label of its own, all
// before their labels or all after them, the label between two boxes.
// A box alone may be a drawing's part beside a caption (a contents page's
// icons before their page numbers), and stays unread as before, unless
// it is tagged as a form field's drawing: Chromium's one check box
// before "I agree" or a checklist's boxes, one a line.
func optionBoxes(gs []glyph, found []foundBox) []placedBox {
	slices.SortFunc(found, func(a, b foundBox) int { return cmp.Compare(a.g.x0, b.g.x0) })
	place := make([]*placedBox, len(found))
	for i, a := range found {
		for j := i + 1; j < len(found); j++ {
			b := found[j]
			sa, sb := a.g.x1-a.g.x0, b.g.x1-b.g.x0
			if min(a.g.hi, b.g.hi)-max(a.g.lo, b.g.lo) < 0.5*min(a.g.h, b.g.h) {
				continue // another line
			}
			if radio(a.g.r) != radio(b.g.r) || math.Abs(sa-sb) > 0.15*max(sa, sb) {
				continue // a check box beside a radio button, or a bigger box
			}
			// Boxes first: the first box's label lies between the boxes,
			// and the second has one after it. Boxes after their labels:
			// the second's label lies between them, the first has one.
			switch {
			case a.after >= 0 && b.after >= 0 && gs[a.after].x1 <= b.g.x0:
				place[i] = &placedBox{g: a.g, at: a.after, first: true}
				place[j] = &placedBox{g: b.g, at: b.after, first: true}
			case a.before >= 0 && b.before >= 0 && gs[b.before].x0 >= a.g.x1:
				place[i] = &placedBox{g: a.g, at: a.before}
				place[j] = &placedBox{g: b.g, at: b.before}
			}
			break
		}
	}
	var out []placedBox
	for i, f := range found {
		switch {
		case place[i] != nil:
			out = append(out, *place[i])
		case f.form && f.after >= 0:
			out = append(out, placedBox{g: f.g, at: f.after, first: true})
		case f.form:
			out = append(out, placedBox{g: f.g, at: f.before})
		}
	}
	return out
}

// radio says whether a box's glyph is a radio button's.
func radio(r rune) bool { return r == '○' || r == '◉' }

// boxGlyph places a box on its line, the line its middle falls in: it
// takes the height of its labels' glyphs, the nearest upright glyphs on
// that line after it and before it within maxLabelGap font sizes (their
// places in gs, -1 where none is near).
func boxGlyph(gs []glyph, b box) (g glyph, before, after int, ok bool) {
	cy, side := (b.y0+b.y1)/2, max(b.x1-b.x0, b.y1-b.y0)
	nearB, nearA := math.Inf(1), math.Inf(1)
	before, after = -1, -1
	for i := range gs {
		g := &gs[i]
		if g.gen || g.off || g.q != 0 || unicode.IsSpace(g.r) || g.r == 0 || g.h <= 0 || cy < g.lo || cy > g.hi {
			continue
		}
		if g.x1 > b.x0 && g.x0 < b.x1 {
			return glyph{}, -1, -1, false // text over the box: a frame, not a box
		}
		if side < minBoxSize*g.h || side > maxBoxSize*g.h {
			continue
		}
		if d := g.x0 - b.x1; d >= 0 && d <= maxLabelGap*g.h && d < nearA {
			nearA, after = d, i
		}
		if d := b.x0 - g.x1; d >= 0 && d <= maxLabelGap*g.h && d < nearB {
			nearB, before = d, i
		}
	}
	label := after
	if label < 0 {
		label = before
	}
	if label < 0 {
		return glyph{}, -1, -1, false
	}
	l := gs[label]
	return glyph{x0: b.x0, x1: b.x1, lo: l.lo, hi: l.hi, h: l.h}, before, after, true
}

// placedBox is a check box's glyph and where it goes in PDFium's order
// of the page's glyphs: next to its label's first glyph (before it when
// the box comes first, after it otherwise), so that box and label read
// as one run of text, as a box's glyph drawn before its label does.
type placedBox struct {
	g     glyph
	at    int  // the label's glyph in gs
	first bool // the box before its label
}

// withBoxes adds the check boxes' glyphs to a page's, each beside its
// label's glyph with a space of PDFium's between them (and one after a
// box that follows its label).
func withBoxes(gs []glyph, boxes []placedBox) []glyph {
	if len(boxes) == 0 {
		return gs
	}
	slices.SortStableFunc(boxes, func(a, b placedBox) int { return cmp.Compare(a.at, b.at) })
	space := glyph{r: ' ', gen: true}
	out := make([]glyph, 0, len(gs)+3*len(boxes))
	k := 0
	for i, g := range gs {
		var after []placedBox
		for ; k < len(boxes) && boxes[k].at == i; k++ {
			if boxes[k].first {
				out = append(out, boxes[k].g, space)
			} else {
				after = append(after, boxes[k])
			}
		}
		out = append(out, g)
		for _, b := range after {
			out = append(out, space, b.g, space)
		}
	}
	return out
}
