// Package pdftext extracts the text of PDF files, page by page, with PDFium
// compiled to WebAssembly and run under wazero.
//
// Why PDFium in WebAssembly: measured against poppler's pdftotext on Korean
// and English PDFs, PDFium kept 0.98–0.99 of the words (including the spaces
// between Korean words), while pure-Go parsers kept 0.06–0.27 and MuPDF
// dropped Korean word spaces. Running it as WebAssembly keeps the build free
// of cgo; the compiled machine code is cached on disk so that only the first
// start pays the ≈5 s compilation.
//
// The wasm binary comes from the npm package @embedpdf/pdfium (version in
// PDFIUM_VERSION, refetched by update-pdfium.sh); see LICENSE.pdfium and
// LICENSE.embedpdf.
package pdftext

import (
	"bytes"
	"compress/gzip"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/experimental"
)

//go:embed pdfium.wasm.gz
var pdfiumWasmGz []byte

var errOutOfMemory = errors.New("out of pdfium memory")

// maxConcurrent bounds simultaneous extractions: each one owns a PDFium
// instance of up to Limits.Memory (384 MB), so two at once (an import and
// an upload, the library and a conversation's files) could hold 768 MB,
// past the 512 MB above idle that any import may cost. One at a time keeps
// the process within it; the next waits its turn (or its context).
const maxConcurrent = 1

// Page is the text of one page; Number starts at 1.
type Page struct {
	Number int
	Text   string
}

// Extractor runs PDFium. It is safe for concurrent use (extractions run
// one at a time, see maxConcurrent): every Extract call gets a fresh PDFium
// instance, with memory of its own that is unmapped when
// the file is done, so a hostile or broken file cannot affect the next one
// or leave the process larger.
type Extractor struct {
	rt     wazero.Runtime
	mod    wazero.CompiledModule
	slots  chan struct{}
	limits Limits
	log    *slog.Logger
}

// Option configures an Extractor.
type Option func(*Extractor)

// WithLimits replaces DefaultLimits; zero fields keep their default.
func WithLimits(l Limits) Option { return func(e *Extractor) { e.limits = l.withDefaults() } }

// WithLogger receives the details behind failures (PDFium's traps).
func WithLogger(l *slog.Logger) Option { return func(e *Extractor) { e.log = l } }

// New compiles PDFium. cacheDir holds wazero's compilation cache so later
// starts skip compilation; "" disables the cache.
func New(ctx context.Context, cacheDir string, opts ...Option) (*Extractor, error) {
	e := &Extractor{slots: make(chan struct{}, maxConcurrent), limits: DefaultLimits, log: slog.Default()}
	for _, o := range opts {
		o(e)
	}
	wasm, err := gunzip(pdfiumWasmGz)
	if err != nil {
		return nil, fmt.Errorf("unpack pdfium: %w", err)
	}
	cfg := wazero.NewRuntimeConfig().
		WithCloseOnContextDone(true).
		WithMemoryLimitPages(uint32(e.limits.Memory / wasmPageSize))
	if cacheDir != "" {
		if err := os.MkdirAll(cacheDir, 0o700); err != nil {
			return nil, fmt.Errorf("create pdfium cache dir: %w", err)
		}
		cache, err := wazero.NewCompilationCacheWithDir(cacheDir)
		if err != nil {
			return nil, fmt.Errorf("open pdfium cache %q: %w", cacheDir, err)
		}
		cfg = cfg.WithCompilationCache(cache)
	}
	e.rt = wazero.NewRuntimeWithConfig(ctx, cfg)
	if err := e.setup(ctx, wasm); err != nil {
		_ = e.rt.Close(ctx)
		return nil, err
	}
	return e, nil
}

func (e *Extractor) setup(ctx context.Context, wasm []byte) error {
	mod, err := e.rt.CompileModule(ctx, wasm)
	if err != nil {
		return fmt.Errorf("compile pdfium: %w", err)
	}
	if err := instantiateWASI(ctx, e.rt); err != nil {
		return err
	}
	if err := instantiateEnv(ctx, e.rt, mod); err != nil {
		return err
	}
	e.mod = mod
	return nil
}

// Close releases the runtime; the Extractor must not be used afterwards.
func (e *Extractor) Close(ctx context.Context) error {
	return e.rt.Close(ctx)
}

// ExtractFile extracts one file, read in place.
func (e *Extractor) ExtractFile(ctx context.Context, path string) ([]Page, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read pdf %q: %w", path, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read pdf %q: %w", path, err)
	}
	pages, err := e.ExtractReader(ctx, f, info.Size())
	if err != nil {
		return pages, fmt.Errorf("extract %q: %w", path, err)
	}
	return pages, nil
}

// ExtractReader extracts a PDF of the given size read from r. PDFium reads
// the parts it needs through r as it goes, so an *os.File is never loaded
// whole.
func (e *Extractor) ExtractReader(ctx context.Context, r io.ReaderAt, size int64) ([]Page, error) {
	head := make([]byte, min(size, 1024))
	if _, err := r.ReadAt(head, 0); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("read pdf: %w", err)
	}
	if !bytes.Contains(head, []byte("%PDF")) {
		return nil, fmt.Errorf("no %%PDF header: %w", ErrCorrupt)
	}
	return e.extract(ctx, &docFile{r: r, size: size})
}

// instState is what the host functions learn about one instance while it
// runs; it travels in the context of every call.
type instState struct {
	memoryRefused bool     // PDFium asked for more memory than Limits.Memory
	file          *docFile // the document, the one file PDFium can open
}

type stateKey struct{}

func stateOf(ctx context.Context) *instState {
	st, _ := ctx.Value(stateKey{}).(*instState)
	return st
}

// errDeadline is the cause of a context the extractor itself timed out.
var errDeadline = errors.New("pdftext deadline")

// Extract returns the text of every page. It fails with ErrCorrupt,
// ErrEncrypted, ErrNoText, ErrTooLarge or ErrTooSlow (wrapped) when the
// document cannot give text, and with ctx's error when ctx ends.
func (e *Extractor) Extract(ctx context.Context, data []byte) ([]Page, error) {
	return e.ExtractReader(ctx, bytes.NewReader(data), int64(len(data)))
}

func (e *Extractor) extract(ctx context.Context, doc *docFile) ([]Page, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	select {
	case e.slots <- struct{}{}:
		defer func() { <-e.slots }()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	st := &instState{file: doc}
	ictx := context.WithValue(experimental.WithMemoryAllocator(ctx, memoryAllocator()), stateKey{}, st)
	inst, err := e.rt.InstantiateModule(ictx, e.mod,
		wazero.NewModuleConfig().WithName("").WithStartFunctions())
	if err != nil {
		return nil, fmt.Errorf("start the PDF reader: %w", err)
	}
	p := &pdfium{m: inst, limits: e.limits}
	pages, err := p.extract(ictx)
	grown := inst.Memory().Size()
	_ = inst.Close(context.WithoutCancel(ctx))
	if memoryAllocator() == nil && grown > 64<<20 || p.chars*glyphCost > 32<<20 {
		// Without a mapping of its own, the instance's memory was Go heap;
		// and pages of many characters took heap to lay out (a page of
		// 490,000 glyphs, one a line, left the process 120 MB above idle
		// after the file, and 5 s later). Give it back now rather than
		// whenever the collector's scavenger gets to it.
		debug.FreeOSMemory()
	}
	if doc.err != nil {
		return nil, fmt.Errorf("read pdf: %w", doc.err)
	}
	if err != nil {
		return nil, e.explain(ctx, st, err)
	}
	for _, pg := range pages {
		if strings.TrimSpace(pg.Text) != "" {
			return pages, nil
		}
	}
	return nil, fmt.Errorf("%d pages: %w", len(pages), ErrNoText)
}

// explain turns a failure inside PDFium into one of the package's errors:
// the caller's cancellation stays itself; memory refused to PDFium and the
// extractor's own deadlines become limit errors; any other trap means
// PDFium could not read the file. The trap itself goes to the log.
func (e *Extractor) explain(ctx context.Context, st *instState, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var le *LimitError
	if errors.As(err, &le) || errors.Is(err, ErrEncrypted) || errors.Is(err, ErrNoText) {
		return err
	}
	if st.memoryRefused || errors.Is(err, errOutOfMemory) {
		return limitError(ErrTooLarge, LimitMemory, 0, megabytes(e.limits.Memory), "this PDF expands to more than %s in memory")
	}
	var ce *callError
	if errors.As(err, &ce) {
		e.log.Debug("pdfium stopped", "call", ce.name, "err", ce.err)
		return fmt.Errorf("PDFium stopped reading it (%s): %w", ce.name, ErrCorrupt)
	}
	return err
}

// FPDF_GetLastError codes.
const (
	fpdfErrPassword = 4
	fpdfErrSecurity = 5
)

func (p *pdfium) extract(ctx context.Context) ([]Page, error) {
	for _, f := range []string{"emscripten_stack_init", "__wasm_call_ctors", "FPDF_InitLibrary"} {
		if _, err := p.call(ctx, f); err != nil {
			return nil, err
		}
	}
	scratch, err := p.call(ctx, "malloc", scratchSize)
	if err != nil {
		return nil, err
	}
	if scratch == 0 {
		return nil, errOutOfMemory
	}
	p.scratch = scratch
	path, err := p.call(ctx, "malloc", uint64(len(docPath)+1))
	if err != nil {
		return nil, err
	}
	if path == 0 || !p.m.Memory().Write(path, append([]byte(docPath), 0)) {
		return nil, errOutOfMemory
	}
	var doc, n uint32
	err = p.within(ctx, p.limits.OpenTime, func(ctx context.Context) error {
		if doc, err = p.call(ctx, "FPDF_LoadDocument", uint64(path), 0); err != nil || doc == 0 {
			return err
		}
		n, err = p.call(ctx, "FPDF_GetPageCount", uint64(doc))
		return err
	})
	if errors.Is(err, errDeadline) {
		return nil, limitError(ErrTooSlow, LimitOpenTime, 0, p.limits.OpenTime.String(), "this PDF takes more than %s to open")
	}
	if err != nil {
		return nil, err
	}
	if doc == 0 {
		code, err := p.call(ctx, "FPDF_GetLastError")
		if err != nil {
			return nil, err
		}
		switch code {
		case fpdfErrPassword:
			return nil, ErrEncrypted
		case fpdfErrSecurity:
			return nil, fmt.Errorf("unsupported security handler: %w", ErrEncrypted)
		default:
			return nil, fmt.Errorf("pdfium error %d: %w", code, ErrCorrupt)
		}
	}
	defer p.call(context.WithoutCancel(ctx), "FPDF_CloseDocument", uint64(doc))
	if int(n) > p.limits.Pages {
		return nil, limitError(ErrTooLarge, LimitPages, 0, strconv.Itoa(p.limits.Pages), "this PDF has more than %s pages")
	}
	if n == 0 {
		// An empty page tree, or one PDFium could not follow: the file
		// is broken, not a scan (ErrNoText would tell the person to OCR
		// it).
		return nil, fmt.Errorf("no pages: %w", ErrCorrupt)
	}
	pages := make([]Page, 0, n)
	total := 0
	for i := uint32(0); i < n; i++ {
		var text string
		err := p.within(ctx, p.limits.PageTime, func(ctx context.Context) error {
			var err error
			text, err = p.pageText(ctx, doc, i)
			return err
		})
		switch {
		case errors.Is(err, errDeadline):
			return nil, limitError(ErrTooSlow, LimitPageTime, int(i)+1, p.limits.PageTime.String(), "this PDF takes more than %s to read")
		case errors.Is(err, errPageMemory):
			return nil, limitError(ErrTooLarge, LimitMemory, 0, megabytes(p.limits.Memory), "this PDF expands to more than %s in memory")
		case errors.Is(err, errTooManyChars):
			return nil, limitError(ErrTooLarge, LimitPageChars, int(i)+1, strconv.Itoa(p.limits.PageChars), "this PDF has more than %s characters")
		case err != nil:
			return nil, fmt.Errorf("page %d: %w", i+1, err)
		}
		p.kept += len(text)
		if total += len(text); total > p.limits.TextBytes {
			return nil, limitError(ErrTooLarge, LimitTextBytes, 0, megabytes(uint64(p.limits.TextBytes)), "this PDF holds more than %s of text")
		}
		pages = append(pages, Page{Number: int(i) + 1, Text: text})
	}
	return pages, nil
}

// within runs f with a deadline of its own. When that deadline (and not the
// caller's) ends f, the error is errDeadline: wazero has then closed the
// instance, so nothing more can be asked of it.
func (p *pdfium) within(ctx context.Context, d time.Duration, f func(context.Context) error) error {
	dctx, cancel := context.WithTimeoutCause(ctx, d, errDeadline)
	defer cancel()
	err := f(dctx)
	if err != nil && ctx.Err() == nil && context.Cause(dctx) == errDeadline {
		return errDeadline
	}
	return err
}

var errTooManyChars = errors.New("too many characters on a page")

// errPageMemory: the page's glyphs, laid out, would take the file past its
// memory (glyphCost).
var errPageMemory = errors.New("a page's layout would pass the file's memory")

// glyphCost is what one character of a page costs the process while the
// page is read and laid out, beside PDFium's own memory, at the least:
// its glyph and item, the layout's copies, wazero's allocations for the
// calls that read it, and the garbage the collector has not yet taken.
// Measured through kb import on pages of 470,000–490,000 glyphs (the
// process's peak less its idle size and PDFium's memory): 375–745 bytes,
// by how they are placed. PDFium's memory, the page's layout and the text
// kept are held at once, so they share Limits.Memory and Limits.TextBytes
// (480 MB): a page whose glyphs at this cost do not fit is not read, and
// one whose layout grows the heap past what is left is stopped (halt.go).
// Before, a page of 490,000 glyphs after a page whose content inflated to
// 170 MB (PDFium's memory does not shrink) peaked 588 MiB above the idle
// process, past the 512 MB any one file may cost.
const glyphCost = 375

// goOverhead is what the Go runtime holds beside its heap's objects while
// a large page is laid out: a page of 490,000 glyphs, one a line, peaked
// 292 MB above PDFium's memory with its heap held within 273 MB.
const goOverhead = 32 << 20

func (p *pdfium) pageText(ctx context.Context, doc, index uint32) (string, error) {
	page, err := p.call(ctx, "FPDF_LoadPage", uint64(doc), uint64(index))
	if err != nil {
		return "", err
	}
	if page == 0 {
		return "", fmt.Errorf("load page: %w", ErrCorrupt)
	}
	defer p.call(context.WithoutCancel(ctx), "FPDF_ClosePage", uint64(page))
	tp, err := p.call(ctx, "FPDFText_LoadPage", uint64(page))
	if err != nil {
		return "", err
	}
	if tp == 0 {
		return "", nil // a page without a text layer
	}
	defer p.call(context.WithoutCancel(ctx), "FPDFText_ClosePage", uint64(tp))
	count, err := p.call(ctx, "FPDFText_CountChars", uint64(tp))
	if err != nil || int32(count) <= 0 {
		return "", err
	}
	if int(count) > p.limits.PageChars {
		return "", errTooManyChars
	}
	p.chars += int(count)
	// What the page may add to the process: the file's budget less
	// PDFium's memory, the text kept and what the Go runtime holds beyond
	// its heap's objects (spans part used, the collector's own memory).
	room := int64(p.limits.Memory) + int64(p.limits.TextBytes) - int64(p.m.Memory().Size()) - int64(p.kept) - goOverhead
	if int64(count)*glyphCost > room {
		return "", errPageMemory
	}
	heapMax := heapLive() + uint64(room)
	// The collector lets the heap grow to twice what it kept at its last
	// collection before it collects again: a page of 470,000 glyphs in
	// narrow columns peaked at 667 MiB so, the live heap within its room.
	// Told the room, it collects sooner (and a page that needs more is
	// stopped by heapMax or the page's time).
	// The limit is the whole process's, for up to the page's time (30 s).
	// That is safe: extractions run one at a time (maxConcurrent = 1, one
	// Extractor in the app), so no other page sets it meanwhile or restores
	// a stale value, and nothing else in the process sets it. Everything
	// else running meanwhile (a chat turn, embedding, other files' import,
	// the window's server) is under it too; the limit is soft, so they are
	// refused nothing, the collector just runs for them sooner as well
	// (its CPU is capped at about half), and the old limit is back after.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(int64(goMemory()) + room))
	view, err := p.pageBox(ctx, page)
	if err != nil {
		return "", err
	}
	gs, err := p.glyphs(ctx, tp, int(count), view)
	if err != nil {
		return "", err
	}
	rules, marks, err := p.pageRules(ctx, page)
	if err != nil {
		return "", err
	}
	return layoutPage(ctx, heapMax, withBoxes(gs, checkBoxes(gs, marks)), rules)
}

func gunzip(b []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	return io.ReadAll(zr)
}
