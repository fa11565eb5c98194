package pdftext

// The rules of a page: the lines that draw a table's borders. They are
// paths, not text, so the glyphs alone cannot tell a table's cells apart
// when a cell wraps onto two lines beside a cell of one line (see
// ruled.go). Producers draw them in different ways: Chromium fills a thin
// rectangle per cell border, LibreOffice and Hancom stroke a line per
// border, others stroke each cell's rectangle; all of them are read here.

import (
	"context"
	"math"
	"slices"
	"sort"
)

// rule is a horizontal or a vertical line of a page, in page space.
type rule struct {
	vertical bool
	at       float64 // y of a horizontal rule, x of a vertical one
	lo, hi   float64 // its extent along its direction
}

// Bounds on the work spent on a page's paths. A chart or a map draws
// thousands of paths; past maxPageObjects or maxRules the page is read
// without its rules (as before rules were read), not slowly. Past
// maxPathSegments no more segments are read, and the rules read from
// segments are dropped: they may be part of a table's borders, the rest
// unread, and a grid with a rule missing would join two rows' cells. The
// thin paths (a rule each, from its bounds alone: Chromium's, LibreOffice's
// and Hancom's borders) are still all read, within maxPageObjects, so the
// tables drawn with them keep their rules beside a chart.
const (
	maxPageObjects  = 5000 // objects looked at, forms' contents included
	maxPathSegments = 4000 // segments of wider paths read
	maxObjSegments  = 64   // a path with more segments is a drawing, not a cell's box
	maxRules        = 800  // rules after joining
	maxFormDepth    = 4    // forms inside forms followed
	maxRuleWidth    = 3.0  // thickest rule, in points
	minRuleLen      = 2.0  // shortest rule, in points
)

// PDFium's page object types and path segment types.
const (
	pageObjPath   = 2
	pageObjForm   = 5
	segLineTo     = 0
	segBezierTo   = 1
	segMoveTo     = 2
	fillModeNone  = 0
	ruleJoinGap   = 2.0 // rules on one line this close are one rule (Chromium draws a border per cell)
	ruleSameLine  = 1.0 // rules this close across their direction lie on one line
	axisTolerance = 0.5 // a segment this far off horizontal or vertical is still one
)

// matrix is a PDF transformation [a b c d e f].
type matrix [6]float64

var identity = matrix{1, 0, 0, 1, 0, 0}

func (m matrix) apply(x, y float64) (float64, float64) {
	return m[0]*x + m[2]*y + m[4], m[1]*x + m[3]*y + m[5]
}

// then is the transformation m followed by n.
func (m matrix) then(n matrix) matrix {
	return matrix{
		m[0]*n[0] + m[1]*n[2], m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2], m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4], m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

// ruleReader walks a page's objects, with the budgets above.
type ruleReader struct {
	p        *pdfium
	objects  int
	segments int
	over     bool // a budget ran out: the page is read without rules
	rules    []rule
	// segRules are the rules read from paths' segments, dropped when
	// segOver: maxPathSegments ran out.
	segRules []rule
	segOver  bool
	// marks are the small square paths that may draw check boxes
	// (boxes.go), markPoints the segments read for them.
	marks      []mark
	markPoints int
}

// pageRules returns a page's horizontal and vertical rules, joined, and
// the small square paths that may be check boxes, or none when the page
// has too many paths to look at (see the budgets).
func (p *pdfium) pageRules(ctx context.Context, page uint32) ([]rule, []mark, error) {
	n, err := p.call(ctx, "FPDFPage_CountObjects", uint64(page))
	if err != nil || int32(n) <= 0 {
		return nil, nil, err
	}
	if n > maxPageObjects {
		return nil, nil, nil
	}
	r := ruleReader{p: p}
	for i := uint32(0); i < n && !r.over; i++ {
		obj, err := p.call(ctx, "FPDFPage_GetObject", uint64(page), uint64(i))
		if err != nil {
			return nil, nil, err
		}
		if err := r.object(ctx, obj, identity, 0); err != nil {
			return nil, nil, err
		}
	}
	if r.over {
		return nil, nil, nil
	}
	if !r.segOver {
		r.rules = append(r.rules, r.segRules...)
	}
	rules := joinRules(r.rules)
	if len(rules) > maxRules {
		return nil, r.marks, nil
	}
	return rules, r.marks, nil
}

// object reads one page object whose coordinates m takes to page space.
func (r *ruleReader) object(ctx context.Context, obj uint32, m matrix, depth int) error {
	if obj == 0 {
		return nil
	}
	if r.objects++; r.objects > maxPageObjects {
		r.over = true
		return nil
	}
	p := r.p
	typ, err := p.call(ctx, "FPDFPageObj_GetType", uint64(obj))
	if err != nil {
		return err
	}
	switch typ {
	case pageObjForm:
		if depth >= maxFormDepth {
			return nil
		}
		fm, ok, err := p.objMatrix(ctx, obj)
		if err != nil || !ok {
			return err
		}
		n, err := p.call(ctx, "FPDFFormObj_CountObjects", uint64(obj))
		if err != nil || int32(n) <= 0 {
			return err
		}
		inner := fm.then(m)
		for i := uint32(0); i < n && !r.over; i++ {
			child, err := p.call(ctx, "FPDFFormObj_GetObject", uint64(obj), uint64(i))
			if err != nil {
				return err
			}
			if err := r.object(ctx, child, inner, depth+1); err != nil {
				return err
			}
		}
		return nil
	case pageObjPath:
		return r.path(ctx, obj, m)
	}
	return nil
}

// path reads a path object: a thin one is a rule whatever its shape (a
// filled rectangle or a stroked line); a wider one of a few segments may be
// a stroked box, whose straight sides are rules, or a fill of several thin
// rectangles.
func (r *ruleReader) path(ctx context.Context, obj uint32, m matrix) error {
	p := r.p
	s := uint64(p.scratch)
	// Left, bottom, right, top as floats, in the space of the path's parent.
	ok, err := p.call(ctx, "FPDFPageObj_GetBounds", uint64(obj), s, s+4, s+8, s+12)
	if err != nil || ok == 0 {
		return err
	}
	b := transformBox(m, box{p.f32(0), p.f32(4), p.f32(8), p.f32(12)})
	w, h := b.x1-b.x0, b.y1-b.y0
	if small(b) && len(r.marks) < maxMarks && r.markPoints < maxMarkPoints {
		mk, n, err := p.markOf(ctx, obj, b)
		if err != nil {
			return err
		}
		r.marks, r.markPoints = append(r.marks, mk), r.markPoints+n
	}
	switch {
	case !(w >= 0 && h >= 0) || math.IsInf(w, 0) || math.IsInf(h, 0):
		return nil
	case h <= maxRuleWidth && w >= minRuleLen && w > h:
		r.rules = append(r.rules, rule{at: (b.y0 + b.y1) / 2, lo: b.x0, hi: b.x1})
		return nil
	case w <= maxRuleWidth && h >= minRuleLen && h > w:
		r.rules = append(r.rules, rule{vertical: true, at: (b.x0 + b.x1) / 2, lo: b.y0, hi: b.y1})
		return nil
	case w < minRuleLen || h < minRuleLen:
		return nil // a dot
	}
	if r.segOver {
		return nil
	}
	n, err := p.call(ctx, "FPDFPath_CountSegments", uint64(obj))
	if err != nil || int32(n) <= 0 || n > maxObjSegments {
		return err
	}
	if r.segments += int(n); r.segments > maxPathSegments {
		r.segOver, r.segRules = true, nil
		return nil
	}
	ok, err = p.call(ctx, "FPDFPath_GetDrawMode", uint64(obj), s, s+4)
	if err != nil || ok == 0 {
		return err
	}
	fill, _ := p.m.Memory().ReadUint32Le(p.scratch)
	stroke, _ := p.m.Memory().ReadUint32Le(p.scratch + 4)
	pm, ok2, err := p.objMatrix(ctx, obj)
	if err != nil || !ok2 {
		return err
	}
	pm = pm.then(m)
	var sub [][2]float64 // the points of the subpath being read
	straight := true
	flush := func() {
		if len(sub) > 1 && straight {
			if stroke != 0 {
				r.sides(sub)
			} else if int32(fill) != fillModeNone {
				r.thinRect(sub)
			}
		}
		sub, straight = sub[:0], true
	}
	for i := uint32(0); i < n; i++ {
		seg, err := p.call(ctx, "FPDFPath_GetPathSegment", uint64(obj), uint64(i))
		if err != nil || seg == 0 {
			return err
		}
		if ok, err := p.call(ctx, "FPDFPathSegment_GetPoint", uint64(seg), s, s+4); err != nil || ok == 0 {
			return err
		}
		x, y := pm.apply(p.f32(0), p.f32(4))
		typ, err := p.call(ctx, "FPDFPathSegment_GetType", uint64(seg))
		if err != nil {
			return err
		}
		closed, err := p.call(ctx, "FPDFPathSegment_GetClose", uint64(seg))
		if err != nil {
			return err
		}
		switch int32(typ) {
		case segMoveTo:
			flush()
		case segBezierTo:
			straight = false
		}
		sub = append(sub, [2]float64{x, y})
		if closed != 0 && len(sub) > 0 {
			sub = append(sub, sub[0])
		}
	}
	flush()
	return nil
}

// sides takes the horizontal and vertical sides of a stroked subpath.
func (r *ruleReader) sides(pts [][2]float64) {
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		switch {
		case math.Abs(a[1]-b[1]) <= axisTolerance && math.Abs(a[0]-b[0]) >= minRuleLen:
			r.segRules = append(r.segRules, rule{at: (a[1] + b[1]) / 2, lo: min(a[0], b[0]), hi: max(a[0], b[0])})
		case math.Abs(a[0]-b[0]) <= axisTolerance && math.Abs(a[1]-b[1]) >= minRuleLen:
			r.segRules = append(r.segRules, rule{vertical: true, at: (a[0] + b[0]) / 2, lo: min(a[1], b[1]), hi: max(a[1], b[1])})
		}
	}
}

// thinRect takes a filled subpath that is a thin rectangle along an axis.
func (r *ruleReader) thinRect(pts [][2]float64) {
	if len(pts) < 4 || len(pts) > 5 {
		return
	}
	b := box{x0: math.Inf(1), y0: math.Inf(1), x1: math.Inf(-1), y1: math.Inf(-1)}
	for i, q := range pts {
		b.x0, b.x1 = min(b.x0, q[0]), max(b.x1, q[0])
		b.y0, b.y1 = min(b.y0, q[1]), max(b.y1, q[1])
		if i > 0 {
			a := pts[i-1]
			if math.Abs(a[0]-q[0]) > axisTolerance && math.Abs(a[1]-q[1]) > axisTolerance {
				return // a slanted side
			}
		}
	}
	w, h := b.x1-b.x0, b.y1-b.y0
	switch {
	case h <= maxRuleWidth && w >= minRuleLen && w > h:
		r.segRules = append(r.segRules, rule{at: (b.y0 + b.y1) / 2, lo: b.x0, hi: b.x1})
	case w <= maxRuleWidth && h >= minRuleLen && h > w:
		r.segRules = append(r.segRules, rule{vertical: true, at: (b.x0 + b.x1) / 2, lo: b.y0, hi: b.y1})
	}
}

// objMatrix is a page object's own transformation.
func (p *pdfium) objMatrix(ctx context.Context, obj uint32) (matrix, bool, error) {
	ok, err := p.call(ctx, "FPDFPageObj_GetMatrix", uint64(obj), uint64(p.scratch))
	if err != nil || ok == 0 {
		return matrix{}, false, err
	}
	var m matrix
	for i := range m {
		m[i] = p.f32(uint32(4 * i))
		if math.IsNaN(m[i]) || math.IsInf(m[i], 0) {
			return matrix{}, false, nil
		}
	}
	return m, true, nil
}

// transformBox is the bounding box of b's corners after m.
func transformBox(m matrix, b box) box {
	out := box{x0: math.Inf(1), y0: math.Inf(1), x1: math.Inf(-1), y1: math.Inf(-1)}
	for _, c := range [][2]float64{{b.x0, b.y0}, {b.x0, b.y1}, {b.x1, b.y0}, {b.x1, b.y1}} {
		x, y := m.apply(c[0], c[1])
		out.x0, out.x1 = min(out.x0, x), max(out.x1, x)
		out.y0, out.y1 = min(out.y0, y), max(out.y1, y)
	}
	return out
}

// joinRules joins rules that continue each other on one line (a border
// drawn cell by cell, a double line's halves), so that a rule runs the
// length of its table's row or column. Horizontal rules come first, then
// vertical ones, each sorted by where they lie.
func joinRules(rules []rule) []rule {
	rules = slices.Clone(rules)
	sort.Slice(rules, func(i, j int) bool {
		a, b := rules[i], rules[j]
		if a.vertical != b.vertical {
			return !a.vertical
		}
		if a.at != b.at {
			return a.at < b.at
		}
		return a.lo < b.lo
	})
	var out []rule
	for start := 0; start < len(rules); {
		// The rules on one line: those within ruleSameLine of the first.
		end := start + 1
		for end < len(rules) && rules[end].vertical == rules[start].vertical && rules[end].at-rules[start].at <= ruleSameLine {
			end++
		}
		line := slices.Clone(rules[start:end])
		sort.Slice(line, func(i, j int) bool { return line[i].lo < line[j].lo })
		at := 0.0
		for _, l := range line {
			at += l.at
		}
		at /= float64(len(line))
		cur := rule{vertical: line[0].vertical, at: at, lo: line[0].lo, hi: line[0].hi}
		for _, l := range line[1:] {
			if l.lo <= cur.hi+ruleJoinGap {
				cur.hi = max(cur.hi, l.hi)
				continue
			}
			out = append(out, cur)
			cur.lo, cur.hi = l.lo, l.hi
		}
		out = append(out, cur)
		start = end
	}
	return out
}
