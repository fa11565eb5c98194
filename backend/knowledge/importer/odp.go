package importer

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/chunk"
)

// An OpenDocument presentation (.odp, LibreOffice Impress) is read as a
// PowerPoint file is (slides.go): one slide a page, its title frame the
// slide's heading, its text frames and tables in the order the slide
// lists them, then the speaker's notes as a quotation. Its slides are the
// draw:page elements of content.xml; each is read with the office reader
// (office.go) from the slide's own tokens.
var odp = officeFormat{
	paragraph: set("text:p", "text:h"),
	text:      set("text:p", "text:h"),
	// Fields (the slide number, the date) are left out, as PowerPoint's are.
	skip:  set("office:annotation", "presentation:notes", "svg:title", "svg:desc", "office:forms", "text:page-number", "text:date", "text:time", "text:page-count"),
	shape: set("draw:frame", "draw:custom-shape"),
	shapeHeading: func(e xml.StartElement) int {
		if n := qname(e.Name); (n == "draw:frame" || n == "draw:custom-shape") && attr(e, "class") == "title" {
			return 1
		}
		return 0
	},
	cell: set("table:table-cell"), row: set("table:table-row"),
	inline: odt.inline,
}

// odpNotes reads a slide's notes: their text, no heading.
var odpNotes = func() officeFormat {
	f := odp
	f.skip = set("office:annotation", "draw:page-thumbnail", "text:page-number", "text:date", "text:time", "text:page-count")
	f.shape, f.shapeHeading = nil, nil
	return f
}()

// readODP reads content.xml's slides. They are one part: one that breaks
// partway (its XML, or its compressed data) keeps the slides read whole
// before the break and says where it broke (*BrokenOff); the slide it
// broke in is left out, as a PowerPoint file's damaged slide is.
func readODP(ctx context.Context, filePath string, r io.Reader, sink Sink, warn *warnings) error {
	d, budget, done, err := odfContent(r, warn)
	if err != nil {
		return err
	}
	defer done()
	doc := Document{Title: baseName(filePath), Source: filePath, Kind: KindODP, Unit: UnitSlide, Markdown: true}
	titled := false
	var broke error
	// A slide written again under its name (draw:name, which LibreOffice
	// keeps distinct), the same XML, is a repeat: read once, where it
	// first comes (RepeatedParts). Slides are numbered by their place.
	again, seed, place := newRepeats("slide"), maphash.MakeSeed(), 0
	for {
		page, err := nextSlide(d)
		if errors.Is(err, io.EOF) {
			break
		}
		if err = budget.judged(err); unreadable(err) && len(doc.Parts) > 0 {
			broke = err
			break
		}
		if err != nil {
			return err
		}
		place++
		if name := attr(page[0].(xml.StartElement), "name"); name != "" && !again.first(tokensKey(seed, page), "slide "+strconv.Itoa(place)) {
			if again.r.Count >= maxOfficeParts {
				// The file is read no further, as an EPUB's spine is
				// read no further than its package document's 8 MB:
				// a slide's XML is in the file, so each repeat costs
				// its reading (200,000 of one slide, 33 MB, took 3.6
				// s) and gives nothing. What follows is said lost,
				// by the repeats' warning (Stopped): the file did not
				// break off, and a break-off's count would hold them.
				again.r.Stopped = true
				break
			}
			continue
		}
		text, w, err := tokensText(ctx, &odp, page)
		if err != nil {
			return err
		}
		said, _, err := tokensText(ctx, &odpNotes, subtree(page, "presentation:notes"))
		if err != nil {
			return err
		}
		text += quoted(said)
		if len(doc.Parts) >= maxOfficeParts {
			return &OfficeLimitError{What: "number of slides"}
		}
		if !titled && w.titled {
			doc.Title, titled = w.doc.Title, true
		}
		doc.Parts = append(doc.Parts, chunk.Input{Page: place, Text: text})
	}
	if len(doc.Parts) == 0 {
		return fmt.Errorf("%w: no slides", ErrOfficeDamaged)
	}
	if !slices.ContainsFunc(doc.Parts, func(p chunk.Input) bool { return strings.TrimSpace(p.Text) != "" }) {
		if broke != nil {
			return brokenEmpty(ErrEmpty, broke)
		}
		return ErrEmpty
	}
	if broke != nil {
		warn.add(brokenOff("slide", place, "", broke))
	}
	again.report(warn)
	doc.Pages = doc.Parts[len(doc.Parts)-1].Page
	return emitAll(sink, []Document{doc})
}

// tokensKey is a slide's tokens (its name among them) as a key of a few
// bytes: a slide written again is the same XML, and is known without
// being read again.
func tokensKey(seed maphash.Seed, tokens []xml.Token) string {
	var h maphash.Hash
	h.SetSeed(seed)
	for _, tok := range tokens {
		hashToken(&h, tok)
	}
	return strconv.FormatUint(h.Sum64(), 16)
}

// hashToken adds tok to h: elements, their attributes and text, so that
// the same XML gives the same sum.
func hashToken(h *maphash.Hash, tok xml.Token) {
	switch t := tok.(type) {
	case xml.StartElement:
		h.WriteString("<" + t.Name.Space + " " + t.Name.Local)
		for _, a := range t.Attr {
			h.WriteString(" " + a.Name.Space + " " + a.Name.Local + "=" + a.Value + "\x00")
		}
	case xml.EndElement:
		h.WriteString("</")
	case xml.CharData:
		h.WriteString(">")
		h.Write(t)
	}
}

// nextSlide returns the tokens of content.xml's next draw:page, itself
// included; io.EOF after the last.
func nextSlide(d *xml.Decoder) ([]xml.Token, error) {
	var page []xml.Token
	depth := 0
	for {
		tok, err := d.Token()
		if err != nil {
			if errors.Is(err, io.EOF) && depth > 0 {
				return nil, fmt.Errorf("%w: a slide without its end", ErrOfficeDamaged)
			}
			if !errors.Is(err, io.EOF) {
				err = fmt.Errorf("%w: %v", ErrOfficeDamaged, err)
			}
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth == 0 && qname(t.Name) != "draw:page" {
				continue
			}
			if depth++; depth > maxOfficeDepth {
				return nil, &OfficeLimitError{What: "nesting of elements"}
			}
		case xml.EndElement:
			if depth == 0 {
				continue
			}
			depth--
		default:
			if depth == 0 {
				continue
			}
		}
		page = append(page, xml.CopyToken(tok))
		if depth == 0 {
			return page, nil
		}
	}
}

// subtree is the first element called name in tokens, with all inside
// it; nil when there is none.
func subtree(tokens []xml.Token, name string) []xml.Token {
	depth, from := 0, -1
	for i, tok := range tokens {
		switch t := tok.(type) {
		case xml.StartElement:
			if from < 0 && qname(t.Name) == name {
				from = i
			}
			if from >= 0 {
				depth++
			}
		case xml.EndElement:
			if from >= 0 {
				if depth--; depth == 0 {
					return tokens[from : i+1]
				}
			}
		}
	}
	return nil
}

// tokenList hands tokens to an xml.Decoder.
type tokenList []xml.Token

func (l *tokenList) Token() (xml.Token, error) {
	if len(*l) == 0 {
		return nil, io.EOF
	}
	tok := (*l)[0]
	*l = (*l)[1:]
	return tok, nil
}

// tokensText reads tokens as Markdown with format f, as slideText reads a
// part; "" when they hold no text.
func tokensText(ctx context.Context, f *officeFormat, tokens []xml.Token) (string, *mdWriter, error) {
	list := tokenList(tokens)
	return markdownOf(ctx, f, xml.NewTokenDecoder(&list))
}

// quoted writes a slide's notes as a quotation, a paragraph at a time.
func quoted(said string) string {
	var b strings.Builder
	for _, para := range strings.Split(said, "\n\n") {
		if para = strings.TrimSpace(para); para != "" {
			b.WriteString("> " + strings.ReplaceAll(para, "\n", "\n> ") + "\n\n")
		}
	}
	return b.String()
}
