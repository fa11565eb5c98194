package hostile

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"strings"
)

// pdfClasses are PDFs whose objects refer to themselves in ways the page
// tree and xref loops (hostile.go) do not: a font drawing with itself, a
// stream's length that lies or names the stream, object streams inside
// each other, pages of nothing.
func pdfClasses() []Class {
	return []Class{
		{"pdf: a Type3 font whose glyph draws with the same font, on n pages", "type3.pdf", 1, func(w io.Writer, n int) error { return PDFType3Loop(w, n) }},
		{"pdf: a content stream whose /Length says 10^12, one whose /Length is itself", "length.pdf", 1, func(w io.Writer, n int) error { return PDFLyingLength(w) }},
		{"pdf: two object streams, each said to be inside the other", "objstm.pdf", 1, func(w io.Writer, n int) error { return PDFObjStmLoop(w) }},
		{"pdf: n pages without contents", "empty.pdf", 100_000, func(w io.Writer, n int) error { return PDFEmptyPages(w, n) }},
	}
}

// PDFType3Loop is a PDF of n pages showing a glyph of a Type3 font whose
// procedure shows the same glyph of the same font (its Resources are the
// page's), so drawing it recurses without end.
func PDFType3Loop(w io.Writer, n int) error {
	proc := pdfStream("0 0 d0 BT /T3 1 Tf (a) Tj ET")
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"",
		"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << /a 4 0 R >> /Encoding << /Type /Encoding /Differences [97 /a] >> /FirstChar 97 /LastChar 97 /Widths [1000] /Resources 5 0 R >>",
		proc,
		"<< /Font << /T3 3 0 R /F1 6 0 R >> >>",
		pdfFont,
		pdfStream("BT /F1 12 Tf 72 720 Td (before) Tj ET BT /T3 12 Tf 72 700 Td (a) Tj ET BT /F1 12 Tf 72 680 Td (after) Tj ET"),
	}
	var kids strings.Builder
	for i := range max(n, 1) {
		fmt.Fprintf(&kids, "%d 0 R ", 8+i)
		objs = append(objs, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 7 0 R /Resources 5 0 R >>")
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", kids.String(), max(n, 1))
	return pdf(w, objs, "", false)
}

// PDFLyingLength is a PDF of two pages: the first's content stream says
// it is 10^12 bytes long, the second's gives its length as a reference
// to itself.
func PDFLyingLength(w io.Writer) error {
	one, two := "BT /F1 12 Tf 72 700 Td (first page) Tj ET", "BT /F1 12 Tf 72 700 Td (second page) Tj ET"
	return pdf(w, []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [5 0 R 6 0 R] /Count 2 >>",
		pdfFont,
		fmt.Sprintf("<< /Length 1000000000000 >>\nstream\n%s\nendstream", one),
		pdfPage(4),
		pdfPage(7),
		fmt.Sprintf("<< /Length 7 0 R >>\nstream\n%s\nendstream", two),
	}, "", false)
}

// PDFObjStmLoop is a PDF whose cross-reference stream says its page tree
// is object 2 in object stream 6, object 6 is inside object stream 7 and
// object 7 inside object stream 6: finding the pages loops.
func PDFObjStmLoop(w io.Writer) error {
	bw := bufio.NewWriter(w)
	off := 0
	put := func(s string) { n, _ := bw.WriteString(s); off += n }
	put("%PDF-1.7\n")
	offs := map[int]int{}
	obj := func(k int, body string) {
		offs[k] = off
		put(fmt.Sprintf("%d 0 obj\n%s\nendobj\n", k, body))
	}
	obj(1, "<< /Type /Catalog /Pages 2 0 R >>")
	obj(3, pdfFont)
	obj(4, pdfStream("BT /F1 12 Tf 72 700 Td (objstm) Tj ET"))
	obj(5, pdfPage(4))
	// 6 and 7 are also written plainly, each an object stream holding the
	// other and the pages: a reader that trusts the xref stream loops.
	for _, k := range []int{6, 7} {
		other := 13 - k
		first := fmt.Sprintf("<< /Type /ObjStm /N 2 /First 0 /Extends %d 0 R >> ", k)
		head := fmt.Sprintf("%d 0 2 %d ", other, len(first))
		head += strings.Repeat(" ", 32-len(head))
		body := head + first + "<< /Type /Pages /Kids [5 0 R] /Count 1 >>"
		obj(k, fmt.Sprintf("<< /Type /ObjStm /N 2 /First 32 /Extends %d 0 R /Length %d >>\nstream\n%s\nendstream", other, len(body), body))
	}
	// the cross-reference stream, object 8: W [1 4 2]
	le := binary.BigEndian
	var rows []byte
	entry := func(t byte, a uint32, b uint16) {
		r := make([]byte, 7)
		r[0] = t
		le.PutUint32(r[1:], a)
		le.PutUint16(r[5:], b)
		rows = append(rows, r...)
	}
	xref := off
	entry(0, 0, 0xFFFF)
	entry(1, uint32(offs[1]), 0)
	entry(2, 6, 1) // object 2: in stream 6, index 1
	entry(1, uint32(offs[3]), 0)
	entry(1, uint32(offs[4]), 0)
	entry(1, uint32(offs[5]), 0)
	entry(2, 7, 0) // object 6: in stream 7
	entry(2, 6, 0) // object 7: in stream 6
	entry(1, uint32(xref), 0)
	put(fmt.Sprintf("8 0 obj\n<< /Type /XRef /Size 9 /W [1 4 2] /Root 1 0 R /Length %d >>\nstream\n", len(rows)))
	bw.Write(rows)
	off += len(rows)
	put(fmt.Sprintf("\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n", xref))
	return bw.Flush()
}

// PDFEmptyPages is a PDF of n pages with no contents and no resources.
func PDFEmptyPages(w io.Writer, n int) error {
	objs := []string{"<< /Type /Catalog /Pages 2 0 R >>", ""}
	var kids strings.Builder
	for i := range n {
		fmt.Fprintf(&kids, "%d 0 R ", 3+i)
		objs = append(objs, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>")
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", kids.String(), n)
	return pdf(w, objs, "", false)
}
