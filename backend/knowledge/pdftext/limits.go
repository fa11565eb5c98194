package pdftext

import (
	"errors"
	"fmt"
	"time"
)

// Errors callers test with errors.Is to tell the person what is wrong with a
// file. Every error Extract returns reads as one line; PDFium's own traps
// (WebAssembly stack traces) stay behind errors.Unwrap, for logs.
var (
	ErrCorrupt   = errors.New("pdf is damaged or not a pdf")
	ErrEncrypted = errors.New("pdf is protected by a password")
	ErrNoText    = errors.New("pdf has no extractable text (scanned images need OCR)")
	// ErrTooLarge: the file needs more memory or holds more than its budget
	// allows (a stream that inflates past the limit, a page with millions
	// of characters). The *LimitError that wraps it says which limit.
	ErrTooLarge = errors.New("pdf is larger than the reader allows")
	// ErrTooSlow: opening the file or reading one page took longer than its
	// budget.
	ErrTooSlow = errors.New("pdf takes too long to read")
)

// LimitError is a file stopped by one of the Limits; Error is a sentence
// for the person, Unwrap gives ErrTooLarge or ErrTooSlow. Limit, Page and
// Max say the same in parts, for callers that say it in another language.
type LimitError struct {
	Err    error
	Reason string
	Limit  Limit
	Page   int    // the page that crossed it (from 1); 0: the whole document
	Max    string // the limit as Reason says it: "384 MB", "30s", "20000"
}

// Limit names one of the Limits.
type Limit string

// The limits a LimitError can name.
const (
	LimitMemory    Limit = "memory"
	LimitOpenTime  Limit = "open_time"
	LimitPageTime  Limit = "page_time"
	LimitPages     Limit = "pages"
	LimitPageChars Limit = "page_chars"
	LimitTextBytes Limit = "text_bytes"
)

func (e *LimitError) Error() string { return e.Reason }
func (e *LimitError) Unwrap() error { return e.Err }

// Limits bound what one PDF may cost, whatever is in it. A file that
// crosses one fails alone with a *LimitError; the next file starts afresh.
type Limits struct {
	// Memory caps PDFium's memory for one file (the document itself is read
	// through the host, not copied in). The process holds at most about
	// this much more than when idle while such a file is read, and gives it
	// back when the file is done.
	Memory uint64
	// OpenTime and PageTime cap opening the document and reading one page.
	OpenTime, PageTime time.Duration
	// Pages, PageChars and TextBytes cap what a document may hold.
	Pages, PageChars, TextBytes int
}

// DefaultLimits leave room for any document people write (the largest page
// of the evaluation set needs ≈20 MB and reads in well under a second; a
// 20,000-page Korean book holds ≈60 MB of text) and keep a hostile one
// within the 512 MB a single file may cost: PDFium's memory, the page
// being laid out and the text kept while the pages are read add up to at
// most 480 MB (pageText's room).
var DefaultLimits = Limits{
	Memory:    384 << 20,
	OpenTime:  30 * time.Second,
	PageTime:  30 * time.Second,
	Pages:     20_000,
	PageChars: 500_000,
	TextBytes: 96 << 20,
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	if l.Memory == 0 {
		l.Memory = d.Memory
	}
	if l.OpenTime == 0 {
		l.OpenTime = d.OpenTime
	}
	if l.PageTime == 0 {
		l.PageTime = d.PageTime
	}
	if l.Pages == 0 {
		l.Pages = d.Pages
	}
	if l.PageChars == 0 {
		l.PageChars = d.PageChars
	}
	if l.TextBytes == 0 {
		l.TextBytes = d.TextBytes
	}
	return l
}

// megabytes words a limit; the small ones are tests' limits.
func megabytes(n uint64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// limitError builds a LimitError; format says what crossed the limit, of
// "this PDF", with %s for max.
func limitError(err error, lim Limit, page int, max, format string) error {
	reason := fmt.Sprintf(format, max)
	if page > 0 {
		reason = fmt.Sprintf("page %d of %s", page, reason)
	}
	return &LimitError{Err: err, Reason: reason + "; it looks damaged or hostile", Limit: lim, Page: page, Max: max}
}
