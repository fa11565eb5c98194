package importer

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
)

// ErrNotText marks a file that is not readable text: binary data, or text
// in an encoding Wayfinder does not read.
var ErrNotText = errors.New("not readable as text")

// How a text file's encoding is told (x/text decodes; it detects nothing,
// so these heuristics are ours). Everything is decided on a window of
// sniffWindow bytes, so a file is read once, as a stream:
//
//  0. The first bytes of a binary format (a gzip, an image) are binary
//     data, whatever follows (binaryFormat).
//  1. A byte-order mark names the encoding: UTF-8, UTF-16 LE/BE, UTF-32 LE/BE;
//     without one, UTF-32 is told by its units (utf32Order), and a whole
//     file under 64 bytes as UTF-16 by shortUTF16, unless it reads as
//     Korean in CP949 (hangulCP949).
//  2. NUL bytes mostly at odd offsets (or mostly at even ones) are the high
//     bytes of ASCII characters in UTF-16 LE (BE): accepted when at least
//     1 pair in 50 has one, ten times more often at that parity than the
//     other, and ≥ 90% of the decoded code units are in the blocks text is
//     written in (textual below). Random data scores about 50% there.
//  3. Valid UTF-8 is UTF-8. A window of ASCII decides nothing: the file is
//     read as ASCII until its first other byte, and decided from there.
//  4. UTF-16 without ASCII characters (so without that NUL pattern) is
//     accepted at ≥ 95% textual code units, at least 16 of them different
//     (a repeated byte pair is no text), when the window is neither UTF-8
//     nor CP949.
//  5. CP949 (EUC-KR with the Unified Hangul Code extension) is accepted when
//     the window decodes without an error and at least half of its
//     two-byte characters are in the EUC-KR rows (both bytes ≥ 0xA1), as
//     Korean text mostly is; Latin-1 text read as CP949 lands in the
//     extension instead, so it is not mistaken for Korean. Text dense in
//     the extension's syllables is accepted too (extensionHangul).
//  6. Otherwise the file is read as UTF-8 and its bad bytes are junk.
//  7. A window whose first line is ASCII and whose UTF-16 NULs come after
//     it is read as ASCII: a header; and where junk begins in any of
//     these, the file may go on in another encoding (switch.go).
//
// Junk is an invalid byte sequence or a control character other than tab,
// line and page breaks and escape (NUL included). More than one character
// in maxJunkShare of those read so far (once there are more than minJunk)
// fails the file, with the line of the first, as binary data when at least
// a tenth of the junk is control characters (an unknown encoding makes bad
// sequences, not controls); less is replaced with U+FFFD and reported with
// its lines as a warning.
const (
	sniffWindow  = 64 << 10
	minJunk      = 16
	maxJunkShare = 100 // one character in 100
	keepLines    = 5   // line numbers kept for the warning
)

type textMode int

const (
	modeUTF8    textMode = iota // "ASCII" while no other byte was seen
	modeDecoded                 // through an x/text decoder
)

// kind is the encoding the reader decodes now, for finding where its
// text ends (switch.go).
type kind int

const (
	kindUTF8 kind = iota
	kindUTF16LE
	kindUTF16BE
	kindUTF32
	kindCP949
)

// TextReader reads a text file as UTF-8, whatever of the supported
// encodings it is in, counting junk as it goes.
type TextReader struct {
	Encoding string // "UTF-8", "UTF-16LE", "EUC-KR/CP949", …; "ASCII" while nothing else was seen

	src   *bufio.Reader
	mode  textMode
	kind  kind
	enc   encoding.Encoding // for modeDecoded
	block []byte
	carry []byte // the start of a UTF-8 sequence cut at the end of a block
	rest  string // for Read: the part of a block not read yet

	// Where the file is (pos, bytes read), and what switch.go knows of
	// the encodings changing in it: the position of the last switch
	// (-1: none), how many there were, and the position before which junk
	// is not looked at again (a window after a look that found none).
	pos, lastSwitch, recheck int64
	switches                 int
	next                     *pendingSwitch // a change found ahead, made when the text before it is read

	line, runes int64
	junk        int64
	controls    int64 // junk that is NUL or another control character
	junkLines   []int64
	moreLines   bool // junk on more lines than junkLines holds
	eof         bool
}

// NewTextReader sniffs the start of r and returns a reader of its text,
// or an error wrapping ErrNotText for binary data or an unknown encoding.
func NewTextReader(r io.Reader) (*TextReader, error) {
	t := &TextReader{src: bufio.NewReaderSize(r, sniffWindow), line: 1, block: make([]byte, 32<<10), lastSwitch: -1}
	head, err := t.src.Peek(sniffWindow)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, err
	}
	if f := binaryFormat(head); f != "" {
		return nil, &NotTextError{Binary: true, Format: f, Line: 1}
	}
	if enc, name, bom := byBOM(head); enc != nil {
		_, _ = t.src.Discard(bom)
		t.use(enc, name)
		return t, nil
	}
	if err := t.decide(head, len(head) < sniffWindow, true); err != nil {
		return nil, err
	}
	if err := t.checkHead(head); err != nil {
		return nil, err
	}
	return t, nil
}

func byBOM(b []byte) (encoding.Encoding, string, int) {
	switch {
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE, 0, 0}):
		return utf32.UTF32(utf32.LittleEndian, utf32.IgnoreBOM), "UTF-32LE", 4
	case bytes.HasPrefix(b, []byte{0, 0, 0xFE, 0xFF}):
		return utf32.UTF32(utf32.BigEndian, utf32.IgnoreBOM), "UTF-32BE", 4
	case bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}):
		return encoding.Nop, "UTF-8", 3
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		return unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), "UTF-16LE", 2
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		return unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), "UTF-16BE", 2
	}
	return nil, "", 0
}

func (t *TextReader) use(enc encoding.Encoding, name string) {
	t.Encoding = name
	t.kind = kindOf(name)
	if enc == encoding.Nop {
		t.mode, t.enc = modeUTF8, nil
		return
	}
	t.mode, t.enc = modeDecoded, enc
}

// use16 reads UTF-16 in the given byte order.
func (t *TextReader) use16(bigEndian bool) {
	if bigEndian {
		t.use(unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), "UTF-16BE")
	} else {
		t.use(unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), "UTF-16LE")
	}
}

func kindOf(name string) kind {
	switch name {
	case "UTF-16LE":
		return kindUTF16LE
	case "UTF-16BE":
		return kindUTF16BE
	case "UTF-32LE", "UTF-32BE":
		return kindUTF32
	case "EUC-KR/CP949":
		return kindCP949
	}
	return kindUTF8
}

// decide picks the encoding from a window without a byte-order mark.
func (t *TextReader) decide(w []byte, atEOF, utf16OK bool) error {
	var nulEven, nulOdd int
	ascii := true
	for i, c := range w {
		if c == 0 {
			if i%2 == 0 {
				nulEven++
			} else {
				nulOdd++
			}
		}
		if c >= utf8.RuneSelf {
			ascii = false
		}
	}
	pairs := len(w) / 2
	le, be := textualShare(w, false), textualShare(w, true)
	if be32, ok := utf32Order(w, atEOF); ok && utf16OK {
		if be32 {
			t.use(utf32.UTF32(utf32.BigEndian, utf32.IgnoreBOM), "UTF-32BE")
		} else {
			t.use(utf32.UTF32(utf32.LittleEndian, utf32.IgnoreBOM), "UTF-32LE")
		}
		return nil
	}
	// A whole file under 64 bytes is too short for rules 2 and 4 (ten
	// NULs; 64 bytes): "안녕하세요" or "Hi" in UTF-16 (shortUTF16).
	var short16BE, short16 bool
	if utf16OK && atEOF && len(w) < 64 {
		short16BE, short16 = shortUTF16(w)
	}
	if short16 && nulEven+nulOdd > 0 {
		t.use16(short16BE)
		return nil
	}
	if asciiLineFirst(w) {
		t.use(encoding.Nop, "ASCII") // what follows the header is read where it begins
		return nil
	}
	if utf16OK && nulEven+nulOdd > 0 {
		switch {
		case nulOdd*50 >= pairs && nulOdd >= 10*(nulEven+1) && le >= 0.90:
			t.use(unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), "UTF-16LE")
			return nil
		case nulEven*50 >= pairs && nulEven >= 10*(nulOdd+1) && be >= 0.90:
			t.use(unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), "UTF-16BE")
			return nil
		}
	}
	switch {
	case ascii:
		t.use(encoding.Nop, "ASCII")
	case validUTF8(w, atEOF):
		t.use(encoding.Nop, "UTF-8")
	case utf16OK && len(w) >= 64 && max(le, be) >= 0.95 && distinctUnits(w) >= min(16, pairs/4) && !cp949(w, atEOF):
		t.use16(be > le)
	case short16 && !cp949(w, atEOF) && !hangulCP949(w):
		t.use16(short16BE)
	case cp949(w, atEOF) || short16:
		// short16 here: the file reads as Korean in CP949 too
		// (hangulCP949), which is far more often written without a
		// byte-order mark than UTF-16 is.
		t.use(korean.EUCKR, "EUC-KR/CP949")
	default:
		t.use(encoding.Nop, "UTF-8") // with junk, counted as it is read
	}
	return nil
}

// asciiLineFirst reports whether w starts with a whole line of ASCII text
// before its first NUL: a header before UTF-16 (an export's "Exported:
// 2026-11-27"), read as ASCII; the UTF-16 after it is found where it
// begins (switch.go). UTF-16 itself has a NUL in its first line.
func asciiLineFirst(w []byte) bool {
	nul := bytes.IndexByte(w, 0)
	if nul < 0 {
		return false
	}
	line := bytes.IndexByte(w[:nul], '\n')
	if line < 1 || line%2 == 0 && line+1 < len(w) && w[line+1] == 0 {
		return false // a UTF-16 LE line break ("\n\x00" at a unit's place): CJK whose bytes are all ASCII, not a header
	}
	for _, c := range w[:line] {
		if c >= utf8.RuneSelf || c < 0x20 && !allowedControl(rune(c)) {
			return false
		}
	}
	return true
}

// validUTF8 allows a sequence cut by the end of the window.
func validUTF8(w []byte, atEOF bool) bool {
	if !atEOF {
		w = w[:len(w)-incompleteTail(w)]
	}
	return utf8.Valid(w)
}

// incompleteTail is the length of a UTF-8 sequence cut off at the end of b.
func incompleteTail(b []byte) int {
	for i := 1; i <= min(3, len(b)); i++ {
		c := b[len(b)-i]
		if c < utf8.RuneSelf {
			return 0
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return i
			}
			return 0
		}
	}
	return 0
}

// cp949 reports whether w decodes as CP949 without error and looks like
// Korean rather than Latin-1 read as CP949 (see the heuristics above).
func cp949(w []byte, atEOF bool) bool {
	inRows, double, highTrail := 0, 0, 0
	for i := 0; i < len(w); {
		c := w[i]
		if c < 0x80 {
			i++
			continue
		}
		if i+1 >= len(w) {
			return !atEOF // a lead byte cut by the window
		}
		d := w[i+1]
		if c < 0x81 || c == 0xFF || !(0x41 <= d && d <= 0x5A || 0x61 <= d && d <= 0x7A || 0x81 <= d && d <= 0xFE) {
			return false
		}
		double++
		if c >= 0xA1 && d >= 0xA1 {
			inRows++
		} else if d >= 0x81 {
			highTrail++
		}
		i += 2
	}
	if double == 0 {
		return false
	}
	if inRows*2 < double && !extensionHangul(double, inRows, highTrail) {
		return false
	}
	// The table has holes the byte ranges above do not show.
	out, err := korean.EUCKR.NewDecoder().Bytes(w[:len(w)-cutLead(w, atEOF)])
	return err == nil && !bytes.ContainsRune(out, utf8.RuneError)
}

// cutLead is 1 when the window ends inside a two-byte character.
func cutLead(w []byte, atEOF bool) int {
	if atEOF {
		return 0
	}
	n := 0
	for i := 0; i < len(w); {
		if w[i] < 0x80 {
			i++
			n = 0
			continue
		}
		if i+1 >= len(w) {
			n = 1
		}
		i += 2
	}
	return n
}

// textualShare is the share of w's UTF-16 code units (read in the given
// byte order) in the blocks text is written in.
func textualShare(w []byte, bigEndian bool) float64 {
	n, ok := 0, 0
	for i := 0; i+1 < len(w); i += 2 {
		u := rune(w[i]) | rune(w[i+1])<<8
		if bigEndian {
			u = rune(w[i])<<8 | rune(w[i+1])
		}
		n++
		if 0xD800 <= u && u <= 0xDBFF && i+3 < len(w) { // a surrogate pair: emoji and rare Han
			lo := rune(w[i+2]) | rune(w[i+3])<<8
			if bigEndian {
				lo = rune(w[i+2])<<8 | rune(w[i+3])
			}
			if 0xDC00 <= lo && lo <= 0xDFFF {
				ok += 2
				n++
				i += 2
			}
			continue
		}
		if textual(u) {
			ok++
		}
	}
	if n == 0 {
		return 0
	}
	return float64(ok) / float64(n)
}

// distinctUnits counts the different byte pairs in w, up to 64.
func distinctUnits(w []byte) int {
	seen := map[[2]byte]bool{}
	for i := 0; i+1 < len(w) && len(seen) < 64; i += 2 {
		seen[[2]byte{w[i], w[i+1]}] = true
	}
	return len(seen)
}

// textual is true for the code points of the scripts, punctuation and
// symbols people write text in; about half of the BMP, so random pairs of
// bytes score near 0.5.
func textual(u rune) bool {
	for _, r := range textualRanges {
		if u < r[0] {
			return false
		}
		if u <= r[1] {
			return true
		}
	}
	return false
}

var textualRanges = [][2]rune{
	{0x09, 0x0A}, {0x0D, 0x0D}, {0x20, 0x7E},
	{0xA0, 0x24F},    // Latin-1, Latin Extended
	{0x370, 0x52F},   // Greek, Cyrillic
	{0x590, 0x6FF},   // Hebrew, Arabic
	{0xE00, 0xE7F},   // Thai
	{0x1100, 0x11FF}, // Hangul Jamo
	{0x2000, 0x27BF}, // punctuation, currency, letterlike, arrows, maths, box drawing, symbols
	{0x3000, 0x30FF}, // CJK punctuation, kana
	{0x3130, 0x318F}, // Hangul compatibility Jamo
	{0x3200, 0x33FF}, // enclosed CJK, compatibility
	{0x4E00, 0x9FFF}, // CJK ideographs
	{0xAC00, 0xD7A3}, // Hangul syllables
	{0xFF00, 0xFFEF}} // full-width forms

// checkHead fails at once on a window that is mostly junk, so a binary
// file is refused before anything is stored. The window is read as the
// file will be, encodings changing in it included (switch.go).
func (t *TextReader) checkHead(head []byte) error {
	if t.mode == modeDecoded {
		return nil // chosen because the window decoded well
	}
	probe := &TextReader{Encoding: t.Encoding, mode: t.mode, kind: t.kind, enc: t.enc, line: 1, lastSwitch: -1,
		src: bufio.NewReaderSize(bytes.NewReader(head), sniffWindow), block: make([]byte, 32<<10)}
	for {
		if _, err := probe.Next(); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// Next returns the next block of text (whole characters, valid UTF-8), or
// io.EOF after the last. It fails with ErrNotText once junk passes the
// limit. Where junk begins, it looks whether the file goes on in another
// encoding (switch.go) and reads it so from there.
func (t *TextReader) Next() (string, error) {
	for {
		if t.eof {
			return "", io.EOF
		}
		w, err := t.src.Peek(len(t.block))
		if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
			return "", err
		}
		atEOF := errors.Is(err, io.EOF)
		n := len(w) - t.partialTail(w, atEOF)
		if t.next != nil && t.next.at == t.pos {
			t.switchNow()
			continue
		}
		if j := t.firstJunk(w[:n]); j >= 0 && t.pos+int64(j) >= t.recheck {
			at, ok := t.findSwitch(w[:j])
			// findSwitch peeks a window ahead, which may slide the
			// reader's buffer under w: w is taken again, at the same
			// place (nothing was read). Before, the text up to a change
			// of encoding was read from bytes further on (a file of
			// UTF-8 and EUC-KR in turn, once past 40 KB, read UTF-8 lines
			// as EUC-KR and was refused).
			if w, err = t.src.Peek(len(t.block)); err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
				return "", err
			}
			if !ok {
				t.recheck = t.pos + sniffWindow // junk of this encoding
			} else if at > 0 {
				n = at // the text before the change, first
			} else {
				continue
			}
		}
		raw := w[:n]
		if t.mode == modeDecoded {
			out, derr := t.enc.NewDecoder().Bytes(raw)
			if derr != nil {
				out = bytes.ToValidUTF8(raw, []byte("\uFFFD"))
			}
			raw = out
		}
		out := t.clean(nil, raw, true)
		_, _ = t.src.Discard(n)
		t.pos += int64(n)
		t.eof = atEOF && n == len(w)
		if jerr := t.tooMuchJunk(); jerr != nil {
			return "", jerr
		}
		if len(out) > 0 {
			return string(out), nil
		}
	}
}

// clean appends raw (UTF-8 that may be broken) to dst with every junk
// character replaced by U+FFFD and counted with its line. A sequence cut at
// the end of raw waits for the next block unless atEOF.
func (t *TextReader) clean(dst, raw []byte, atEOF bool) []byte {
	if len(t.carry) > 0 {
		raw = append(t.carry, raw...)
		t.carry = nil
	}
	if !atEOF {
		if n := incompleteTail(raw); n > 0 {
			t.carry = append([]byte(nil), raw[len(raw)-n:]...)
			raw = raw[:len(raw)-n]
		}
	}
	start := 0
	for i := 0; i < len(raw); {
		c := raw[i]
		if c >= 0x20 && c < utf8.RuneSelf || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == 0x1B {
			if c == '\n' {
				t.line++
			}
			t.runes++
			i++
			continue
		}
		r, size := rune(c), 1
		if c >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(raw[i:])
		}
		t.runes++
		bad := r < 0x20 || r == utf8.RuneError && (size == 1 || t.mode == modeDecoded)
		if !bad {
			if t.Encoding == "ASCII" {
				t.Encoding = "UTF-8"
			}
			i += size
			continue
		}
		if r < 0x20 {
			t.controls++
		}
		t.junk++
		if n := len(t.junkLines); n == 0 || t.junkLines[n-1] != t.line {
			if n < keepLines {
				t.junkLines = append(t.junkLines, t.line)
			} else {
				t.moreLines = true
			}
		}
		dst = append(dst, raw[start:i]...)
		dst = append(dst, "\uFFFD"...)
		i += size
		start = i
	}
	return append(dst, raw[start:]...)
}

// NotTextError is ErrNotText with its parts, so that the window can say it
// in the person's language: Binary when the junk is mostly control bytes
// (binary data), else invalid sequences of an encoding Wayfinder does not
// read; Junk of the first Runes characters, the first on Line. Format
// names a binary format known by its first bytes (binaryFormat).
type NotTextError struct {
	Binary      bool
	Format      string
	Junk, Runes int64
	Line        int64
}

func (e *NotTextError) Error() string {
	if e.Format != "" {
		return fmt.Sprintf("%v: it is binary data (%s, by its first bytes)", ErrNotText, e.Format)
	}
	if e.Binary {
		return fmt.Sprintf("%v: it looks like binary data (%d control or invalid bytes in the first %d characters, the first on line %d)",
			ErrNotText, e.Junk, e.Runes, e.Line)
	}
	return fmt.Sprintf("%v: %d invalid byte sequences in the first %d characters, the first on line %d; Wayfinder reads UTF-8, UTF-16 and EUC-KR/CP949 text",
		ErrNotText, e.Junk, e.Runes, e.Line)
}

// Is makes errors.Is(err, ErrNotText) hold.
func (e *NotTextError) Is(target error) bool { return target == ErrNotText }

func (t *TextReader) tooMuchJunk() error {
	if t.junk <= minJunk || t.junk*maxJunkShare <= t.runes {
		return nil
	}
	return &NotTextError{Binary: t.controls*10 >= t.junk, Junk: t.junk, Runes: t.runes, Line: t.junkLines[0]}
}

// Replaced is the warning about junk that was replaced with U+FFFD: how
// many characters, on which lines (the first few; More when there were
// others). It is an error so that it travels as one, and its parts let
// the window say it in the person's language.
type Replaced struct {
	Count int64
	Lines []int64
	More  bool
}

func (r *Replaced) Error() string {
	lines := make([]string, len(r.Lines))
	for i, l := range r.Lines {
		lines[i] = fmt.Sprint(l)
	}
	where := "line"
	if len(lines) > 1 {
		where = "lines"
	}
	more := ""
	if r.More {
		more = " and later"
	}
	noun := "character"
	if r.Count > 1 {
		noun = "characters"
	}
	return fmt.Sprintf("%d invalid %s replaced with \uFFFD (%s %s%s)", r.Count, noun, where, strings.Join(lines, ", "), more)
}

// Replacement is the junk that was replaced, or nil when there was none.
func (t *TextReader) Replacement() *Replaced {
	if t.junk == 0 {
		return nil
	}
	return &Replaced{Count: t.junk, Lines: slices.Clone(t.junkLines), More: t.moreLines}
}

// Warning describes the junk that was replaced, or is "" when there was none.
func (t *TextReader) Warning() string {
	if r := t.Replacement(); r != nil {
		return r.Error()
	}
	return ""
}

// Read implements io.Reader over Next, for decoders that want bytes.
func (t *TextReader) Read(p []byte) (int, error) {
	for t.rest == "" {
		s, err := t.Next()
		if err != nil {
			return 0, err
		}
		t.rest = s
	}
	n := copy(p, t.rest)
	t.rest = t.rest[n:]
	return n, nil
}
