package knowledge

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer"
)

// Stage says where an import of one file is.
type Stage string

// Stages in the order a file goes through them; a file ends in
// StageDone, StageSkipped, StageDuplicate, StageFailed or StageStopped.
const (
	StageWaiting   Stage = "waiting" // another import or removal holds the library; this one starts after it
	StageReading   Stage = "reading"
	StageChunking  Stage = "chunking"
	StageIndexing  Stage = "indexing" // the passages are stored; their words are indexed (Progress.Indexed, indexing.go)
	StageEmbedding Stage = "embedding"
	StageDone      Stage = "done"
	StageSkipped   Stage = "skipped"   // unchanged since the last import
	StageDuplicate Stage = "duplicate" // an upload whose content the library has already
	StageFailed    Stage = "failed"
	// StageStopped ends a file whose import was cancelled (the person
	// stopped it, or the app closed) before its documents were swapped in:
	// nothing of it was added, and an earlier version stays as it was.
	StageStopped Stage = "stopped"
)

// Progress is one import event, for a progress bar per file.
type Progress struct {
	File     string `json:"file"`
	Stage    Stage  `json:"stage"`
	Pages    int    `json:"pages,omitempty"`
	Unit     string `json:"unit,omitempty"` // what Pages counts: "page" or "slide"
	Chunks   int    `json:"chunks,omitempty"`
	Indexed  int    `json:"indexed,omitempty"` // in StageIndexing: how many of Chunks have their words indexed
	Embedded int    `json:"embedded,omitempty"`
	Error    string `json:"error,omitempty"`
	// Err is what Error says, for callers that word it themselves.
	Err error `json:"-"`
	// Replaced is set when an upload took the place of an earlier one of
	// its name; DuplicateOf names the document that has the content of a
	// StageDuplicate upload.
	Replaced    bool   `json:"replaced,omitempty"`
	DuplicateOf string `json:"duplicate_of,omitempty"`
	// Warnings say what was imported but not as it was: invalid bytes
	// replaced, with their lines.
	Warnings []string `json:"warnings,omitempty"`
	// WarningErrs are the Warnings as errors (*importer.Replaced), for
	// callers that word them themselves.
	WarningErrs []error `json:"-"`
	// EmbedErr says why chunks were not embedded (Embedded < Chunks):
	// keyword search finds them meanwhile, and Reindex embeds them later.
	// An *EmbedLaterError says the embedding model hung: the chunks are in
	// the vector index, which embeds them in the background.
	EmbedErr error `json:"-"`
	// Waiting: the file's embedding waits before its next batch while the
	// person's chat turn runs (vector.WithPace), and goes on after it; a
	// sink without WaitingSink never says so.
	Waiting bool `json:"waiting,omitempty"`
	// WaitingFor names, in StageWaiting, the file the import holding the
	// library reads now (its base name; "" while what holds it is no
	// file: a removal, or an upload before its turn): the file waits for
	// it to be read (queue.go).
	WaitingFor string `json:"waiting_for,omitempty"`
	FileIndex  int    `json:"file_index"` // 1-based position of File among FilesTotal
	FilesTotal int    `json:"files_total"`
}

// FileError is a file that could not be imported; other files are not affected.
type FileError struct {
	Path string
	Err  error
}

func (e FileError) Error() string { return fmt.Sprintf("%s: %v", e.Path, e.Err) }
func (e FileError) Unwrap() error { return e.Err }

// Report sums up one Import call.
type Report struct {
	Imported []string // files whose documents were added or replaced
	Skipped  []string // unchanged files
	Failed   []FileError
	Warnings []FileError // imported files with a warning each (Progress.Warnings)
	// Ignored are files found in folders whose type cannot be imported
	// (a file named on its own fails instead).
	Ignored []string
	// LeftOut are the entries of the folders that were not read, each
	// with why: links (*LinkError: one out of the folder is not followed,
	// one inside is read where it leads, once) and what is not a file
	// (ErrNotRegular). A person who imports a folder sees every entry that
	// was not imported.
	LeftOut []FileError
	// Stopped are the files the import did not add because it was
	// cancelled: the one it was on, and those it had not started.
	Stopped   []string
	Documents int
	Chunks    int
	Pages     int
}

// The budget of one file's import (reading, chunking, storing; embedding
// comes after and has its own progress):
//
//   - size: at most maxFileSize;
//   - memory: the file is read in blocks of 32 KB, a JSON record may take up
//     to 32 MB (importer.maxRecord), and chunks go to the database in
//     batches of stageBatch, so reading holds a few MB whatever the file's
//     size; what stays is the keyword index's share of the new chunks
//     (about 250 bytes per chunk). `tests/bench` measures the peak: see the
//     README's table;
//   - time: fileBudget, 2 minutes plus a second per MB.
//
// After an import that read more than freeAfter bytes the heap is returned
// to the operating system at once instead of over the next minutes.
const (
	maxFileSize = 512 << 20
	freeAfter   = 16 << 20
	// maxFileChunks bounds the chunks of one file: each costs about 560
	// bytes while it is indexed, and a file of tiny records makes one per
	// few bytes (a 10 MB JSON Lines file of 1,000,000 records of 10 bytes
	// peaked at 608 MiB). 512 MB of prose makes about 250,000; a JSON
	// Lines file of 512 MB, records of 1 KB, 500,000.
	maxFileChunks = 500_000
	// maxFileTerms bounds the different words (index terms) of one file:
	// each costs about 90 bytes in the file's keyword batch whatever its
	// passages, and a file of 28 MB of random words (3.4 million of them)
	// peaked at 586 MiB, over the 512 MB a file may cost. Real documents
	// hold far fewer: SciFact's 8 MB of abstracts 32,291 terms, the Korean
	// question set's 1.3 MB 24,250 (bigrams and bigrams across spaces
	// included); even growing as the square root of their size, as
	// vocabularies do, 64 MB of them would hold about 100,000 and 170,000.
	maxFileTerms = 2_000_000
)

// TooManyTermsError fails a file whose passages hold more than Max
// different words: generated data (random words, a dictionary's keys),
// not a document, whose index would pass the memory a file may take.
type TooManyTermsError struct{ Max int }

func (e *TooManyTermsError) Error() string {
	return fmt.Sprintf("the file holds more than %d different words; it looks like generated data, not a document", e.Max)
}

// TooManyChunksError fails a file that would add more than Max chunks.
type TooManyChunksError struct{ Max int }

func (e *TooManyChunksError) Error() string {
	return fmt.Sprintf("the file holds more than %d passages, the most Wayfinder keeps from one file", e.Max)
}

// fileBudget is how long reading one file may take.
func fileBudget(size int64) time.Duration {
	return 2*time.Minute + time.Duration(size>>20)*time.Second
}

// ErrNotRegular fails a path named on its own that is not a plain file: a
// device (/dev/zero never ends), a named pipe (opening it waits for a
// writer forever) or a socket. Folders are walked and skip such entries.
var ErrNotRegular = errors.New("not a regular file (a device, pipe or socket cannot be imported)")

// TooLargeError fails a file over maxFileSize: MB is its size, Max the
// limit, both in megabytes.
type TooLargeError struct{ MB, Max int64 }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("file is %d MB; the limit is %d MB", e.MB, e.Max)
}

// errTooSlow is the cause of a file's deadline.
var errTooSlow = errors.New("reading the file took too long")

// TooSlowError fails a file whose reading took longer than its budget
// (Budget, for a file of MB megabytes).
type TooSlowError struct {
	Budget time.Duration
	MB     int64
}

func (e *TooSlowError) Error() string {
	return fmt.Sprintf("reading it took longer than %s, the limit for a file of %d MB; it was not imported", e.Budget, e.MB)
}

// Import adds files and folders (recursively, supported types only, hidden
// entries skipped). An unchanged file is skipped by content hash, a changed
// one replaces its documents. A file that fails is reported in
// Report.Failed and affects nothing else; the error return is only for
// cancellation and database failures that stop the whole import.
func (b *Base) Import(ctx context.Context, paths []string, onProgress func(Progress)) (Report, error) {
	if onProgress == nil {
		onProgress = func(Progress) {}
	}
	var rep Report
	files, ignored, leftOut, walkErrs := expand(paths)
	rep.Failed = append(rep.Failed, walkErrs...)
	rep.Ignored, rep.LeftOut = ignored, leftOut
	if err := b.writable(); err != nil {
		return rep, err
	}
	if len(files) == 0 {
		return rep, nil
	}
	leave := b.embedQ.join()
	defer leave()
	first := Progress{File: files[0], FileIndex: 1, FilesTotal: len(files)}
	if err := b.waitFor(ctx, &b.write, first, onProgress); err != nil {
		stopped(&rep, files, 0, onProgress)
		return rep, err
	}
	defer b.write.Unlock()
	defer b.reading.set("")
	defer leave()
	var st importState
	defer b.afterImport(ctx, &st)
	for i, path := range files {
		p := Progress{File: path, FileIndex: i + 1, FilesTotal: len(files)}
		if err := b.importOne(ctx, path, path, p, onProgress, &rep, &st); err != nil {
			if ctx.Err() != nil {
				stopped(&rep, files, i, onProgress)
			}
			return rep, err
		}
	}
	return rep, nil
}

// stopped ends the files from index i on of a cancelled import: each is
// reported StageStopped, so that every progress bar ends and the report
// says which files were not added.
func stopped(rep *Report, files []string, i int, onProgress func(Progress)) {
	for j := i; j < len(files); j++ {
		rep.Stopped = append(rep.Stopped, files[j])
		onProgress(Progress{File: files[j], Stage: StageStopped, FileIndex: j + 1, FilesTotal: len(files)})
	}
}

// importState is what an Import call learns across its files.
type importState struct {
	changed bool
	read    int64
}

// afterImport saves the keyword index after changes and gives the memory
// of a large import back to the system.
func (b *Base) afterImport(ctx context.Context, st *importState) {
	if st.changed {
		b.saveKeywords(context.WithoutCancel(ctx))
	}
	if st.read > freeAfter {
		debug.FreeOSMemory()
	}
}

// importOne imports the file at path as source (the same path, or where an
// upload will be kept), reports it and adds it to rep. Its error is only
// for what stops the whole import (cancellation, the database). Callers
// hold b.write.
func (b *Base) importOne(ctx context.Context, source, path string, p Progress, onProgress func(Progress), rep *Report, st *importState) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b.reading.set(filepath.Base(source))
	res, err := b.importFile(ctx, source, path, p, onProgress)
	st.read += res.read
	switch {
	case err == nil && res.skipped:
		rep.Skipped = append(rep.Skipped, source)
		p.Stage = StageSkipped
	case err == nil:
		st.changed = true
		rep.Imported = append(rep.Imported, source)
		rep.Documents += res.docs
		rep.Chunks += res.chunks
		rep.Pages += res.pages
		p.Stage, p.Pages, p.Unit, p.Chunks, p.Embedded, p.WarningErrs, p.EmbedErr = StageDone, res.pages, res.unit, res.chunks, res.embedded, res.warnings, res.embedErr
		for _, w := range res.warnings {
			p.Warnings = append(p.Warnings, w.Error())
			rep.Warnings = append(rep.Warnings, FileError{Path: source, Err: w})
		}
	case ctx.Err() != nil:
		return ctx.Err() // the caller reports the file StageStopped
	case errors.Is(err, errDatabase):
		return err
	default:
		rep.Failed = append(rep.Failed, FileError{Path: source, Err: err})
		p.Stage, p.Error, p.Err = StageFailed, err.Error(), err
		b.log.Info("file not imported", "file", source, "err", err)
	}
	onProgress(p)
	return nil
}

// errDatabase marks failures of the database itself, which stop an import.
var errDatabase = errors.New("knowledge database")

type fileResult struct {
	skipped                       bool
	docs, chunks, pages, embedded int
	unit                          string
	warnings                      []error
	read                          int64 // bytes read
	embedErr                      error // why chunks were not embedded
}

// importFile reads the file at path and stores it as source.
func (b *Base) importFile(ctx context.Context, source, path string, p Progress, onProgress func(Progress)) (fileResult, error) {
	p.Stage = StageReading
	onProgress(p)
	f, info, err := openRegular(path)
	if err != nil {
		return fileResult{}, err
	}
	defer f.Close()
	if info.Size() > maxFileSize {
		return fileResult{}, &TooLargeError{MB: info.Size() >> 20, Max: maxFileSize >> 20}
	}
	// What is hashed and read is the file as it was opened: its size then,
	// through the one descriptor (a path swapped for a pipe after the
	// check, or a file that grows while it is read, cannot make it read
	// without end); changed() tells, afterwards, whether it stayed so.
	snap := func() *io.SectionReader { return io.NewSectionReader(f, 0, info.Size()) }
	hash, err := hashReader(ctx, snap())
	if err != nil {
		return fileResult{}, err
	}
	var known int64
	if err := b.db.WithContext(ctx).Model(&Document{}).Where("source = ? AND file_hash = ? AND NOT staged", source, hash).Count(&known).Error; err != nil {
		return fileResult{}, fmt.Errorf("%w: %w", errDatabase, err)
	}
	if known > 0 {
		return fileResult{skipped: true}, nil
	}
	budget := fileBudget(info.Size())
	if b.opts.FileTime > 0 {
		budget = b.opts.FileTime
	}
	fctx, cancel := context.WithTimeoutCause(ctx, budget, errTooSlow)
	defer cancel()
	st, err := b.newStager(fctx, source, hash, info.Size(), p, onProgress)
	if err != nil {
		return fileResult{}, err
	}
	imp := importer.Importer{PDF: b.opts.PDF}
	warnings, err := imp.Read(fctx, source, snap(), st)
	if err == nil {
		err = changed(f, info)
	}
	if err == nil {
		err = st.flush()
	}
	if err != nil && ctx.Err() == nil && errors.Is(context.Cause(fctx), errTooSlow) {
		err = &TooSlowError{Budget: budget, MB: info.Size() >> 20}
	}
	res, err := st.finish(ctx, err)
	res.warnings, res.read = warnings, info.Size()
	return res, err
}

// hashFile is the sha256 of a file, read as a stream: at most maxFileSize
// bytes (a file that grew past it since it was measured fails), and the
// reading stops when ctx ends.
func hashFile(ctx context.Context, path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return hashReader(ctx, f)
}

// hashReader is the sha256 of what r gives, within hashFile's bounds.
func hashReader(ctx context.Context, r io.Reader) (string, error) {
	h := sha256.New()
	buf := make([]byte, 1<<20)
	var n int64
	for {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		m, err := r.Read(buf)
		h.Write(buf[:m])
		if n += int64(m); n > maxFileSize {
			return "", &TooLargeError{MB: n >> 20, Max: maxFileSize >> 20}
		}
		if errors.Is(err, io.EOF) {
			return hex.EncodeToString(h.Sum(nil)), nil
		}
		if err != nil {
			return "", err
		}
	}
}

// ErrChanged fails a file that was written to, cut short or replaced
// while it was read: what was read may be half of one version and half of
// another, so none of it is kept (the person adds it again once it is
// saved).
var ErrChanged = errors.New("the file changed while it was read")

// openRegular opens path for reading and says what it is, from the open
// file itself: a check of the path before opening it could be answered by
// one file and the open by another. It does not wait on a named pipe
// (O_NONBLOCK: opening one for reading otherwise waits for a writer
// forever) and refuses anything that is not a plain file (ErrNotRegular).
func openRegular(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, nil, ErrNotRegular
	}
	return f, info, nil
}

// changed is ErrChanged when f is no longer as it was when it was opened
// (then): another size, or written to since.
func changed(f *os.File, then fs.FileInfo) error {
	now, err := f.Stat()
	if err != nil {
		return err
	}
	if now.Size() != then.Size() || !now.ModTime().Equal(then.ModTime()) {
		return ErrChanged
	}
	return nil
}

// ImportRecords indexes documents that do not come from a file, such as the
// built-in catalog, under one source name. version plays the part of the
// file hash: the same version again is skipped, a new one replaces the old
// documents. It reports whether anything changed. The records are not
// embedded here: Reindex does that in the background.
func (b *Base) ImportRecords(ctx context.Context, source, version string, docs []importer.Document, onProgress func(Progress)) (bool, error) {
	if onProgress == nil {
		onProgress = func(Progress) {}
	}
	if err := b.writable(); err != nil {
		return false, err
	}
	b.write.Lock()
	defer b.write.Unlock()
	var known int64
	if err := b.db.WithContext(ctx).Model(&Document{}).Where("source = ? AND file_hash = ? AND NOT staged", source, version).Count(&known).Error; err != nil {
		return false, fmt.Errorf("check %s: %w", source, err)
	}
	if known > 0 {
		return false, nil
	}
	size := 0
	for _, d := range docs {
		for _, part := range d.Parts {
			size += len(part.Text)
		}
	}
	p := Progress{File: source, FileIndex: 1, FilesTotal: 1}
	st, err := b.newStager(ctx, source, version, int64(size), p, onProgress)
	if err != nil {
		return false, fmt.Errorf("index %s: %w", source, err)
	}
	st.embed = false
	err = func() error {
		for _, d := range docs {
			if err := st.Begin(d); err != nil {
				return err
			}
			if err := st.End(d); err != nil {
				return err
			}
		}
		return st.flush()
	}()
	res, err := st.finish(ctx, err)
	if err != nil {
		return false, fmt.Errorf("index %s: %w", source, err)
	}
	b.saveKeywords(context.WithoutCancel(ctx))
	p.Stage, p.Chunks = StageDone, res.chunks
	onProgress(p)
	return true, nil
}
