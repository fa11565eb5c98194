package pdftext

// Where words end on a line: the gap between two glyphs against the
// line's letter-spacing (tracking), which justified Korean and spaced-out
// Latin titles add between every pair of letters.

// spaceBetween decides whether a word ends between two neighbouring glyphs:
// where the gap between them is wider than a tenth of the font size
// (pdftotext's rule) beyond the line's tracking, and where PDFium, reading
// the two one after the other on one line, inferred a space (from the
// font's space width and the text's kerning). PDFium's own judgement counts
// only for glyphs it read in a row: glyphs that meet only after reordering
// have no PDFium judgement; nor does it on a letter-spaced line, where it
// takes the spacing between letters for spaces.
func spaceBetween(p, q item, track float64) bool {
	h := max(p.h, q.h)
	gap := q.x0-p.x1-track*h > wordGap*h
	if q.seq == p.seq+1 && !q.breakB4 && track == 0 {
		return q.spaceB4 || gap
	}
	return gap
}

// minTracking is the least spacing between letters, in font sizes, that
// makes a line letter-spaced.
const minTracking = 0.04

// tracking is the spacing a line puts between all its letters, in font
// sizes: LibreOffice justifies a Korean line by spacing out every syllable
// (0.08 to 0.12 of the font size here, and a word space that much wider),
// and PDFium then reads "학 사 경 고". It is the lower quartile of the gaps
// between the line's CJK glyphs, most of which are between letters
// (LibreOffice spaces out only them, not "A+(4.5)" among them); 0 below
// minTracking (a line set as usual) and on a line of other letters, whose
// spacing PDFium reads as pdftotext does.
func tracking(items []item) float64 {
	var wide, latin []float64
	var prev *item
	drawn := false // a space glyph drawn since prev
	for i := range items {
		it := &items[i]
		if it.space || it.r == 0 {
			drawn = drawn || it.space
			continue
		}
		if prev != nil && it.h > 0 {
			g := (it.x0 - prev.x1) / max(it.h, prev.h)
			switch {
			case cjk(prev.r) && cjk(it.r):
				wide = append(wide, g)
			case latinLetter(prev.r) && latinLetter(it.r) && !drawn:
				latin = append(latin, g)
			}
		}
		prev, drawn = it, false
	}
	if len(wide) >= 4 {
		if t := quantile(wide, 0.25); t >= minTracking {
			return t
		}
		return 0
	}
	// Latin letter-spaced ("T H E  T I T L E", small capitals spaced
	// out): PDFium and pdftotext write every letter as a word. Its
	// letters' gaps are equal (the boxes are advances), most of the
	// line's; kerning moves them a little. Set as usual, a line's gaps
	// between letters are none, and where a font's boxes are its glyphs'
	// ink they differ from letter to letter; a gap with a space glyph
	// drawn in it is a word's ("a b c d" keeps its spaces).
	if len(latin) >= 4 {
		t, m := quantile(latin, 0.25), quantile(latin, 0.5)
		if t >= minLatinTracking && m-t <= latinSpread {
			return t
		}
	}
	return 0
}

// minLatinTracking is the least spacing between Latin letters, in font
// sizes, taken for letter-spacing: CSS letter-spacing of 0.2 em measures
// 0.18 in the lower quartile where kerning pulls pairs together ("Ta"),
// and letters set as usual are no more than a hundredth apart.
const minLatinTracking = 0.15

// latinSpread is how far, in font sizes, a letter-spaced line's lower
// quartile and median gap between Latin letters may lie apart (kerning).
const latinSpread = 0.05
