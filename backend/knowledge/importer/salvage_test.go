package importer

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestCutShortArchives: a ZIP-based file cut short (a download or copy
// that stopped) loses its directory of parts, which archive/zip needs to
// open anything; its parts are read from their own headers instead, and a
// warning says so (*ArchiveSalvaged). Cut after its last part, every
// format reads all its text; cut inside its body, the text up to the cut
// is read by the rule for a body that breaks (*BrokenOff); cut inside its
// first header, the file is damaged. Before, any such file was refused
// as damaged.
func TestCutShortArchives(t *testing.T) {
	sheets := [][2]string{{"수입", `<row><c t="inlineStr"><is><t>월급</t></is></c></row>`}, {"지출", `<row><c t="inlineStr"><is><t>월세</t></is></c></row>`}}
	var paras strings.Builder
	for range 2000 {
		paras.WriteString(p("", "문단이 여기 있다"))
	}
	for _, tt := range []struct {
		name, file string
		data       []byte
		want       []string
	}{
		{"Word", "문서.docx", docxOf(t, p("Heading1", "규정")+p("", "본문"), ""), []string{"# 규정", "본문"}},
		{"Excel", "가계부.xlsx", xlsxOf(t, "", "", "", sheets...), []string{"수입: 월급", "지출: 월세"}},
		{"PowerPoint", "발표.pptx", deck(t, "메모", []string{"첫 슬라이드", "둘째 슬라이드"}), []string{"첫 슬라이드", "둘째 슬라이드", "> 메모"}},
		{"EPUB", "책.epub", epubOf(t, []string{"<p>첫 장</p>", "<p>둘째 장</p>"}), []string{"첫 장", "둘째 장"}},
		{"OpenDocument text", "문서.odt", odtOf(t, "<text:p>본문</text:p>"), []string{"본문"}},
		{"HWPX", "문서.hwpx", hwpxOf(t, hp("0", "<hp:t>첫 구역</hp:t>"), hp("0", "<hp:t>둘째 구역</hp:t>")), []string{"첫 구역", "둘째 구역"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := bytes.Index(tt.data, []byte("PK\x01\x02"))
			var col collector
			warns, err := Importer{}.Read(context.Background(), tt.file, bytes.NewReader(tt.data[:dir]), &col)
			if err != nil {
				t.Fatal(err)
			}
			checkParts(t, col.docs[0], tt.want, nil, nil)
			var as *ArchiveSalvaged
			if len(warns) != 1 || !errors.As(warns[0], &as) || as.Cut != "" {
				t.Errorf("warnings %v, want one that the archive was read from its parts", warns)
			}
			if _, err := (Importer{}).Import(context.Background(), tt.file, tt.data[:20]); !errors.Is(err, ErrOfficeDamaged) {
				t.Errorf("cut in its first header: err %v, want damaged", err)
			}
		})
	}
	var odt, epub, hwpx strings.Builder
	for range 2000 {
		odt.WriteString("<text:p>문단이 여기 있다</text:p>")
		epub.WriteString("<p>문단이 여기 있다</p>")
		hwpx.WriteString(hp("0", "<hp:t>문단이 여기 있다</hp:t>"))
	}
	for _, tt := range []struct {
		name, file, body string
		data             []byte
	}{
		{"Word", "문서.docx", "word/document.xml", docxOf(t, paras.String(), "")},
		{"OpenDocument text", "문서.odt", "content.xml", odtOf(t, odt.String())},
		// The cut takes the book's package document too, which follows
		// its chapters: the break says so, not the index's loss.
		{"EPUB of one chapter", "책.epub", "OEBPS/text/c0 a.xhtml", epubOf(t, []string{epub.String()})},
		{"HWPX of one section", "문서.hwpx", "Contents/section0.xml", hwpxOf(t, hwpx.String())},
	} {
		t.Run(tt.name+", cut inside its body", func(t *testing.T) {
			// The cut falls two thirds into the body's data.
			at := bytes.Index(tt.data, []byte(tt.body)) + len(tt.body)
			end := at + bytes.Index(tt.data[at:], []byte("PK"))
			var col collector
			warns, err := Importer{}.Read(context.Background(), tt.file, bytes.NewReader(tt.data[:at+(end-at)*2/3]), &col)
			if err != nil {
				t.Fatal(err)
			}
			var as *ArchiveSalvaged
			var bo *BrokenOff
			if len(warns) != 2 || !errors.As(warns[0], &as) || as.Cut != tt.body || !errors.As(warns[1], &bo) || bo.Count < 10 {
				t.Fatalf("warnings %v, want the archive read from its parts, the body up to the cut", warns)
			}
			checkParts(t, col.docs[0], []string{"문단이 여기 있다"}, nil, nil)
		})
	}
}

// TestCutShortArchiveBomb: a part read from its own header is held to
// the budget of unpacked XML, as one read through the directory is: a cut
// archive whose document inflates past it fails on the limit.
func TestCutShortArchiveBomb(t *testing.T) {
	data := zipOf(t, part{"word/document.xml", "<w:document>" + strings.Repeat("<w:p/>", MaxOfficeXML/6+1) + "</w:document>"})
	_, err := Importer{}.Import(context.Background(), "폭탄.docx", data[:bytes.Index(data, []byte("PK\x01\x02"))])
	if le := (*OfficeLimitError)(nil); !errors.As(err, &le) {
		t.Fatalf("err %v, want the limit", err)
	}
}

// storedZip is an archive of parts stored uncompressed, each with its
// sizes only in a data descriptor after its data (flag 8), as Go's and
// some phones' ZIP writers store them.
func storedZip(t testing.TB, parts ...part) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, p := range parts {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: p.name, Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(p.body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	data := b.Bytes()
	if binary.LittleEndian.Uint16(data[6:])&8 == 0 {
		t.Fatal("the writer gave the stored part its sizes in its header")
	}
	return data
}

// TestSalvageStoredWithDescriptor: a part stored uncompressed whose local
// header gives no size (its sizes in a descriptor after it) is read to
// the descriptor that ends it, and a picture so stored is passed over;
// cut inside such a part, it is read up to the cut. Before, salvage gave
// up at the first such part, and the file was refused as damaged.
func TestSalvageStoredWithDescriptor(t *testing.T) {
	var paras strings.Builder
	for range 2000 {
		paras.WriteString(p("", "문단이 여기 있다"))
	}
	picture := string(bytes.Repeat([]byte("PK\x07\x08\x00\x01\x02"), 3000)) // a descriptor's signature, sizes that do not match
	data := storedZip(t, part{"word/media/image1.png", picture},
		part{"word/document.xml", `<w:document ` + wordNS + `><w:body>` + p("Heading1", "규정") + paras.String() + `</w:body></w:document>`},
		part{"docProps/core.xml", `<cp:coreProperties/>`})
	dir := bytes.Index(data, []byte("PK\x01\x02"))
	var col collector
	warns, err := Importer{}.Read(context.Background(), "문서.docx", bytes.NewReader(data[:dir]), &col)
	if err != nil {
		t.Fatal(err)
	}
	checkParts(t, col.docs[0], []string{"# 규정", "문단이 여기 있다"}, []string{"PK"}, nil)
	var as *ArchiveSalvaged
	if len(warns) != 1 || !errors.As(warns[0], &as) || as.Cut != "" || as.Parts != 2 {
		t.Fatalf("warnings %v, want one that 2 parts were read from what remains", warns)
	}
	if n := strings.Count(col.docs[0].Parts[0].Text, "문단이 여기 있다"); n != 2000 {
		t.Errorf("%d paragraphs, want 2000", n)
	}
	col = collector{}
	warns, err = Importer{}.Read(context.Background(), "문서.docx", bytes.NewReader(data[:dir*2/3]), &col)
	if err != nil {
		t.Fatal(err)
	}
	var bo *BrokenOff
	if len(warns) != 2 || !errors.As(warns[0], &as) || as.Cut != "word/document.xml" || !errors.As(warns[1], &bo) || bo.Count < 10 {
		t.Fatalf("cut inside the stored body: warnings %v, want the archive read from its parts, the body up to the cut", warns)
	}
}

// TestSalvagePastDamage: an archive cut short (its directory gone) that
// is also damaged in its middle (a local header overwritten, bytes lost
// or put in, a part's compressed data garbled) is read past the damage:
// the next local header is looked for, and the parts after it are read,
// the damaged one left out and named as a missing part is. Before,
// salvage stopped at the damage, and a presentation lost every slide
// after it and the list of its slides.
func TestSalvagePastDamage(t *testing.T) {
	data := deck(t, "", []string{"첫 슬라이드", "둘째 슬라이드", "셋째 슬라이드"})
	data = data[:bytes.Index(data, []byte("PK\x01\x02"))]
	at := bytes.Index(data, []byte("ppt/slides/slide2.xml")) - 30 // slide 2's local header
	next := bytes.Index(data, []byte("ppt/slides/slide3.xml")) - 30
	for _, tt := range []struct {
		name   string
		damage func([]byte) []byte
		want   []string
		pages  []int
	}{
		{"a local header overwritten", func(d []byte) []byte {
			copy(d[at:], bytes.Repeat([]byte{0xAA}, 30))
			return d
		}, []string{"첫 슬라이드", "셋째 슬라이드"}, []int{1, 3}},
		{"bytes lost from a header into its data", func(d []byte) []byte {
			return append(d[:at+10:at+10], d[at+40:]...)
		}, []string{"첫 슬라이드", "셋째 슬라이드"}, []int{1, 3}},
		{"compressed data garbled", func(d []byte) []byte {
			for i := at + 30 + len("ppt/slides/slide2.xml") + 4; i < next-20; i++ {
				d[i] ^= 0x5A
			}
			return d
		}, []string{"첫 슬라이드", "셋째 슬라이드"}, []int{1, 3}},
		{"junk between two parts", func(d []byte) []byte {
			return slices.Concat(d[:at], bytes.Repeat([]byte("쓰레기 PK"), 5000), d[at:])
		}, []string{"첫 슬라이드", "둘째 슬라이드", "셋째 슬라이드"}, []int{1, 2, 3}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var col collector
			warns, err := Importer{}.Read(context.Background(), "발표.pptx", bytes.NewReader(tt.damage(bytes.Clone(data))), &col)
			if err != nil {
				t.Fatal(err)
			}
			checkParts(t, col.docs[0], tt.want, nil, tt.pages)
			var as *ArchiveSalvaged
			if len(warns) == 0 || !errors.As(warns[0], &as) || as.Cut != "" {
				t.Errorf("warnings %v, want the archive read from its parts", warns)
			}
		})
	}
}

// TestDirectoryLiesAboutOffsets: an archive whose directory is there but
// gives a part an offset where its local header is not (a tool that
// rewrote the file, or damage) reads the part from its own header, as a
// file cut short does, with the same warning. Before, the part was
// missing, and a Word file whose body it was refused as damaged.
func TestDirectoryLiesAboutOffsets(t *testing.T) {
	data := docxOf(t, p("Heading1", "규정")+p("", "본문"), "")
	dir := bytes.Index(data, []byte("PK\x01\x02"))
	for i := dir; i >= 0 && i < len(data); {
		n := int(binary.LittleEndian.Uint16(data[i+28:]))
		if string(data[i+46:i+46+n]) == "word/document.xml" {
			off := binary.LittleEndian.Uint32(data[i+42:])
			binary.LittleEndian.PutUint32(data[i+42:], off+7)
		}
		next := bytes.Index(data[i+4:], []byte("PK\x01\x02"))
		if next < 0 {
			break
		}
		i += 4 + next
	}
	var col collector
	warns, err := Importer{}.Read(context.Background(), "문서.docx", bytes.NewReader(data), &col)
	if err != nil {
		t.Fatal(err)
	}
	checkParts(t, col.docs[0], []string{"# 규정", "본문"}, nil, nil)
	var as *ArchiveSalvaged
	if len(warns) != 1 || !errors.As(warns[0], &as) {
		t.Errorf("warnings %v, want one that the archive was read from its parts", warns)
	}
}

// TestBlocks: the rebuilt archive's blocks read back what was written,
// at any offset, across the blocks' edges, and say EOF past the end.
func TestBlocks(t *testing.T) {
	var want bytes.Buffer
	k := &blocks{}
	for i, n := range []int{10, blockSize - 10, 1, blockSize*2 + 5, 0, 3} {
		p := bytes.Repeat([]byte{byte(i + 1)}, n)
		k.Write(p)
		want.Write(p)
	}
	if k.size != int64(want.Len()) {
		t.Fatalf("size %d, want %d", k.size, want.Len())
	}
	for _, tt := range []struct{ off, n int }{{0, 20}, {blockSize - 3, 6}, {5, blockSize * 2}, {want.Len() - 4, 4}, {want.Len() - 2, 8}, {want.Len(), 1}} {
		got := make([]byte, tt.n)
		n, err := k.ReadAt(got, int64(tt.off))
		end := min(tt.off+tt.n, want.Len())
		if n != end-tt.off || !bytes.Equal(got[:n], want.Bytes()[tt.off:end]) || (end < tt.off+tt.n) != (err == io.EOF) {
			t.Errorf("ReadAt(%d bytes at %d): %d, %v, want %d bytes as written", tt.n, tt.off, n, err, end-tt.off)
		}
	}
}

// TestSalvageJunkPastTheBudget: a Word file whose parts are followed by
// more junk (300 MB of zeros, kept sparse on disk) than salvage looks
// through keeps the parts it read, warned as salvaged, within bounded
// memory: a stored body whose descriptor the junk took runs to the
// budget and breaks off at the junk, read from the file rather than
// copied, and the decoder stops at the junk's first byte rather than
// holding it. Before, each was refused whole on the limit, and read to
// the budget (the body's end not looked for any more) the junk was
// held twice over as one run of text (170 MiB through kb import).
func TestSalvageJunkPastTheBudget(t *testing.T) {
	var body strings.Builder
	for i := range 100 {
		body.WriteString(p("", fmt.Sprintf("문단 %d", i)))
	}
	doc := `<w:document ` + wordNS + `><w:body>` + body.String() + `</w:body></w:document>`
	raw := func(method uint16) []byte { // sizes in descriptors
		var b bytes.Buffer
		zw := zip.NewWriter(&b)
		for _, p := range []part{{"word/document.xml", doc}, {"docProps/core.xml", `<cp:coreProperties/>`}} {
			h := &zip.FileHeader{Name: p.name, Method: method}
			w, err := zw.CreateHeader(h)
			if err != nil {
				t.Fatal(err)
			}
			w.Write([]byte(p.body))
		}
		zw.Close()
		return b.Bytes()
	}
	const junk = 300 << 20
	for _, tt := range []struct {
		name     string
		data     []byte // the archive; junk replaces its directory, or goes before it
		before   bool
		brokeOff bool // the body runs into the junk
	}{
		{"stored with descriptors, the body's and the directory gone", storedZip(t, part{"word/document.xml", doc})[:0], false, true},
		{"deflated, the directory gone", raw(zip.Deflate), false, false},
		{"deflated, junk before the directory", raw(zip.Deflate), true, false},
		{"stored with descriptors, junk before the directory", storedZip(t, part{"word/document.xml", doc}, part{"docProps/core.xml", "<x/>"}), true, false},
		{"stored, the body's header giving it the junk as its data, the directory gone", nil, false, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := tt.data
			switch {
			case tt.data == nil: // the body's sizes in its header, the junk after it counted in them
				le := binary.LittleEndian
				h := le.AppendUint32(nil, 0x04034b50)
				h = le.AppendUint16(le.AppendUint16(le.AppendUint16(h, 20), 0), zip.Store)
				h = append(h, make([]byte, 8)...) // time, date, checksum
				h = le.AppendUint32(le.AppendUint32(h, uint32(len(doc)+junk)), uint32(len(doc)+junk))
				h = le.AppendUint16(le.AppendUint16(h, uint16(len("word/document.xml"))), 0)
				d = append(append(h, "word/document.xml"...), doc...)
			case len(d) == 0: // the body's descriptor and all after it gone
				d = storedZip(t, part{"word/document.xml", doc})
				d = d[:bytes.LastIndex(d, []byte("PK\x07\x08"))]
			}
			dir := bytes.Index(d, []byte("PK\x01\x02"))
			if dir < 0 {
				dir = len(d)
			}
			name := filepath.Join(t.TempDir(), "문서.docx")
			f, err := os.Create(name)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			f.Write(d[:dir])
			if err := f.Truncate(int64(dir) + junk); err != nil { // zeros, sparse
				t.Fatal(err)
			}
			if tt.before {
				f.WriteAt(d[dir:], int64(dir)+junk)
			}
			f.Seek(0, io.SeekStart)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			var col collector
			warns, err := Importer{}.Read(context.Background(), name, f, &col)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			var as *ArchiveSalvaged
			var bo *BrokenOff
			if !errors.As(warns[0], &as) || tt.brokeOff != (len(warns) == 2 && errors.As(warns[1], &bo) && bo.Count == 100) || !tt.brokeOff && len(warns) != 1 {
				t.Fatalf("warnings %v, want the archive salvaged (and the body broken off after its 100 paragraphs: %v)", warns, tt.brokeOff)
			}
			if text := col.docs[0].Parts[0].Text; !strings.Contains(text, "문단 0") || !strings.Contains(text, "문단 99") {
				t.Errorf("text %.200q…, want every paragraph", text)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
				t.Errorf("%d MB allocated, want the junk neither copied nor held", alloc>>20)
			}
		})
	}
}

// TestCutShortBook: an EPUB book of three chapters cut short in its
// second keeps the first whole and the second's paragraphs read whole
// before the cut, and says where it broke (*BrokenOff) after saying it
// was salvaged, as a Word file cut in its body does; the third chapter,
// and the package document when it followed the chapters, went with the
// cut, which the break says ("the rest was not imported"), so neither is
// warned of besides. Before, the book kept the cut chapter's half
// paragraph and said only that its index was lost (package document
// last), or named the third chapter missing (package document first).
func TestCutShortBook(t *testing.T) {
	chapter := func(n int) string {
		var b strings.Builder
		b.WriteString(`<html xmlns="http://www.w3.org/1999/xhtml"><body>`)
		for i := range 500 {
			fmt.Fprintf(&b, "<p>%d장 %d번째 문단의 글</p>", n, i)
		}
		return b.String() + `</body></html>`
	}
	opf := part{"OEBPS/content.opf", `<package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>잘린 책</dc:title></metadata><manifest>` +
		`<item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/><item id="c2" href="c2.xhtml" media-type="application/xhtml+xml"/><item id="c3" href="c3.xhtml" media-type="application/xhtml+xml"/></manifest>` +
		`<spine><itemref idref="c1"/><itemref idref="c2"/><itemref idref="c3"/></spine></package>`}
	head := []part{{"mimetype", "application/epub+zip"}, {"META-INF/container.xml", `<container><rootfiles><rootfile full-path="OEBPS/content.opf"/></rootfiles></container>`}}
	chapters := []part{{"OEBPS/c1.xhtml", chapter(1)}, {"OEBPS/c2.xhtml", chapter(2)}, {"OEBPS/c3.xhtml", chapter(3)}}
	for _, tt := range []struct {
		name  string
		parts []part
	}{
		{"package document first", append(append(slices.Clone(head), opf), chapters...)},
		{"package document last", append(append(slices.Clone(head), chapters...), opf)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, stored := range []bool{false, true} {
				var data []byte
				if stored {
					data = storedZip(t, tt.parts...)
				} else {
					data = zipOf(t, tt.parts...)
				}
				// The cut falls halfway into the second chapter's data.
				var col collector
				warns, err := Importer{}.Read(context.Background(), "책.epub", bytes.NewReader(cutHalfwayInto(data, "OEBPS/c2.xhtml", "PK\x03\x04")), &col)
				if err != nil {
					t.Fatal(err)
				}
				var as *ArchiveSalvaged
				var bo *BrokenOff
				if len(warns) != 2 || !errors.As(warns[0], &as) || as.Cut != "OEBPS/c2.xhtml" || !errors.As(warns[1], &bo) || bo.Count <= 500 || bo.Count >= 1000 {
					t.Fatalf("stored %v: warnings %v, want the archive salvaged and the book broken off in its second chapter", stored, warns)
				}
				text := col.docs[0].Parts[0].Text
				last := fmt.Sprintf("2장 %d번째 문단의 글", bo.Count-501)
				if !strings.Contains(text, "1장 499번째 문단의 글") || !strings.HasSuffix(strings.TrimSpace(text), last) || strings.Contains(text, "3장") {
					t.Errorf("stored %v: text ends %q, want the first chapter whole and the second to its paragraph %d, %q", stored, text[max(0, len(text)-80):], bo.Count-500, last)
				}
				// Cut in the third chapter's local header: no part is
				// cut, the break is after the second chapter.
				col = collector{}
				warns, err = Importer{}.Read(context.Background(), "책.epub", bytes.NewReader(data[:bytes.Index(data, []byte("OEBPS/c3.xhtml"))-10]), &col)
				if err != nil {
					t.Fatal(err)
				}
				if len(warns) != 2 || !errors.As(warns[0], &as) || as.Cut != "" || !errors.As(warns[1], &bo) || bo.Count != 1000 {
					t.Fatalf("stored %v, cut in a header: warnings %v, want the archive salvaged and the book broken off after its second chapter", stored, warns)
				}
			}
		})
	}
}

// TestCutShortBookOutOfOrder: a book cut short in a chapter the spine
// names before others (its archive keeps c2, c3, then c1) keeps that
// chapter's paragraphs read whole, in the spine's place, and the chapters
// after it, and says where it was cut (*CutInPart); before, the chapter
// was left out whole as a damaged one. Cut before one whole paragraph,
// it is named missing.
func TestCutShortBookOutOfOrder(t *testing.T) {
	chapter := func(n int) string {
		var b strings.Builder
		b.WriteString(`<html xmlns="http://www.w3.org/1999/xhtml"><body>`)
		for i := range 500 {
			fmt.Fprintf(&b, "<p>%d장 %d번째 문단의 글</p>", n, i)
		}
		return b.String() + `</body></html>`
	}
	parts := []part{{"mimetype", "application/epub+zip"}, {"META-INF/container.xml", `<container><rootfiles><rootfile full-path="OEBPS/content.opf"/></rootfiles></container>`},
		{"OEBPS/content.opf", `<package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>잘린 책</dc:title></metadata><manifest>` +
			`<item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/><item id="c2" href="c2.xhtml" media-type="application/xhtml+xml"/><item id="c3" href="c3.xhtml" media-type="application/xhtml+xml"/></manifest>` +
			`<spine><itemref idref="c1"/><itemref idref="c2"/><itemref idref="c3"/></spine></package>`},
		{"OEBPS/c2.xhtml", chapter(2)}, {"OEBPS/c3.xhtml", chapter(3)}, {"OEBPS/c1.xhtml", chapter(1)}}
	for _, stored := range []bool{false, true} {
		data := zipOf(t, parts...)
		if stored {
			data = storedZip(t, parts...)
		}
		var col collector
		warns, err := Importer{}.Read(context.Background(), "책.epub", bytes.NewReader(cutHalfwayInto(data, "OEBPS/c1.xhtml", "PK\x01\x02")), &col)
		if err != nil {
			t.Fatal(err)
		}
		var as *ArchiveSalvaged
		var ci *CutInPart
		if len(warns) != 2 || !errors.As(warns[0], &as) || as.Cut != "OEBPS/c1.xhtml" || !errors.As(warns[1], &ci) || ci.Part != "c1.xhtml" || ci.Count <= 0 || ci.Count >= 500 {
			t.Fatalf("stored %v: warnings %v, want the archive salvaged and the first chapter cut", stored, warns)
		}
		text := col.docs[0].Parts[0].Text
		last := fmt.Sprintf("1장 %d번째 문단의 글", ci.Count-1)
		if !strings.HasPrefix(text, "1장 0번째") || !strings.Contains(text, last+"\n\n2장 0번째") || !strings.HasSuffix(strings.TrimSpace(text), "3장 499번째 문단의 글") || ci.Last != last {
			t.Errorf("stored %v: text %q…%q, want the first chapter to its paragraph %d (%q), then the others whole", stored, text[:min(80, len(text))], text[max(0, len(text)-80):], ci.Count, ci.Last)
		}
		// Cut in the chapter's local header: it is missing.
		col = collector{}
		warns, err = Importer{}.Read(context.Background(), "책.epub", bytes.NewReader(data[:bytes.Index(data, []byte("OEBPS/c1.xhtml"))+len("OEBPS/c1.xhtml")-5]), &col)
		var mp *MissingParts
		if err != nil || len(warns) != 2 || !errors.As(warns[1], &mp) || mp.Count != 1 || mp.Names[0] != "c1.xhtml" || strings.Contains(col.docs[0].Parts[0].Text, "1장") {
			t.Fatalf("stored %v, cut in the header: %v, warnings %v, want the first chapter named missing", stored, err, warns)
		}
	}
}

// cutHalfwayInto returns data cut halfway into the data of the archive
// entry named name: between its name in the local header and the next
// record's signature (next: the following local header or the central
// directory).
func cutHalfwayInto(data []byte, name, next string) []byte {
	at := bytes.Index(data, []byte(name)) + len(name)
	end := at + bytes.Index(data[at:], []byte(next))
	return data[:(at+end)/2]
}
