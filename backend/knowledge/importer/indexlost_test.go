package importer

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// TestLostIndexReadsTheArchive: a container whose index of its parts is
// missing or useless (an Excel workbook's relationships or workbook.xml,
// an EPUB book's package document that is not XML, lists no chapter, or
// is not there) is read from the archive's parts of that kind, and a
// warning says what was lost with the index (*IndexLost): the sheets'
// names (each is named by its part), the chapters' order (the archive's).
// Before, such a workbook was refused with every sheet "missing", and
// such a book as damaged. With no such part in the archive, or none with
// text, the file is still damaged.
func TestLostIndexReadsTheArchive(t *testing.T) {
	sheets := [][2]string{{"수입", `<row><c t="inlineStr"><is><t>월급</t></is></c></row>`}, {"지출", `<row><c t="inlineStr"><is><t>월세</t></is></c></row>`}, {"메모", `<row><c t="inlineStr"><is><t>적금</t></is></c></row>`}}
	book := xlsxOf(t, "", "", "", sheets...)
	const rels = "xl/_rels/workbook.xml.rels"
	chapters := []string{"<p>첫 장</p>", "<p>둘째 장</p>", "<p>셋째 장</p>"}
	epub := epubOf(t, chapters)
	const opf = "OEBPS/content.opf"
	garbage := part{opf, "\x00\x01 not a package \xff"}
	// The archive holds the chapters last first (epubOf): its order.
	archiveOrder := []string{"셋째 장", "둘째 장", "첫 장"}
	for _, tt := range []struct {
		name, file string
		data       []byte
		want       []string // in this order
		warn       IndexLost
	}{
		{"Excel: relationships missing", "가계부.xlsx", without(t, book, rels), []string{"sheet1: 월급", "sheet2: 월세", "sheet3: 적금"}, IndexLost{"sheet", rels, 3}},
		{"Excel: relationships not XML", "가계부.xlsx", rewritten(t, book, []string{rels}, part{rels, "\xff\xfe<<garbage"}), []string{"sheet1: 월급", "sheet2: 월세", "sheet3: 적금"}, IndexLost{"sheet", rels, 3}},
		{"Excel: relationships cut after the first", "가계부.xlsx", cutIndex(t, book, rels, "<Relationship "), []string{"수입: 월급", "sheet2: 월세", "sheet3: 적금"}, IndexLost{"sheet", rels, 2}},
		{"Excel: workbook.xml missing", "가계부.xlsx", without(t, book, "xl/workbook.xml"), []string{"sheet1: 월급", "sheet2: 월세", "sheet3: 적금"}, IndexLost{"sheet", "xl/workbook.xml", 3}},
		{"EPUB: package document not XML", "책.epub", rewritten(t, epub, []string{opf}, garbage), archiveOrder, IndexLost{"chapter", opf, 3}},
		{"EPUB: package document of no manifest, no spine", "책.epub", rewritten(t, epub, []string{opf}, part{opf, `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf"/>`}), archiveOrder, IndexLost{"chapter", opf, 3}},
		{"EPUB: package document missing", "책.epub", without(t, epub, opf), archiveOrder, IndexLost{"chapter", opf, 3}},
		{"EPUB: package document and container.xml missing", "책.epub", without(t, epub, opf, "META-INF/container.xml"), archiveOrder, IndexLost{"chapter", "META-INF/container.xml", 3}},
		// A tool that writes Windows' separators (or absolute names) into
		// the archive: the parts are found by the names archive/zip opens.
		{"EPUB: no package document, pages named with backslashes", "책.epub", zipOf(t, part{`OEBPS\c0.xhtml`, "<p>첫 장</p>"}, part{`/OEBPS/c1.xhtml`, "<p>둘째 장</p>"}),
			[]string{"첫 장", "둘째 장"}, IndexLost{"chapter", "META-INF/container.xml", 2}},
		{"Excel: no relationships, worksheets named with backslashes", "가계부.xlsx", backslashed(t, without(t, book, rels)), []string{"sheet1: 월급", "sheet2: 월세", "sheet3: 적금"}, IndexLost{"sheet", rels, 3}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var col collector
			warns, err := Importer{}.Read(context.Background(), tt.file, bytes.NewReader(tt.data), &col)
			if err != nil {
				t.Fatal(err)
			}
			text := col.docs[0].Parts[0].Text
			at := 0
			for _, w := range tt.want {
				i := strings.Index(text[at:], w)
				if i < 0 {
					t.Fatalf("%q is not in %q after byte %d", w, text, at)
				}
				at += i + len(w)
			}
			var il *IndexLost
			if len(warns) != 1 || !errors.As(warns[0], &il) || *il != tt.warn {
				t.Fatalf("warnings %v, want %+v", warns, tt.warn)
			}
			if !strings.Contains(il.Error(), tt.warn.Index) {
				t.Errorf("%q does not name %s", il, tt.warn.Index)
			}
		})
	}
	for _, tt := range []struct {
		name, file string
		data       []byte
	}{
		{"Excel: relationships missing, worksheets without text", "가계부.xlsx", without(t, xlsxOf(t, "", "", "", [2]string{"빈", `<row r="1"><c r="A1"/></row>`}), rels)},
		{"Excel: relationships and worksheets missing", "가계부.xlsx", without(t, book, rels, "xl/worksheets/sheet1.xml", "xl/worksheets/sheet2.xml", "xl/worksheets/sheet3.xml")},
		{"EPUB: package document not XML, no page", "책.epub", rewritten(t, epub, []string{opf, "OEBPS/text/c0 a.xhtml", "OEBPS/text/c1 a.xhtml", "OEBPS/text/c2 a.xhtml"}, garbage)},
		{"EPUB: package document not XML, pages without text", "책.epub", rewritten(t, epubOf(t, []string{"<p> </p>"}), []string{opf}, garbage)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := (Importer{}).Import(context.Background(), tt.file, tt.data); !errors.Is(err, ErrOfficeDamaged) {
				t.Errorf("err %v, want damaged", err)
			}
		})
	}
}

// backslashed is the archive data with every name's / written \, as
// some Windows tools write them.
func backslashed(t *testing.T, data []byte) []byte {
	t.Helper()
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var parts []part
	for _, f := range z.File {
		r, _ := f.Open()
		body, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, part{strings.ReplaceAll(f.Name, "/", `\`), string(body)})
	}
	return zipOf(t, parts...)
}

// TestHWPXSectionsNamedWithBackslashes: an HWPX file without its package
// document, its sections named with Windows' separators, reads its
// sections; before, it had "no body".
func TestHWPXSectionsNamedWithBackslashes(t *testing.T) {
	data := backslashed(t, without(t, hwpxOf(t, hp("0", "<hp:t>첫 구역</hp:t>"), hp("0", "<hp:t>둘째 구역</hp:t>")), "Contents/content.hpf"))
	var col collector
	if _, err := (Importer{}).Read(context.Background(), "문서.hwpx", bytes.NewReader(data), &col); err != nil {
		t.Fatal(err)
	}
	checkParts(t, col.docs[0], []string{"첫 구역", "둘째 구역"}, nil, nil)
}

// TestJSONLinesRecordTooLarge: a JSON Lines file with lines that are
// records larger than maxRecord leaves them out, names their lines
// (*RecordsTooLarge) and imports the others; before, one such line
// refused the whole file. A record past maxRecord that spans lines (a
// pretty-printed value, which cannot be skipped to its end), a .json
// file, or a file of nothing but such records still fails as before.
func TestJSONLinesRecordTooLarge(t *testing.T) {
	big := `{"text": "` + strings.Repeat("가", maxRecord/3+10) + `"}`
	small := func(id string) string { return `{"_id": "` + id + `", "text": "본문 ` + id + `"}` }
	for _, tt := range []struct {
		name, file, data string
		ids              []string // imported; nil: fails with RecordTooLargeError
		lines            []int64
	}{
		{"two of five lines too large", "기록.jsonl", small("a") + "\n" + big + "\n" + small("b") + "\n\n" + big + "\n" + small("c") + "\n", []string{"a", "b", "c"}, []int64{2, 5}},
		{"the last line too large, no line end", "기록.ndjson", small("a") + "\n" + big, []string{"a"}, []int64{2}},
		{"a record too large spanning lines", "기록.jsonl", small("a") + "\n" + strings.Replace(big, `"text": `, "\"text\":\n", 1) + "\n" + small("b"), nil, nil},
		{"a .json file", "기록.json", small("a") + "\n" + big + "\n" + small("b"), nil, nil},
		{"nothing but records too large", "기록.jsonl", big + "\n" + big, nil, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var col collector
			warns, err := Importer{}.Read(context.Background(), tt.file, strings.NewReader(tt.data), &col)
			if tt.ids == nil {
				var rt *RecordTooLargeError
				if !errors.As(err, &rt) {
					t.Fatalf("err %v, want the record too large", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, d := range col.docs {
				ids = append(ids, d.ID)
			}
			if strings.Join(ids, ",") != strings.Join(tt.ids, ",") {
				t.Errorf("records %v, want %v", ids, tt.ids)
			}
			var rt *RecordsTooLarge
			if len(warns) != 1 || !errors.As(warns[0], &rt) || rt.Count != len(tt.lines) || fmt.Sprint(rt.Lines) != fmt.Sprint(tt.lines) {
				t.Fatalf("warnings %v, want the records on lines %v named", warns, tt.lines)
			}
		})
	}
}

// TestJSONLinesTooManyValues: a JSON Lines record that would take more
// than maxParsed parsed (errTooManyValues) is left out and its line named
// (*RecordsTooManyValues), the file's other records imported, as a line
// too large is; before, it failed the whole file. A .json file holding
// one, or a file of nothing but such records, still fails with the reason
// from the record's line.
func TestJSONLinesTooManyValues(t *testing.T) {
	many := `{"v": [` + strings.Repeat("[],", 2_200_000) + `[]]}` // 6.6 MB, some 317 MB parsed
	small := func(id string) string { return `{"_id": "` + id + `", "text": "본문 ` + id + `"}` }
	for _, tt := range []struct {
		name, file, data string
		ids              []string // imported; nil: fails with TooManyValuesError from line
		lines            []int64
	}{
		{"one record between two", "기록.jsonl", small("a") + "\n" + many + "\n" + small("b") + "\n", []string{"a", "b"}, []int64{2}},
		{"two, one at the end without a line end", "기록.ndjson", small("a") + "\n" + many + "\n\n" + small("b") + "\n" + many, []string{"a", "b"}, []int64{2, 5}},
		{"a .json file", "기록.json", small("a") + "\n" + many + "\n" + small("b"), nil, []int64{2}},
		{"nothing but such records", "기록.jsonl", "\n" + many + "\n" + many, nil, []int64{2}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var col collector
			warns, err := Importer{}.Read(context.Background(), tt.file, strings.NewReader(tt.data), &col)
			if tt.ids == nil {
				var tv *TooManyValuesError
				if !errors.As(err, &tv) || tv.Line != tt.lines[0] {
					t.Fatalf("err %v, want too many values from line %d", err, tt.lines[0])
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, d := range col.docs {
				ids = append(ids, d.ID)
			}
			if strings.Join(ids, ",") != strings.Join(tt.ids, ",") {
				t.Errorf("records %v, want %v", ids, tt.ids)
			}
			var tm *RecordsTooManyValues
			if len(warns) != 1 || !errors.As(warns[0], &tm) || tm.Count != len(tt.lines) || fmt.Sprint(tm.Lines) != fmt.Sprint(tt.lines) {
				t.Fatalf("warnings %v, want the records on lines %v named", warns, tt.lines)
			}
		})
	}
}
