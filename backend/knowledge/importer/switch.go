package importer

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/unicode"
)

// A file may change its encoding part way: a log that a UTF-16 program
// appended to, a UTF-16 export after an ASCII header, UTF-8 notes pasted
// after EUC-KR ones. Read in the first encoding, the rest is junk, and a
// file of text was refused as binary data. So where junk begins, the
// reader looks at the window from the start of that line, or from the
// junk (findSwitch), and, when it is plainly text in another encoding,
// reads on in that one:
//
//   - a byte-order mark of UTF-16 names it;
//   - UTF-16 by the NUL pattern of decide's rule 2, read from the junk or
//     from the byte after it (the encoding before may have taken the first
//     byte of a UTF-16 character); of the alignments that pass, the one
//     with the most line breaks and spaces wins, as text has them and a
//     misaligned reading has none;
//   - UTF-8 by 64 bytes or more that read as UTF-8 (from UTF-16: ASCII or
//     UTF-8 text appended, which reads as CJK there, so a line break read
//     with a letter or a private-use character makes the reader look);
//   - from UTF-8, CP949 by decide's rule 5 on as much of the window as
//     reads as CP949 (the next change, if any, begins there).
//
// A window that is none of these is junk of the encoding read, counted
// as before, and junk is not looked at again for a window's length, so
// binary data costs one look a window. A look reads up to a window ahead
// in each encoding, so the changes followed are bounded: maxSwitches, and
// one more for each switchEvery bytes read (a file of 500 MB changing
// every few lines makes at most 32,000 looks, about 8 GB of bytes
// scanned). Before, 8 in all were followed, and a file of notes in
// UTF-8 and EUC-KR, 50 lines in turn, 20 parts (62 KB), failed as
// "many characters Wayfinder cannot read" from the tenth.
const (
	maxSwitches = 32
	switchEvery = 16 << 10
)

// partialTail is the length of a character cut at the end of w, left for
// the next block (none at the end of the file: it is junk then).
func (t *TextReader) partialTail(w []byte, atEOF bool) int {
	if atEOF {
		return 0
	}
	switch t.kind {
	case kindUTF16LE, kindUTF16BE:
		n := len(w) % 2
		if m := len(w) - n; m >= 2 {
			if u := unit16(w[m-2:], t.kind == kindUTF16BE); 0xD800 <= u && u <= 0xDBFF {
				n += 2 // a high surrogate waits for its pair
			}
		}
		return n
	case kindUTF32:
		return len(w) % 4
	case kindCP949:
		return cutLead(w, false)
	}
	return incompleteTail(w)
}

func unit16(b []byte, bigEndian bool) rune {
	if bigEndian {
		return rune(b[0])<<8 | rune(b[1])
	}
	return rune(b[0]) | rune(b[1])<<8
}

// allowedControl is a control character text holds.
func allowedControl(c rune) bool {
	return c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == 0x1B
}

// firstJunk is the offset in w of the first character that is junk in
// the encoding read (a control character, an invalid sequence), or -1.
// UTF-32 is not looked in: nothing is appended to it in practice.
func (t *TextReader) firstJunk(w []byte) int {
	switch t.kind {
	case kindUTF16LE, kindUTF16BE:
		be := t.kind == kindUTF16BE
		for i := 0; i+1 < len(w); i += 2 {
			u := unit16(w[i:], be)
			switch {
			case u < 0x20 && !allowedControl(u):
				return i
			case 0xD800 <= u && u <= 0xDBFF:
				if i+3 >= len(w) {
					return i
				}
				if lo := unit16(w[i+2:], be); lo < 0xDC00 || lo > 0xDFFF {
					return i
				}
				i += 2
			case 0xDC00 <= u && u <= 0xDFFF:
				return i
			case u>>8 == '\n' && (u&0xFF >= 0x20 && u&0xFF < 0x7F || u&0xFF == '\r'), 0xE000 <= u && u <= 0xF8FF:
				// An ASCII letter and line break read as one UTF-16
				// character (a Gurmukhi one), or a private-use one (UTF-8
				// Hangul's lead bytes): text appended to UTF-16 in ASCII
				// or UTF-8 reads as CJK without junk, so these are looked
				// at (and are text when nothing else follows).
				return i
			}
		}
	case kindCP949:
		for i := 0; i < len(w); {
			c := w[i]
			if c < 0x80 {
				if c < 0x20 && !allowedControl(rune(c)) {
					return i
				}
				i++
				continue
			}
			if c < 0x81 || c == 0xFF || i+1 >= len(w) || !cp949Trail(w[i+1]) || c >= 0xC7 && w[i+1] < 0xA1 {
				return i // the extension's leads end at 0xC6: from 0xC7 only KS X 1001's trails
			}
			i += 2
		}
	case kindUTF8:
		for i := 0; i < len(w); {
			c := w[i]
			if c < utf8.RuneSelf {
				if c < 0x20 && !allowedControl(rune(c)) {
					return i
				}
				i++
				continue
			}
			r, size := utf8.DecodeRune(w[i:])
			if r == utf8.RuneError && size == 1 {
				return i
			}
			i += size
		}
	}
	return -1
}

func cp949Trail(d byte) bool {
	return 0x41 <= d && d <= 0x5A || 0x61 <= d && d <= 0x7A || 0x81 <= d && d <= 0xFE
}

// pendingSwitch is a change of encoding at byte at of the file: to enc
// (name), after skip bytes (a byte-order mark, or a byte of junk).
type pendingSwitch struct {
	at   int64
	enc  encoding.Encoding
	name string
	skip int
}

// findSwitch looks, where junk begins at the end of text (the bytes read
// in the current encoding before it, not yet consumed), for the point
// from which the file goes on in another encoding: the start of the line
// the junk is on (where a file was appended to), else, for a NUL after an
// ASCII letter, that letter (the NUL may be its high byte in UTF-16 LE),
// else the junk itself. It returns how many bytes of text come before the
// change; 0 when it was made at once.
func (t *TextReader) findSwitch(text []byte) (int, bool) {
	if t.switches >= maxSwitches+int(t.pos/switchEvery) {
		return 0, false
	}
	j := len(text)
	win, err := t.src.Peek(sniffWindow)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) || len(win) < j {
		return 0, false
	}
	// Peeking further may have moved the reader's buffer, and text with
	// it: the same bytes are taken again from the window (see Next).
	text = win[:j]
	var at []int
	switch t.kind {
	case kindUTF8, kindCP949:
		if i := bytes.LastIndexByte(text, '\n'); i >= 0 && i+1 < j {
			at = append(at, i+1)
		}
	case kindUTF16LE, kindUTF16BE:
		for i := j - j%2 - 2; i >= 0; i -= 2 {
			if unit16(text[i:], t.kind == kindUTF16BE) == '\n' {
				if i+2 < j {
					at = append(at, i+2)
				}
				break
			}
		}
	}
	if t.kind == kindUTF8 && j > 0 && j < len(win) && win[j] == 0 && text[j-1] >= 0x20 && text[j-1] < utf8.RuneSelf {
		at = append(at, j-1)
	}
	at = append(at, j)
	for _, a := range at {
		if t.pos+int64(a) <= t.lastSwitch {
			continue
		}
		enc, name, skip := switchTo(win[a:], t.kind)
		if enc == nil {
			continue
		}
		t.next = &pendingSwitch{at: t.pos + int64(a), enc: enc, name: name, skip: skip}
		if a == 0 {
			t.switchNow()
		}
		return a, true
	}
	return 0, false
}

// switchNow makes the change found: the bytes it skips (a byte-order
// mark; a byte of junk, counted as such), then the new encoding.
func (t *TextReader) switchNow() {
	s := t.next
	t.next = nil
	if s.skip == 1 {
		t.clean(nil, []byte{0xFF}, true) // counted as junk
	}
	_, _ = t.src.Discard(s.skip)
	t.pos += int64(s.skip)
	from := t.Encoding
	t.use(s.enc, s.name)
	if from != "ASCII" && s.at > 0 { // at 0 nothing was read in the first guess
		t.Encoding = from + ", then " + s.name
	}
	t.switches++
	t.lastSwitch = t.pos
}

// switchTo is the encoding the window w goes on in, other than now's, the
// bytes to skip before it (a byte-order mark; 1 for UTF-16 read from the
// byte after the junk), or nil.
func switchTo(w []byte, now kind) (encoding.Encoding, string, int) {
	for _, b := range []struct {
		bom  []byte
		name string
		enc  encoding.Encoding
	}{
		{[]byte{0xFF, 0xFE}, "UTF-16LE", unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)},
		{[]byte{0xFE, 0xFF}, "UTF-16BE", unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)},
	} {
		if bytes.HasPrefix(w, b.bom) && kindOf(b.name) != now && bomFollowed(w[len(b.bom):], b.name == "UTF-16BE") {
			return b.enc, b.name, len(b.bom)
		}
	}
	// From UTF-16 to UTF-16 only by a byte-order mark: a misaligned
	// reading of UTF-16 Hangul is Hangul too.
	from16 := now == kindUTF16LE || now == kindUTF16BE
	best, bestBreaks := -1, -1
	var bestBE bool
	for skip := 0; skip <= 1 && skip < len(w) && !from16; skip++ {
		for _, be := range []bool{false, true} {
			k := kindUTF16LE
			if be {
				k = kindUTF16BE
			}
			if skip == 0 && k == now || !utf16Pattern(w[skip:], be) {
				continue
			}
			if n := breaks16(w[skip:], be); n > bestBreaks {
				best, bestBreaks, bestBE = skip, n, be
			}
		}
	}
	if best >= 0 {
		if bestBE {
			return unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), "UTF-16BE", best
		}
		return unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), "UTF-16LE", best
	}
	// The window as far as it reads in the encoding tried: the next
	// change, if any, begins there.
	// From UTF-16, ASCII text may follow; else a change begins with a
	// byte ASCII does not have.
	if len(w) < 4 || w[0] < utf8.RuneSelf && !from16 {
		return nil, "", 0
	}
	if head := w[:readsAs(w, kindUTF8)]; now != kindUTF8 && len(head) >= min(len(w), 64) && validUTF8(head, false) {
		return encoding.Nop, "UTF-8", 0
	}
	// Not from UTF-16: its Hangul reads as CP949 as readily.
	if head := w[:readsAs(w, kindCP949)]; now == kindUTF8 && len(head) >= min(len(w), 64) && cp949(head, false) {
		return korean.EUCKR, "EUC-KR/CP949", 0
	}
	return nil, "", 0
}

// readsAs is how much of w reads in encoding k without junk.
func readsAs(w []byte, k kind) int {
	t := TextReader{kind: k}
	if j := t.firstJunk(w); j >= 0 {
		return j
	}
	return len(w)
}

// utf16Pattern is decide's rule 2 for one byte order: NULs at the high
// byte of at least 1 pair in 50, ten times more often than at the other,
// and ≥ 90% of the code units textual.
func utf16Pattern(w []byte, bigEndian bool) bool {
	var high, low int
	for i := 0; i+1 < len(w); i += 2 {
		hi, lo := w[i+1], w[i]
		if bigEndian {
			hi, lo = w[i], w[i+1]
		}
		if hi == 0 {
			high++
		}
		if lo == 0 {
			low++
		}
	}
	pairs := len(w) / 2
	return pairs >= 8 && high*50 >= pairs && (high >= 10*(low+1) || high >= 2 && low == 0) && textualShare(w, bigEndian) >= 0.90
}

// breaks16 counts the line breaks and spaces among w's UTF-16 code units.
func breaks16(w []byte, bigEndian bool) int {
	n := 0
	for i := 0; i+1 < len(w); i += 2 {
		if u := unit16(w[i:], bigEndian); u == '\n' || u == ' ' {
			n++
		}
	}
	return n
}

// bomFollowed is whether the bytes after a byte-order mark found part way
// read as UTF-16 text (90% of the code units of its first 4 KB textual):
// the bytes FF FE are junk in UTF-8 and CP949 too, and a damaged line
// (FF FE C0 80 in UTF-8) switched to UTF-16 on them, reading the junk
// after them as a CJK ideograph without a word.
func bomFollowed(w []byte, bigEndian bool) bool {
	w = w[:min(len(w), 4096)]
	return len(w) >= 2 && textualShare(w, bigEndian) >= 0.90
}
