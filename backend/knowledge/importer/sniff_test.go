package importer

import (
	"math/rand/v2"
	"strings"
	"testing"

	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/unicode"
)

// cp949Syllables is every Hangul syllable's CP949 bytes, and whether it
// is one of the extension's (KS X 1001 lacks it).
func cp949Syllables(t testing.TB) (enc [][]byte, ext []bool) {
	e := korean.EUCKR.NewEncoder()
	for r := rune(0xAC00); r <= 0xD7A3; r++ {
		b, err := e.Bytes([]byte(string(r)))
		if err != nil {
			t.Fatal(err)
		}
		enc = append(enc, b)
		ext = append(ext, !(b[0] >= 0xA1 && b[1] >= 0xA1))
	}
	return enc, ext
}

// decided is the encoding decide picks for a whole file.
func decided(w []byte) string {
	var t TextReader
	if err := t.decide(w, true, true); err != nil {
		return "error " + err.Error()
	}
	return t.Encoding
}

// TestShortCP949IsNotUTF16: a short CP949 file has no NUL, and its
// syllables' bytes read as UTF-16 units are often Hangul too ("겖겚" is
// "궁놁" in UTF-16): 121,446 of the two-syllable files holding an
// extension syllable were read as UTF-16 without a word. Every 97th such
// pair, every doubled syllable, and Korean lines of up to 63 bytes are
// swept: none is UTF-16, and those once taken for it are read as CP949.
// The UTF-16 one-liners without a byte-order mark still read as UTF-16.
func TestShortCP949IsNotUTF16(t *testing.T) {
	enc, ext := cp949Syllables(t)
	n := len(enc)
	check := func(w []byte) {
		t.Helper()
		if got := decided(w); strings.HasPrefix(got, "UTF-16") {
			text, _ := korean.EUCKR.NewDecoder().Bytes(w)
			t.Fatalf("CP949 %q (% X) read as %s", text, w, got)
		}
	}
	swept := 0
	for i := 0; i < n*n; i += 97 {
		a, b := i/n, i%n
		if !ext[a] && !ext[b] {
			continue
		}
		check(append(append([]byte(nil), enc[a]...), enc[b]...))
		swept++
	}
	for a := range n {
		check(append(append([]byte(nil), enc[a]...), enc[a]...))
	}
	rng := rand.New(rand.NewPCG(15, 97))
	for range 20000 {
		var w []byte
		for len(w) < 2+rng.IntN(62) {
			switch k := rng.IntN(10); {
			case k == 0:
				w = append(w, ' ')
			case k == 1:
				w = append(w, "0123456789.,!?"[rng.IntN(14)])
			default:
				w = append(w, enc[rng.IntN(n)]...)
			}
		}
		if len(w) < 64 {
			check(w)
		}
	}
	if swept < 10000 {
		t.Fatalf("swept only %d pairs", swept)
	}
	// the ones taken for UTF-16 before: read as the Korean they are
	for _, s := range []string{"겖겚", "쳾쳾"} {
		text, encName, _, err := readAll(encode(t, korean.EUCKR, s))
		if err != nil || text != s || encName != "EUC-KR/CP949" {
			t.Errorf("%q: read %q as %s, %v", s, text, encName, err)
		}
	}
	// UTF-16 without a byte-order mark, as e042a40 read it. "안녕" in
	// UTF-16BE (C5 48 B1 55) is CP949 "휟켝" too, and is read so.
	le := unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)
	be := unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)
	for _, tt := range []struct {
		s    string
		le16 bool
	}{
		{"안녕하세요 반갑습니다", true}, {"안녕하세요 반갑습니다", false}, {"안녕하세요", true}, {"안녕하세요", false},
		{"안녕", true}, {"가가", true}, {"가가", false}, {"회의록", true}, {"회의록", false},
		{"Hi\n", true}, {"Hi\n", false}, {"Hello world\n", true}, {"Hello world\n", false},
	} {
		w, want := encode(t, be, tt.s), "UTF-16BE"
		if tt.le16 {
			w, want = encode(t, le, tt.s), "UTF-16LE"
		}
		text, encName, _, err := readAll(w)
		if err != nil || text != tt.s || encName != want {
			t.Errorf("%q in %s without a BOM: read %q as %s, %v", tt.s, want, text, encName, err)
		}
	}
}
