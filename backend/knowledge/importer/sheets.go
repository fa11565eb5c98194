package importer

import (
	"archive/zip"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// A spreadsheet (.xlsx, .ods) is read a sheet a section. A sheet's
// heading is its name and its first row, which in a person's sheet names
// the columns ("성적: 이름 | 학년 | 점수"): every chunk of a long sheet
// then carries what its columns mean, and a search for a column's name
// finds its rows. Each further row is a paragraph of its own, its cells
// between " | " as a table row of a document is, empty cells kept as
// empty places so that columns line up, empty rows and the empty cells
// after a row's last value left out. Values are written as the sheet
// shows them: OpenDocument keeps the shown text; Excel keeps only the
// value and its format code, so a number in a date format is written as
// a date (2025-03-02), one in a number format as the format shows it
// (₩1,500,000, (1,500), 12.3%, 1.23E+04: numfmt.go), other numbers to 15
// digits, as Excel's General shows them.

const (
	// maxSheetGap bounds the empty places written between two values of
	// a row: a value in column XFD after one in A is one cell further,
	// not 16,000.
	maxSheetGap = 64
	// maxRepeat bounds how often an OpenDocument row or cell written once
	// with a repeat count is written out (a sheet's empty tail repeats a
	// million times; such repeats of a value are a style's, not data).
	maxRepeat = 1000
	// maxSharedStrings and maxCellFormats bound what an Excel file's
	// tables of strings and cell formats may hold.
	maxSharedStrings = 4 << 20
	maxCellFormats   = 1 << 16
)

// sheetWriter writes a workbook's sheets through an mdWriter, a row at a
// time.
type sheetWriter struct {
	w      *mdWriter
	name   string // the sheet being read
	header bool   // whether its first row (its heading) is written
	row    []byte // the row so far; reused from row to row
	places int    // the cells of the row so far, empty ones too
	empty  int    // empty cells since the row's last value
}

func newSheetWriter(path string, kind Kind, sink Sink) *sheetWriter {
	w := &mdWriter{sink: sink, doc: Document{Title: baseName(path), Source: path, Kind: kind, Markdown: true}}
	w.titled = true // a workbook is named by its file, not its first sheet
	return &sheetWriter{w: w}
}

// sheet starts a sheet.
func (s *sheetWriter) sheet(name string) {
	s.name, s.header = strings.TrimSpace(name), false
	s.row = s.row[:0]
	s.places, s.empty = 0, 0
}

// cell adds a cell to the row being read; an empty one only holds its
// place.
func (s *sheetWriter) cell(text string) error { return sheetCell(s, text) }

// sheetCell is cell for text as a string or as bytes: a CSV field is
// written from the splitter's buffer without a string of its own.
func sheetCell[T string | []byte](s *sheetWriter, text T) error {
	if !oneSpaced(text) {
		return putCell(s, strings.Join(strings.Fields(string(text)), " "))
	}
	return putCell(s, text)
}

// putCell adds text, its spaces already as cell leaves them.
func putCell[T string | []byte](s *sheetWriter, text T) error {
	if len(text) == 0 {
		s.empty++
		return nil
	}
	if s.places > 0 || s.empty > 0 {
		for range min(s.empty, maxSheetGap) {
			s.row = append(s.row, cellSep...)
		}
		if s.places > 0 {
			s.row = append(s.row, cellSep...)
		}
	}
	s.row = append(s.row, text...)
	s.places += s.empty + 1
	s.empty = 0
	if len(s.row) > maxHeld {
		return s.endRow() // a row without end goes on as the next paragraph
	}
	return nil
}

// oneSpaced says whether text is already as strings.Fields and a join
// with single spaces would leave it (most cells are), so that it need not
// be split: no space at either end, no two together, no space but ' '.
func oneSpaced[T string | []byte](text T) bool {
	prevSpace := true // at the start, a space would be leading
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			switch {
			case c == ' ':
				if prevSpace {
					return false
				}
				prevSpace = true
			case c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r':
				return false
			default:
				prevSpace = false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(string(text[i:min(i+utf8.UTFMax, len(text))]))
		if unicode.IsSpace(r) {
			return false
		}
		prevSpace = false
		i += size
	}
	return !prevSpace || len(text) == 0
}

// skip holds the places of n empty cells (a gap in Excel's cell
// references).
func (s *sheetWriter) skip(n int) { s.empty += min(n, maxSheetGap) }

// endRow writes the row read: the sheet's heading if it is the first.
func (s *sheetWriter) endRow() error {
	text := string(s.row)
	s.row = s.row[:0]
	s.places, s.empty = 0, 0
	if text == "" {
		return nil
	}
	if !s.header {
		s.header = true
		heading := text
		if s.name != "" {
			heading = s.name + ": " + text
		}
		return s.w.paragraph(heading, 1)
	}
	return s.w.paragraph(text, 0)
}

// readXLSX reads an Excel workbook (Office Open XML). A sheet the workbook
// lists that the archive lacks (its relationship or its part missing), or
// whose XML does not parse, is left out and named in a warning
// (*MissingParts); a workbook none of whose sheets can be read is
// damaged.
func readXLSX(ctx context.Context, filePath string, r io.Reader, sink Sink, warn *warnings) error {
	z, err := openArchive(r, warn)
	if err != nil {
		return err
	}
	sheets, date1904, named, indexLost, err := xlsxSheets(z)
	if err != nil {
		return err
	}
	// A sheet's part the workbook names again (under another name) is
	// read once, under the name it first comes with (RepeatedParts).
	again := newRepeats("sheet")
	distinct := sheets[:0]
	for _, sh := range sheets {
		if sh.part == "" || again.first(sh.part, strconv.Quote(sh.name)) {
			distinct = append(distinct, sh)
		}
	}
	sheets = distinct
	if len(sheets) > maxOfficeParts {
		return &OfficeLimitError{What: "number of sheets"}
	}
	budget := &xmlBudget{left: MaxOfficeXML}
	defer budget.release()
	book := xlsxBook{epoch: time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC), textCells: MissingParts{Unit: "text cell"}}
	if date1904 {
		book.epoch = time.Date(1904, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	// Shared strings that do not parse to their end are all left out (the
	// cells naming them are counted below); styles that do not are only
	// how numbers look, and those read before the damage stand, as a
	// Word file's damaged styles only cost their headings.
	stringsErr := book.readStrings(z, named.strings, budget)
	if unreadable(stringsErr) {
		book.text, book.ends = nil, nil
	} else if stringsErr != nil {
		return stringsErr
	}
	if err := book.readFormats(z, named.styles, budget); err != nil && !unreadable(err) {
		return err
	}
	s := newSheetWriter(filePath, KindXLSX, sink)
	lost := &MissingParts{Unit: "sheet", Total: len(sheets)}
	var broke *BrokenOff // a workbook of one sheet that broke partway
	for _, sh := range sheets {
		s.sheet(sh.name)
		d, closer, err := openPart(z, sh.part, budget)
		if errors.Is(err, errNoPart) || sh.part == "" {
			lost.missing(strconv.Quote(sh.name))
			continue
		}
		if err != nil {
			return err
		}
		if len(sheets) > 1 {
			s.w.beginPart()
		}
		strs := book.textCells.clone()
		err = budget.judged(book.readSheet(ctx, d, s, budget))
		closer.Close()
		if unreadable(err) && len(sheets) == 1 && s.w.paras > 0 { // its one sheet: the rows before the break are kept
			broke = brokenOff("row", s.w.paras, s.w.last, err)
			continue
		}
		if unreadable(err) { // there, but damaged: left out whole, as a missing sheet is
			s.w.dropPart()
			book.textCells = strs
			lost.unreadable(strconv.Quote(sh.name), err)
			continue
		}
		if err == nil {
			err = s.w.endPart()
		}
		if err != nil {
			return err
		}
	}
	if lost.all() {
		return lost.damaged()
	}
	lost.report(warn)
	// Cells naming shared strings the workbook lacks (its
	// xl/sharedStrings.xml missing or cut short) are empty: said so, and
	// a workbook whose only text they were is damaged, not empty.
	// The cells are named by their references (수입!B3), which read the
	// same in either language.
	err = s.w.end()
	if errors.Is(err, ErrEmpty) && indexLost != nil {
		// Worksheets found without their index, and no text in them:
		// a damaged workbook, not an empty one.
		return fmt.Errorf("%w: %v", ErrOfficeDamaged, indexLost)
	}
	if err == nil && indexLost != nil {
		warn.add(indexLost)
	}
	if err == nil && broke != nil {
		warn.add(broke)
	}
	if errors.Is(err, ErrEmpty) && book.textCells.Count > 0 {
		why := "which the file lacks"
		if stringsErr != nil {
			why = "which cannot be read: " + oneLine(damage(stringsErr))
		}
		return fmt.Errorf("%w: the workbook's only text is in %s, %s (%s)", ErrOfficeDamaged, named.strings, why, book.textCells.named())
	}
	book.textCells.report(warn)
	if err == nil {
		again.report(warn)
	}
	return err
}

// clone is a copy of m that later missing parts do not change.
func (m MissingParts) clone() MissingParts {
	m.Names = slices.Clone(m.Names)
	return m
}

// cellName is a cell's reference as Excel writes it in a formula:
// 수입!B3, '지출 내역'!B3.
func cellName(sheet string, col, row int) string {
	if strings.ContainsAny(sheet, " '!") {
		sheet = "'" + strings.ReplaceAll(sheet, "'", "''") + "'"
	}
	return sheet + "!" + columnName(col) + strconv.Itoa(row)
}

// columnName is a column's letters (3 is C, 27 is AA).
func columnName(col int) string {
	var b []byte
	for ; col > 0; col = (col - 1) / 26 {
		b = append([]byte{byte('A' + (col-1)%26)}, b...)
	}
	return string(b)
}

type xlsxSheet struct{ name, part string }

// xlsxNamed are the workbook's parts its relationships name beside its
// sheets: Excel writes xl/sharedStrings.xml and xl/styles.xml, other
// programs may not.
type xlsxNamed struct{ strings, styles string }

// xlsxSheets lists the workbook's worksheets in its order, with their
// parts ("" for one whose relationship is missing), and says whether its
// dates count from 1904 (Excel for Mac's old system). Chart and dialog
// sheets hold no cells and are not listed.
//
// Relationships that are missing or damaged (xl/_rels/workbook.xml.rels)
// lose no sheet: the sheets they did not name are the archive's
// worksheets (xl/worksheets/*.xml), by their number, named by their
// parts, and lost says so; so are all the archive's worksheets when
// xl/workbook.xml is missing. Before, such a workbook was refused, every
// sheet "missing".
func xlsxSheets(z *zip.Reader) (sheets []xlsxSheet, date1904 bool, named xlsxNamed, lost *IndexLost, err error) {
	named = xlsxNamed{strings: "xl/sharedStrings.xml", styles: "xl/styles.xml"}
	targets := map[string]string{} // a worksheet's part by relationship id; "-" for another kind of sheet
	const relsName = "xl/_rels/workbook.xml.rels"
	relsLost := true
	if f, err := z.Open(relsName); err == nil {
		// Read as far as the list itself (8 MB): a megabyte held the
		// relationships of 7,560 slides; the others' were missing.
		relsErr := eachStart(newDecoder(io.LimitReader(f, 8<<20)), func(e xml.StartElement) {
			if e.Name.Local != "Relationship" {
				return
			}
			switch typ := attr(e, "Type"); {
			case strings.HasSuffix(typ, "/worksheet"):
				targets[attr(e, "Id")] = xlsxPart(attr(e, "Target"))
			case strings.HasSuffix(typ, "/sharedStrings"):
				named.strings = xlsxPart(attr(e, "Target"))
			case strings.HasSuffix(typ, "/styles"):
				named.styles = xlsxPart(attr(e, "Target"))
			default:
				targets[attr(e, "Id")] = "-"
			}
		})
		f.Close()
		relsLost = relsErr != nil
	}
	f, err := z.Open("xl/workbook.xml")
	if err != nil {
		if sheets = recoverSheets(z, nil, targets); len(sheets) == 0 {
			return nil, false, named, nil, fmt.Errorf("%w: no workbook", ErrOfficeDamaged)
		}
		return sheets, false, named, &IndexLost{Unit: "sheet", Index: "xl/workbook.xml", Count: len(sheets)}, nil
	}
	defer f.Close()
	err = eachStart(newDecoder(io.LimitReader(f, 8<<20)), func(e xml.StartElement) {
		if e.Name.Local == "workbookPr" {
			date1904 = attr(e, "date1904") == "1" || attr(e, "date1904") == "true"
		}
		if e.Name.Local != "sheet" {
			return
		}
		for _, a := range e.Attr {
			if a.Name.Space == nsRel && a.Name.Local == "id" {
				if targets[a.Value] != "-" {
					sheets = append(sheets, xlsxSheet{name: attr(e, "name"), part: targets[a.Value]})
				}
				break
			}
		}
	})
	if err != nil {
		// A workbook.xml that breaks: the worksheets it did not get to
		// name (its relationships' and the archive's) follow, named by
		// their parts.
		sheets = recoverSheets(z, sheets, targets)
	}
	if relsLost {
		var found []xlsxSheet
		for _, sh := range sheets {
			if sh.part != "" {
				found = append(found, sh)
			}
		}
		n := len(found)
		if sheets = recoverSheets(z, found, targets); len(sheets) > n {
			lost = &IndexLost{Unit: "sheet", Index: relsName, Count: len(sheets) - n}
		}
	}
	if len(sheets) == 0 {
		return nil, false, named, nil, fmt.Errorf("%w: no sheets", ErrOfficeDamaged)
	}
	return sheets, date1904, named, lost, nil
}

// recoverSheets is sheets, then the worksheets of targets and of the
// archive that sheets lacks, each named by its part (sheet3).
func recoverSheets(z *zip.Reader, sheets []xlsxSheet, targets map[string]string) []xlsxSheet {
	var listed []string
	for _, sh := range sheets {
		listed = append(listed, sh.part)
	}
	n := len(listed)
	isTarget := make(map[string]bool, len(targets))
	for _, t := range targets {
		isTarget[t] = t != "-"
	}
	parts := recoverParts(z, listed, func(name string) bool {
		return isTarget[name] || strings.HasPrefix(name, "xl/worksheets/") && strings.HasSuffix(name, ".xml") && !strings.Contains(name[len("xl/worksheets/"):], "/")
	}, func(a, b string) int { return sheetNumber(a) - sheetNumber(b) })
	for _, part := range parts[n:] {
		sheets = append(sheets, xlsxSheet{name: strings.TrimSuffix(path.Base(part), ".xml"), part: part})
	}
	return sheets
}

// sheetNumber is the number in a worksheet part's name (sheet12.xml: 12).
func sheetNumber(name string) int {
	n, _ := strconv.Atoi(strings.TrimLeft(strings.TrimSuffix(path.Base(name), ".xml"), "abcdefghijklmnopqrstuvwxyz"))
	return n
}

// xlsxPart resolves a relationship's target against the workbook's folder.
func xlsxPart(target string) string {
	if t, ok := strings.CutPrefix(target, "/"); ok {
		return t
	}
	return path.Join("xl", target)
}

// xlsxBook holds what the sheets of an Excel workbook refer to.
type xlsxBook struct {
	// text holds the shared strings one after another, ends where each
	// ends: as a []string, 4 million one-letter strings (a 200 KB file)
	// held 362 MiB.
	text    []byte
	ends    []uint32
	formats []cellFormat // per cell format (a cell's s attribute)
	// textCells counts the cells naming a shared string (Total) and names
	// those whose string the workbook lacks (xl/sharedStrings.xml missing,
	// damaged or cut short).
	textCells MissingParts
	epoch     time.Time
}

// readStrings reads the shared strings, which text cells name by index.
func (b *xlsxBook) readStrings(z *zip.Reader, name string, budget *xmlBudget) error {
	d, closer, err := openPart(z, name, budget)
	if err != nil {
		return nil // a workbook of numbers has none
	}
	defer closer.Close()
	in, text := false, false
	start := 0 // where the string being read begins in b.text
	err = eachToken(d, func(tok xml.Token) {
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "si":
				in = true
				start = 0
				if len(b.ends) > 0 {
					start = int(b.ends[len(b.ends)-1])
				}
				b.text = b.text[:start] // what an unended string held
			case "t":
				text = in
			case "rPh": // a phonetic reading (furigana) is not the text
				in = false
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "si":
				if len(b.ends) < maxSharedStrings {
					b.ends = append(b.ends, uint32(len(b.text)))
				}
				in = false
			case "t":
				text = false
			case "rPh":
				in = true
			}
		case xml.CharData:
			if text && len(b.text)-start < maxHeld {
				b.text = append(b.text, t...)
			}
		}
	})
	if len(b.ends) >= maxSharedStrings {
		return &OfficeLimitError{What: "number of strings"}
	}
	return budget.judged(err)
}

// cellFormat is how a cell format shows a number: as a date (or a time),
// or by its number format (nil: General).
type cellFormat struct {
	date    bool
	elapsed elapsed // a duration's unit ([h]:mm:ss), 0 for none
	number  *numFormat
}

// formatOf parses a number format code.
func formatOf(code string) cellFormat {
	if e := elapsedOf(code); e.unit != 0 {
		return cellFormat{elapsed: e}
	}
	if formatShape(code) == shapeDate {
		return cellFormat{date: true}
	}
	return cellFormat{number: parseNumFormat(code)}
}

// builtinFormat is one of Excel's built-in number formats.
func builtinFormat(id int) cellFormat {
	if id == 46 {
		return formatOf("[h]:mm:ss")
	}
	if builtinShape(id) == shapeDate {
		return cellFormat{date: true}
	}
	return cellFormat{number: parseNumFormat(builtinFormats[id])}
}

// readFormats reads how each cell format shows a number.
func (b *xlsxBook) readFormats(z *zip.Reader, name string, budget *xmlBudget) error {
	d, closer, err := openPart(z, name, budget)
	if err != nil {
		return nil // every cell in the general format
	}
	defer closer.Close()
	custom := map[int]cellFormat{}
	builtin := map[int]cellFormat{}
	inXfs := false
	err = eachToken(d, func(tok xml.Token) {
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "numFmt":
				if id := atoiOr(attr(t, "numFmtId"), -1); id >= 0 && len(custom) < maxCellFormats {
					custom[id] = formatOf(attr(t, "formatCode"))
				}
			case "cellXfs":
				inXfs = true
			case "xf":
				if inXfs && len(b.formats) < maxCellFormats {
					id := atoiOr(attr(t, "numFmtId"), 0)
					f, ok := custom[id]
					if !ok {
						if f, ok = builtin[id]; !ok {
							f = builtinFormat(id)
							builtin[id] = f
						}
					}
					b.formats = append(b.formats, f)
				}
			}
		case xml.EndElement:
			if t.Name.Local == "cellXfs" {
				inXfs = false
			}
		}
	})
	return budget.judged(err)
}

// numberShape is how a number format shows a number, as far as its text
// is concerned: as it is, as a date or a time, or as a percentage (0.25
// is shown 25%).
type numberShape byte

const (
	shapeNumber numberShape = iota
	shapeDate
	shapePercent
)

// builtinShape is the shape of one of Excel's built-in number formats
// (dates 14–22 everywhere, 27–36 and 50–58 in East Asian versions, times
// 45–47; percentages 9 and 10).
func builtinShape(id int) numberShape {
	switch {
	case id >= 14 && id <= 22 || id >= 27 && id <= 36 || id >= 45 && id <= 47 || id >= 50 && id <= 58:
		return shapeDate
	case id == 9 || id == 10:
		return shapePercent
	}
	return shapeNumber
}

// formatShape is the shape of a custom number format: a date or a time
// when it has a date or time code, a percentage when it has a %, outside
// its quoted text, escapes and bracketed parts (a colour, a currency's
// locale).
func formatShape(code string) numberShape {
	if strings.EqualFold(code, "General") {
		return shapeNumber
	}
	shape := shapeNumber
	quoted, bracket := false, false
	for i := 0; i < len(code); i++ {
		c := code[i]
		switch {
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '\\' || c == '_' || c == '*':
			i++ // the next character is shown (or padded) as it is
		case c == '[':
			bracket = true
		case c == ']':
			bracket = false
		case bracket:
		case strings.IndexByte("yYdDhHsSmM", c) >= 0:
			return shapeDate
		case c == '%':
			shape = shapePercent
		}
	}
	return shape
}

// readSheet reads a worksheet's rows. A cell naming a shared string is
// charged its text to budget, as if the sheet spelled it out: a cell of
// 30 bytes may name a string of a megabyte, and a 3 KB workbook of 1,000
// such cells was read for a minute into 500,000 chunks and failed as too
// many passages ("split it").
func (b *xlsxBook) readSheet(ctx context.Context, d *xml.Decoder, s *sheetWriter, budget *xmlBudget) error {
	var (
		cellType, style string
		col, next       int // the cell's column (from 1), the column expected next
		value           strings.Builder
		inValue         bool
		rows, rowNumber int
	)
	var failed error
	err := eachToken(d, func(tok xml.Token) {
		if failed != nil {
			return
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "row":
				next = 1
				rowNumber = atoiOr(attr(t, "r"), rowNumber+1)
				if rows++; rows%1024 == 0 {
					failed = ctx.Err()
				}
			case "c":
				cellType, style = attr(t, "t"), attr(t, "s")
				col = columnOf(attr(t, "r"))
				if col == 0 {
					col = next
				}
				if col > next {
					s.skip(col - next)
				}
				next = col + 1
				value.Reset()
			case "v", "t":
				inValue = true
			}
		case xml.CharData:
			if inValue && value.Len() < maxHeld {
				value.Write(t)
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "v", "t":
				inValue = false
			case "c":
				lost := b.textCells.Count
				text := b.shown(cellType, style, value.String())
				if b.textCells.Count > lost {
					b.textCells.Count--
					b.textCells.missing(cellName(s.name, col, rowNumber))
				}
				if cellType == "s" {
					failed = budget.charge(len(text))
				} else if more := len(text) - value.Len(); more > 0 {
					// A number format's text (up to a kilobyte of
					// code) is written for each cell it formats:
					// what it adds is charged as a shared string's
					// use is, where 300,000 cells of a 736 KB file
					// made 300 MB of text and ran past two minutes.
					failed = budget.charge(more)
				}
				if failed != nil {
					return
				}
				failed = s.cell(text)
			case "row":
				failed = s.endRow()
			}
		}
	})
	if failed != nil {
		return failed
	}
	return err
}

// shown is a cell's value as Excel shows it, near enough.
func (b *xlsxBook) shown(typ, style, v string) string {
	switch typ {
	case "s":
		b.textCells.Total++
		if i := atoiOr(v, -1); i >= 0 && i < len(b.ends) {
			start := uint32(0)
			if i > 0 {
				start = b.ends[i-1]
			}
			return string(b.text[start:b.ends[i]])
		}
		b.textCells.Count++ // named by readSheet, which knows the cell
		return ""
	case "b":
		if v == "1" {
			return "TRUE"
		}
		return "FALSE"
	case "str", "inlineStr", "e":
		return v
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil {
		return v
	}
	var cf cellFormat
	if i := atoiOr(style, -1); i >= 0 && i < len(b.formats) {
		cf = b.formats[i]
	}
	if cf.elapsed.unit != 0 {
		return cf.elapsed.format(f)
	}
	if cf.date {
		if f >= 0 && f < 2958466 {
			return excelDate(b.epoch, f)
		}
		return generalNumber(f)
	}
	return cf.number.format(f)
}

// excelDate writes a date serial number: days since the epoch, the
// fraction a time of day. The 1900 system counts a 29 February 1900 that
// never was (Lotus 1-2-3's error, kept), so serials before it are a day
// later than the epoch says.
func excelDate(epoch time.Time, serial float64) string {
	days, frac := math.Modf(serial)
	clock := time.Duration(math.Round(frac*86400)) * time.Second
	if days == 0 && (frac > 0 || epoch.Year() == 1899) {
		return time.Time{}.Add(clock).Format("15:04") // a time of day alone
	}
	if epoch.Year() == 1899 && days < 61 {
		days++
	}
	t := epoch.AddDate(0, 0, int(days)).Add(clock)
	if t.Year() > 9999 { // the last second of 9999 rounded up: past Excel's dates
		return strconv.FormatFloat(serial, 'g', 15, 64)
	}
	if frac == 0 {
		return t.Format("2006-01-02")
	}
	return t.Format("2006-01-02 15:04")
}

// columnOf is the column of a cell reference ("C7" is 3), 0 for none.
func columnOf(ref string) int {
	n := 0
	for i := 0; i < len(ref) && i < 3; i++ {
		c := ref[i] | 0x20
		if c < 'a' || c > 'z' {
			break
		}
		n = n*26 + int(c-'a'+1)
	}
	return n
}

// charge takes n bytes of text a reader writes out without reading them
// (a repeated cell's copies) from the budget.
func (b *xmlBudget) charge(n int) error {
	if b.left -= int64(n); b.left <= 0 {
		return b.spent()
	}
	return nil
}
