package importer

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
)

// Korean text as people write it: KS X 1001 syllables, spaces, digits,
// punctuation, line breaks.
const korean1 = "제1조(목적) 이 규정은 1980년 6월 16일부터 시행한다.\n한국어 문서를 읽습니다. 띄어쓰기도 지킵니다.\n"

func encode(t testing.TB, e encoding.Encoding, s string) []byte {
	t.Helper()
	b, err := e.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func randomBytes(seed uint64, n int, nul bool) []byte {
	rng := rand.New(rand.NewPCG(seed, 7))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
		for !nul && b[i] == 0 {
			b[i] = byte(rng.Uint32())
		}
	}
	return b
}

// readAll decodes data through a TextReader, returning the text, the
// encoding it decided on and the warning.
func readAll(data []byte) (text, enc, warning string, err error) {
	tr, err := NewTextReader(bytes.NewReader(data))
	if err != nil {
		return "", "", "", err
	}
	var b strings.Builder
	for {
		s, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return b.String(), tr.Encoding, "", err
		}
		b.WriteString(s)
	}
	return b.String(), tr.Encoding, tr.Warning(), nil
}

func TestTextEncodings(t *testing.T) {
	long := strings.Repeat(korean1, 3000) // ≈ 300 KB: many blocks, runes cut at block ends
	le := unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)
	be := unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)
	hangulOnly := strings.Repeat("가나다라마바사아자차카타파하한국어문서를읽습니다", 20)
	uhc := strings.Repeat("한국어 문서입니다. 똠방각하는 햏을 쓴다.\n", 50) // 똠, 햏: Unified Hangul Code only
	asciiHead := strings.Repeat("plain ASCII line before any Korean\n", 3000)
	tests := []struct {
		name    string
		data    []byte
		enc     string
		want    string
		warning string // part of the warning; "" for none
	}{
		{"utf-8", []byte(long), "UTF-8", long, ""},
		{"utf-8 with BOM", append([]byte("\xef\xbb\xbf"), long...), "UTF-8", long, ""},
		{"utf-16le with BOM", append([]byte{0xFF, 0xFE}, encode(t, le, long)...), "UTF-16LE", long, ""},
		{"utf-16be with BOM", append([]byte{0xFE, 0xFF}, encode(t, be, long)...), "UTF-16BE", long, ""},
		{"utf-16le without BOM", encode(t, le, long), "UTF-16LE", long, ""},
		{"utf-16be without BOM", encode(t, be, long), "UTF-16BE", long, ""},
		{"utf-16le without BOM, English", encode(t, le, "Plain English, line one.\nLine two.\n"), "UTF-16LE", "Plain English, line one.\nLine two.\n", ""},
		{"utf-16le without any ASCII", encode(t, le, hangulOnly), "UTF-16LE", hangulOnly, ""},
		{"utf-16be without any ASCII", encode(t, be, hangulOnly), "UTF-16BE", hangulOnly, ""},
		{"utf-32le with BOM", append([]byte{0xFF, 0xFE, 0, 0}, encode(t, utf32.UTF32(utf32.LittleEndian, utf32.IgnoreBOM), korean1)...), "UTF-32LE", korean1, ""},
		{"euc-kr", encode(t, korean.EUCKR, long), "EUC-KR/CP949", long, ""},
		{"cp949 with extension syllables", encode(t, korean.EUCKR, uhc), "EUC-KR/CP949", uhc, ""},
		{"ASCII for 100 KB, then EUC-KR", encode(t, korean.EUCKR, asciiHead+korean1), "EUC-KR/CP949", asciiHead + korean1, ""},
		{"ASCII for 100 KB, then UTF-8", []byte(asciiHead + korean1), "UTF-8", asciiHead + korean1, ""},
		{"ASCII only", []byte("just ASCII\n"), "ASCII", "just ASCII\n", ""},
		{"a note beginning %PDF- without a version", []byte("%PDF-X is what we call it\n"), "ASCII", "%PDF-X is what we call it\n", ""},
		{"odd byte at the end of UTF-16", append(encode(t, le, korean1), 'x'), "UTF-16LE", korean1 + "\uFFFD", "line 3"},
		{"invalid bytes reported by line", []byte("one\ntwo \xff\nthree\nfour \xc3\x28 \xe0\n"), "UTF-8", "one\ntwo \uFFFD\nthree\nfour \uFFFD( \uFFFD\n", "3 invalid characters replaced with \uFFFD (lines 2, 4)"},
		{"junk on many lines", []byte(strings.Repeat("x\xff\n", 7) + strings.Repeat("clean line of text\n", 50)), "UTF-8", strings.Repeat("x\uFFFD\n", 7) + strings.Repeat("clean line of text\n", 50), "7 invalid characters replaced with \uFFFD (lines 1, 2, 3, 4, 5 and later)"},
		{"a NUL in text", []byte("text with a \x00 in it\n"), "ASCII", "text with a \uFFFD in it\n", "line 1"},
		{"Latin-1 is not read as Korean", []byte("Caf\xe9 au lait, cr\xe8me br\xfbl\xe9e, na\xefve fa\xe7ade and more plain words to read here.\n"), "UTF-8",
			"Caf\uFFFD au lait, cr\uFFFDme br\uFFFDl\uFFFDe, na\uFFFDve fa\uFFFDade and more plain words to read here.\n", "6 invalid characters"},
		{"ANSI colours in a log", []byte("\x1b[31merror\x1b[0m: disk full\n"), "ASCII", "\x1b[31merror\x1b[0m: disk full\n", ""},
		// whole files too short for rules 2 and 4 (shortUTF16)
		{"utf-16le without BOM, one short Korean line", encode(t, le, "안녕하세요 반갑습니다"), "UTF-16LE", "안녕하세요 반갑습니다", ""},
		{"utf-16be without BOM, one short Korean line", encode(t, be, "안녕하세요 반갑습니다"), "UTF-16BE", "안녕하세요 반갑습니다", ""},
		{"utf-16le without BOM, one Korean word", encode(t, le, "안녕"), "UTF-16LE", "안녕", ""},
		{"utf-16be without BOM, one Korean word", encode(t, be, "안녕하세요"), "UTF-16BE", "안녕하세요", ""},
		{"utf-16le without BOM, 가가 (both orders textual: the Korean one)", encode(t, le, "가가"), "UTF-16LE", "가가", ""},
		{"utf-16le without BOM, one short English line", encode(t, le, "Hi\n"), "UTF-16LE", "Hi\n", ""},
		{"utf-16be without BOM, one short English line", encode(t, be, "Hello world\n"), "UTF-16BE", "Hello world\n", ""},
		{"two CP949 extension syllables are not UTF-16", encode(t, korean.EUCKR, "똠햏"), "UTF-8", "\uFFFDc\uFFFDd", "2 invalid characters"},
		{"short EUC-KR is not UTF-16", encode(t, korean.EUCKR, "안녕하세요"), "EUC-KR/CP949", "안녕하세요", ""},
		{"utf-32le without BOM", encode(t, utf32.UTF32(utf32.LittleEndian, utf32.IgnoreBOM), korean1), "UTF-32LE", korean1, ""},
		{"utf-32be without BOM", encode(t, utf32.UTF32(utf32.BigEndian, utf32.IgnoreBOM), korean1), "UTF-32BE", korean1, ""},
		{"utf-32be without BOM, English", encode(t, utf32.UTF32(utf32.BigEndian, utf32.IgnoreBOM), "Plain English.\n"), "UTF-32BE", "Plain English.\n", ""},
		// CP949 dense in the extension's syllables (extensionHangul)
		{"cp949, every Hangul syllable", encode(t, korean.EUCKR, everySyllable(false)), "EUC-KR/CP949", everySyllable(false), ""},
		{"cp949, the extension's syllables only", encode(t, korean.EUCKR, everySyllable(true)), "EUC-KR/CP949", everySyllable(true), ""},
		{"cp949, a line of extension syllables", encode(t, korean.EUCKR, strings.Repeat(extLine, 5)), "EUC-KR/CP949", strings.Repeat(extLine, 5), ""},
		{"bytes FF FE in a UTF-8 line are junk, not UTF-16", []byte("줄 1\n줄 2\n깨진 \xff\xfe\xc0\x80 문장\n줄 4\n"), "UTF-8", "줄 1\n줄 2\n깨진 \uFFFD\uFFFD\uFFFD\uFFFD 문장\n줄 4\n", "4 invalid characters replaced with \uFFFD (line 3)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, enc, warning, err := readAll(tt.data)
			if err != nil {
				t.Fatal(err)
			}
			if enc != tt.enc {
				t.Errorf("encoding %q, want %q", enc, tt.enc)
			}
			if text != tt.want {
				t.Errorf("text differs: got %d bytes %q…, want %d bytes %q…", len(text), head(text), len(tt.want), head(tt.want))
			}
			if tt.warning == "" && warning != "" || !strings.Contains(warning, tt.warning) {
				t.Errorf("warning %q, want one containing %q", warning, tt.warning)
			}
		})
	}
}

// extLine is Korean with the Unified Hangul Code extension's syllables
// (똠, 햏, 뷁, 쌰, 펲, 뢔, 갂…) more often than KS X 1001's, 2 in 10 of
// them with a trail byte above ASCII.
const extLine = "똠방각하 햏햏 뷁 쌰 똠얌꿍 펲 햐 뢔 갂 갃 갅\n"

// everySyllable is every Hangul syllable (or only those KS X 1001 lacks),
// a hundred to a line.
func everySyllable(extOnly bool) string {
	var b strings.Builder
	n := 0
	for r := rune(0xAC00); r <= 0xD7A3; r++ {
		if e, _ := korean.EUCKR.NewEncoder().String(string(r)); extOnly && e[0] >= 0xA1 && e[1] >= 0xA1 {
			continue
		}
		b.WriteRune(r)
		if n++; n%100 == 0 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func head(s string) string {
	if len(s) > 80 {
		s = s[:80]
		for !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
	}
	return s
}

func TestNotText(t *testing.T) {
	png := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), randomBytes(3, 1<<20, true)...)
	textThenJunk := append([]byte(strings.Repeat(korean1, 5000)), randomBytes(4, 1<<20, false)...)
	tests := []struct {
		name string
		data []byte
		want string // in the error
	}{
		{"2 MB of random bytes", randomBytes(1, 2<<20, true), "binary data"},
		{"random bytes without a NUL", randomBytes(2, 2<<20, false), "binary data"},
		{"Japanese in Shift JIS", encode(t, japanese.ShiftJIS, strings.Repeat("日本語の文書を読みます。これはテストです。\n", 200)), "Wayfinder reads UTF-8, UTF-16 and EUC-KR/CP949"},
		{"a PNG", png, "binary data"},
		{"1 MB of text, then 1 MB of random bytes", textThenJunk, "the first on line 10001"},
		{"a repeated byte pair", append([]byte("\x00\x01\x02junk\xff\xfe"), bytes.Repeat([]byte("\x00\x9f"), 500)...), "not readable as text"},
		{"UTF-16 of random code units", append([]byte{0xFF, 0xFE}, randomBytes(5, 1<<16, true)...), "not readable as text"},
		// binary formats by their first bytes (binaryFormat)
		{"a gzip of text", gzipped(t, strings.Repeat(korean1, 100)), "binary data (gzip, by its first bytes)"},
		{"a gzip of 40 bytes", gzipped(t, "짧은 글"), "binary data (gzip, by its first bytes)"},
		{"a JPEG", append([]byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00"), randomBytes(6, 3000, true)...), "binary data (JPEG, by its first bytes)"},
		{"a GIF", append([]byte("GIF89a\x10\x00\x10\x00"), randomBytes(7, 300, true)...), "binary data (GIF, by its first bytes)"},
		{"a ZIP", append([]byte("PK\x03\x04\x14\x00"), randomBytes(8, 300, true)...), "binary data (ZIP, by its first bytes)"},
		{"an ELF program", append([]byte("\x7fELF\x02\x01\x01"), make([]byte, 50)...), "binary data (ELF, by its first bytes)"},
		{"a PDF of ASCII only", []byte("%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n"), "binary data (PDF, by its first bytes)"},
		{"a zstd frame", append([]byte("\x28\xb5\x2f\xfd"), []byte("mostly text after the magic, as a short frame is")...), "binary data (zstd, by its first bytes)"},
		// Latin-1 and cp1252 are still not read as Korean (extensionHangul)
		{"cp1252 with curly quotes", []byte(strings.Repeat("\x93Quoted\x94 words \x96 and \x91single\x92 ones, \x84German\x93 too.\n", 20)), "Wayfinder reads UTF-8, UTF-16 and EUC-KR/CP949"},
		{"Latin-1 capitals before letters", []byte(strings.Repeat("\xc4rger \xc5ngstr\xf6m \xc6sop \xc0la \xc1gua \xc2me \xc3o\n", 20)), "Wayfinder reads UTF-8, UTF-16 and EUC-KR/CP949"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, _, err := readAll(tt.data)
			if !errors.Is(err, ErrNotText) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want ErrNotText saying %q", err, tt.want)
			}
		})
	}
}

func gzipped(t testing.TB, s string) []byte {
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	if _, err := z.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestRandomBytesAreNeverText: whatever the seed, random data is refused,
// not imported as text in some encoding.
func TestRandomBytesAreNeverText(t *testing.T) {
	for seed := range uint64(200) {
		for _, size := range []int{300, 5000, 70000} {
			if text, enc, _, err := readAll(randomBytes(seed, size, seed%2 == 0)); !errors.Is(err, ErrNotText) {
				t.Fatalf("seed %d, %d bytes: read as %s (%d bytes), err %v", seed, size, enc, len(text), err)
			}
		}
	}
}

// FuzzTextReader: for any bytes the reader gives valid UTF-8 without NULs
// or fails with ErrNotText; UTF-8 text without junk comes back unchanged;
// text written as UTF-16 with a BOM comes back unchanged.
func FuzzTextReader(f *testing.F) {
	f.Add([]byte(korean1))
	f.Add(append([]byte{0xFF, 0xFE}, encode(f, unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), korean1)...))
	f.Add(encode(f, korean.EUCKR, korean1))
	f.Add([]byte("ok \xff\xfe\xfd end"))
	f.Add(randomBytes(1, 512, true))
	f.Fuzz(func(t *testing.T, data []byte) {
		text, _, _, err := readAll(data)
		if err != nil {
			if !errors.Is(err, ErrNotText) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if !utf8.ValidString(text) || strings.ContainsRune(text, 0) {
			t.Fatalf("output is not clean UTF-8: %q", text)
		}
		clean := utf8.Valid(data) && !bytes.ContainsFunc(data, func(r rune) bool {
			return r < 0x20 && r != '\n' && r != '\t' && r != '\r' && r != '\f' && r != '\v' && r != 0x1b
		})
		if clean && !bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) && text != string(data) {
			t.Fatalf("UTF-8 text changed: %q → %q", data, text)
		}
		if clean && utf8.Valid(data) && !strings.ContainsRune(string(data), utf8.RuneError) {
			u16 := append([]byte{0xFF, 0xFE}, encode(t, unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), string(data))...)
			if back, _, _, err := readAll(u16); err != nil || back != string(data) {
				t.Fatalf("UTF-16 round trip: %q → %q, %v", data, back, err)
			}
		}
	})
}

// partLines is n lines of Korean, each numbered.
func partLines(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "한국어 문장입니다. 회의록을 적었습니다. 줄 %d\n", i)
	}
	return b.String()
}

// alternating is parts parts of partLines(lines), in UTF-8 and EUC-KR in
// turn.
func alternating(t testing.TB, parts, lines int) []byte {
	var b bytes.Buffer
	for i := range parts {
		if i%2 == 0 {
			b.WriteString(partLines(lines))
		} else {
			b.Write(encode(t, korean.EUCKR, partLines(lines)))
		}
	}
	return b.Bytes()
}

// TestEncodingChangesAreBounded: a file changing encoding every two lines
// is read with at most maxSwitches changes and one more for each
// switchEvery bytes, as a look at each change costs up to a window; the
// rest is junk, and the file is refused as text Wayfinder cannot read
// (followed without a bound, its 9,999 changes were all made).
func TestEncodingChangesAreBounded(t *testing.T) {
	data := alternating(t, 10_000, 2) // 1.1 MB
	changes := 0
	tr, err := NewTextReader(bytes.NewReader(data))
	if err == nil {
		for err == nil {
			_, err = tr.Next()
		}
		changes = tr.switches
	}
	if bound := maxSwitches + len(data)/switchEvery; changes > bound || !errors.Is(err, ErrNotText) {
		t.Fatalf("%d changes, err %v: want at most %d, and the file refused", changes, err, bound)
	}
}

// TestEncodingChangesPartWay: a file whose encoding changes part way (a
// log a UTF-16 program appended to, a UTF-16 export after an ASCII
// header, Korean notes in EUC-KR and UTF-8 joined) is read as text, each
// part in its encoding; before, the second part was junk and the file
// was refused as binary data. A few NULs in text stay a warning.
func TestEncodingChangesPartWay(t *testing.T) {
	le := unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)
	be := unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)
	ko := strings.Repeat(korean1, 40)
	en := strings.Repeat("2026-11-27 12:00:01 service started, listening on port 8080\n", 40)
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	tests := []struct {
		name    string
		data    []byte
		enc     string
		want    string
		warning string // part of the warning; "" for none
	}{
		{"UTF-8, then UTF-16LE", cat([]byte(ko), encode(t, le, ko)), "UTF-8, then UTF-16LE", ko + ko, ""},
		{"an ASCII log, then UTF-16LE", cat([]byte(en), encode(t, le, en)), "UTF-16LE", en + en, ""},
		{"an ASCII header, then UTF-16BE", cat([]byte("Exported: 2026-11-27\n"), encode(t, be, ko)), "UTF-16BE", "Exported: 2026-11-27\n" + ko, ""},
		{"UTF-8, then UTF-16LE with its BOM", cat([]byte(ko), []byte{0xFF, 0xFE}, encode(t, le, en)), "UTF-8, then UTF-16LE", ko + en, ""},
		{"UTF-8, then EUC-KR", cat([]byte(ko), encode(t, korean.EUCKR, ko)), "UTF-8, then EUC-KR/CP949", ko + ko, ""},
		{"EUC-KR, then UTF-8", cat(encode(t, korean.EUCKR, ko), []byte(ko)), "EUC-KR/CP949, then UTF-8", ko + ko, ""},
		{"UTF-8, EUC-KR, then UTF-16LE", cat([]byte(ko), encode(t, korean.EUCKR, ko), encode(t, le, ko)), "UTF-8, then EUC-KR/CP949, then UTF-16LE", ko + ko + ko, ""},
		{"UTF-16LE with its BOM, then an ASCII line of UTF-16 text", cat([]byte{0xFF, 0xFE}, encode(t, le, en), encode(t, le, "end\n")), "UTF-16LE", en + "end\n", ""},
		{"UTF-16LE with its BOM, then an ASCII log appended", cat([]byte{0xFF, 0xFE}, encode(t, le, ko), []byte(en)), "UTF-16LE, then UTF-8", ko + en, ""},
		{"UTF-16BE, then UTF-8 appended", cat([]byte{0xFE, 0xFF}, encode(t, be, en), []byte(ko+en)), "UTF-16BE, then UTF-8", en + ko + en, ""},
		{"UTF-16LE Chinese without a BOM whose first line's bytes are all ASCII", encode(t, le, "中大天山\n"+strings.Repeat("中文文件。\n", 40)), "UTF-16LE", "中大天山\n" + strings.Repeat("中文文件。\n", 40), ""},
		{"20 parts in UTF-8 and EUC-KR in turn", alternating(t, 20, 50), "", strings.Repeat(partLines(50), 20), ""},
		{"a few NULs in a log", []byte(strings.Replace(en, "port", "port\x00", 3)), "ASCII", strings.Replace(en, "port", "port\uFFFD", 3), "3 invalid characters replaced with \uFFFD (lines 1, 2, 3)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, enc, warning, err := readAll(tt.data)
			if err != nil {
				t.Fatal(err)
			}
			if enc != tt.enc && tt.enc != "" {
				t.Errorf("encoding %q, want %q", enc, tt.enc)
			}
			if text != tt.want {
				i := 0
				for i < len(text) && i < len(tt.want) && text[i] == tt.want[i] {
					i++
				}
				t.Errorf("text differs at byte %d of %d (want %d): %q", i, len(text), len(tt.want), head(text[max(0, i-20):]))
			}
			if tt.warning == "" && warning != "" || !strings.Contains(warning, tt.warning) {
				t.Errorf("warning %q, want one containing %q", warning, tt.warning)
			}
		})
	}
}
