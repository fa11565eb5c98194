package importer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer/internal/hostile"
)

// epubOf is a book whose package document lists chapters in its spine
// (the last one first in the archive), with extra parts beside them.
func epubOf(t testing.TB, chapters []string, extra ...part) []byte {
	t.Helper()
	items, refs := "", ""
	parts := []part{{"mimetype", "application/epub+zip"},
		{"META-INF/container.xml", `<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`}}
	for i := len(chapters) - 1; i >= 0; i-- {
		id := "c" + string(rune('0'+i))
		items += `<item id="` + id + `" href="text/` + id + `%20a.xhtml" media-type="application/xhtml+xml"/>`
		refs = `<itemref idref="` + id + `"/>` + refs
		parts = append(parts, part{"OEBPS/text/" + id + " a.xhtml", `<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>장</title></head><body>` + chapters[i] + `</body></html>`})
	}
	parts = append(parts, part{"OEBPS/content.opf", `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>작은 책</dc:title></metadata><manifest>` +
		`<item id="css" href="style.css" media-type="text/css"/>` + items + `</manifest><spine>` + refs + `</spine></package>`})
	return zipOf(t, append(parts, extra...)...)
}

// A book reads as its chapters in the spine's order, named by its title:
// pandoc's (with its title page) and one made here, whose first chapter
// leaves a <script> open, which does not swallow the next; fonts
// obfuscated the standard way do not stop it, chapters under DRM do, and
// a book without its package document or a web page is damaged (one with
// pages: TestLostIndexReadsTheArchive).
func TestEPUB(t *testing.T) {
	want, err := os.ReadFile("testdata/office/regulation.want.md")
	if err != nil {
		t.Fatal(err)
	}
	docs := fixture(t, "regulation.epub")
	if got := docs[0].Parts[0].Text; docs[0].Title != "학칙" || docs[0].Kind != KindEPUB || strings.TrimSpace(got) != "# 학칙\n\n"+strings.TrimSpace(string(want)) {
		t.Errorf("pandoc's book %q:\n%s", docs[0].Title, got)
	}

	chapters := []string{`<h1>1장</h1><p>첫 장의 글.</p><script>never closed`, `<h1>2장</h1><p>둘째 장의 글.</p>`}
	font := part{"META-INF/encryption.xml", `<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.idpf.org/2008/embedding"/><enc:CipherData><enc:CipherReference URI="OEBPS/fonts/a.otf"/></enc:CipherData></enc:EncryptedData></encryption>`}
	docs, err = Importer{}.Import(context.Background(), "book.epub", epubOf(t, chapters, font))
	if err != nil {
		t.Fatal(err)
	}
	if got := docs[0].Parts[0].Text; docs[0].Title != "작은 책" || got != "# 1장\n\n첫 장의 글.\n\n# 2장\n\n둘째 장의 글.\n\n" {
		t.Errorf("%q: %q", docs[0].Title, got)
	}

	drm := part{"META-INF/encryption.xml", strings.Replace(font.body, "OEBPS/fonts/a.otf", "OEBPS/text/c1%20a.xhtml", 1)}
	if _, err = (Importer{}).Import(context.Background(), "drm.epub", epubOf(t, chapters, drm)); !errors.Is(err, ErrOfficeEncrypted) {
		t.Errorf("DRM: %v", err)
	}
	if _, err = (Importer{}).Import(context.Background(), "bare.epub", zipOf(t, part{"OEBPS/a.png", "x"})); !errors.Is(err, ErrOfficeDamaged) {
		t.Errorf("no container, no page: %v", err)
	}
}

// TestMissingPartsAreDamage: a container whose index names parts it does
// not hold, or parts outside it, is a damaged file, not an empty one: an
// EPUB's spine, a Word file's, a presentation's or an HWPX file's
// relationships pointing outside the archive, at the package itself or
// at nothing. Before, such a book said "no text". A book that lacks only
// some of its chapters gives the others.
func TestMissingPartsAreDamage(t *testing.T) {
	container := part{"META-INF/container.xml", `<container><rootfiles><rootfile full-path="OEBPS/content.opf"/></rootfiles></container>`}
	book := func(hrefs ...string) []byte {
		items, refs := "", ""
		for i, h := range hrefs {
			id := string(rune('a' + i))
			items += `<item id="` + id + `" href="` + h + `" media-type="application/xhtml+xml"/>`
			refs += `<itemref idref="` + id + `"/>`
		}
		return zipOf(t, container, part{"OEBPS/content.opf", `<package><manifest>` + items + `</manifest><spine>` + refs + `<itemref idref="zz"/></spine></package>`},
			part{"OEBPS/here.xhtml", "<html><body><p>있는 장</p></body></html>"})
	}
	rels := func(typ, target string) part {
		return part{"_rels/.rels", `<Relationships><Relationship Id="r1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/` + typ + `" Target="` + target + `"/></Relationships>`}
	}
	pres := func(target string) []byte {
		return zipOf(t, part{"ppt/presentation.xml", `<p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><p:sldIdLst><p:sldId id="256" r:id="rId1"/></p:sldIdLst></p:presentation>`},
			part{"ppt/_rels/presentation.xml.rels", `<Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="` + target + `"/></Relationships>`})
	}
	hpf := func(href string) []byte {
		return zipOf(t, part{"mimetype", "application/hwp+zip"}, part{"Contents/content.hpf", `<opf:package xmlns:opf="http://www.idpf.org/2007/opf/"><opf:manifest><opf:item id="s0" href="` + href + `" media-type="application/xml"/></opf:manifest><opf:spine><opf:itemref idref="s0"/></opf:spine></opf:package>`})
	}
	for _, tt := range []struct {
		name, file string
		data       []byte
		want       string // the text read; "" for damaged
	}{
		{"spine outside the book", "a.epub", book("../../../../etc/passwd"), ""},
		{"spine at an absolute path", "a.epub", book("/etc/passwd"), ""},
		{"spine at the package itself", "a.epub", book("content.opf"), ""},
		{"spine at a chapter the book lacks", "a.epub", book("gone.xhtml"), ""},
		{"spine at no item only: a manifest of nothing, the archive's pages read", "a.epub", book(), "있는 장"},
		{"one chapter of two", "a.epub", book("gone.xhtml", "here.xhtml"), "있는 장"},
		{"Word: main part outside", "a.docx", zipOf(t, rels("officeDocument", "../../etc/passwd")), ""},
		{"Word: main part missing", "a.docx", zipOf(t, rels("officeDocument", "word/gone.xml")), ""},
		{"Word: main part its relationships name missing, Word's there", "a.docx", zipOf(t, rels("officeDocument", "word/gone.xml"), part{"word/document.xml", `<w:document ` + wordNS + `><w:body>` + p("", "본문") + `</w:body></w:document>`}), "본문"},
		{"Word: main part outside, Word's there", "a.docx", zipOf(t, rels("officeDocument", "../../etc/passwd"), part{"word/document.xml", `<w:document ` + wordNS + `><w:body>` + p("", "본문") + `</w:body></w:document>`}), "본문"},
		{"PowerPoint: slide outside", "a.pptx", pres("../../../etc/passwd"), ""},
		{"PowerPoint: slide missing", "a.pptx", pres("slides/gone.xml"), ""},
		{"HWPX: section missing", "a.hwpx", hpf("Contents/section9.xml"), ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			docs, err := Importer{}.Import(context.Background(), tt.file, tt.data)
			if tt.want == "" {
				if !errors.Is(err, ErrOfficeDamaged) {
					t.Fatalf("err %v, want damaged", err)
				}
				return
			}
			if err != nil || len(docs) != 1 || !strings.Contains(docs[0].Parts[0].Text, tt.want) {
				t.Fatalf("%+v, %v: want %q", docs, err, tt.want)
			}
		})
	}
}

// TestLongPackageDocument: a book of 4,000 chapters whose manifest lists
// 10,000 pictures first (1.1 MB, its spine after it) reads every chapter
// in the spine's order, without a warning: its package document was read
// to its first megabyte, and the 723 chapters past it were lost without
// a word.
func TestLongPackageDocument(t *testing.T) {
	var b bytes.Buffer
	if err := hostile.BigPackage(&b, 4000); err != nil {
		t.Fatal(err)
	}
	var col collector
	warns, err := Importer{}.Read(context.Background(), "큰 책.epub", bytes.NewReader(b.Bytes()), &col)
	if err != nil || len(warns) != 0 {
		t.Fatalf("err %v, warnings %v", err, warns)
	}
	var text strings.Builder
	for _, p := range col.docs[0].Parts {
		text.WriteString(p.Text)
	}
	at := 0
	for i := 1; i <= 4000; i++ {
		k := strings.Index(text.String()[at:], fmt.Sprintf("# %d장\n\n%d번째 장의 글.", i, i))
		if k < 0 {
			t.Fatalf("chapter %d is missing or out of order", i)
		}
		at += k + 1
	}
}

// TestBinaryChapter: a chapter that is binary data is left out and named,
// where its bytes were imported as text; one whose few stray control bytes
// are a real page's is read; a book of one binary chapter is damaged.
func TestBinaryChapter(t *testing.T) {
	stray := "<p>첫 장\x0b의 글</p>" + strings.Repeat("<p>본문 \x01</p>", 30)
	junk := "<p>둘째 장</p>" + strings.Repeat("\x00\x01\x02\x03 ", 100)
	for _, tt := range []struct {
		name     string
		chapters []string
		want     []string
		lost     int // chapters named unreadable; -1: the book is damaged
	}{
		{"stray control bytes", []string{stray, "<p>셋째 장</p>"}, []string{"첫 장", "셋째 장"}, 0},
		{"a binary chapter", []string{stray, junk, "<p>셋째 장</p>"}, []string{"첫 장", "셋째 장"}, 1},
		{"one binary chapter", []string{junk}, nil, -1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var col collector
			warns, err := Importer{}.Read(context.Background(), "책.epub", bytes.NewReader(epubOf(t, tt.chapters)), &col)
			if tt.lost == -1 {
				if !errors.Is(err, ErrOfficeDamaged) {
					t.Fatalf("err %v, want damaged", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var mp *MissingParts
			if got := len(warns); tt.lost == 0 && got != 0 || tt.lost > 0 && (got != 1 || !errors.As(warns[0], &mp) || mp.Count != tt.lost) {
				t.Fatalf("warnings %v, want %d chapters named", warns, tt.lost)
			}
			checkParts(t, col.docs[0], tt.want, []string{"둘째 장"}, nil)
		})
	}
}
