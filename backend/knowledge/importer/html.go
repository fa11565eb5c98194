package importer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"golang.org/x/net/html"
)

// A saved web page (.html, .htm, .xhtml) is read with x/net/html's
// tokenizer, as a stream: its text in document order as Markdown, the
// headings h1–h6 as "#" lines, a table row on a line of its own, <pre>
// fenced; what a browser does not show as text (scripts, styles,
// templates, drawings, frames, the navigation) is left out. The page is
// only read, never rendered or run: its text is data like any document's.
// HTML leaves closing tags out (</p>, </li>, </td>), so a block ends when
// the next begins.

// maxHTMLToken bounds one tag or run of text the tokenizer holds: a page
// of one 500 MB line must not be held whole.
const maxHTMLToken = 16 << 20

// maxHTMLTables bounds the tables open inside each other; deeper ones are
// read as text of the cell around them.
const maxHTMLTables = 64

// HTMLLimitError is a page with one tag or run of text past maxHTMLToken.
type HTMLLimitError struct{}

func (*HTMLLimitError) Error() string {
	return fmt.Sprintf("one tag or run of text in the page is longer than %d MB; it looks damaged or hostile", maxHTMLToken>>20)
}

// MaxHTMLTokenMB is maxHTMLToken in megabytes, for the window's wording.
const MaxHTMLTokenMB = maxHTMLToken >> 20

var (
	// htmlSkipped are left out with all they hold.
	htmlSkipped = set("script", "style", "noscript", "template", "svg", "math", "iframe", "object", "canvas", "nav", "select")
	// htmlBlocks end the paragraph before them and at their end.
	htmlBlocks = set("p", "div", "li", "ul", "ol", "dl", "dt", "dd", "blockquote", "section", "article", "main", "header", "footer",
		"aside", "figure", "figcaption", "caption", "address", "hr", "form", "fieldset", "legend", "details", "summary", "body", "html", "center")
)

// readHTML hands the page in tr to sink as one Markdown document, named
// by its <title>, else its first heading, else the file.
func readHTML(ctx context.Context, path string, tr *TextReader, sink Sink) error {
	w := &mdWriter{sink: sink, doc: Document{Title: baseName(path), Source: path, Kind: KindHTML, Markdown: true}}
	p := &htmlPage{w: w, tables: tables{w: w}}
	if err := p.read(ctx, tr); err != nil {
		return err
	}
	return w.end()
}

// read reads one page from r to its end, and ends what it left open.
func (p *htmlPage) read(ctx context.Context, r io.Reader) error {
	z := html.NewTokenizer(r)
	z.SetMaxBuf(maxHTMLToken)
	rawIn := ""             // the raw-text element whose content comes next, or came
	var last html.TokenType // the token before
	for n := 0; ; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		tt := z.Next()
		if tt == html.ErrorToken {
			err := z.Err()
			switch {
			case errors.Is(err, io.EOF):
				return p.close()
			case errors.Is(err, html.ErrBufferExceeded) && p.long != nil:
				what, rest, err := skipLong(ctx, z, r, rawIn, last) // htmllong.go
				if err != nil {
					return err
				}
				p.long(what)
				r, rawIn = rest, ""
				z = html.NewTokenizer(r)
				z.SetMaxBuf(maxHTMLToken)
				continue
			case errors.Is(err, html.ErrBufferExceeded):
				return &HTMLLimitError{}
			}
			return err // the text's own error (not text, unreadable), a limit, or the context's
		}
		p.opened = ""
		if err := p.token(tt, z); err != nil {
			return err
		}
		switch {
		case tt == html.StartTagToken && rawTextTags[p.opened]:
			rawIn = p.opened
		case tt != html.TextToken:
			rawIn = ""
		}
		last = tt
	}
}

// htmlPage is what is open while a page is read.
type htmlPage struct {
	w      *mdWriter
	skip   string // the element being left out ("": none) …
	nested int    // … and how many of its kind are open inside it
	title  *strings.Builder
	para   strings.Builder
	level  int // of the heading being read; 0: body text
	pre    int // open <pre>, whose spaces and lines are kept
	tables tables
	deeper int    // tables open past maxHTMLTables, read as text of the cell around them
	opened string // the tag the last token opened
	// long, when set, is told of a token past maxHTMLToken, which is
	// skipped (skipLong); when not, such a token fails the page.
	long func(what string)
}

func (p *htmlPage) token(tt html.TokenType, z *html.Tokenizer) error {
	switch tt {
	case html.TextToken:
		if p.skip != "" {
			return nil
		}
		text := string(z.Text())
		if p.title != nil {
			p.title.WriteString(text)
			return nil
		}
		if p.pre == 0 {
			text = collapseSpace(text)
		}
		p.para.WriteString(text)
		if p.para.Len() > maxHeld { // one endless line: handed on in pieces
			if p.pre > 0 {
				return p.endPre()
			}
			return p.endPara()
		}
	case html.StartTagToken, html.SelfClosingTagToken:
		name, _ := z.TagName()
		p.opened = string(name)
		return p.start(p.opened, tt == html.SelfClosingTagToken)
	case html.EndTagToken:
		name, _ := z.TagName()
		return p.end(string(name))
	}
	return nil
}

func (p *htmlPage) start(name string, closed bool) error {
	if p.skip != "" {
		if name == p.skip && !closed {
			p.nested++
		}
		return nil
	}
	switch {
	case name == "title" && !closed && p.w.titled: // a book's chapter: the book has its title
		p.skip, p.nested = name, 0
		return nil
	case name == "title" && !closed:
		p.title = &strings.Builder{}
		return nil
	case htmlSkipped[name] && !closed:
		p.skip, p.nested = name, 0
		return nil
	case name == "br":
		p.para.WriteString("\n")
		return nil
	case len(name) == 2 && name[0] == 'h' && name[1] >= '1' && name[1] <= '6':
		if err := p.endPara(); err != nil {
			return err
		}
		p.level = int(name[1] - '0')
		return nil
	case name == "pre":
		if err := p.endPara(); err != nil {
			return err
		}
		p.pre++
		return nil
	case name == "table":
		if err := p.endPara(); err != nil {
			return err
		}
		if len(p.tables.rows) >= maxHTMLTables {
			p.deeper++
			return nil
		}
		p.tables.push()
		return nil
	case name == "tr" && p.deeper == 0:
		if err := p.endPara(); err != nil {
			return err
		}
		return p.tables.openRow()
	case (name == "td" || name == "th") && p.deeper == 0:
		if err := p.endPara(); err != nil {
			return err
		}
		p.tables.cell()
		return nil
	case htmlBlocks[name]:
		return p.endPara()
	}
	return nil
}

func (p *htmlPage) end(name string) error {
	if p.skip != "" {
		if name == p.skip {
			if p.nested == 0 {
				p.skip = ""
			} else {
				p.nested--
			}
		}
		return nil
	}
	switch {
	case name == "title" && p.title != nil:
		if t := collapseSpace(p.title.String()); strings.TrimSpace(t) != "" {
			p.w.doc.Title, p.w.titled = strings.TrimSpace(t), true
		}
		p.title = nil
	case len(name) == 2 && name[0] == 'h' && name[1] >= '1' && name[1] <= '6':
		return p.endPara()
	case name == "pre" && p.pre > 0:
		p.pre--
		return p.endPre()
	case name == "table" && p.deeper > 0:
		p.deeper--
	case name == "table":
		if err := p.endPara(); err != nil {
			return err
		}
		return p.tables.pop()
	case name == "tr" && p.deeper == 0:
		if err := p.endPara(); err != nil {
			return err
		}
		return p.tables.endRow()
	case htmlBlocks[name]:
		return p.endPara()
	}
	return nil
}

// close ends what the page left open at its end: the paragraph, a <pre>,
// an element left out, its tables (the next chapter of a book starts
// afresh).
func (p *htmlPage) close() error {
	p.pre, p.skip, p.title = 0, "", nil
	if err := p.endPara(); err != nil {
		return err
	}
	return p.tables.close()
}

// endPara ends the paragraph being read: into the open table cell, if
// any, else to the writer. Inside a <pre> the text waits for its end.
func (p *htmlPage) endPara() error {
	if p.pre > 0 {
		return nil
	}
	text := p.para.String()
	p.para.Reset()
	level := p.level
	p.level = 0
	return p.emit(text, level)
}

// endPre hands on the <pre> text read so far, fenced so that its "#"
// lines stay text.
func (p *htmlPage) endPre() error {
	text := strings.Trim(p.para.String(), "\n")
	p.para.Reset()
	if strings.TrimSpace(text) == "" {
		return nil
	}
	return p.emit("```\n"+text+"\n```", 0)
}

func (p *htmlPage) emit(text string, level int) error {
	if inCell, err := p.tables.add(text); inCell || err != nil {
		return err
	}
	return p.w.paragraph(text, level)
}

// collapseSpace turns each run of HTML white space into one space.
func collapseSpace(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' {
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	if space {
		b.WriteByte(' ')
	}
	return b.String()
}
