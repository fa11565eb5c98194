package importer

import (
	"encoding/xml"
	"fmt"
	"io"
)

// newDecoder is an XML decoder of r for the readers of office parts,
// behind xmlGuard, in whatever encoding the part is (xmlcharset.go).
func newDecoder(r io.Reader) *xml.Decoder {
	d := xml.NewDecoder(&xmlGuard{r: xmlUTF8(r)})
	d.CharsetReader = xmlCharset // xmlcharset.go
	d.Strict = true
	return d
}

// maxTag bounds one tag's bytes, its attributes with it: an element's
// attributes are built whole, each about a hundred bytes of memory, before
// the decoder hands the element on.
const maxTag = 1 << 20

// maxNest bounds how deep elements nest. The decoder keeps every open
// element (about 180 bytes of memory each), and only the Word, HWPX,
// OpenDocument text and slide readers stopped at 1,000 (maxOfficeDepth):
// an Excel sheet nested 2.7 million deep (19 MB of XML, a 20 KB file)
// imported at 546 MiB, an .ods at 576 MiB in 22 s, and the 64 MB a file
// may unpack to hold nine million. A million is far past any workbook's
// (tables in cells 100,000 deep read at 111 MiB) and costs at most
// about 190 MB.
const maxNest = 1_000_000

// maxDecls bounds a part's namespace declarations (xmlns, xmlns:p). The
// decoder keeps those of every open element, and each tag may be 1 MB:
// sixty Word runs nested, each declaring 65,000 (a 616 KB .docx, 55 MB of
// XML), imported at 627 MiB, within the nesting of 1,000 and the tag's
// megabyte. Programs declare namespaces on the root and on a drawing's
// few elements: 200,000 would be 100,000 pictures, five times the parts
// an archive may hold, and cost some 36 MB.
const maxDecls = 200_000

// xmlGuard checks what encoding/xml would take whole before a reader can
// count it, as the bytes go by:
//
//   - a control character XML does not allow anywhere (all below U+0020
//     but tab, line feed and carriage return) fails the part at once, as
//     the decoder would, but only after holding the run of text around
//     it whole: a part followed by junk (one read from its own header
//     whose end was lost, 64 MB of it) held the run, twice over as its
//     buffer grew, 170 MiB for the same error;
//   - a tag longer than maxTag is past the limit: one element of ten
//     million attributes (`<w:t a="" a="" …>`, a 92 KB Word file) took
//     1.8 GB and 20 s, namespace declarations 1.5 GB, all within the
//     64 MB of XML a file may unpack to;
//   - elements nested more than maxNest deep, and more than maxDecls
//     namespace declarations, are past the limit.
//
// Comments, CDATA sections, processing instructions and directives are
// told apart from tags (a quote or '>' inside them is theirs); a quote
// opens an attribute's value only in a tag.
type xmlGuard struct {
	r     io.Reader
	at    int64 // the bytes read before
	err   error
	state guardState
	quote byte    // the quote of the attribute value open in a tag, or 0
	tag   int     // the bytes of the tag open
	tail  [2]byte // the last two bytes, for the ends of comments, CDATA and instructions
	depth int     // '<' open in a directive
	nest  int     // elements open
	start bool    // the tag open is a start tag (not an end tag)
	decls int     // namespace declarations
	nsAt  int     // how much of "xmlns" an attribute's name has matched; -1: none
}

type guardState uint8

const (
	inText      guardState = iota
	afterLT                // '<' read
	afterBang              // "<!" read
	afterDash              // "<!-" read
	inTag                  // a start or end tag
	inComment              // "<!--" … "-->"
	inCDATA                // "<![" … "]]>"
	inPI                   // "<?" … "?>"
	inDirective            // "<!DOCTYPE" … '>'
)

func (x *xmlGuard) Read(p []byte) (int, error) {
	if x.err != nil {
		return 0, x.err
	}
	n, err := x.r.Read(p)
	for i, c := range p[:n] {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
			x.err = fmt.Errorf("XML syntax error at byte %d: illegal character code U+%04X", x.at+int64(i), c)
		} else if x.step(c) {
			x.err = &OfficeLimitError{What: fmt.Sprintf("length of one element's tag (%d MB)", maxTag>>20)}
		} else if x.nest > maxNest {
			x.err = &OfficeLimitError{What: "nesting of elements"}
		} else if x.decls > maxDecls {
			x.err = &OfficeLimitError{What: "number of namespace declarations"}
		}
		if x.err != nil {
			x.at += int64(i)
			return i, nil
		}
	}
	x.at += int64(n)
	return n, err
}

// step moves the guard past c, and says whether a tag is past maxTag.
func (x *xmlGuard) step(c byte) bool {
	t := x.tail
	x.tail = [2]byte{t[1], c}
	switch x.state {
	case inText:
		if c == '<' {
			x.state = afterLT
		}
	case afterLT:
		switch c {
		case '!':
			x.state = afterBang
		case '?':
			x.state, x.tail = inPI, [2]byte{}
		default:
			x.state, x.tag, x.quote, x.nsAt = inTag, 2, 0, -1
			if x.start = c != '/'; x.start {
				x.nest++
			} else if x.nest > 0 {
				x.nest--
			}
			return x.tagByte(c)
		}
	case afterBang:
		switch c {
		case '-':
			x.state = afterDash
		case '[':
			x.state, x.tail = inCDATA, [2]byte{}
		default:
			x.state, x.quote, x.depth = inDirective, 0, 0
			return x.step(c)
		}
	case afterDash:
		if c == '-' {
			x.state, x.tail = inComment, [2]byte{}
		} else {
			x.state, x.quote, x.depth = inDirective, 0, 0
			return x.step(c)
		}
	case inTag:
		x.tag++
		if x.tag > maxTag {
			return true
		}
		return x.tagByte(c)
	case inComment:
		if c == '>' && t == [2]byte{'-', '-'} {
			x.state = inText
		}
	case inCDATA:
		if c == '>' && t == [2]byte{']', ']'} {
			x.state = inText
		}
	case inPI:
		if c == '>' && t[1] == '?' {
			x.state = inText
		}
	case inDirective:
		switch {
		case x.quote != 0:
			if c == x.quote {
				x.quote = 0
			}
		case c == '"' || c == '\'':
			x.quote = c
		case c == '<':
			x.depth++
		case c == '>' && x.depth > 0:
			x.depth--
		case c == '>':
			x.state = inText
		}
	}
	return false
}

// tagByte follows c in a tag: its attributes' quotes, and its end.
func (x *xmlGuard) tagByte(c byte) bool {
	switch {
	case x.quote != 0:
		if c == x.quote {
			x.quote = 0
		}
	case c == '"' || c == '\'':
		x.quote = c
	case c == '>':
		x.state = inText
		if x.start && x.tail[0] == '/' && x.nest > 0 { // <empty/> closes itself
			x.nest--
		}
	default:
		x.declByte(c)
	}
	return false
}

// declByte follows c in a tag outside quotes, counting the attributes
// named xmlns or xmlns:p (white space, then "xmlns", then ':' or '=',
// white space allowed before the '=').
func (x *xmlGuard) declByte(c byte) {
	const name = "xmlns"
	switch {
	case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		if x.nsAt != len(name) {
			x.nsAt = 0
		}
	case x.nsAt >= 0 && x.nsAt < len(name) && c == name[x.nsAt]:
		x.nsAt++
	case x.nsAt == len(name) && (c == ':' || c == '='):
		x.decls++
		x.nsAt = -1
	default:
		x.nsAt = -1
	}
}
