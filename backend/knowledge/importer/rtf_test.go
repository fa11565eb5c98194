package importer

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/wayfinder-app/wayfinder/backend/internal/progtest"
)

func TestRTF(t *testing.T) {
	tests := []struct {
		name, rtf, want string
	}{
		{"Word: Korean in code page 949, the font table left out",
			`{\rtf1\ansi\ansicpg949\deff0{\fonttbl{\f0\fnil\fcharset129 \'b9\'d9\'c5\'c1;}}{\*\generator Msftedit 5.41;}\viewkind4\uc1\pard\lang1042\f0\fs20 \'c7\'d1\'b1\'db \'b9\'ae\'bc\'ad\par
둘째\par}`, "한글 문서\n둘째"},
		{"a Korean font's charset without \\ansicpg",
			`{\rtf1\ansi{\fonttbl{\f0 Arial;}{\f1\fcharset129 Gulim;}}\f0 A \f1\'b0\'a1\f0  B\par}`, "A 가 B"},
		{"Unicode with fallback bytes skipped", `{\rtf1\ansi\uc2 \u54620\'c7\'d1\u44544\'b1\'db{\uc1\u-3\'3f}\par}`, "한글\ufffd"},
		{"TextEdit: \\uc0, a backslash before a line break ends a paragraph",
			"{\\rtf1\\ansi\\ansicpg1252\\cocoartf2709\n{\\fonttbl\\f0\\fswiss\\fcharset0 Helvetica;}\n{\\colortbl;\\red255\\green255\\blue255;}\n\\pard\\pardirnatural\\f0\\fs24 \\cf0 \\uc0\\u54924 \\u51032 \\u47197 \\\nsecond line}",
			"회의록\nsecond line"},
		{"destinations left out, a field's result kept",
			`{\rtf1{\header 머리글}{\footer 바닥글}{\*\bkmkstart x}{\pict\pngblip 89504e47}{\field{\*\fldinst HYPERLINK "https://example.com"}{\fldrslt 링크}} 본문\par}`, "링크 본문"},
		{"a table: cells between bars, a paragraph inside a cell",
			`{\rtf1\trowd\cellx1000\cellx2000\cellx3000\pard\intbl 구분\cell 기간\cell\row\trowd\cellx1000\cellx2000\pard\intbl 1학기\cell 3월\par 6월\cell\row\pard 끝\par}`,
			"구분 | 기간\n1학기 | 3월 6월\n끝"},
		{"escapes and symbols", `{\rtf1 a\{b\}c\\d\~e\emdash f\ldblquote g\rdblquote\tab h\-i\par}`, "a{b}c\\d e—f“g”\thi"},
		{"binary data skipped", "{\\rtf1 앞{\\*\\blipuid x}{\\pict\\bin5 }}}}}} 뒤\\par}", "앞 뒤"},
		{"raw bytes above ASCII in the code page", "{\\rtf1\\ansi\\ansicpg949 \xc7\xd1\xb1\xdb\\par}", "한글"},
		{"cut short: what it had is kept", `{\rtf1 처음 문단\par 둘째 문단`, "처음 문단\n둘째 문단"},
		{"headings from the styles' outline levels and a paragraph's own",
			`{\rtf1{\stylesheet{\s0 Normal;}{\s1\outlinelevel0 heading 1;}{\s2\sbasedon1\outlinelevel1 heading 2;}{\s3\outlinelevel9 body;}}` +
				`\pard\s1 제1장 총칙\par\pard\s2 제1조(목적)\par\pard\s3 본문\par\pard\outlinelevel2 직접 준 수준\par\pard 다시 본문\par}`,
			"# 제1장 총칙\n## 제1조(목적)\n본문\n### 직접 준 수준\n다시 본문"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sheetText(t, "doc.rtf", []byte(tt.rtf)); got != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func TestRTFFailures(t *testing.T) {
	tests := []struct {
		name, rtf string
		want      error
	}{
		{"not RTF", "hello", ErrOfficeDamaged},
		{"no text", `{\rtf1{\fonttbl{\f0 Arial;}}\par}`, ErrEmpty},
		{"groups nested too deep", `{\rtf1` + strings.Repeat("{", 5000) + "x", &OfficeLimitError{}},
		// Control bytes outside \bin's data: binary, not a document's text
		// (it imported as chunks of junk); a stray few, and \bin's, are read.
		{"a body of control bytes", "{\\rtf1 글\n" + strings.Repeat("\x00\x01\x02 \xc7\xd1", 20) + "}", ErrNotText},
		{"a few stray control bytes", "{\\rtf1 글" + strings.Repeat("\x01 본문 ", 32) + "}", nil},
		{"control bytes in binary data", "{\\rtf1 글 {\\pict\\bin400 " + strings.Repeat("\x00\x01\x02\x03", 100) + "}}", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Importer{}.Import(context.Background(), "doc.rtf", []byte(tt.rtf))
			var limit *OfficeLimitError
			var nt *NotTextError
			if tt.want == nil {
				if err != nil {
					t.Errorf("got %v, want it read", err)
				}
			} else if errors.Is(tt.want, ErrNotText) {
				if !errors.As(err, &nt) || !nt.Binary || nt.Line != 2 {
					t.Errorf("got %v, want binary data from line 2", err)
				}
			} else if errors.As(tt.want, &limit) {
				if !errors.As(err, &limit) {
					t.Errorf("got %v, want an office limit", err)
				}
			} else if !errors.Is(err, tt.want) {
				t.Errorf("got %v, want %v", err, tt.want)
			}
		})
	}
}

// TestRTFCutShort: an RTF file that ends before its document does (its
// groups still open: a download or copy cut short) or inside the binary
// data a \binN announces (N past the end: damaged, or cut short) keeps
// the text read up to there, and says so in a warning naming where the
// file ends and what is open; it was kept quiet before, and a \bin of a
// billion bytes in the middle of a document hid the rest of it. A
// document that closes its groups warns of nothing, binary data and all.
func TestRTFCutShort(t *testing.T) {
	for _, tt := range []struct {
		name, rtf, want string
		// cut is the warning, nil for none: where the file ends is its
		// size, and Binary the bytes \binN announced (the file holds
		// what follows "abc" of them).
		cut *CutShort
	}{
		{"complete", `{\rtf1 처음\par{\pict\bin3 }}}}끝\par}`, "처음\n\n끝", nil},
		{"complete, with a line end after it", "{\\rtf1 처음\\par}\r\n", "처음", nil},
		{"the document's group left open", `{\rtf1 처음 문단\par 둘째 문단`, "처음 문단\n\n둘째 문단", &CutShort{Open: 1}},
		{"three groups left open", `{\rtf1 앞{\b 굵게{\i 기울임`, "앞굵게기울임", &CutShort{Open: 3}},
		{"cut inside a control word", `{\rtf1 앞\pa`, "앞", &CutShort{Open: 1}},
		{"cut after a backslash", `{\rtf1 앞\`, "앞", &CutShort{Open: 1}},
		{"spaces and NULs after the end", "{\\rtf1 처음\\par}\r\n\x00\x00 ", "처음", nil},
		{"binary data past the end", `{\rtf1 앞\par{\pict\bin1000 abc`, "앞", &CutShort{Open: 2, Binary: 1000}},
		{"binary data of a billion bytes in the middle", `{\rtf1 앞\par{\pict\bin1000000000 abc}}뒤\par}`, "앞", &CutShort{Open: 2, Binary: 1_000_000_000}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			warns := readRTFText(t, tt.rtf, tt.want)
			if tt.cut == nil {
				if len(warns) != 0 {
					t.Errorf("warnings %v, want none", warns)
				}
				return
			}
			var cut *CutShort
			if len(warns) != 1 || !errors.As(warns[0], &cut) {
				t.Fatalf("warnings %v, want the file said to be cut short", warns)
			}
			want := *tt.cut
			if want.At = int64(len(tt.rtf)); want.Binary > 0 {
				want.BinaryAt = int64(strings.Index(tt.rtf, "abc"))
				want.Binary -= want.At - want.BinaryAt
			}
			if *cut != want {
				t.Errorf("%+v, want %+v", *cut, want)
			}
			t.Log(cut)
		})
	}
}

// TestRTFTrailing: a file that goes on after its document's last brace
// (a second document appended, or braces that close early) keeps the
// document and says the rest was not read; it was dropped without a word.
func TestRTFTrailing(t *testing.T) {
	for _, tt := range []struct {
		name, rtf, want string
		at              int64 // where the warning says the document ends; 0: no warning
	}{
		{"two documents joined", `{\rtf1 앞 문서\par}{\rtf1 뒤 문서\par}`, "앞 문서", 22},
		{"a brace too many", `{\rtf1 a}b\par}`, "a", 9},
		{"a line end after the end", "{\\rtf1 a}\n", "a", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			warns := readRTFText(t, tt.rtf, tt.want)
			var tr *Trailing
			switch {
			case tt.at == 0 && len(warns) != 0:
				t.Errorf("warnings %v, want none", warns)
			case tt.at != 0 && (len(warns) != 1 || !errors.As(warns[0], &tr) || tr.At != tt.at):
				t.Errorf("warnings %v, want the rest after byte %d said to be unread", warns, tt.at)
			}
		})
	}
}

// readRTFText reads an RTF document, checks its text is want (trimmed)
// and returns its warnings.
func readRTFText(t *testing.T, rtf, want string) []error {
	t.Helper()
	var c collector
	warns, err := Importer{}.Read(context.Background(), "doc.rtf", strings.NewReader(rtf), &c)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(c.docs[0].Parts[0].Text); got != want {
		t.Errorf("text %q, want %q", got, want)
	}
	return warns
}

// TestRTFByLibreOffice: LibreOffice writes testdata/office/regulation.odt
// (headings, a table, numbered and bulleted lists, a link) as RTF, and it
// reads with the words of the .odt, in order (list bullets aside), and
// the same headings.
func TestRTFByLibreOffice(t *testing.T) {
	bin := progtest.Soffice(t)
	dir := t.TempDir()
	src := filepath.Join("testdata", "office", "regulation.odt")
	if err := progtest.Convert(context.Background(), bin, dir, "rtf", src); err != nil {
		t.Fatal(err)
	}
	rtf, err := os.ReadFile(filepath.Join(dir, "regulation.rtf"))
	if err != nil {
		t.Fatal(err)
	}
	odt, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	words := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				return r
			}
			return -1
		}, s)
	}
	if warns, err := (Importer{}).Read(context.Background(), "regulation.rtf", bytes.NewReader(rtf), &collector{}); err != nil || len(warns) != 0 {
		t.Errorf("a complete file: %v, warnings %v", err, warns)
	}
	gotText, wantText := sheetText(t, "regulation.rtf", rtf), sheetText(t, "regulation.odt", odt)
	if got, want := words(gotText), words(wantText); got != want {
		t.Errorf("RTF:\n%s\nODT:\n%s", got, want)
	}
	headings := func(s string) (hs []string) {
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(l, "#") {
				hs = append(hs, l)
			}
		}
		return hs
	}
	if got, want := headings(gotText), headings(wantText); !slices.Equal(got, want) || len(want) == 0 {
		t.Errorf("headings: RTF %q, ODT %q", got, want)
	}
}

// FuzzRTF: any bytes named .rtf import or fail with an error, without
// panic, within the nesting bound.
func FuzzRTF(f *testing.F) {
	f.Add([]byte(`{\rtf1\ansi\ansicpg949{\fonttbl{\f0\fcharset129 G;}}\uc2\u54620\'c7\'d1\par}`))
	f.Add([]byte(`{\rtf1\trowd\pard\intbl a\cell b\cell\row{\*\x}\bin3 abc\'zz\u-1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := Importer{}.Import(context.Background(), "f.rtf", data)
		if err == nil && (len(docs) != 1 || strings.TrimSpace(docs[0].Parts[0].Text) == "") {
			t.Fatalf("no error and no text: %+v", docs)
		}
		if err != nil && !worded(err) { // the person would read a Go error
			t.Fatalf("err %v: not one the app words", err)
		}
	})
}
