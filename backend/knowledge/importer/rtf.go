package importer

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
)

// Rich Text Format (.rtf) is what TextEdit on a Mac and WordPad save by
// default, and what Word exports as "RTF". No well-kept Go package reads
// it, and its text is a small grammar, so it is read here: groups in
// braces, control words ("\par", "\u54620", "\'c7"), and text. Only the
// document's text is kept, a paragraph whose style or own properties give
// it an outline level (Word's and LibreOffice's headings) as a heading: the font, colour and style tables, pictures,
// objects, field instructions, headers and footers and every "\*" group
// (a destination a reader may skip) are left out; "\par" ends a
// paragraph, a table's "\cell" and "\row" make its rows lines with their
// cells between " | ". Bytes given as "\'hh" (and any outside ASCII) are
// decoded in the code page the document or its font names ("\ansicpg949",
// "\fcharset129": Korean, as Word writes it), "\uN" is a Unicode
// character followed by \ucN characters for readers without Unicode,
// which are skipped.

const (
	// maxRTFDepth bounds the nesting of groups (Word nests a dozen deep).
	maxRTFDepth = 1000
	// maxRTFStyles bounds the heading styles kept from the style sheet.
	maxRTFStyles = 10_000
	// maxRTFFonts bounds the fonts whose code page is kept (a document
	// names tens): a table of 5 million in 129 MB held 342 MiB, and one
	// of 512 MB would have held over a gigabyte.
	maxRTFFonts = 10_000
)

// rtfSkip names the destinations whose text is not the document's.
var rtfSkip = set("fonttbl", "colortbl", "info", "pict", "object", "fldinst", "header", "headerl", "headerr",
	"headerf", "footer", "footerl", "footerr", "footerf", "listtable", "listoverridetable", "revtbl", "rsidtbl", "themedata",
	"colorschememapping", "datastore", "latentstyles", "xmlnstbl", "filetbl", "generator", "userprops", "nonshppict", "bkmkstart",
	"bkmkend", "field-instruction", "template", "docvar", "background", "pgdsctbl", "mmathPr", "operator", "comment", "annotation",
	"atnid", "atnauthor", "atrfstart", "atrfend", "xe", "tc", "sp", "sn", "sv", "shpinst", "shptxt")

// rtfSymbols are the control words that stand for a character.
var rtfSymbols = map[string]string{
	"line": "\n", "tab": "\t", "emdash": "—", "endash": "–", "emspace": " ", "enspace": " ", "qmspace": " ",
	"bullet": "•", "lquote": "‘", "rquote": "’", "ldblquote": "“", "rdblquote": "”", "~": "\u00a0", "_": "-",
}

// rtfGroup is the state a group keeps and its end restores.
type rtfGroup struct {
	skip   bool
	uc     int               // fallback characters after \uN
	codec  encoding.Encoding // the code page of the text
	fonts  bool              // inside the font table
	styles bool              // inside the style sheet
	intbl  bool              // the paragraph is in a table's cell: \par does not end the row
	level  int               // the paragraph's heading level (1–6), from its style or \outlinelevel; 0: body text
}

// rtfReader reads an RTF document's text.
type rtfReader struct {
	in      *bufio.Reader
	w       *mdWriter
	stack   []rtfGroup
	g       rtfGroup
	doc     encoding.Encoding         // \ansicpg's
	fontCP  map[int]encoding.Encoding // each font's code page, from its \fcharset
	font    int                       // the font being defined in the font table
	style   int                       // the style being defined in the style sheet
	levels  map[int]int               // each paragraph style's heading level, from its \outlinelevel
	para    strings.Builder
	row     []string // the cells of a table row so far
	bytes   []byte   // \'hh bytes waiting to be decoded together (a Korean character is two)
	raw     bool     // they came as they are, not as \'hh: UTF-8 when they are valid UTF-8
	pending int      // fallback characters still to skip after \uN
	rowHeld int      // the bytes of row's cells
	high    rune     // the first half of a UTF-16 pair, waiting for the second
	src     *countingReader
	cut     *CutShort // the file ended before the document did
	// line counts the line breaks read; controls the control bytes,
	// the first on line junkLine (binary data: see read)
	line, controls, junkLine int64
}

// countingReader counts the bytes read through it, for saying where a
// file ends.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// pos is the offset of the next byte x reads.
func (x *rtfReader) pos() int64 { return x.src.n - int64(x.in.Buffered()) }

// readRTF reads an RTF document. One that ends before its last group
// does (a file cut short), or inside binary data it announced (\binN
// with N past the end), gives the text read up to there and says so in a
// warning (*CutShort), rather than keeping the loss quiet.
func readRTF(ctx context.Context, path string, r io.Reader, sink Sink, warn *warnings) error {
	count := &countingReader{r: r}
	x := &rtfReader{
		src:    count,
		in:     bufio.NewReaderSize(count, 64<<10),
		w:      &mdWriter{sink: sink, doc: Document{Title: baseName(path), Source: path, Kind: KindRTF, Markdown: true}},
		doc:    charmap.Windows1252,
		fontCP: map[int]encoding.Encoding{},
		levels: map[int]int{},
	}
	if head, err := x.in.Peek(5); err != nil || string(head) != `{\rtf` {
		return fmt.Errorf("%w: not an RTF document", ErrOfficeDamaged)
	}
	_, _ = x.in.ReadByte() // the document's group, whose end ends the reading
	x.g = rtfGroup{uc: 1, codec: x.doc}
	x.stack = append(x.stack, x.g)
	if err := x.read(ctx); err != nil {
		return err
	}
	if err := x.endParagraph(); err != nil {
		return err
	}
	if x.cut != nil {
		warn.add(x.cut)
	} else if rest, err := x.after(ctx); err != nil {
		return err
	} else if rest != nil {
		warn.add(rest)
	}
	return x.w.end()
}

// after looks at what follows the document's last brace: nothing, or
// spaces and NULs (some writers pad the file), is as it should be; more
// (a second document appended to the first, or the rest of one whose
// braces close early) is not read, and said to be.
func (x *rtfReader) after(ctx context.Context) (*Trailing, error) {
	end := x.pos()
	var n int64
	for {
		b, err := x.in.ReadByte()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if n++; n%(64<<10) == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if b > ' ' && b != 0x7f {
			return &Trailing{At: end}, nil
		}
	}
	return nil, nil
}

func (x *rtfReader) read(ctx context.Context) error {
	for n := 0; ; n++ {
		if n%(64<<10) == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		c, err := x.in.ReadByte()
		if errors.Is(err, io.EOF) {
			x.flushBytes()
			if x.cut == nil { // a document cut short keeps what it had, and says so
				x.cut = &CutShort{At: x.pos(), Open: len(x.stack)}
			}
			return nil
		}
		if err != nil {
			return err
		}
		switch c {
		case '{':
			x.flushBytes()
			if len(x.stack) >= maxRTFDepth {
				return &OfficeLimitError{What: "nesting of groups"}
			}
			x.stack = append(x.stack, x.g)
			if x.g.fonts {
				x.font = -1
			}
			if x.g.styles {
				x.style = 0 // a style without \sN is the default one
			}
		case '}':
			x.flushBytes()
			if len(x.stack) <= 1 {
				return nil // the document's end
			}
			x.g = x.stack[len(x.stack)-1]
			x.stack = x.stack[:len(x.stack)-1]
			x.pending = 0
		case '\\':
			if err := x.control(); err != nil {
				return err
			}
			if x.para.Len() >= maxHeld { // a paragraph without end goes on as the next
				if err := x.endParagraph(); err != nil {
					return err
				}
			}
		case '\n':
			x.line++
		case '\r':
		default:
			if c < 0x20 && c != '\t' {
				// RTF is text: a control byte has no place in it
				// outside \bin's data. A document whose body was
				// 3 MB of random bytes imported 3,600 chunks of them
				// without a word; past 32, and more than one byte in
				// a hundred read, it is binary data, as a text file's
				// would be (a stray few are not).
				if x.controls++; x.controls == 1 {
					x.junkLine = x.line + 1
				}
				if x.controls > 32 && x.controls*100 > x.pos() {
					return &NotTextError{Binary: true, Junk: x.controls, Runes: x.pos(), Line: x.junkLine}
				}
			}
			if x.pending > 0 {
				x.pending--
				continue
			}
			if c >= 0x80 {
				x.hold(c, true)
			} else {
				x.flushBytes()
				x.text(string(rune(c)))
			}
			if x.para.Len() >= maxHeld {
				if err := x.endParagraph(); err != nil {
					return err
				}
			}
		}
	}
}

// control reads what follows a backslash.
func (x *rtfReader) control() error {
	c, err := x.in.ReadByte()
	if err != nil {
		return nil
	}
	if !isASCIILetter(c) {
		switch c {
		case '\'':
			var h [2]byte
			if _, err := io.ReadFull(x.in, h[:]); err != nil {
				return nil
			}
			b, ok := hexByte(h)
			if !ok {
				return nil
			}
			if x.pending > 0 {
				x.pending--
				return nil
			}
			x.hold(b, false)
		case '*':
			x.g.skip = true // a destination this reader does not know
		case '\\', '{', '}':
			x.flushBytes()
			x.text(string(rune(c)))
		case '\r', '\n':
			x.flushBytes()
			return x.endParagraph() // "\" before a line break is \par
		default:
			x.flushBytes()
			if s, ok := rtfSymbols[string(rune(c))]; ok {
				x.text(s)
			}
		}
		return nil
	}
	word := []byte{c}
	for len(word) < 32 {
		c, err = x.in.ReadByte()
		if err != nil || !isASCIILetter(c) {
			break
		}
		word = append(word, c)
	}
	var num []byte
	if err == nil && (c == '-' || c >= '0' && c <= '9') {
		for len(num) < 10 && err == nil && (c == '-' && len(num) == 0 || c >= '0' && c <= '9') {
			num = append(num, c)
			c, err = x.in.ReadByte()
		}
	}
	if err == nil && c != ' ' {
		_ = x.in.UnreadByte() // the delimiter is the next token's
	}
	n, hasN := atoiSigned(num)
	return x.word(string(word), n, hasN)
}

// word acts on a control word with its parameter.
func (x *rtfReader) word(w string, n int, hasN bool) error {
	if w != "u" {
		x.flushBytes()
	}
	switch {
	case w == "bin" && hasN && n > 0:
		at := x.pos()
		skipped, err := x.in.Discard(n) // binary data
		if errors.Is(err, io.EOF) {
			x.cut = &CutShort{At: x.pos(), Open: len(x.stack), Binary: int64(n - skipped), BinaryAt: at}
			return nil
		}
		return err
	case w == "stylesheet":
		x.g.skip, x.g.styles = true, true
	case x.g.styles && w == "s" && hasN:
		x.style = n
	case x.g.styles && w == "outlinelevel" && hasN && len(x.levels) < maxRTFStyles:
		if n >= 0 && n <= 8 { // Word's 9 is body text
			x.levels[x.style] = min(n+1, 6)
		}
	case x.g.styles:
	case rtfSkip[w]:
		x.g.skip = true
		if w == "fonttbl" {
			x.g.fonts, x.g.skip = true, true
		}
	case w == "s" && hasN:
		x.g.level = x.levels[n]
	case w == "outlinelevel" && hasN:
		x.g.level = 0
		if n >= 0 && n <= 8 {
			x.g.level = min(n+1, 6)
		}
	case x.g.fonts && w == "f" && hasN:
		x.font = n
	case x.g.fonts && w == "fcharset" && hasN && x.font >= 0:
		if _, ok := x.fontCP[x.font]; !ok && len(x.fontCP) >= maxRTFFonts {
			return &OfficeLimitError{What: "number of fonts"}
		}
		if enc := charsetCodec(n); enc != nil {
			x.fontCP[x.font] = enc
		}
	case w == "ansicpg" && hasN:
		if enc := codePage(n); enc != nil {
			x.doc, x.g.codec = enc, enc
			x.stack[0].codec = enc
		}
	case w == "f" && hasN:
		if enc, ok := x.fontCP[n]; ok {
			x.g.codec = enc
		} else {
			x.g.codec = x.doc
		}
	case w == "uc" && hasN && n >= 0:
		x.g.uc = min(n, 8)
	case w == "u" && hasN:
		x.flushBytes()
		if n < 0 {
			n += 65536
		}
		x.unicode(rune(n))
		x.pending = x.g.uc
	case w == "pard":
		x.g.intbl, x.g.level = false, 0
	case w == "intbl":
		x.g.intbl = true
	case w == "par" && x.g.intbl:
		x.text(" ") // a paragraph inside a cell
	case w == "par" || w == "sect" || w == "page":
		return x.endParagraph()
	case w == "cell" || w == "nestcell":
		if c := strings.TrimSpace(x.para.String()); c != "" { // an empty cell is not written
			x.row = append(x.row, c)
			x.rowHeld += len(c) + len(cellSep)
		}
		x.para.Reset()
		if x.rowHeld >= maxHeld { // a row without end goes on as the next line
			return x.endRow()
		}
	case w == "row" || w == "nestrow":
		return x.endRow()
	default:
		if s, ok := rtfSymbols[w]; ok {
			x.text(s)
		}
	}
	return nil
}

func (x *rtfReader) text(s string) {
	if x.g.skip || x.g.fonts {
		return
	}
	if x.pending > 0 { // a fallback character after \uN
		x.pending--
		return
	}
	if x.high != 0 { // half a pair, without its other half
		x.high = 0
		x.para.WriteRune(utf8.RuneError)
	}
	x.para.WriteString(s)
}

// unicode writes the character of a \uN. A character outside the Basic
// Multilingual Plane (an emoji, a rare Hanja) is written as UTF-16 does,
// in two halves, "\u-10179?\u-8704?": the first is held until the second
// comes; alone, either is U+FFFD.
func (x *rtfReader) unicode(r rune) {
	switch {
	case utf16.IsSurrogate(r) && r < 0xDC00:
		if x.g.skip || x.g.fonts {
			return
		}
		if x.high != 0 {
			x.para.WriteRune(utf8.RuneError)
		}
		x.pending, x.high = 0, r
	case utf16.IsSurrogate(r) && x.high != 0:
		pair := utf16.DecodeRune(x.high, r)
		x.high = 0
		x.text(string(pair))
	default:
		x.text(string(r))
	}
}

// hold adds a byte given as \'hh (raw false) or above ASCII (raw true) to
// those waiting to be decoded together. They are decoded once maxRTFBytes
// are held but for a character cut in two: before, 100 MB of "\'hh" were
// held whole, decoded at once and written as one paragraph (the budget of
// one held paragraph is maxHeld).
func (x *rtfReader) hold(b byte, raw bool) {
	if x.raw != raw {
		x.flushBytes()
	}
	x.bytes, x.raw = append(x.bytes, b), raw
	if len(x.bytes) < maxRTFBytes {
		return
	}
	held := x.bytes
	n := len(held)
	if i := lastRuneStart(held); x.raw && utf8.Valid(held[:i]) {
		n = i
		if !x.g.skip && !x.g.fonts {
			x.para.Write(held[:n])
		}
	} else {
		dst := make([]byte, 4*len(held))
		nDst, nSrc, _ := x.g.codec.NewDecoder().Transform(dst, held, false) // a character cut in two stays held
		n = nSrc
		if !x.g.skip && !x.g.fonts {
			x.para.Write([]byte(strings.ToValidUTF8(string(dst[:nDst]), "\uFFFD")))
		}
	}
	x.bytes = x.bytes[:copy(x.bytes, held[n:])]
}

// maxRTFBytes bounds the bytes held to be decoded together.
const maxRTFBytes = 64 << 10

// lastRuneStart is where the character b ends in the middle of begins, or
// len(b).
func lastRuneStart(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if utf8.FullRune(b[i:]) {
				return len(b)
			}
			return i
		}
	}
	return len(b)
}

// flushBytes decodes the bytes given as \'hh (or above ASCII) in the
// group's code page.
func (x *rtfReader) flushBytes() {
	if len(x.bytes) == 0 {
		return
	}
	b := x.bytes
	x.bytes = x.bytes[:0]
	if x.g.skip || x.g.fonts {
		return
	}
	// Some programs write UTF-8 as it is, against the format; a code
	// page's Korean is not valid UTF-8.
	if x.raw && utf8.Valid(b) {
		x.para.Write(b)
		return
	}
	s, err := x.g.codec.NewDecoder().Bytes(b)
	if err != nil || !utf8.Valid(s) {
		s = []byte(strings.ToValidUTF8(string(b), "\uFFFD"))
	}
	x.para.Write(s)
}

func (x *rtfReader) endParagraph() error {
	if len(x.row) > 0 { // a row whose \row never came
		return x.endRow()
	}
	text := x.para.String()
	x.para.Reset()
	return x.w.paragraph(text, x.g.level)
}

func (x *rtfReader) endRow() error {
	if rest := strings.TrimSpace(x.para.String()); rest != "" {
		x.row = append(x.row, rest)
	}
	x.para.Reset()
	var cells []string
	for _, c := range x.row {
		if c != "" {
			cells = append(cells, c)
		}
	}
	x.row, x.rowHeld = x.row[:0], 0
	return x.w.paragraph(strings.Join(cells, cellSep), 0)
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func hexByte(h [2]byte) (byte, bool) {
	var b byte
	for _, c := range h {
		switch {
		case c >= '0' && c <= '9':
			b = b<<4 | (c - '0')
		case c|0x20 >= 'a' && c|0x20 <= 'f':
			b = b<<4 | (c | 0x20 - 'a' + 10)
		default:
			return 0, false
		}
	}
	return b, true
}

func atoiSigned(b []byte) (int, bool) {
	if len(b) == 0 || len(b) == 1 && b[0] == '-' {
		return 0, false
	}
	n, neg := 0, b[0] == '-'
	for _, c := range b {
		if c != '-' {
			n = n*10 + int(c-'0')
		}
	}
	if neg {
		n = -n
	}
	return n, true
}

// codePage is the encoding of a Windows code page an RTF document names.
func codePage(cp int) encoding.Encoding {
	switch cp {
	case 949:
		return korean.EUCKR // x/text's EUC-KR decodes all of CP949 (UHC)
	case 932:
		return japanese.ShiftJIS
	case 936:
		return simplifiedchinese.GBK
	case 950:
		return traditionalchinese.Big5
	case 1252:
		return charmap.Windows1252
	case 1250:
		return charmap.Windows1250
	case 1251:
		return charmap.Windows1251
	case 65001:
		return encoding.Nop
	}
	return nil
}

// charsetCodec is the code page of a font's \fcharset.
func charsetCodec(cs int) encoding.Encoding {
	switch cs {
	case 129: // Hangul
		return codePage(949)
	case 128:
		return codePage(932)
	case 134:
		return codePage(936)
	case 136:
		return codePage(950)
	case 0:
		return codePage(1252)
	case 238:
		return codePage(1250)
	case 204:
		return codePage(1251)
	}
	return nil
}
