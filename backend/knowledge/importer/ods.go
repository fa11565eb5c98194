package importer

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"strconv"
	"strings"
)

// readODS reads an OpenDocument spreadsheet (LibreOffice Calc). Its
// sheets are one part, content.xml: one that breaks partway (its XML, or
// its compressed data) keeps the sheets read whole before the break and
// says where it broke (*BrokenOff); the sheet it broke in is left out, as
// an Excel workbook's damaged sheet is.
func readODS(ctx context.Context, filePath string, r io.Reader, sink Sink, warn *warnings) error {
	d, budget, done, err := odfContent(r, warn)
	if err != nil {
		return err
	}
	defer done()
	s := newSheetWriter(filePath, KindODS, sink)
	read := odsRead{again: newRepeats("sheet")}
	err = budget.judged(readODSBody(ctx, d, s, budget, &read))
	if unreadable(err) && read.sheets > 0 {
		s.w.dropPart()
		if end := s.w.end(); end != nil {
			return brokenEmpty(end, err)
		}
		warn.add(brokenOff("sheet", read.sheets, read.last, err))
		read.again.report(warn)
		return nil
	}
	if err != nil {
		return err
	}
	if err := s.w.end(); err != nil {
		return err
	}
	read.again.report(warn)
	return nil
}

// brokenEmpty is the error of a body that broke (broke) when what was
// read before the break ends in err: nothing read before a break is a
// damaged file, not an empty one.
func brokenEmpty(err, broke error) error {
	if errors.Is(err, ErrEmpty) {
		return fmt.Errorf("%w: %v", ErrOfficeDamaged, damage(broke))
	}
	return err
}

// odsRead is how far readODSBody read: the sheets read whole, and the
// last one's name.
type odsRead struct {
	sheets int
	last   string
	// again finds a table written again under its name, the same XML: no
	// program writes one, and read again it would spend the file's
	// budget on copies of one sheet (RepeatedParts), as an .odp's slide
	// written again would.
	again *namedAgain
}

// readODSBody reads content.xml's tables. A row or cell written once with
// a repeat count (table:number-rows-repeated, …-columns-repeated) is
// written out that often, up to maxRepeat, when it holds a value. Each
// copy past the first is charged to budget as if the file had spelled it
// out: maxRepeat rows of maxRepeat cells are a million cells from one
// element, and ten thousand such rows, 8 KB packed, were 50 GB of text
// (500,000 chunks, then too_many_chunks, after minutes).
//
// Each sheet's text is held until its end (mdWriter.beginPart), so that
// a sheet the body breaks in can be taken back whole (read counts the
// sheets read whole).
func readODSBody(ctx context.Context, d *xml.Decoder, s *sheetWriter, budget *xmlBudget, read *odsRead) error {
	var (
		cell       strings.Builder
		inCell     int // depth inside a cell (a cell holds paragraphs)
		comment    int // depth inside a cell's comment, which is not its value
		paragraphs int
		cellRepeat int
		row        []string // the row's cells: a repeated row is written again
		rowRepeat  int
		rows       int
		tables     int // tables open outside cells: 1 in a sheet
	)
	var failed error
	writeRow := func() {
		size, copies := 0, min(rowRepeat, maxRepeat)
		for _, c := range row {
			size += len(c)
		}
		if size > 0 { // charged before the copies are written: a row too large to repeat fails at once
			if failed = budget.charge((copies - 1) * (size + len(row)*len(cellSep))); failed != nil {
				return
			}
		}
		for range copies {
			for _, c := range row {
				if failed = s.cell(c); failed != nil {
					return
				}
			}
			if failed = s.endRow(); failed != nil || strings.Join(row, "") == "" {
				return // an empty row repeated is one empty row
			}
		}
	}
	var sum maphash.Hash // of the table being read, its name apart
	sum.SetSeed(maphash.MakeSeed())
	each := func(tok xml.Token) {
		if failed != nil {
			return
		}
		if tables > 0 {
			hashToken(&sum, tok)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			name := qname(t.Name)
			switch {
			case comment > 0:
				comment++
			case inCell > 0:
				inCell++
				switch name {
				case "office:annotation":
					comment = 1
				case "text:p", "text:h":
					if paragraphs++; paragraphs > 1 {
						cell.WriteByte(' ')
					}
				case "text:s", "text:tab", "text:line-break":
					cell.WriteByte(' ')
				}
			case name == "table:table":
				if tables++; tables == 1 { // a table drawn in a sheet is no sheet
					s.sheet(attr(t, "name"))
					s.w.beginPart()
					sum.Reset()
				}
			case name == "table:table-row":
				row, rowRepeat = row[:0], repeats(attr(t, "number-rows-repeated"))
				if rows++; rows%1024 == 0 {
					failed = ctx.Err()
				}
			case name == "table:table-cell" || name == "table:covered-table-cell":
				inCell, paragraphs = 1, 0
				cellRepeat = repeats(attr(t, "number-columns-repeated"))
				cell.Reset()
			}
		case xml.CharData:
			if inCell > 0 && comment == 0 && cell.Len() < maxHeld {
				cell.Write(t)
			}
		case xml.EndElement:
			switch {
			case comment > 0:
				if comment--; comment == 0 {
					inCell-- // the comment's own end
				}
			case inCell > 1:
				inCell--
			case inCell == 1:
				inCell = 0
				text := cell.String()
				n := min(cellRepeat, maxRepeat)
				if strings.TrimSpace(text) == "" {
					text, n = "", min(cellRepeat, maxSheetGap) // places, written only before a value
				} else if failed = budget.charge((n - 1) * (len(text) + len(cellSep))); failed != nil {
					return
				}
				for range n {
					row = append(row, text)
				}
			case qname(t.Name) == "table:table-row":
				writeRow()
			case qname(t.Name) == "table:table":
				if tables--; tables > 0 {
					break
				}
				key := s.name + "\x00" + strconv.FormatUint(sum.Sum64(), 16)
				if s.name != "" && !read.again.first(key, strconv.Quote(s.name)) && s.w.dropPart() {
					if read.again.r.Count >= maxOfficeParts {
						// Read no further, as an .odp's slide repeated
						// (odp.go): what follows is said lost by the
						// repeats' warning (Stopped), not as damage.
						read.again.r.Stopped = true
						failed = errStopped
					}
					break
				}
				if failed = s.w.endPart(); failed == nil {
					read.sheets, read.last = read.sheets+1, s.name
				}
			}
		}
	}
	// Token by token rather than eachToken: a failure ends the reading,
	// where the rest of content.xml was decoded for nothing.
	for failed == nil {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return xmlError(err)
		}
		each(tok)
	}
	if failed == errStopped {
		return nil
	}
	return failed
}

// errStopped ends readODSBody's reading after too many repeats of a
// table, which is no failure (RepeatedParts.Stopped).
var errStopped = errors.New("read no further")

// repeats reads an OpenDocument repeat count, at least 1: a count past
// maxRepeat is maxRepeat (the writer bounds what it writes out), not 1.
func repeats(s string) int {
	n, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange) || n == 0:
		return 1
	case err != nil || n > maxRepeat:
		return maxRepeat
	}
	return int(n)
}

// odfContent opens an OpenDocument file's content.xml, within the budget
// every office file has; done closes it and gives the memory back.
func odfContent(r io.Reader, warn *warnings) (*xml.Decoder, *xmlBudget, func(), error) {
	z, err := openArchive(r, warn)
	if err != nil {
		return nil, nil, nil, err
	}
	budget := &xmlBudget{left: MaxOfficeXML}
	d, closer, err := openPart(z, "content.xml", budget)
	if err != nil {
		return nil, nil, nil, err
	}
	return d, budget, func() { closer.Close(); budget.release() }, nil
}
