package importer

import (
	"bytes"
	"unicode/utf8"

	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/unicode/utf32"
)

// binaryFormats are the first bytes of the files people most often give a
// text extension by mistake (a .txt that is a download still compressed,
// a .log that is an image): each holds a byte text does not have (a
// control byte or one above ASCII), so no text file begins with one.
// Compressed data is random bytes, most of them invalid sequences rather
// than control bytes, so without this a gzip named .txt was refused as
// "text in another encoding, save it as UTF-8", and a small one whose junk
// stayed under minJunk imported as a line of U+FFFD.
var binaryFormats = []struct {
	magic string
	name  string
}{
	{"\x1f\x8b", "gzip"},
	{"\xfd7zXZ\x00", "xz"},
	{"\x28\xb5\x2f\xfd", "zstd"},
	{"7z\xbc\xaf\x27\x1c", "7-Zip"},
	{"Rar!\x1a\x07", "RAR"},
	{"PK\x03\x04", "ZIP"},
	{"PK\x05\x06", "ZIP"},
	{"\x89PNG\r\n\x1a\n", "PNG"},
	{"\xff\xd8\xff", "JPEG"},
	{"GIF87a", "GIF"},
	{"GIF89a", "GIF"},
	{"II*\x00", "TIFF"},
	{"MM\x00*", "TIFF"},
	{"\x7fELF", "ELF"},
	{"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "OLE compound file"},
	{"SQLite format 3\x00", "SQLite"},
	{"\xcf\xfa\xed\xfe", "Mach-O"},
	{"\xca\xfe\xba\xbe", "Mach-O"},
	{"\x00asm", "WebAssembly"},
	{"OggS\x00", "Ogg"},
	{"\x1a\x45\xdf\xa3", "Matroska"},
	{"ID3\x03", "MP3"},
	{"ID3\x04", "MP3"},
	{"%PDF-", "PDF"},
}

// binaryFormat names the format whose signature head begins with, or "".
// GIF's signature is ASCII, so it counts only with a control byte after it
// (its size), as an image has and a note beginning "GIF89a" has not; PDF's
// with its version, "%PDF-1.4" (a PDF named .txt whose streams are not
// compressed imported its syntax as text).
func binaryFormat(head []byte) string {
	for _, f := range binaryFormats {
		if !bytes.HasPrefix(head, []byte(f.magic)) {
			continue
		}
		if f.name == "GIF" && !(len(head) > 10 && bytes.ContainsFunc(head[6:10], func(r rune) bool { return r < 0x20 || r == utf8.RuneError })) {
			continue
		}
		if f.name == "PDF" && !(len(head) > 7 && '1' <= head[5] && head[5] <= '2' && head[6] == '.') {
			continue // "%PDF-1.7" and "%PDF-2.0" only: a PDF's streams may all be ASCII
		}
		return f.name
	}
	return ""
}

// utf32Order tells UTF-32 without a byte-order mark: every 4-byte unit a
// code point (its top byte 0, the next at most 0x10, not a surrogate), at
// least two of them, and ≥ 90% of those in the Basic Multilingual Plane
// textual. Random data passes the first test one unit in 256², and UTF-16
// fails it at its first ASCII character (its byte 2, the next unit's low
// byte, is the character). ok false: not UTF-32.
func utf32Order(w []byte, atEOF bool) (bigEndian, ok bool) {
	if n := len(w); n < 8 || atEOF && n%4 != 0 {
		return false, false
	}
	for _, order := range []utf32.Endianness{utf32.LittleEndian, utf32.BigEndian} {
		units, good := 0, 0
		valid := true
		for i := 0; i+3 < len(w); i += 4 {
			var u rune
			if order == utf32.LittleEndian {
				u = rune(w[i]) | rune(w[i+1])<<8 | rune(w[i+2])<<16 | rune(w[i+3])<<24
			} else {
				u = rune(w[i+3]) | rune(w[i+2])<<8 | rune(w[i+1])<<16 | rune(w[i])<<24
			}
			if u < 0 || u > utf8.MaxRune || 0xD800 <= u && u <= 0xDFFF {
				valid = false
				break
			}
			units++
			if u > 0xFFFF || textual(u) {
				good++
			}
		}
		if valid && units >= 2 && good*10 >= units*9 {
			return order == utf32.BigEndian, true
		}
	}
	return false, false
}

// hangulUnits counts the UTF-16 code units of w (read in the given byte
// order) that are Hangul syllables: when both orders read as textual (a
// short run of Hangul: "안녕" is 48 C5 55 B1, CJK ideographs the other way
// round), the one that reads as Korean is the file's.
func hangulUnits(w []byte, bigEndian bool) int {
	n := 0
	for i := 0; i+1 < len(w); i += 2 {
		if u := unit16(w[i:], bigEndian); 0xAC00 <= u && u <= 0xD7A3 {
			n++
		}
	}
	return n
}

// shortUTF16 tells UTF-16 in a whole file under 64 bytes, where rule 2's
// ten NULs and rule 4's 64 bytes do not fit ("안녕하세요 반갑습니다" has
// one NUL, "Hi" two): every code unit textual, and none of two printable
// ASCII bytes (its high byte a NUL or control, or above ASCII, as ASCII,
// Latin, Greek, Cyrillic and Hangul are), so that ASCII text with a stray
// NUL is not read as CJK ideographs. Without a NUL (no ASCII character)
// every unit must be a Hangul syllable: CP949 has no NUL either, and its
// extension's syllables read as UTF-16 are CJK ideographs ("똠햏" was
// read as "豣셤"). Of the two byte orders the one that
// passes, or that reads as more Hangul; ok false when neither (or both,
// equally) do.
func shortUTF16(w []byte) (bigEndian, ok bool) {
	if len(w) < 4 || len(w)%2 != 0 {
		return false, false
	}
	nul := bytes.IndexByte(w, 0) >= 0
	passes := func(be bool) bool {
		for i := 0; i+1 < len(w); i += 2 {
			u := unit16(w[i:], be)
			if hi := u >> 8; hi >= 0x20 && hi < 0x80 || !textual(u) || !nul && (u < 0xAC00 || u > 0xD7A3) {
				return false
			}
		}
		return true
	}
	le, be := passes(false), passes(true)
	switch {
	case le && be:
		h16le, h16be := hangulUnits(w, false), hangulUnits(w, true)
		return h16be > h16le, h16le != h16be
	case le || be:
		return be, true
	}
	return false, false
}

// hangulCP949 reports whether w, a whole file, is CP949 that reads as
// Korean: every byte pair a character, each a Hangul syllable, the rest
// printable ASCII or a line break. A short file of it is no UTF-16
// without a byte-order mark, though shortUTF16 may pass it: its lead
// bytes (0x81-0xC8) read as a unit's high byte are Hangul for the
// syllables from 가 on ("겖겚", 81 AD 81 B1, is "궁놁" in UTF-16LE), and
// rule 5 refuses two syllables of the extension, so 121,446 of the
// two-syllable files with an extension syllable were read as UTF-16
// without a word. Windows writes UTF-16 with its mark, and CP949 has
// none to write.
func hangulCP949(w []byte) bool {
	out, err := korean.EUCKR.NewDecoder().Bytes(w)
	if err != nil {
		return false
	}
	hangul := false
	for _, r := range string(out) {
		switch {
		case 0xAC00 <= r && r <= 0xD7A3:
			hangul = true
		case r >= 0x20 && r < 0x7F, r == '\n', r == '\r', r == '\t':
		default:
			return false // U+FFFD included
		}
	}
	return hangul
}

// extensionHangul accepts CP949 whose two-byte characters are mostly in
// the Unified Hangul Code extension (똠, 햏, 뷁: a list of the syllables
// KS X 1001 lacks, names, slang), which rule 5's half in the EUC-KR rows
// refuses. Latin-1 read as CP949 makes its extension pairs of an accented
// letter and the ASCII letter after it (an accented letter before a
// space, a digit or another accented one is no CP949 at all, so it is
// refused before this); the extension's own syllables have a trail byte
// above ASCII more than half the time (59% over all 8,822; 2 in 10 in a
// line of 똠방각하, 햏, 뷁, 쌰, 펲, 뢔, 갂). So at least 16 two-byte
// characters, and one in eight of those outside the rows with a trail
// above ASCII.
func extensionHangul(double, inRows, highTrail int) bool {
	return double >= 16 && highTrail*8 >= double-inRows
}
