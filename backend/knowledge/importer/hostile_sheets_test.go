package importer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer/internal/hostile"
)

// joinedLines is the document's text, its parts joined as the sink got
// them (a paragraph longer than a block arrives in pieces), as lines.
func joinedLines(t *testing.T, name string, data []byte) []string {
	t.Helper()
	docs, err := Importer{}.Import(context.Background(), name, data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var b strings.Builder
	for _, d := range docs {
		for _, p := range d.Parts {
			b.WriteString(p.Text)
		}
	}
	var lines []string
	for _, l := range strings.Split(b.String(), "\n") {
		if l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// TestRTFLongRunsAreHandedOn: a run of bytes given as \'hh, or above
// ASCII, or a table row of endless cells, is handed on a paragraph of at
// most about maxHeld at a time, no character broken where it is cut.
// Before, the bytes were held whole and written as one paragraph (100 MB
// of \'hh: one paragraph of 100 MB), and a row's cells were held to its
// \row.
func TestRTFLongRunsAreHandedOn(t *testing.T) {
	const n = 1_200_000 // characters: more than maxHeld bytes
	for _, tt := range []struct {
		name, rtf, want string
	}{
		// "A" first, so that the bytes held are cut inside a character.
		{"\\'hh in CP949", `{\rtf1\ansi\ansicpg949 \'41` + strings.Repeat(`\'c7\'d1`, n) + `\par}`, "A" + strings.Repeat("한", n)},
		{"bytes above ASCII in CP949", "{\\rtf1\\ansi\\ansicpg949 A" + strings.Repeat("\xc7\xd1", n) + "\\par}", "A" + strings.Repeat("한", n)},
		{"UTF-8 as it is", "{\\rtf1 A" + strings.Repeat("한", n) + "\\par}", "A" + strings.Repeat("한", n)},
		{"a row of endless cells", `{\rtf1\trowd\intbl ` + strings.Repeat(`가\cell `, n/2) + `\row}`, strings.TrimSuffix(strings.Repeat("가 | ", n/2), " | ")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			lines := joinedLines(t, "long.rtf", []byte(tt.rtf))
			for i, l := range lines {
				if len(l) > maxHeld+maxRTFBytes*3 {
					t.Fatalf("line %d of %d bytes, want at most about maxHeld (%d)", i, len(l), maxHeld)
				}
			}
			if len(lines) < 2 {
				t.Fatalf("%d lines, want the run handed on in pieces", len(lines))
			}
			got := strings.Join(lines, "")
			want := tt.want
			if tt.name == "a row of endless cells" { // the row goes on as the next line: its bars there are the line's end
				got = strings.Join(lines, " | ")
			}
			if got != want {
				t.Errorf("text of %d bytes (%d U+FFFD), want %d bytes", len(got), strings.Count(got, "\uFFFD"), len(want))
			}
		})
	}
}

// TestRTFCharactersOutsideTheBMP: Word writes an emoji or a rare Hanja as
// the two halves of its UTF-16 pair, each a \uN with its fallback; before,
// each half was written as U+FFFD and the character lost.
func TestRTFCharactersOutsideTheBMP(t *testing.T) {
	for _, tt := range []struct{ rtf, want string }{
		{`{\rtf1 \u-10179?\u-8704? 웃음\par}`, "😀 웃음"},
		{`{\rtf1\uc0 \u55357\u56832 \u-10176\u-9177 x\par}`, "😀𠀧x"},
		{`{\rtf1 a\u-10179? b\u-8704?c\par}`, "a\uFFFD b\uFFFDc"}, // halves alone
	} {
		got := sheetText(t, "doc.rtf", []byte(tt.rtf))
		if got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.rtf, got, tt.want)
		}
	}
}

// TestODSRepeatsAreCharged: a row repeated maxRepeat times, each of a
// value repeated maxRepeat times, is a million cells from one element;
// its copies are charged to the unpacked budget as the file spelled out
// would be, and a row whose copies are past it fails before they are
// written. Before, ten thousand rows of a million one-letter cells (8 KB
// packed) were read for a minute into 500,000 chunks and failed as too
// many passages ("split it").
func TestODSRepeatsAreCharged(t *testing.T) {
	row := func(value string) string {
		return `<table:table-row table:number-rows-repeated="1000000"><table:table-cell table:number-columns-repeated="1000000" office:value-type="string"><text:p>` + value + `</text:p></table:table-cell></table:table-row>`
	}
	for _, tt := range []struct {
		name string
		rows string
		fail bool
	}{
		{"a million cells of 100 bytes", row(strings.Repeat("값", 33)), true},
		{"a million cells of a letter, twelve times", strings.Repeat(row("값"), 12), true},
		{"a million cells of a letter", row("값"), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := hostile.ODS(&b, tt.rows); err != nil {
				t.Fatal(err)
			}
			if tt.fail {
				_, err := Importer{}.Import(context.Background(), "repeat.ods", b.Bytes())
				if le := (*OfficeLimitError)(nil); !errors.As(err, &le) {
					t.Fatalf("err %v, want the limit", err)
				}
				return
			}
			lines := joinedLines(t, "repeat.ods", b.Bytes())
			if len(lines) != maxRepeat || strings.Count(lines[1], "값") != maxRepeat || !utf8.ValidString(lines[1]) {
				t.Errorf("%d lines, the second of %d values; want %d of %d", len(lines), strings.Count(lines[1], "값"), maxRepeat, maxRepeat)
			}
		})
	}
}

// TestCSVLineEnds: a CR alone ends a line as LF and CRLF do (Excel for
// Mac's "CSV (Macintosh)", and files from old Macs); before, such a file
// was one row whose last field ran into the next row's first ("dept홍길동").
// A CR inside quotes is part of the field, as a LF is.
func TestCSVLineEnds(t *testing.T) {
	for _, tt := range []struct{ name, data, want string }{
		{"CR", "name,dept\r홍길동,총무\r김철수,인사\r", "# name | dept\n홍길동 | 총무\n김철수 | 인사"},
		{"CR, LF and CRLF mixed", "a,b\r1,2\n3,4\r\n5,6", "# a | b\n1 | 2\n3 | 4\n5 | 6"},
		{"CR in quotes", "a,b\r\"첫\r둘\",c\r", "# a | b\n첫 둘 | c"},
		{"an empty line of CRLF CRLF", "a\r\n\r\nb\r\n", "# a\nb"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := sheetText(t, "mac.csv", []byte(tt.data)); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// TestRTFFontTableIsBounded: a font table of more than maxRTFFonts fonts
// with a code page fails as past the limit; one of maxRTFFonts is read.
func TestRTFFontTableIsBounded(t *testing.T) {
	table := func(n int) []byte {
		var b strings.Builder
		b.WriteString(`{\rtf1\ansi{\fonttbl`)
		for i := range n {
			fmt.Fprintf(&b, `{\f%d\fcharset129 a;}`, i)
		}
		b.WriteString(`}\f7 \'c7\'d1\par}`)
		return []byte(b.String())
	}
	if got := sheetText(t, "fonts.rtf", table(maxRTFFonts)); got != "한" {
		t.Errorf("%d fonts: %q, want 한", maxRTFFonts, got)
	}
	_, err := Importer{}.Import(context.Background(), "fonts.rtf", table(maxRTFFonts+1))
	if le := (*OfficeLimitError)(nil); !errors.As(err, &le) {
		t.Fatalf("%d fonts: err %v, want the limit", maxRTFFonts+1, err)
	}
}

// TestSharedStringsArePacked: the shared strings are held one after
// another, not as a Go string each (16 bytes of header and an allocation
// of their own): a workbook of 4 million one-letter strings, 200 KB
// packed, held 362 MiB through `kb import`.
func TestSharedStringsArePacked(t *testing.T) {
	const n = 200_000
	var b bytes.Buffer
	if err := hostile.XLSX(&b, `<row><c t="s"><v>0</v></c></row>`, map[string]string{"xl/sharedStrings.xml": `<sst>` + strings.Repeat(`<si><t>a</t></si>`, n-1) + `<si><t>끝</t></si></sst>`}); err != nil {
		t.Fatal(err)
	}
	z, err := openArchive(bytes.NewReader(b.Bytes()), nil)
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	book := &xlsxBook{}
	if err := book.readStrings(z, "xl/sharedStrings.xml", &xmlBudget{left: MaxOfficeXML}); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if got := book.shown("s", "", strconv.Itoa(n-1)); got != "끝" {
		t.Fatalf("string %d: %q", n-1, got)
	}
	if per := float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / n; per > 12 {
		t.Errorf("%.1f bytes held per one-letter string, want at most 12", per)
	}
	runtime.KeepAlive(book)
}

// TestSharedStringUsesAreCharged: each cell naming a shared string is
// charged the string's text; 65 cells naming a string of a megabyte are
// past the unpacked budget (before: a 3 KB file of 1,000 such cells was
// read for a minute into 500,000 chunks), and 60 are read whole.
func TestSharedStringUsesAreCharged(t *testing.T) {
	var c hostile.Class
	for _, k := range hostile.Classes() {
		if k.File == "oneword.xlsx" {
			c = k
		}
	}
	for _, tt := range []struct {
		cells int
		fail  bool
	}{{65, true}, {60, false}} {
		var b bytes.Buffer
		if err := c.Write(&b, tt.cells); err != nil {
			t.Fatal(err)
		}
		_, err := Importer{}.Import(context.Background(), "oneword.xlsx", b.Bytes())
		if le := (*OfficeLimitError)(nil); errors.As(err, &le) != tt.fail {
			t.Errorf("%d cells: err %v, want the limit: %v", tt.cells, err, tt.fail)
		}
	}
}

// TestDeepSheetsAreLimited: an Excel sheet or an OpenDocument spreadsheet
// whose elements nest past maxNest is past the limit (the decoder keeps
// every open element: 2.7 million deep, a 20 KB .xlsx, imported at
// 546 MiB, an .ods at 576 MiB in 22 s). TestXMLGuard reads a document
// nested to the limit.
func TestDeepSheetsAreLimited(t *testing.T) {
	for _, file := range []string{"deep.xlsx", "deep.ods"} {
		var b bytes.Buffer
		if err := hostileClass(t, file).Write(&b, maxNest+1); err != nil {
			t.Fatal(err)
		}
		_, err := Importer{}.Import(context.Background(), file, b.Bytes())
		if le := (*OfficeLimitError)(nil); !errors.As(err, &le) || le.What != "nesting of elements" {
			t.Errorf("%s nested %d deep: err %v, want the limit of nesting", file, maxNest+1, err)
		}
	}
}
