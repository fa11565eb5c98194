package hostile

import (
	"bytes"
	"compress/flate"
	"compress/zlib"
	"fmt"
	"hash/adler32"
	"io"
	"strings"
)

// pdfBudgetClasses are PDFs that go for the budgets of one file from
// sides the others do not: glyphs placed to make the page's layout (Go,
// outside PDFium's memory) work hard, pages that are each slow or full,
// streams PDFium inflates that are not content (a font program, an
// image), structures nested or counted past reason, and the plainly
// broken (cut short, no pages, not a PDF).
func pdfBudgetClasses() []Class {
	glyphs := func(size float64, place func(i int) (x, y float64)) func(w io.Writer, n int) error {
		return func(w io.Writer, n int) error { return PDFPlacedGlyphs(w, n, size, place) }
	}
	return []Class{
		{"pdf: one page of n glyphs all drawn at one point", "onepoint.pdf", 490_000, glyphs(1, func(int) (float64, float64) { return 300, 400 })},
		{"pdf: one page of n glyphs, each on a line of its own", "column.pdf", 490_000, glyphs(1, func(i int) (float64, float64) { return 300, 780 - float64(i%490_000)*0.0015 })},
		{"pdf: one page of n glyphs at scattered places", "scatter.pdf", 160_000, glyphs(1, scattered)},
		{"pdf: one page of n glyphs in a grid of one-glyph cells", "grid.pdf", 240_000, glyphs(1, func(i int) (float64, float64) {
			return 5 + float64(i%700)*0.85, 785 - float64(i/700%700)*1.1
		})},
		{"pdf: one page of n glyphs in narrow columns side by side, each a gutter apart", "columns.pdf", 160_000, glyphs(0.1, func(i int) (float64, float64) {
			// lines of 16 glyphs 0.1 pt high, 60 lines a column, as many columns as n needs
			line, col := i/16, i/16/60
			return 2 + float64(col)*1.2 + float64(i%16)*0.0556, 780 - float64(line%60)*0.12
		})},
		{"pdf: one page of n glyphs, each turned its own way", "turned.pdf", 160_000, func(w io.Writer, n int) error { return PDFTurnedGlyphs(w, n) }},
		{"pdf: n pages sharing one content stream of 2,000,000 path operators", "slowpages.pdf", 2000, func(w io.Writer, n int) error {
			return PDFSharedContent(w, n, pathOps(2_000_000))
		}},
		{"pdf: n pages sharing one content stream of 160,000 glyphs at scattered places", "fullpages.pdf", 2000, func(w io.Writer, n int) error {
			var c bytes.Buffer
			if err := placedGlyphs(&c, 160_000, 1, scattered); err != nil {
				return err
			}
			return PDFSharedContent(w, n, c.Bytes())
		}},
		{"pdf: a page whose content inflates to n MiB of blanks, then a page of 490,000 glyphs at one point", "fullwasm.pdf", 300, func(w io.Writer, n int) error {
			return PDFFullThenGlyphs(w, n)
		}},
		{"pdf: a content stream saving the graphics state n times, never restoring it", "saves.pdf", 10_000_000, func(w io.Writer, n int) error {
			return PDFSharedContent(w, 1, append(bytes.Repeat([]byte("q "), n), "BT /F1 12 Tf 72 700 Td (saved) Tj ET"...))
		}},
		{"pdf: an array nested n deep in the content stream and in the page", "deeparray.pdf", 1_000_000, func(w io.Writer, n int) error { return PDFDeepArrays(w, n) }},
		{"pdf: an embedded font program that inflates to n MiB", "fontbomb.pdf", 1024, func(w io.Writer, n int) error { return PDFFontBomb(w, n) }},
		{"pdf: an image of 100,000 by 100,000 pixels inflating to n MiB, as an XObject and inline", "imagebomb.pdf", 1024, func(w io.Writer, n int) error { return PDFImageBomb(w, n) }},
		{"pdf: an xref table of n entries, most of them free", "bigxref.pdf", 20_000_000, func(w io.Writer, n int) error { return PDFBigXref(w, n) }},
		{"pdf: one page under a page tree whose /Count says n", "count.pdf", 100_000_000, func(w io.Writer, n int) error { return PDFCountLie(w, n) }},
		{"pdf: text in a Type3 font without ToUnicode", "type3text.pdf", 1, func(w io.Writer, n int) error { return PDFType3Text(w) }},
		{"pdf: a page tree without pages", "nopages.pdf", 1, func(w io.Writer, n int) error {
			return pdf(w, []string{"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [] /Count 0 >>"}, "", false)
		}},
		{"pdf: n pages of text, the file cut short halfway", "cut.pdf", 100, func(w io.Writer, n int) error {
			var b bytes.Buffer
			if err := PDFPages(&b, n); err != nil {
				return err
			}
			_, err := w.Write(b.Bytes()[:b.Len()/2])
			return err
		}},
		{"pdf: n KB of random bytes after a %PDF header", "junk.pdf", 1000, func(w io.Writer, n int) error {
			junk := make([]byte, n<<10)
			s := uint64(1)
			for i := range junk {
				s = s*6364136223846793005 + 1442695040888963407
				junk[i] = byte(s >> 56)
			}
			_, err := w.Write(append([]byte("%PDF-1.7\n"), junk...))
			return err
		}},
	}
}

// scattered places glyph i at a pseudo-random point of the page.
func scattered(i int) (float64, float64) {
	s := uint64(i)*0x9E3779B97F4A7C15 + 1
	s ^= s >> 31
	s *= 0xBF58476D1CE4E5B9
	s ^= s >> 29
	return float64(s%6000) / 10, float64(s>>32%7900) / 10
}

// PDFPlacedGlyphs is a PDF of one page showing n glyphs of 1 pt, glyph i at
// place(i).
func PDFPlacedGlyphs(w io.Writer, n int, size float64, place func(i int) (x, y float64)) error {
	var c bytes.Buffer
	if err := placedGlyphs(&c, n, size, place); err != nil {
		return err
	}
	return PDFSharedContent(w, 1, c.Bytes())
}

func placedGlyphs(c *bytes.Buffer, n int, size float64, place func(i int) (x, y float64)) error {
	fmt.Fprintf(c, "BT /F1 %g Tf\n", size)

	for i := range n {
		x, y := place(i)
		fmt.Fprintf(c, "1 0 0 1 %.4f %.4f Tm (%c) Tj\n", x, y, 'a'+i%26)
	}
	c.WriteString("ET")
	return nil
}

// PDFTurnedGlyphs is a PDF of one page of n glyphs, each drawn at its own
// angle and place.
func PDFTurnedGlyphs(w io.Writer, n int) error {
	var c bytes.Buffer
	c.WriteString("BT /F1 2 Tf\n")
	// cos and sin of 0..359 degrees, by rotation: no math import needed
	for i := range n {
		x, y := scattered(i)
		a, b := turns[i%len(turns)][0], turns[i%len(turns)][1]
		fmt.Fprintf(&c, "%.4f %.4f %.4f %.4f %.4f %.4f Tm (%c) Tj\n", a, b, -b, a, x, y, 'a'+i%26)
	}
	c.WriteString("ET")
	return PDFSharedContent(w, 1, c.Bytes())
}

// turns are cosines and sines of angles spread round the circle.
var turns = [][2]float64{{1, 0}, {0.9659, 0.2588}, {0.8660, 0.5}, {0.7071, 0.7071}, {0.5, 0.8660}, {0.2588, 0.9659},
	{0, 1}, {-0.5, 0.8660}, {-0.7071, 0.7071}, {-1, 0}, {-0.7071, -0.7071}, {0, -1}, {0.7071, -0.7071}, {0.9962, 0.0872}, {0.3420, -0.9397}}

// pathOps is a content stream of n path operators.
func pathOps(n int) []byte {
	return append(bytes.Repeat([]byte("1 2 m 3 4 l 5 6 7 8 9 10 c h S\n"), n/5), "BT /F1 12 Tf 72 700 Td (paths) Tj ET"...)
}

// PDFSharedContent is a PDF of n pages that all draw one content stream,
// compressed, with the font F1 (Helvetica).
func PDFSharedContent(w io.Writer, n int, content []byte) error {
	objs := []string{"<< /Type /Catalog /Pages 2 0 R >>", "", pdfFont, flateStream(content)}
	var kids strings.Builder
	for i := range max(n, 1) {
		fmt.Fprintf(&kids, "%d 0 R ", 5+i)
		objs = append(objs, pdfPage(4))
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", kids.String(), max(n, 1))
	return pdf(w, objs, "", false)
}

// flateStream is a stream object holding b compressed.
func flateStream(b []byte) string {
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestSpeed)
	zw.Write(b)
	zw.Close()
	return fmt.Sprintf("<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream", z.Len(), z.Bytes())
}

// zlibZeros is a zlib stream of mib MiB of zero bytes, about a thousandth
// of that on disk, assembled rather than compressed: once the
// compressor's window holds only zeros every further MiB flushes to the
// same bytes, which are repeated.
func zlibZeros(mib int) []byte {
	const chunk = 1 << 20
	var buf bytes.Buffer
	fw, _ := flate.NewWriter(&buf, flate.BestCompression)
	zeros := make([]byte, chunk)
	var first, steady []byte
	for i := range 2 {
		mark := buf.Len()
		fw.Write(zeros)
		fw.Flush()
		if i == 0 {
			first = bytes.Clone(buf.Bytes()[mark:])
		} else {
			steady = bytes.Clone(buf.Bytes()[mark:])
		}
	}
	z := bytes.NewBuffer([]byte{0x78, 0xda})
	z.Write(first)
	one := adler32.Checksum(zeros)
	sum := one
	for i := 1; i < mib; i++ {
		z.Write(steady)
		sum = adler32Combine(sum, one, chunk)
	}
	z.Write([]byte{0x03, 0x00, byte(sum >> 24), byte(sum >> 16), byte(sum >> 8), byte(sum)})
	return z.Bytes()
}

// adler32Combine is zlib's adler32_combine.
func adler32Combine(a1, a2 uint32, len2 int64) uint32 {
	const base = 65521
	rem := uint32(len2 % base)
	sum1 := a1 & 0xffff
	sum2 := (rem * sum1) % base
	sum1 += (a2 & 0xffff) + base - 1
	sum2 += (a1 >> 16) + (a2 >> 16) + base - rem
	return (sum2%base)<<16 | sum1%base
}

// PDFFontBomb is a PDF of one page whose text is in a TrueType font
// embedded as a stream that inflates to mib MiB of zeros.
func PDFFontBomb(w io.Writer, mib int) error {
	z := zlibZeros(mib)
	return pdf(w, []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
		"<< /Type /Font /Subtype /TrueType /BaseFont /Bomb /FirstChar 32 /LastChar 126 /FontDescriptor 6 0 R >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R /Resources << /Font << /F1 3 0 R >> >> >>",
		pdfStream("BT /F1 12 Tf 72 700 Td (font bomb) Tj ET"),
		"<< /Type /FontDescriptor /FontName /Bomb /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /FontFile2 7 0 R >>",
		fmt.Sprintf("<< /Length %d /Length1 %d /Filter /FlateDecode >>\nstream\n%s\nendstream", len(z), mib<<20, z),
	}, "", false)
}

// PDFImageBomb is a PDF of one page drawing an image XObject of 100,000 by
// 100,000 pixels whose stream inflates to mib MiB, then the same as an
// inline image, between two lines of text.
func PDFImageBomb(w io.Writer, mib int) error {
	z := zlibZeros(mib)
	inline := fmt.Sprintf("q 100 0 0 100 0 0 cm BI /W 100000 /H 100000 /BPC 8 /CS /G /F /Fl ID\n%s\nEI Q\n", z)
	content := "BT /F1 12 Tf 72 700 Td (before the image) Tj ET q 500 0 0 500 50 50 cm /Im1 Do Q\n" + inline + "BT /F1 12 Tf 72 680 Td (after the image) Tj ET"
	return pdf(w, []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
		pdfFont,
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R /Resources << /Font << /F1 3 0 R >> /XObject << /Im1 6 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		fmt.Sprintf("<< /Type /XObject /Subtype /Image /Width 100000 /Height 100000 /BitsPerComponent 8 /ColorSpace /DeviceGray /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream", len(z), z),
	}, "", false)
}

// PDFDeepArrays is a PDF of one page whose dictionary holds an array
// nested n deep and whose content stream gives an operator an operand
// nested n deep.
func PDFDeepArrays(w io.Writer, n int) error {
	deep := strings.Repeat("[", n) + strings.Repeat("]", n)
	return pdf(w, []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
		pdfFont,
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R /Resources << /Font << /F1 3 0 R >> >> /Deep " + deep + " >>",
		flateStream([]byte(deep + " 0 d BT /F1 12 Tf 72 700 Td (deep arrays) Tj ET")),
	}, "", false)
}

// PDFBigXref is a PDF of one page whose xref table lists n entries, all
// but the first five free.
func PDFBigXref(w io.Writer, n int) error {
	var b bytes.Buffer
	if err := PDFPages(&b, 1); err != nil {
		return err
	}
	data := b.Bytes()
	x := bytes.Index(data, []byte("\nxref\n")) + 1
	t := bytes.Index(data[x:], []byte("trailer"))
	head, table := data[:x], data[x:x+t]
	lines := strings.Split(strings.TrimSpace(string(table)), "\n")[3:] // the entries after "0000000000 65535 f"
	if _, err := w.Write(head); err != nil {
		return err
	}
	bw := &bytes.Buffer{}
	fmt.Fprintf(bw, "xref\n0 %d\n0000000000 65535 f \n", max(n, len(lines)+1))
	for _, l := range lines {
		bw.WriteString(strings.TrimRight(l, " ") + " \n")
	}
	if _, err := w.Write(bw.Bytes()); err != nil {
		return err
	}
	free := []byte("0000000000 65535 f \n")
	blk := bytes.Repeat(free, 10_000)
	for left := n - len(lines) - 1; left > 0; left -= 10_000 {
		if _, err := w.Write(blk[:min(left, 10_000)*len(free)]); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(w, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", max(n, len(lines)+1), x)
	return err
}

// PDFCountLie is a PDF of one page whose page tree's /Count says n.
func PDFCountLie(w io.Writer, n int) error {
	return pdf(w, []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		fmt.Sprintf("<< /Type /Pages /Kids [5 0 R] /Count %d >>", n),
		pdfFont,
		pdfStream("BT /F1 12 Tf 72 700 Td (one page) Tj ET"),
		pdfPage(4),
	}, "", false)
}

// PDFType3Text is a PDF of one page of text in a Type3 font whose glyphs
// are squares and that has no ToUnicode map or standard encoding names.
func PDFType3Text(w io.Writer) error {
	return pdf(w, []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
		"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << /g1 6 0 R /g2 6 0 R >> /Encoding << /Type /Encoding /Differences [65 /g1 /g2] >> /FirstChar 65 /LastChar 66 /Widths [1000 1000] >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R /Resources << /Font << /T3 3 0 R >> >> >>",
		pdfStream("BT /T3 12 Tf 72 700 Td (ABABBA ABBA) Tj ET"),
		pdfStream("1000 0 0 0 1000 1000 d1 100 100 800 800 re f"),
	}, "", false)
}

// PDFFullThenGlyphs is a PDF of two pages: the first's content inflates to
// mib MiB of zero bytes (blanks to a content parser), which PDFium holds
// while it reads the page and then frees (its memory stays the process's),
// the second draws 490,000 glyphs at one point.
func PDFFullThenGlyphs(w io.Writer, mib int) error {
	z := zlibZeros(mib)
	var c bytes.Buffer
	if err := placedGlyphs(&c, 490_000, 1, func(int) (float64, float64) { return 300, 400 }); err != nil {
		return err
	}
	return pdf(w, []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [5 0 R 6 0 R] /Count 2 >>",
		pdfFont,
		fmt.Sprintf("<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream", len(z), z),
		pdfPage(4),
		pdfPage(7),
		flateStream(c.Bytes()),
	}, "", false)
}
