package importer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/chunk"
)

// ParseJSON imports a JSON file (one object, or an array of objects) or a
// JSON Lines file (one value per line; any sequence of values works). Each
// record becomes a document: `_id` or `id` is kept as its id, `title` names
// it, and `text` or `content` is its body. A record without a text field is
// rendered as "key: value" lines so its data is still searchable.
func ParseJSON(path string, data []byte) ([]Document, error) {
	return parse(path, data, readJSON)
}

// maxRecord bounds one JSON value (a record, or a whole file that is one
// object): the decoder holds a value whole, and its parsed form takes
// several times its size.
const maxRecord = 32 << 20

var errRecordTooLarge = fmt.Errorf("a JSON record is larger than %d MB", maxRecord>>20)

// maxText bounds a record's text written out as "key: value" lines
// (flatten), which is held whole before it is chunked: about the record's
// size for data a person keeps (an array's values are written once under
// its path), but an object's every value is written after its path of
// keys (up to a kilobyte), so a small record can write a gigabyte.
const maxText = 32 << 20

// MaxTextMB is maxText in MB.
const MaxTextMB = maxText >> 20

var errTextTooLarge = fmt.Errorf("a JSON record's text written out would pass %d MB", MaxTextMB)

// TextTooLargeError fails a JSON file whose record starting on Line would
// write more than MaxTextMB of text (its values each after its path of
// keys), though its bytes are within MaxRecordMB.
type TextTooLargeError struct{ Line int64 }

func (e *TextTooLargeError) Error() string {
	return fmt.Sprintf("%v (the record starts on line %d)", errTextTooLarge, e.Line)
}

func (e *TextTooLargeError) Unwrap() error { return errTextTooLarge }

// RecordTooLargeError fails a JSON file whose record starting on Line is
// larger than MaxRecordMB.
type RecordTooLargeError struct{ Line int64 }

// MaxRecordMB is the largest JSON record read, in MB.
const MaxRecordMB = maxRecord >> 20

func (e *RecordTooLargeError) Error() string {
	return fmt.Sprintf("%v (the record starts on line %d)", errRecordTooLarge, e.Line)
}

func (e *RecordTooLargeError) Unwrap() error { return errRecordTooLarge }

// maxParsed bounds the memory one JSON record may take parsed (an
// estimate: parsedSize). A record's bytes are bounded (maxRecord), but
// its parsed form can be a hundred times larger: 32 MB of zeros
// ("[0,0,…]", 15 million values) peaked at 957 MiB, and 12 MB of
// one-key objects ("[{\"a\":0},…]", 1.5 million) at 718 MiB. 300 MB, with
// the bytes held, keeps a record within the 512 MB a file may cost; it is
// more than any record a person keeps needs (a file that is an array is
// read an item at a time).
const maxParsed = 300 << 20

// MaxParsedMB is maxParsed in MB.
const MaxParsedMB = maxParsed >> 20

var errTooManyValues = fmt.Errorf("a JSON record holds so many values that it would take more than %d MB parsed", MaxParsedMB)

// TooManyValuesError fails a JSON file whose record starting on Line holds
// so many values that it would take more than MaxParsedMB parsed.
type TooManyValuesError struct{ Line int64 }

func (e *TooManyValuesError) Error() string {
	return fmt.Sprintf("%v (the record starts on line %d)", errTooManyValues, e.Line)
}

func (e *TooManyValuesError) Unwrap() error { return errTooManyValues }

// decodeValue decodes dec's next value as Decode(&v) would, numbers as
// json.Number, once what it would cost is known: the decoder's bytes of
// it are taken first (json.RawMessage), and a record that would take
// more than maxParsed is refused before it is parsed.
func decodeValue(dec *json.Decoder) (any, json.RawMessage, error) {
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, nil, err
	}
	if len(raw) > maxParsed/perObject && parsedSize(raw) > maxParsed {
		return nil, nil, &valuesFrom{int64(bytes.Count(raw, []byte("\n")))}
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, raw, err
}

// valuesFrom is errTooManyValues of the value just decoded, which spans
// lines line breaks: its first line is that many before the line the
// decoder is at (exact, in the last read).
type valuesFrom struct{ lines int64 }

func (v *valuesFrom) Error() string { return errTooManyValues.Error() }
func (v *valuesFrom) Unwrap() error { return errTooManyValues }

// What a value, an object's key and an object cost parsed as any, as
// measured through kb import (a value boxed in its interface, json.Number
// or string, a slice's room; a map's entry; a map): four million zeros
// took 292 MB, 2.4 million keys of one object 260 MB, 1.5 million
// objects of one key 590 MB. "{}," is three bytes of 362 of memory.
const (
	perValue  = 72
	perKey    = 36
	perObject = 290 + perValue
)

// parsedSize is about what the JSON value raw takes parsed as any: its
// values (one, one more for each array or object opened and each comma),
// keys (each colon) and objects, outside strings; it stops counting past
// maxParsed.
func parsedSize(raw []byte) int64 {
	size, inString, escaped := int64(perValue), false, false
	for _, c := range raw {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		case c == '"':
			inString = true
			continue
		case c == ',' || c == '[':
			size += perValue
		case c == '{':
			size += perObject
		case c == ':':
			size += perKey
		default:
			continue
		}
		if size > maxParsed {
			break
		}
	}
	return size
}

// RecordsTooLarge is the warning about a JSON Lines file some of whose
// lines are records larger than MaxRecordMB: they are left out and the
// others imported, as a container's unreadable part is. Before, one such
// line refused the whole file ("split it").
type RecordsTooLarge struct {
	Lines []int64 // the first few records' lines
	Count int     // records left out
}

func (r *RecordsTooLarge) add(line int64) { r.Lines, r.Count = leftOut(r.Lines, r.Count, line) }

func (r *RecordsTooLarge) Error() string {
	return fmt.Sprintf("%d JSON records larger than %d MB were left out (lines %s); the others were imported", r.Count, MaxRecordMB, LineList(r.Lines))
}

// RecordsTooManyValues is the warning about a JSON Lines file some of
// whose records hold so many values that each would take more than
// MaxParsedMB parsed (errTooManyValues): they are left out and the others
// imported, as records too large are (RecordsTooLarge). Before, one such
// record refused the whole file.
type RecordsTooManyValues struct {
	Lines []int64 // the first few records' lines
	Count int     // records left out
}

func (r *RecordsTooManyValues) add(line int64) { r.Lines, r.Count = leftOut(r.Lines, r.Count, line) }

func (r *RecordsTooManyValues) Error() string {
	return fmt.Sprintf("%d JSON records holding so many values that each would take more than %d MB parsed were left out (lines %s); the others were imported", r.Count, MaxParsedMB, LineList(r.Lines))
}

// RecordsTextTooLarge is the warning about a JSON Lines file some of
// whose records would each write more than MaxTextMB of text
// (errTextTooLarge): they are left out and the others imported, as
// records too large are (RecordsTooLarge).
type RecordsTextTooLarge struct {
	Lines []int64 // the first few records' lines
	Count int     // records left out
}

func (r *RecordsTextTooLarge) add(line int64) { r.Lines, r.Count = leftOut(r.Lines, r.Count, line) }

func (r *RecordsTextTooLarge) Error() string {
	return fmt.Sprintf("%d JSON records whose text written out would each pass %d MB were left out (lines %s); the others were imported", r.Count, MaxTextMB, LineList(r.Lines))
}

// leftOut counts one more record left out, on line, naming the first
// maxNamed: the add of each Records… warning.
func leftOut(lines []int64, count int, line int64) ([]int64, int) {
	if len(lines) < maxNamed {
		lines = append(lines, line)
	}
	return lines, count + 1
}

// LineList writes the lines a Records… warning names: "2, 9".
func LineList(lines []int64) string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strconv.FormatInt(l, 10)
	}
	return strings.Join(out, ", ")
}

// readJSON streams records: values one after another, and the items of an
// array that opens the file one at a time, so a file of any size is read
// within about maxRecord of memory.
func readJSON(ctx context.Context, path string, tr *TextReader, sink Sink) error {
	return readJSONWarned(ctx, path, tr, sink, nil)
}

// readJSONWarned is readJSON saying in warn what it left out: in a JSON
// Lines file (.jsonl, .ndjson), a line that is one record larger than
// maxRecord is skipped and named (*RecordsTooLarge), its bytes read past
// a buffer at a time, not held; a record that would take more than
// maxParsed parsed is skipped and named too (*RecordsTooManyValues): its
// bytes were taken whole, and it was not parsed.
func readJSONWarned(ctx context.Context, path string, tr *TextReader, sink Sink, warn *warnings) error {
	ext := strings.ToLower(pathExt(path))
	lines := ext == ".jsonl" || ext == ".ndjson"
	var tooLarge RecordsTooLarge
	var tooMany RecordsTooManyValues
	var tooLong RecordsTextTooLarge
	first, err := tr.Next()
	if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	lr := &lineReader{r: io.MultiReader(strings.NewReader(first), tr), line: 1}
	dec := json.NewDecoder(lr)
	dec.UseNumber()
	lr.dec = dec
	n := 0
	emit := func(v any) error {
		d, ok, err := record(path, v, n)
		if err != nil || !ok {
			return err
		}
		n++
		if err := sink.Begin(d); err != nil {
			return err
		}
		return sink.End(d)
	}
	// fail names the line of an error. A value's syntax error is found again
	// in what the decoder holds of it (from the value's start), as its own
	// offsets do not count what Token read.
	fail := func(err error, decoding bool) error {
		if errors.Is(err, errRecordTooLarge) {
			start := lr.lineAt(dec.InputOffset()) + leadingNewlines(dec.Buffered())
			return &RecordTooLargeError{Line: start}
		}
		at := dec.InputOffset()
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			at = syn.Offset
			if decoding {
				at = dec.InputOffset() + valueErrorOffset(dec.Buffered())
			}
		}
		line := lr.lineAt(at)
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			// Cut short: the file ends where a value should go on. The
			// mistake is where that value begins (a JSON Lines record
			// missing its brace swallows the lines after it, so the end
			// of the file says nothing about where to look).
			start := lr.lineAt(dec.InputOffset()) + leadingNewlines(dec.Buffered())
			return &SyntaxError{Line: start, Unfinished: true, Err: io.ErrUnexpectedEOF}
		}
		if errors.As(err, &syn) && strings.Contains(syn.Error(), "exceeded max depth") {
			// Valid JSON, maybe, but nested past what encoding/json
			// follows: not a mistake to fix on a line.
			start := lr.lineAt(dec.InputOffset()) + leadingNewlines(dec.Buffered())
			return &SyntaxError{Line: start, TooDeep: true, Err: err}
		}
		if errors.As(err, &syn) {
			return &SyntaxError{Line: line, Err: err}
		}
		return fmt.Errorf("json at line %d: %w", line, err)
	}
	if t := strings.TrimLeft(first, " \t\r\n"); strings.HasPrefix(t, "[") {
		if _, err := dec.Token(); err != nil {
			return fail(err, false)
		}
		opened := 1 + int64(strings.Count(first[:len(first)-len(t)], "\n"))
		for dec.More() {
			v, raw, err := decodeValue(dec)
			if va := (*valuesFrom)(nil); errors.As(err, &va) {
				return &TooManyValuesError{Line: lr.lineAt(dec.InputOffset()) - va.lines}
			}
			if err != nil {
				return fail(err, true)
			}
			if err := emit(v); errors.Is(err, errTextTooLarge) {
				return &TextTooLargeError{Line: lr.lineAt(dec.InputOffset()) - int64(bytes.Count(raw, []byte("\n")))}
			} else if err != nil {
				return err
			}
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); errors.Is(err, io.EOF) {
			return &SyntaxError{Line: opened, Unfinished: true, Err: io.ErrUnexpectedEOF}
		} else if err != nil {
			return fail(err, false)
		}
	}
	for {
		v, raw, err := decodeValue(dec)
		if errors.Is(err, io.EOF) {
			break
		}
		if va := (*valuesFrom)(nil); errors.As(err, &va) {
			start := lr.lineAt(dec.InputOffset()) - va.lines
			if !lines {
				return &TooManyValuesError{Line: start}
			}
			// The decoder is past the record (its bytes were taken
			// whole, then counted): the next one is read on.
			tooMany.add(start)
			continue
		}
		if lines && errors.Is(err, errRecordTooLarge) && onOneLine(dec.Buffered()) {
			start := lr.lineAt(dec.InputOffset()) + leadingNewlines(dec.Buffered())
			rest, err := lr.pastLine(ctx, dec.Buffered())
			if err != nil {
				return err
			}
			tooLarge.add(start)
			lr = &lineReader{r: rest, line: start + 1}
			dec = json.NewDecoder(lr)
			dec.UseNumber()
			lr.dec = dec
			// The skipped record's buffers (the decoder's, the read
			// refused: some 100 MB) are given back now, not after the
			// next one's: six such lines peaked at 326 MiB.
			debug.FreeOSMemory()
			continue
		}
		if err != nil {
			return fail(err, true)
		}
		if arr, ok := v.([]any); ok {
			for _, item := range arr {
				if err = emit(item); err != nil {
					break
				}
			}
		} else {
			err = emit(v)
		}
		if errors.Is(err, errTextTooLarge) {
			// Its text, written out, is past maxText: skipped and
			// named in a JSON Lines file, as one too large to read is.
			start := lr.lineAt(dec.InputOffset()) - int64(bytes.Count(raw, []byte("\n")))
			if !lines {
				return &TextTooLargeError{Line: start}
			}
			tooLong.add(start)
			continue
		}
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	if n == 0 && tooLarge.Count > 0 && (tooMany.Count == 0 || tooLarge.Lines[0] < tooMany.Lines[0]) {
		return &RecordTooLargeError{Line: tooLarge.Lines[0]}
	}
	if n == 0 && tooMany.Count > 0 {
		return &TooManyValuesError{Line: tooMany.Lines[0]}
	}
	if n == 0 && tooLong.Count > 0 {
		return &TextTooLargeError{Line: tooLong.Lines[0]}
	}
	if n == 0 {
		return ErrEmpty
	}
	if tooLarge.Count > 0 {
		warn.add(&tooLarge)
	}
	if tooMany.Count > 0 {
		warn.add(&tooMany)
	}
	if tooLong.Count > 0 {
		warn.add(&tooLong)
	}
	return nil
}

// onOneLine says whether the record that begins in buffered (after white
// space) has no line break in what the decoder holds of it, maxRecord
// bytes: a JSON Lines record too large, which can be skipped to its
// line's end. One that spans lines (a pretty-printed value) could not be
// told from the lines after it, and fails the file as before.
func onOneLine(buffered io.Reader) bool {
	br := bufio.NewReader(buffered)
	started := false
	for {
		c, err := br.ReadByte()
		switch {
		case err != nil:
			return true
		case !started && jsonSpace(c):
		case c == '\n':
			return false
		default:
			started = true
		}
	}
}

// pastLine is what follows the line of the record that begins in buffered
// (after white space), read on from what the decoder held, the read
// refused (pending) and the file: the record's bytes are read past a
// buffer at a time.
func (l *lineReader) pastLine(ctx context.Context, buffered io.Reader) (io.Reader, error) {
	br := bufio.NewReaderSize(io.MultiReader(buffered, bytes.NewReader(l.pending), l.r), 64<<10)
	for {
		c, err := br.ReadByte()
		if err != nil {
			return br, nil
		}
		if !jsonSpace(c) {
			break
		}
	}
	for {
		_, err := br.ReadSlice('\n')
		switch {
		case err == nil:
			return br, nil
		case !errors.Is(err, bufio.ErrBufferFull):
			return br, nil // the file ends on the record
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
}

// SyntaxError is a JSON file that is not valid JSON: where the parser
// stopped (Line, from 1) and what it found there. Its own type, so that the
// window can say in the person's language that the file is not valid JSON
// and on which line, rather than show the parser's English.
type SyntaxError struct {
	Line int64
	// Unfinished: the value that begins on Line never ends (the file ends
	// inside it), rather than a mistake found on Line itself.
	Unfinished bool
	// TooDeep: the value that begins on Line nests deeper than MaxDepth
	// levels (encoding/json's limit), which no data a person keeps does.
	TooDeep bool
	Err     error
}

// MaxDepth is how deep a JSON value may nest (encoding/json's limit).
const MaxDepth = 10_000

func (e *SyntaxError) Error() string {
	if e.TooDeep {
		return fmt.Sprintf("json at line %d: the value that begins there nests deeper than %d levels", e.Line, MaxDepth)
	}
	if e.Unfinished {
		return fmt.Sprintf("json at line %d: the value that begins there never ends: %v", e.Line, e.Err)
	}
	return fmt.Sprintf("json at line %d: %v", e.Line, e.Err)
}

func (e *SyntaxError) Unwrap() error { return e.Err }

// valueErrorOffset is where a fresh decoder finds the syntax error in the
// bytes of one value.
func valueErrorOffset(value io.Reader) int64 {
	var syn *json.SyntaxError
	var v any
	if err := json.NewDecoder(value).Decode(&v); errors.As(err, &syn) {
		return syn.Offset
	}
	return 0
}

// jsonSpace says whether c is white space between JSON values (RFC 8259's
// four characters; a record starts at the first byte that is not).
func jsonSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// leadingNewlines counts the line breaks before a value starts.
func leadingNewlines(r io.Reader) int64 {
	br := bufio.NewReader(r)
	n := int64(0)
	for {
		c, err := br.ReadByte()
		switch {
		case err != nil || !jsonSpace(c):
			return n
		case c == '\n':
			n++
		}
	}
}

// lineReader counts lines under the JSON decoder, so that an error names
// its line without the file being held: the decoder finds errors in the
// bytes it read last, which are kept; further back the line where a read
// began is known. It also stops a value that grows past maxRecord.
type lineReader struct {
	r    io.Reader
	dec  *json.Decoder
	off  int64 // bytes read
	line int64 // line at off
	// the last read, and where each read since the current value began
	last              []byte
	lastOff, lastLine int64
	marks             []mark
	// pending is the read refused as past maxRecord.
	pending []byte
}

type mark struct{ off, line int64 }

func (l *lineReader) Read(p []byte) (int, error) {
	consumed := int64(0)
	if l.dec != nil {
		consumed = l.dec.InputOffset()
	}
	n, err := l.r.Read(p[:min(len(p), maxRecord+1)])
	if l.off+int64(n)-consumed > maxRecord {
		l.pending = append(l.pending[:0], p[:n]...) // read from the file: what follows a skipped record (pastLine)
		return 0, errRecordTooLarge
	}
	if n > 0 {
		i := 0
		for i < len(l.marks)-1 && l.marks[i+1].off <= consumed {
			i++
		}
		l.marks = append(l.marks[i:], mark{l.off, l.line})
		l.last = append(l.last[:0], p[:n]...)
		l.lastOff, l.lastLine = l.off, l.line
		l.off += int64(n)
		l.line += int64(bytes.Count(p[:n], []byte("\n")))
	}
	return n, err
}

// lineAt is the line of a byte offset: exact in the last read, else the
// line where the read holding it began.
func (l *lineReader) lineAt(off int64) int64 {
	if off >= l.lastOff && off <= l.lastOff+int64(len(l.last)) {
		return l.lastLine + int64(bytes.Count(l.last[:off-l.lastOff], []byte("\n")))
	}
	line := int64(1)
	for _, m := range l.marks {
		if m.off <= off {
			line = m.line
		}
	}
	return line
}

// record makes the document of one JSON value; n counts the documents
// before it, for names of records without a title or id. A record whose
// text written out is past maxText is errTextTooLarge (flatten).
func record(path string, v any, n int) (Document, bool, error) {
	var id, title, text string
	within := true
	switch r := v.(type) {
	case map[string]any:
		id = scalarString(firstOf(r, "_id", "id"))
		title = strings.TrimSpace(scalarString(r["title"]))
		if body, ok := firstOf(r, "text", "content").(string); ok {
			text = body
		} else if body := firstOf(r, "text", "content"); body != nil {
			text, within = flatten("", body)
		} else {
			// The other keys are the text. They are taken out of the
			// record, which is the decoder's and read no more, rather
			// than copied into another map: the copy doubled what a
			// record costs parsed, past what parsedSize charges it (a
			// record of 1.7 million keys, 30 MB, peaked at 527 MiB).
			delete(r, "_id")
			delete(r, "id")
			delete(r, "title")
			text, within = flatten("", r)
		}
	case string:
		text = r
	case nil:
		return Document{}, false, nil
	default:
		text, within = flatten("", r)
	}
	if !within {
		return Document{}, false, errTextTooLarge
	}
	if strings.TrimSpace(text) == "" && title == "" {
		return Document{}, false, nil
	}
	if title == "" && id != "" {
		title = id
	}
	if title == "" {
		title = fmt.Sprintf("%s #%d", baseName(path), n+1)
	}
	return Document{
		ID: id, Title: title, Source: path, Kind: KindJSON,
		Parts: []chunk.Input{{Heading: title, Text: text}},
	}, true, nil
}

func firstOf(r map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := r[k]; ok && v != nil {
			return v
		}
	}
	return nil
}

// scalarString renders ids and titles that may be numbers or booleans.
func scalarString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	}
	return ""
}

// flatten renders a JSON value as "key: value" lines, nested keys joined
// with dots, in key order so the same record always gives the same text.
// An array's plain values (numbers, strings, booleans; arrays of them
// too) are written once under its path, on one line wrapped every
// wrapWidth bytes or the path's length, whichever is more, so its text is
// about the array's size: written a value a line after the path, a 12 MB
// GeoJSON of 350 polygons of 1,500 points wrote 45 MB and was refused.
// It says false, and stops, once the text is past maxText: a value's
// path of keys is cut at a kilobyte, but an object's every value is still
// written after it (a record of a million one-key objects under such a
// path would write a gigabyte; before the cut, 300 numbers under a path
// of a megabyte wrote 300 MB and imported at 2,233 MiB).
func flatten(prefix string, v any) (string, bool) {
	const (
		maxPath   = 1 << 10 // bytes of a value's path of keys, past which it is cut
		wrapWidth = 200     // bytes of an array's values on a line
	)
	var b strings.Builder
	open, width, str := false, 0, false // a line of values is open: its values' bytes, the last was a string
	end := func() {
		if open {
			b.WriteByte('\n')
			open = false
		}
	}
	put := func(prefix, s string, isStr bool) {
		if open && width >= max(wrapWidth, len(prefix)) {
			end()
		}
		switch {
		case !open:
			if prefix != "" {
				b.WriteString(prefix)
				b.WriteString(": ")
			}
			open, width = true, 0
		case str || isStr: // strings may hold spaces: a comma tells them apart
			b.WriteString(", ")
		default:
			b.WriteByte(' ')
		}
		b.WriteString(s)
		width += len(s) + 1
		str = isStr
	}
	var walk func(prefix string, v any, inArray bool)
	walk = func(prefix string, v any, inArray bool) {
		if b.Len() > maxText {
			return
		}
		switch x := v.(type) {
		case map[string]any:
			end()
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				p := k
				if prefix != "" {
					p = prefix + "." + k[:min(len(k), maxPath)]
				}
				if len(p) > maxPath { // each level's path is held while it is walked
					p = strings.ToValidUTF8(p[:maxPath], "") + "…"
				}
				walk(p, x[k], false)
			}
		case []any:
			for _, item := range x {
				walk(prefix, item, true)
			}
			if !inArray {
				end()
			}
		case nil:
		default:
			s := scalarString(x)
			if s == "" {
				return
			}
			_, isStr := x.(string)
			put(prefix, s, isStr)
			if !inArray {
				end()
			}
		}
	}
	walk(prefix, v, false)
	end()
	if b.Len() > maxText {
		return "", false
	}
	return b.String(), true
}
