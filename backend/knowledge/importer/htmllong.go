package importer

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"golang.org/x/net/html"
)

// A book's chapter may hold one token past the tokenizer's bound
// (maxHTMLToken) and be a real chapter: an inline <script> or <style> of
// 20 MB, an image inlined as a data: URI, one run of text. The tokenizer
// stops at such a token for good, and a76cb31 left the whole chapter out
// for it; the token alone is skipped instead (skipLong), a new tokenizer
// reads on after it, and the warning (LongSkipped) names what was left
// out. The tokenizer held at most maxHTMLToken of it; the skipping holds
// nothing, and the bytes count in the book's budget as they are read.

// rawTextTags are the elements whose content the tokenizer reads as one
// raw token up to their end tag.
var rawTextTags = set("script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript")

// skipLong skips the rest of the token z stopped at (past maxHTMLToken)
// in r, and returns what it was, for the warning ("<script>", "data:
// URI", "<img>"; "" for a run of text), and the reader of what follows
// it. A tag the tokenizer holds (z.Raw); a text, comment or raw text
// (rawIn: the element it is the content of) it has handed on as the token
// before (last), its first maxHTMLToken: the text's is imported.
func skipLong(ctx context.Context, z *html.Tokenizer, r io.Reader, rawIn string, last html.TokenType) (what string, rest io.Reader, err error) {
	raw := z.Raw()
	br := bufio.NewReaderSize(io.MultiReader(bytes.NewReader(slices.Clone(z.Buffered())), r), 64<<10)
	switch {
	case len(raw) == 0 && last == html.TextToken && rawIn != "":
		// past its end tag's beginning, given back to the next tokenizer
		end := "</" + rawIn
		if err := skipUntil(ctx, br, end); err != nil {
			return "", nil, err
		}
		return "<" + rawIn + ">", io.MultiReader(strings.NewReader(end), br), nil
	case len(raw) == 0 && last == html.CommentToken:
		return "<!-- -->", br, skipUntil(ctx, br, "-->")
	case len(raw) == 0 && last != html.TextToken:
		return "<!>", br, skipUntil(ctx, br, ">") // a doctype's
	case len(raw) > 0 && raw[0] == '<':
		// a tag: past the quote it is inside, if any, then its '>'
		quote := byte(0)
		for _, c := range raw {
			switch {
			case quote == 0 && (c == '"' || c == '\''):
				quote = c
			case c == quote:
				quote = 0
			}
		}
		if quote != 0 {
			if err := skipUntil(ctx, br, string(quote)); err != nil {
				return "", nil, err
			}
		}
		what = "<" + tagName(raw) + ">"
		if bytes.Contains(bytes.ToLower(raw[:min(len(raw), 64<<10)]), []byte("data:")) {
			what = "data: URI"
		}
		return what, br, skipUntil(ctx, br, ">")
	}
	// a run of text, past the next tag's '<', given back
	if err := skipUntil(ctx, br, "<"); err != nil {
		return "", nil, err
	}
	return "", io.MultiReader(strings.NewReader("<"), br), nil
}

// skipUntil reads br past the first sep (ASCII, matched without case),
// or to its end.
func skipUntil(ctx context.Context, br *bufio.Reader, sep string) error {
	sep = strings.ToLower(sep)
	matched := 0
	for n := 0; ; n++ {
		if n%(1<<20) == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		c, err := br.ReadByte()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		switch {
		case c == sep[matched]:
			matched++
		case c == sep[0]:
			matched = 1
		default:
			matched = 0
		}
		if matched == len(sep) {
			return nil
		}
	}
}

// tagName is the name of the tag raw begins, lower case, cut short.
func tagName(raw []byte) string {
	end := 1
	for end < len(raw) && end < 32 && (raw[end] == '/' || raw[end] == '!' || 'a' <= raw[end]|0x20 && raw[end]|0x20 <= 'z' || '0' <= raw[end] && raw[end] <= '9') {
		end++
	}
	return strings.ToLower(string(raw[1:end]))
}

// LongSkipped is the warning about chapters of a book holding a token
// past maxHTMLToken (an inline script or style, a data: URI, one run of
// text): each was left out, and the rest of its chapter imported. Part is
// the first such chapter, What what was left out there ("" for a run of
// text), Count how many were.
type LongSkipped struct {
	Unit  string // "chapter"
	Part  string
	What  string
	Count int
}

func (l *LongSkipped) Error() string {
	more := ""
	if l.Count > 1 {
		more = fmt.Sprintf(" (%d such pieces in the book)", l.Count)
	}
	mb := maxHTMLToken >> 20
	if l.What == "" {
		return fmt.Sprintf("%s %s holds a run of text longer than %d MB without a tag: what follows its first %d MB was left out, and the rest of the %s imported%s", l.Unit, l.Part, mb, mb, l.Unit, more)
	}
	return fmt.Sprintf("%s %s holds a %s longer than %d MB: it was left out, and the rest of the %s imported%s", l.Unit, l.Part, l.What, mb, l.Unit, more)
}

// PartlyRead is the warning about a part of a container (a book's
// chapter) that could not be read to its end after some of its text was
// handed on (a part past maxPartHeld is not held back whole): that text
// stays imported, the rest of the part is missing. Before, it was counted
// among the parts "not imported".
type PartlyRead struct {
	Unit string // "chapter"
	Part string
}

func (p *PartlyRead) Error() string {
	return fmt.Sprintf("%s %s could not be read to its end: what was read of it before was imported, and the rest of it is missing", p.Unit, p.Part)
}
