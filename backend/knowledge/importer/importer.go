// Package importer turns a person's files into documents ready for
// chunking: PDF (one part per page, for citations), Markdown (headings kept
// for the chunker), plain text, and JSON or JSON Lines (one document per
// record, keeping the record's own id).
//
// It reads bytes and returns text; storing, hashing and indexing belong to
// the caller, so every format can be tested without a database.
package importer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/korean"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/chunk"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/pdftext"
)

// Kind names a supported format.
type Kind string

// Supported formats.
const (
	KindPDF      Kind = "pdf"
	KindMarkdown Kind = "markdown"
	KindText     Kind = "text"
	KindJSON     Kind = "json"
)

// ErrUnsupported marks a file whose extension names no supported format.
var ErrUnsupported = errors.New("unsupported file type")

// ErrEmpty marks a file that holds no text at all.
var ErrEmpty = errors.New("file has no text")

// Document is one imported unit: a whole file, or one record of a JSON file.
type Document struct {
	ID       string        // the record's own id (JSON `_id`/`id`); "" when the file has none
	Title    string        // JSON `title`, Markdown's first heading, else the file name
	Source   string        // the file's path as given
	Kind     Kind          //
	Pages    int           // PDF page count; 0 for other kinds
	Markdown bool          // whether the chunker should treat "#" lines as headings
	Parts    []chunk.Input // text in order, one per PDF page
}

// PDFExtractor is the part of pdftext.Extractor the importer needs.
type PDFExtractor interface {
	Extract(ctx context.Context, data []byte) ([]pdftext.Page, error)
}

// Importer reads files of every supported kind. PDF may be nil, in which
// case PDF files fail with ErrUnsupported.
type Importer struct {
	PDF PDFExtractor
}

// KindOf tells the format from the file name.
func KindOf(path string) (Kind, bool) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".pdf":
		return KindPDF, true
	case ".md", ".markdown", ".mdown", ".mkd":
		return KindMarkdown, true
	case ".txt", ".text", ".log", ".csv", ".tsv":
		return KindText, true
	case ".json", ".jsonl", ".ndjson":
		return KindJSON, true
	}
	return "", false
}

// Import parses the content of the file at path (the path only names the
// source and the format). A JSON file may give several documents.
func (im Importer) Import(ctx context.Context, path string, data []byte) ([]Document, error) {
	kind, ok := KindOf(path)
	if !ok {
		return nil, fmt.Errorf("import %q: %w", path, ErrUnsupported)
	}
	var docs []Document
	var err error
	switch kind {
	case KindPDF:
		docs, err = im.importPDF(ctx, path, data)
	case KindMarkdown:
		docs, err = ParseMarkdown(path, data)
	case KindText:
		docs, err = ParseText(path, data)
	case KindJSON:
		docs, err = ParseJSON(path, data)
	}
	if err != nil {
		return nil, fmt.Errorf("import %q: %w", path, err)
	}
	return docs, nil
}

func (im Importer) importPDF(ctx context.Context, path string, data []byte) ([]Document, error) {
	if im.PDF == nil {
		return nil, fmt.Errorf("no pdf extractor: %w", ErrUnsupported)
	}
	pages, err := im.PDF.Extract(ctx, data)
	if err != nil {
		return nil, err
	}
	doc := Document{Title: baseName(path), Source: path, Kind: KindPDF, Pages: len(pages)}
	for _, p := range pages {
		doc.Parts = append(doc.Parts, chunk.Input{Page: p.Number, Text: p.Text})
	}
	return []Document{doc}, nil
}

// ParseText imports a plain text file; paragraphs are blank-line separated.
func ParseText(path string, data []byte) ([]Document, error) {
	text := decodeText(data)
	if strings.TrimSpace(text) == "" {
		return nil, ErrEmpty
	}
	return []Document{{Title: baseName(path), Source: path, Kind: KindText, Parts: []chunk.Input{{Text: text}}}}, nil
}

// ParseMarkdown imports a Markdown file. A YAML front matter block is
// dropped from the text, its `title:` kept; otherwise the first level-1
// heading names the document.
func ParseMarkdown(path string, data []byte) ([]Document, error) {
	text := decodeText(data)
	title, body := frontMatter(text)
	if strings.TrimSpace(body) == "" {
		return nil, ErrEmpty
	}
	if title == "" {
		title = firstHeading(body)
	}
	if title == "" {
		title = baseName(path)
	}
	return []Document{{Title: title, Source: path, Kind: KindMarkdown, Markdown: true, Parts: []chunk.Input{{Text: body}}}}, nil
}

// frontMatter splits "---\n...\n---\n" off the start of a Markdown file.
func frontMatter(text string) (title, body string) {
	if !strings.HasPrefix(text, "---\n") && !strings.HasPrefix(text, "---\r\n") {
		return "", text
	}
	rest := text[strings.Index(text, "\n")+1:]
	end := -1
	off := 0
	for line := range strings.Lines(rest) {
		if strings.TrimSpace(line) == "---" {
			end = off
			break
		}
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "title" {
			title = strings.Trim(strings.TrimSpace(v), `"'`)
		}
		off += len(line)
	}
	if end < 0 {
		return "", text // no closing line: not front matter
	}
	after := rest[end:]
	if i := strings.Index(after, "\n"); i >= 0 {
		after = after[i+1:]
	} else {
		after = ""
	}
	return title, after
}

func firstHeading(text string) string {
	inFence := false
	for line := range strings.Lines(text) {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			inFence = !inFence
		}
		if !inFence && strings.HasPrefix(t, "# ") {
			return strings.TrimSpace(strings.TrimRight(t[2:], "#"))
		}
	}
	return ""
}

// decodeText returns UTF-8 text: a byte-order mark is dropped, and a file
// that is not UTF-8 but is valid EUC-KR/CP949 (still common for Korean
// files made on Windows) is converted.
func decodeText(data []byte) string {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if utf8.Valid(data) {
		return string(data)
	}
	if out, err := korean.EUCKR.NewDecoder().Bytes(data); err == nil && utf8.Valid(out) && !bytes.ContainsRune(out, utf8.RuneError) {
		return string(out)
	}
	return strings.ToValidUTF8(string(data), "\uFFFD")
}

func baseName(path string) string {
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
}
