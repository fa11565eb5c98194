package knowledge

import (
	"archive/zip"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// docxOf is a Word file whose body is xml (paragraphs of w:).
func docxOf(t *testing.T, xml string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	f, err := zw.Create("word/document.xml")
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte(`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` + xml + `</w:body></w:document>`))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestHeadingOnlyFilesImport: a note that is only a heading is text, in
// every format whose headings the chunker reads (Markdown, and the
// formats read as Markdown: HTML, Word); before, each failed "no text".
// It is found by the heading's words.
func TestHeadingOnlyFilesImport(t *testing.T) {
	for _, tt := range []struct {
		file string
		data []byte
	}{
		{"note.md", []byte("# 회의록 2026-11-27\n")},
		{"outline.md", []byte("---\ntitle: 개요\n---\n# 회의록 2026-11-27\n## 안건\n")},
		{"page.html", []byte("<html><head><title>메모</title></head><body><h1>회의록 2026-11-27</h1></body></html>")},
		{"note.docx", docxOf(t, `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>회의록 2026-11-27</w:t></w:r></w:p>`)},
	} {
		t.Run(tt.file, func(t *testing.T) {
			b := newPlainEnv(t).openWith(Options{})
			path := filepath.Join(t.TempDir(), tt.file)
			if err := os.WriteFile(path, tt.data, 0o644); err != nil {
				t.Fatal(err)
			}
			rep, err := b.Import(context.Background(), []string{path}, nil)
			if err != nil || len(rep.Imported) != 1 || rep.Chunks != 1 {
				t.Fatalf("report %+v, %v: want imported, 1 chunk", rep, err)
			}
			hits, err := b.Search(context.Background(), "회의록", SearchOptions{TopK: 1})
			if err != nil || len(hits) != 1 || hits[0].Source != path {
				t.Fatalf("search: %+v, %v", hits, err)
			}
		})
	}
}
