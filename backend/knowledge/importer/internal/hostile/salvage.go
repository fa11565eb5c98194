package hostile

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"strings"
)

// salvageClasses are ZIP-based files whose directory of parts is gone or
// lies, damaged besides: the importer reads their parts from their own
// local headers (salvage.go), past the damage, within its budgets.
func salvageClasses() []Class {
	return []Class{
		{"docx: n paragraphs, every part stored with its sizes in a descriptor, cut at two thirds", "storedcut.docx", 100_000, func(w io.Writer, n int) error {
			d, err := storedDocx(n, "")
			if err != nil {
				return err
			}
			_, err = w.Write(d[:len(d)*2/3])
			return err
		}},
		{"docx: a stored body with a descriptor, then n MB of junk without a signature, no directory", "storedjunk.docx", 300, func(w io.Writer, n int) error {
			d, err := storedDocx(100, "")
			if err != nil {
				return err
			}
			d = d[:bytes.LastIndex(d, []byte("PK\x07\x08"))] // the body's descriptor and all after it gone
			if _, err := w.Write(d); err != nil {
				return err
			}
			_, err = w.Write(bytes.Repeat([]byte("쓰레기\x00"), max(n, 1)<<20/10))
			return err
		}},
		{"docx: a stored body whose header counts the n MB of junk after it in its size, no directory", "storedlying.docx", 300, func(w io.Writer, n int) error {
			var body strings.Builder
			for i := range 100 {
				fmt.Fprintf(&body, `<w:p><w:r><w:t>문단 %d</w:t></w:r></w:p>`, i)
			}
			doc := `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` + body.String() + `</w:body></w:document>`
			junk := bytes.Repeat([]byte("쓰레기\x00"), max(n, 1)<<20/10)
			le := binary.LittleEndian
			h := le.AppendUint32(nil, 0x04034b50)
			h = le.AppendUint16(le.AppendUint16(le.AppendUint16(h, 20), 0), zip.Store)
			h = append(h, make([]byte, 8)...) // time, date, checksum
			size := uint32(len(doc) + len(junk))
			h = le.AppendUint32(le.AppendUint32(h, size), size)
			h = le.AppendUint16(le.AppendUint16(h, uint16(len("word/document.xml"))), 0)
			_, err := w.Write(bytes.Join([][]byte{h, []byte("word/document.xml"), []byte(doc), junk}, nil))
			return err
		}},
		{"docx: deflated parts, then n MB of zeros where its directory was", "deflatedjunk.docx", 300, func(w io.Writer, n int) error {
			return junkAfterParts(w, n, false, func(w io.Writer) error { return DOCX(w, strings.Repeat("문단 ", 1000)) })
		}},
		{"epub: n MB of zeros between its chapters and its directory (whose offsets then lie)", "junkdir.epub", 300, func(w io.Writer, n int) error {
			return junkAfterParts(w, n, true, func(w io.Writer) error {
				return EPUB(w, []string{"c1", "c2"}, map[string]string{"c1": "<html><body><p>첫 장</p></body></html>", "c2": "<html><body><p>둘째 장</p></body></html>"})
			})
		}},
		{"epub: n chapters, the package document after them, cut halfway", "cutbook.epub", 1000, func(w io.Writer, n int) error {
			spine := make([]string, max(n, 2))
			chapters := map[string]string{}
			for i := range spine {
				spine[i] = fmt.Sprintf("c%04d", i)
				chapters[spine[i]] = fmt.Sprintf("<html><body><p>%d장 첫 문단</p><p>%d장 둘째 문단</p></body></html>", i, i)
			}
			var b bytes.Buffer
			if err := EPUB(&b, spine, chapters); err != nil { // parts in name order: content.opf after the chapters
				return err
			}
			d := b.Bytes()
			_, err := w.Write(d[:len(d)/2])
			return err
		}},
		{"epub: n chapters the spine names in the reverse of the archive's order, cut halfway into the last in the archive (the spine's first)", "cutorder.epub", 1000, func(w io.Writer, n int) error {
			n = max(n, 2)
			spine := make([]string, n)
			chapters := map[string]string{}
			for i := range spine {
				id := fmt.Sprintf("z%04d", i) // after content.opf in the archive
				spine[n-1-i] = id
				chapters[id] = fmt.Sprintf("<html><body><p>%d장 첫 문단</p><p>%d장 둘째 문단</p></body></html>", i, i)
			}
			var long strings.Builder
			for i := range 1000 {
				fmt.Fprintf(&long, "<p>첫 장의 %d번째 문단</p>", i)
			}
			chapters[spine[0]] = "<html><body>" + long.String() + "</body></html>"
			var b bytes.Buffer
			if err := EPUB(&b, spine, chapters); err != nil {
				return err
			}
			d := b.Bytes()
			from := bytes.Index(d, []byte("OEBPS/"+spine[0]+".xhtml")) // its local header's name
			to := from + bytes.Index(d[from:], []byte("PK\x03\x04"))   // the next part's header (mimetype)
			_, err := w.Write(d[:(from+to)/2])
			return err
		}},
		{"pptx: n slides, junk between the first two, its directory cut off", "junkmiddle.pptx", 1000, func(w io.Writer, n int) error {
			var b bytes.Buffer
			if err := deck(&b, max(n, 2)); err != nil {
				return err
			}
			d := b.Bytes()
			d = d[:bytes.Index(d, []byte("PK\x01\x02"))]
			at := bytes.Index(d, []byte("ppt/slides/slide2.xml")) - 30
			_, err := w.Write(bytes.Join([][]byte{d[:at], bytes.Repeat([]byte("PK쓰레기"), 10_000), d[at:]}, nil))
			return err
		}},
		{"docx: its directory gives the body an offset where its local header is not", "lyingoffset.docx", 1, func(w io.Writer, n int) error {
			var b bytes.Buffer
			if err := Zip(&b, map[string][]byte{"word/document.xml": wordDoc(`<w:r><w:t>본문</w:t></w:r>`)}); err != nil {
				return err
			}
			d := b.Bytes()
			i := bytes.Index(d, []byte("PK\x01\x02"))
			le := binary.LittleEndian
			le.PutUint32(d[i+42:], le.Uint32(d[i+42:])+7)
			_, err := w.Write(d)
			return err
		}},
		{"pptx: one slide of n paragraphs whose XML is cut short in its last", "oneslide.pptx", 100_000, func(w io.Writer, n int) error {
			var paras strings.Builder
			for i := range max(n, 2) {
				fmt.Fprintf(&paras, `<a:p><a:r><a:t>문단 %d</a:t></a:r></a:p>`, i)
			}
			slide := slideXML(paras.String())
			return Zip(w, map[string][]byte{
				"ppt/slides/slide1.xml":           []byte(slide[:len(slide)-40]),
				"ppt/presentation.xml":            []byte(`<p:presentation ` + slideNS + `><p:sldIdLst><p:sldId id="256" r:id="rId1"/></p:sldIdLst></p:presentation>`),
				"ppt/_rels/presentation.xml.rels": []byte(`<Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide1.xml"/></Relationships>`),
			})
		}},
	}
}

// storedDocx is a Word file of n paragraphs (and extra in its body)
// whose parts are all stored uncompressed, their sizes in descriptors.
func storedDocx(n int, extra string) ([]byte, error) {
	var body strings.Builder
	for i := range max(n, 1) {
		fmt.Fprintf(&body, `<w:p><w:r><w:t>문단 %d</w:t></w:r></w:p>`, i)
	}
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, p := range [][2]string{
		{"_rels/.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`},
		{"word/document.xml", `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` + body.String() + extra + `</w:body></w:document>`},
	} {
		f, err := zw.CreateHeader(&zip.FileHeader{Name: p[0], Method: zip.Store})
		if err != nil {
			return nil, err
		}
		f.Write([]byte(p[1]))
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

const slideNS = `xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`

// slideXML is a slide of one text box holding the paragraphs.
func slideXML(paras string) string {
	return `<p:sld ` + slideNS + `><p:cSld><p:spTree><p:sp><p:txBody>` + paras + `</p:txBody></p:sp></p:spTree></p:cSld></p:sld>`
}

// deck writes a presentation of n slides, the slides first and their
// list last, as PowerPoint orders its parts.
func deck(w io.Writer, n int) error {
	zw := zip.NewWriter(w)
	var ids, rels strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&ids, `<p:sldId id="%d" r:id="rId%d"/>`, 255+i, i)
		fmt.Fprintf(&rels, `<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide%d.xml"/>`, i, i)
		if err := addPart(zw, fmt.Sprintf("ppt/slides/slide%d.xml", i), []byte(slideXML(fmt.Sprintf(`<a:p><a:r><a:t>슬라이드 %d</a:t></a:r></a:p>`, i)))); err != nil {
			return err
		}
	}
	if err := addPart(zw, "ppt/presentation.xml", []byte(`<p:presentation `+slideNS+`><p:sldIdLst>`+ids.String()+`</p:sldIdLst></p:presentation>`)); err != nil {
		return err
	}
	if err := addPart(zw, "ppt/_rels/presentation.xml.rels", []byte(xlsxRels(rels.String()))); err != nil {
		return err
	}
	return zw.Close()
}

// junkAfterParts writes the archive archive writes, its directory
// replaced by n MB of zeros, or (dir) kept after them: more junk than
// salvage looks through for another part, so the parts before it are
// what there is.
func junkAfterParts(w io.Writer, n int, dir bool, archive func(io.Writer) error) error {
	var b bytes.Buffer
	if err := archive(&b); err != nil {
		return err
	}
	d := b.Bytes()
	at := bytes.Index(d, []byte("PK\x01\x02"))
	if _, err := w.Write(d[:at]); err != nil {
		return err
	}
	zeros := make([]byte, 1<<20)
	for range max(n, 1) {
		if _, err := w.Write(zeros); err != nil {
			return err
		}
	}
	if dir {
		_, err := w.Write(d[at:])
		return err
	}
	return nil
}
