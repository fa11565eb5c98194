package hostile

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"strings"
	"unicode/utf16"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer/hwptest"
)

func crc(b []byte) uint32 { return crc32.ChecksumIEEE(b) }

// hwpParts is an uncompressed HWP file whose section is long enough for
// regular sectors, with what is needed to damage its chains: the FAT and
// the section's directory entry.
type hwpParts struct {
	data     []byte
	fat      []int // file offsets of the FAT's entries, by sector
	dirStart uint32
	section  int // offset of Section0's directory entry
}

func newHWPParts() hwpParts {
	para := hwptest.Para(0, 0, 0, hwptest.UTF16(strings.Repeat("고리 ", 2000)))
	data := hwptest.File(0, nil, para)
	le := binary.LittleEndian
	p := hwpParts{data: data, dirStart: le.Uint32(data[48:])}
	nFAT := int(le.Uint32(data[44:]))
	for k := range nFAT {
		s := int(le.Uint32(data[76+4*k:]))
		for e := range 128 {
			p.fat = append(p.fat, 512*(s+1)+4*e)
		}
	}
	name := utf16.Encode([]rune("Section0"))
	for s := p.dirStart; s < 0xFFFFFFFA; s = le.Uint32(data[p.fat[s]:]) {
		for e := range 4 {
			off := 512*(int(s)+1) + 128*e
			ok := true
			for k, c := range name {
				if le.Uint16(data[off+2*k:]) != c {
					ok = false
				}
			}
			if ok {
				p.section = off
			}
		}
	}
	return p
}

// HWPLoop is an HWP file whose section claims 1 TB on a sector chain that
// loops back to its start, or (dir) whose directory's chain loops.
func HWPLoop(dir bool) []byte {
	p := newHWPParts()
	le := binary.LittleEndian
	if dir {
		last := p.dirStart
		for next := le.Uint32(p.data[p.fat[last]:]); next < 0xFFFFFFFA; next = le.Uint32(p.data[p.fat[last]:]) {
			last = next
		}
		le.PutUint32(p.data[p.fat[last]:], p.dirStart)
		return p.data
	}
	start := le.Uint32(p.data[p.section+116:])
	le.PutUint64(p.data[p.section+120:], 1<<40)
	last := start
	for next := le.Uint32(p.data[p.fat[last]:]); next < 0xFFFFFFFA; next = le.Uint32(p.data[p.fat[last]:]) {
		last = next
	}
	le.PutUint32(p.data[p.fat[last]:], start)
	return p.data
}

// HWPPastEnd is an HWP file whose section's chain goes on to a sector
// far past the end of the file.
func HWPPastEnd() []byte {
	p := newHWPParts()
	le := binary.LittleEndian
	start := le.Uint32(p.data[p.section+116:])
	le.PutUint32(p.data[p.fat[start]:], 0x00FFFFF0)
	return p.data
}

// pdf writes objects 1..n (object 1 the catalog) with an xref table and
// a trailer with extra keys; objs[i] is object i+1's body.
func pdf(w io.Writer, objs []string, trailerExtra string, prevSelf bool) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	off := 0
	put := func(s string) { n, _ := bw.WriteString(s); off += n }
	put("%PDF-1.7\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = off
		put(fmt.Sprintf("%d 0 obj\n%s\nendobj\n", i+1, o))
	}
	xref := off
	put(fmt.Sprintf("xref\n0 %d\n0000000000 65535 f \n", len(objs)+1))
	for _, o := range offs {
		put(fmt.Sprintf("%010d 00000 n \n", o))
	}
	extra := trailerExtra
	if prevSelf {
		extra += fmt.Sprintf(" /Prev %d", xref)
	}
	put(fmt.Sprintf("trailer\n<< /Size %d /Root 1 0 R %s >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, extra, xref))
	return bw.Flush()
}

const pdfFont = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"

func pdfStream(s string) string {
	return fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(s), s)
}

func pdfPage(contents int) string {
	return fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R /Resources << /Font << /F1 3 0 R >> >> >>", contents)
}

// PDFPages is a PDF of n pages sharing one small content stream.
func PDFPages(w io.Writer, n int) error {
	objs := []string{"<< /Type /Catalog /Pages 2 0 R >>", "", pdfFont, pdfStream("BT /F1 12 Tf 72 700 Td (page) Tj ET")}
	var kids strings.Builder
	for i := range n {
		fmt.Fprintf(&kids, "%d 0 R ", 5+i)
		objs = append(objs, pdfPage(4))
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", kids.String(), n)
	return pdf(w, objs, "", false)
}

// PDFTreeLoop is a PDF whose page tree's node has itself below it.
func PDFTreeLoop(w io.Writer) error {
	return pdf(w, []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [5 0 R 2 0 R] /Count 1000000 >>",
		pdfFont,
		pdfStream("BT /F1 12 Tf 72 700 Td (loop) Tj ET"),
		"<< /Type /Pages /Parent 2 0 R /Kids [2 0 R 5 0 R 6 0 R] /Count 1000000 >>",
		pdfPage(4),
	}, "", false)
}

// PDFXrefLoop is a PDF whose trailer's Prev names its own xref table.
func PDFXrefLoop(w io.Writer) error {
	return pdf(w, []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [5 0 R] /Count 1 >>",
		pdfFont,
		pdfStream("BT /F1 12 Tf 72 700 Td (xref) Tj ET"),
		pdfPage(4),
	}, "", true)
}

// PDFGlyphs is a PDF of one page drawing n glyphs.
func PDFGlyphs(w io.Writer, n int) error {
	var c strings.Builder
	c.WriteString("BT /F1 1 Tf 1 790 Td ")
	// 1,250 glyphs a line, 800 lines at 1 pt: a million fit the page.
	line := strings.Repeat("ab ", 417)[:1250]
	for k := 0; k < n; k += 1250 {
		c.WriteString("(" + line + ") Tj 0 -0.98 Td\n")
	}
	c.WriteString("ET")
	return pdf(w, []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [5 0 R] /Count 1 >>",
		pdfFont,
		pdfStream(c.String()),
		pdfPage(4),
	}, "", false)
}

// PDFDeepTree is a PDF of n pages whose page tree is a chain of n/10
// intermediate nodes, each holding ten pages and the next node.
func PDFDeepTree(w io.Writer, n int) error {
	objs := []string{"<< /Type /Catalog /Pages 2 0 R >>", "", pdfFont, pdfStream("BT /F1 12 Tf 72 700 Td (deep) Tj ET"), pdfPage(4)}
	levels := max(n/10, 1)
	// node k is object 6+k; node 0 is object 2's child
	for k := range levels {
		kids := strings.Repeat("5 0 R ", 10)
		if k+1 < levels {
			kids += fmt.Sprintf("%d 0 R", 7+k)
		}
		objs = append(objs, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", kids, n-10*k))
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [6 0 R] /Count %d >>", n)
	return pdf(w, objs, "", false)
}
