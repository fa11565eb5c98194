package importer

import (
	"context"
	"errors"
	"io"
	"strings"
)

// A CSV or TSV file is read as a sheet (sheets.go): its first row, which
// names the columns, is the heading of every chunk, and each further row
// a line, its fields between " | ". The text arrives decoded (UTF-8,
// UTF-16 or the EUC-KR/CP949 a Korean Excel saves CSV in).
//
// The fields are split here rather than by encoding/csv, which holds a
// whole record: one quote left open makes the rest of the file a single
// field. This splitter streams, and hands a field on once it holds
// maxHeld bytes. It reads RFC 4180 as spreadsheets write it: a field in
// quotes may hold the separator, line breaks and doubled quotes; a quote
// inside an unquoted field is a quote.
func readCSV(ctx context.Context, path string, tr *TextReader, sink Sink) error {
	sep := ','
	if strings.EqualFold(pathExt(path), ".tsv") {
		sep = '\t'
	}
	s := newSheetWriter(path, KindCSV, sink)
	s.sheet("")
	var (
		field             strings.Builder
		quoted, quoteSeen bool // in a quoted field; a quote just seen in it
		started           bool // the field has begun (a quote opens only a field's first character)
		cr                bool // the line ended at a CR: a LF next is the same line end
		rows              int
	)
	endField := func() error {
		err := s.cell(field.String())
		field.Reset()
		quoted, quoteSeen, started = false, false, false
		return err
	}
	endLine := func() error {
		if err := endField(); err != nil {
			return err
		}
		if err := s.endRow(); err != nil {
			return err
		}
		if rows++; rows%1024 == 0 {
			return ctx.Err()
		}
		return nil
	}
	for {
		text, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		for _, r := range text {
			afterCR := cr
			cr = false
			if quoteSeen { // the quote before r ended the quoted part, or r doubles it
				quoteSeen = false
				if r == '"' {
					field.WriteRune('"')
					continue
				}
				quoted = false
			}
			switch {
			case quoted && r == '"':
				quoteSeen = true
				continue
			case quoted:
				field.WriteRune(r)
			case r == '"' && !started:
				quoted, started = true, true
				continue
			case r == sep:
				if err := endField(); err != nil {
					return err
				}
				continue
			case r == '\n' && afterCR: // the LF of a CRLF
				continue
			case r == '\n' || r == '\r': // a CR alone ends a line too: Excel for Mac's "CSV (Macintosh)"
				if err := endLine(); err != nil {
					return err
				}
				cr = r == '\r'
				continue
			default:
				field.WriteRune(r)
			}
			started = true
			if field.Len() >= maxHeld {
				if err := s.cell(field.String()); err != nil {
					return err
				}
				field.Reset()
			}
		}
	}
	if field.Len() > 0 || s.places > 0 || s.empty > 0 {
		if err := endField(); err != nil {
			return err
		}
	}
	if err := s.endRow(); err != nil {
		return err
	}
	return s.w.end()
}
