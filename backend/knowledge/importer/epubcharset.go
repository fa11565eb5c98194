package importer

import (
	"bufio"
	"bytes"
	"io"
	"regexp"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/unicode"
)

// A chapter of an EPUB book goes to the page reader as its bytes, not
// through a text file's decoding, and the tokenizer reads UTF-8 only, so a
// chapter in another encoding imported as mojibake without a word (Korean
// EPUB 2 books of EUC-KR chapters: "한국어" read "\uFFFD\uFFFD\uFFFD"), and
// one in UTF-16 was refused as binary data. chapterText reads the chapter
// in the encoding it names, as a browser does: its byte-order mark, else
// its XML declaration's encoding, else a <meta> charset, in the first
// kilobyte; a chapter whose first kilobyte is UTF-8 with letters beyond
// ASCII is UTF-8 whatever it declares (a declaration left from a template).
var (
	xmlEncodingRe = regexp.MustCompile(`^\s*<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']`)
	metaCharsetRe = regexp.MustCompile(`(?i)<meta[^>]*\bcharset\s*=\s*["']?([A-Za-z0-9._:-]+)`)
)

func chapterText(r io.Reader) io.Reader {
	br := bufio.NewReader(r)
	head, _ := br.Peek(1024) // a read error comes again at the next read
	switch {
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}):
		return unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewDecoder().Reader(br)
	case bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		return unicode.UTF16(unicode.BigEndian, unicode.UseBOM).NewDecoder().Reader(br)
	}
	label := ""
	if m := xmlEncodingRe.FindSubmatch(head); m != nil {
		label = string(m[1])
	} else if m := metaCharsetRe.FindSubmatch(head); m != nil {
		label = string(m[1])
	}
	if label == "" || strings.HasPrefix(strings.ToLower(label), "utf-") || utf8Text(head) {
		return br
	}
	enc, err := htmlindex.Get(label)
	if err != nil {
		return br
	}
	return enc.NewDecoder().Reader(br)
}

// utf8Text: head, but for a character cut at its end, is UTF-8 and holds
// a byte beyond ASCII.
func utf8Text(head []byte) bool {
	head = head[:len(head)-incompleteTail(head)]
	return utf8.Valid(head) && bytes.ContainsFunc(head, func(r rune) bool { return r >= utf8.RuneSelf })
}
