package importer

import (
	"archive/zip"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/chunk"
)

// A PowerPoint file (.pptx) is read like a Word file (office.go), one
// slide a page: a passage cites "slide 3" as a PDF's cites its page. Each
// slide's title placeholder is its heading; its text boxes and tables
// follow in the order the slide lists them, then the speaker's notes, as
// a quotation ("> "), for what was said is often only there. Fields (the
// slide number, the date) are left out.
var pptx = officeFormat{
	parts:     slideParts,
	paragraph: set("a:p"),
	shape:     set("p:sp"),
	shapeHeading: func(e xml.StartElement) int {
		if qname(e.Name) == "p:ph" {
			if t := attr(e, "type"); t == "title" || t == "ctrTitle" {
				return 1
			}
		}
		return 0
	},
	text: set("a:t"),
	skip: set("mc:Fallback", "a:fld"),
	cell: set("a:tc"), row: set("a:tr"),
	inline: func(e xml.StartElement) string {
		if qname(e.Name) == "a:br" {
			return "\n"
		}
		return ""
	},
}

// readSlides hands the slides of the file in r to sink as one document of
// pages, named by the first slide's title. A slide (or its notes) the
// presentation lists that the archive lacks is left out and named in a
// warning (*MissingParts); the others keep their numbers, so that "slide
// 5" is the fifth slide the person sees. A file that holds none of its
// slides is damaged.
func readSlides(ctx context.Context, filePath string, r io.Reader, sink Sink, warn *warnings) error {
	z, err := openArchive(r, warn)
	if err != nil {
		return err
	}
	slides, err := pptx.parts(z)
	if err != nil {
		return err
	}
	if len(slides) == 0 {
		return ErrOfficeDamaged
	}
	// A slide the list names again is read once, where it first comes,
	// and keeps that number (RepeatedParts); the slides after the repeats
	// keep theirs, as after a missing slide.
	again := newRepeats("slide")
	refs := make([]slideRef, 0, min(len(slides), maxOfficeParts+1))
	for i, name := range slides {
		if name == "" || again.first(name, "slide "+strconv.Itoa(i+1)) { // each missing relationship is a slide of its own
			if refs = append(refs, slideRef{name: name, page: i + 1}); len(refs) > maxOfficeParts {
				return &OfficeLimitError{What: "number of slides"}
			}
		}
	}
	doc := Document{Title: baseName(filePath), Source: filePath, Kind: KindSlides, Unit: UnitSlide, Markdown: true, Pages: refs[len(refs)-1].page}
	budget := &xmlBudget{left: MaxOfficeXML}
	lost, lostNotes := &MissingParts{Unit: "slide", Total: len(refs)}, &MissingParts{Unit: "speaker's notes"}
	broke, err := readSlideTexts(ctx, z, refs, budget, &doc, lost, lostNotes)
	budget.release()
	if err != nil {
		return err
	}
	if lost.all() {
		return lost.damaged()
	}
	lost.report(warn)
	lostNotes.report(warn)
	if broke != nil {
		warn.add(broke)
	}
	again.report(warn)
	if !slices.ContainsFunc(doc.Parts, func(p chunk.Input) bool { return strings.TrimSpace(p.Text) != "" }) {
		return ErrEmpty
	}
	return emitAll(sink, []Document{doc})
}

// readSlideTexts reads each slide into a page of doc; the first heading
// of all names it. A slide ("": its relationship is missing) or notes the
// archive lacks, or whose XML does not parse, are left out whole and
// counted in lost and lostNotes.
//
// A presentation of one slide whose slide breaks after some paragraphs
// keeps them and says where it broke (broke): that slide is the whole
// body, as a Word file's document.xml is, so it is read as a body of one
// part is. In a presentation of several, the slide is one part among
// others and is left out whole, as a workbook's broken sheet is: half a
// slide among whole ones would be cited as if it were the slide.
func readSlideTexts(ctx context.Context, z *zip.Reader, slides []slideRef, budget *xmlBudget, doc *Document, lost, lostNotes *MissingParts) (broke *BrokenOff, err error) {
	titled := false
	notes := pptx
	notes.shapeHeading = nil
	for _, ref := range slides {
		name := ref.name
		number := "slide " + strconv.Itoa(ref.page)
		if name == "" {
			lost.missing(number)
			continue
		}
		text, w, err := slideText(ctx, z, name, &pptx, budget)
		switch {
		case errors.Is(err, errNoPart):
			lost.missing(number)
			continue
		case unreadable(err) && len(slides) == 1 && w.paras > 0: // the one slide: what was read before the break is kept
			broke = brokenOff("paragraph", w.paras, w.last, err)
		case unreadable(err): // there, but its XML is damaged: left out as a missing slide is
			lost.unreadable(number, err)
			continue
		case err != nil:
			return nil, err
		}
		if !titled && w.titled {
			doc.Title, titled = w.doc.Title, true
		}
		if target := relTarget(z, path.Join(path.Dir(name), "_rels", path.Base(name)+".rels"), "/notesSlide"); target != "" {
			said, _, err := slideText(ctx, z, path.Join(path.Dir(name), target), &notes, budget)
			lostNotes.Total++
			switch { // notes that cannot be read are left out, and said to be
			case errors.Is(err, errNoPart):
				lostNotes.missing(number)
			case unreadable(err): // left out whole: they are not the slide's body
				said = ""
				lostNotes.unreadable(number, err)
			case err != nil:
				return nil, err
			}
			text += quoted(said)
		}
		doc.Parts = append(doc.Parts, chunk.Input{Page: ref.page, Text: text})
	}
	return broke, nil
}

// slideRef is a slide to read: its part ("" when its relationship is
// missing) and its number, its place in the presentation's list.
type slideRef struct {
	name string
	page int
}

// slideText reads the part name (a slide, or its notes) as Markdown; ""
// when it holds no text.
func slideText(ctx context.Context, z *zip.Reader, name string, f *officeFormat, budget *xmlBudget) (string, *mdWriter, error) {
	d, closer, err := openPart(z, name, budget)
	if err != nil {
		return "", &mdWriter{}, err
	}
	defer closer.Close()
	text, w, err := markdownOf(ctx, f, d)
	return text, w, budget.judged(err)
}

// markdownOf reads d's elements with format f as Markdown; "" when they
// hold no text. The writer tells whether a heading titled it. When the
// part breaks (unreadable), what was read before the break comes with
// the error, for a caller that keeps it (a presentation of one slide).
func markdownOf(ctx context.Context, f *officeFormat, d *xml.Decoder) (string, *mdWriter, error) {
	var c collector
	w := &mdWriter{sink: &c, doc: Document{Markdown: true}}
	err := w.body(ctx, f, d, nil, noNumbers{}, nil)
	if err == nil {
		err = w.end()
	} else if unreadable(err) && w.paras > 0 {
		if endErr := w.end(); endErr == nil && len(c.docs) > 0 && len(c.docs[0].Parts) > 0 {
			return c.docs[0].Parts[0].Text, w, err
		}
		return "", w, err
	}
	if err != nil && !errors.Is(err, ErrEmpty) {
		return "", w, err
	}
	if len(c.docs) == 0 || len(c.docs[0].Parts) == 0 {
		return "", w, nil
	}
	return c.docs[0].Parts[0].Text, w, nil
}

// slideParts lists the slides in the order ppt/presentation.xml gives
// them (its slide ids name relationships of its .rels part; "" for one
// whose relationship is missing), then, when the list is damaged, the
// slides it did not get to name; when it resolves none of them,
// ppt/slides/slide1.xml, slide2.xml, …, if there are any.
func slideParts(z *zip.Reader) ([]string, error) {
	targets := map[string]string{}
	if f, err := z.Open("ppt/_rels/presentation.xml.rels"); err == nil {
		// Read as far as the list itself (8 MB): a megabyte held the
		// relationships of 7,560 slides; the others' were missing.
		_ = eachStart(newDecoder(io.LimitReader(f, 8<<20)), func(e xml.StartElement) {
			if e.Name.Local == "Relationship" && strings.HasSuffix(attr(e, "Type"), "/slide") {
				targets[attr(e, "Id")] = path.Join("ppt", attr(e, "Target"))
			}
		})
		f.Close()
	}
	var parts []string
	broken := false // the list could not be read to its end
	if f, err := z.Open("ppt/presentation.xml"); err == nil {
		broken = eachStart(newDecoder(io.LimitReader(f, 8<<20)), func(e xml.StartElement) {
			if qname(e.Name) != "p:sldId" {
				return
			}
			for _, a := range e.Attr {
				if a.Name.Space == nsRel && a.Name.Local == "id" {
					parts = append(parts, targets[a.Value])
					break
				}
			}
		}) != nil
		f.Close()
	}
	isSlide := func(name string) bool {
		n, ok := strings.CutPrefix(name, "ppt/slides/slide")
		return ok && strings.HasSuffix(n, ".xml")
	}
	number := func(name string) int {
		n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(name, "ppt/slides/slide"), ".xml"))
		return n
	}
	byNumber := func(a, b string) int { return number(a) - number(b) }
	if slices.ContainsFunc(parts, func(p string) bool { return p != "" }) {
		if broken { // the slides the damaged list did not get to name follow
			parts = recoverParts(z, parts, isSlide, byNumber)
		}
		return parts, nil
	}
	// None resolved: the slides the archive holds, else these missing ones.
	if found := recoverParts(z, nil, isSlide, byNumber); len(found) > 0 {
		return found, nil
	}
	return parts, nil
}
