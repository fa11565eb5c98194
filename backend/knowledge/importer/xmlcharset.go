package importer

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/unicode"
)

// An XML part may be in an encoding other than UTF-8, as XML allows: a
// part in UTF-16 (with its byte-order mark, or "<?xml" in UTF-16 without
// one), a declaration naming EUC-KR, ks_c_5601-1987 or ISO-8859-1 over
// bytes in it, or one naming UTF-16 over bytes in UTF-8 (what .NET's
// XmlWriter over a StringWriter writes; Word opens it). encoding/xml reads
// only UTF-8 and refuses any other declaration, so each such file was
// refused as damaged. xmlUTF8 turns UTF-16 into UTF-8 before the decoder
// reads it, and xmlCharset gives the decoder the declared encoding's
// reader (WHATWG's labels, as a browser reads them); a declaration of
// UTF-16 over what reads as UTF-8 is taken as the UTF-8 it is.

// xmlUTF8 is r as UTF-8: UTF-16 told by its byte-order mark and "<", or
// by "<?" in it, decoded; anything else as it is.
func xmlUTF8(r io.Reader) io.Reader {
	br := bufio.NewReader(r)
	head, _ := br.Peek(4)
	var e unicode.Endianness
	// XML begins with "<" (a mark before it): bytes FF FE before
	// anything else are junk, left for the decoder to refuse.
	switch {
	case bytes.HasPrefix(head, []byte("\xFF\xFE<\x00")), bytes.HasPrefix(head, []byte("<\x00?\x00")):
		e = unicode.LittleEndian
	case bytes.HasPrefix(head, []byte("\xFE\xFF\x00<")), bytes.HasPrefix(head, []byte("\x00<\x00?")):
		e = unicode.BigEndian
	default: // UTF-8, its byte-order mark too, encoding/xml reads
		return br
	}
	return unicode.UTF16(e, unicode.UseBOM).NewDecoder().Reader(br)
}

// xmlCharset is the decoder's CharsetReader: the declared encoding's
// reader of the part.
func xmlCharset(label string, r io.Reader) (io.Reader, error) {
	switch strings.ToLower(strings.TrimSpace(label)) {
	case "utf-16", "utf-16le", "utf-16be", "ucs-2", "unicode", "utf16":
		// What reached here was read as UTF-8 (its declaration was):
		// UTF-16 was decoded before (xmlUTF8), or never was.
		return r, nil
	}
	enc, err := htmlindex.Get(label)
	if err != nil {
		return nil, fmt.Errorf("%w: an XML part in the encoding %q", ErrOfficeDamaged, label)
	}
	return enc.NewDecoder().Reader(r), nil
}
