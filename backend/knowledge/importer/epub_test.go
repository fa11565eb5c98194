package importer

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
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
// a book without its package document is damaged.
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
	if _, err = (Importer{}).Import(context.Background(), "bare.epub", zipOf(t, part{"OEBPS/a.xhtml", "<p>x</p>"})); !errors.Is(err, ErrOfficeDamaged) {
		t.Errorf("no container: %v", err)
	}
}
