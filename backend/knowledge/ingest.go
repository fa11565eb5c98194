package knowledge

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/chunk"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer"
)

// Stage says where an import of one file is.
type Stage string

// Stages in the order a file goes through them; a file ends in
// StageDone, StageSkipped or StageFailed.
const (
	StageReading   Stage = "reading"
	StageChunking  Stage = "chunking"
	StageEmbedding Stage = "embedding"
	StageDone      Stage = "done"
	StageSkipped   Stage = "skipped" // unchanged since the last import
	StageFailed    Stage = "failed"
)

// Progress is one import event, for a progress bar per file.
type Progress struct {
	File       string `json:"file"`
	Stage      Stage  `json:"stage"`
	Pages      int    `json:"pages,omitempty"`
	Chunks     int    `json:"chunks,omitempty"`
	Embedded   int    `json:"embedded,omitempty"`
	Error      string `json:"error,omitempty"`
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
	Imported  []string // files whose documents were added or replaced
	Skipped   []string // unchanged files
	Failed    []FileError
	Documents int
	Chunks    int
	Pages     int
}

// maxFileSize keeps one enormous file from exhausting memory; larger files
// fail with a clear message.
const maxFileSize = 512 << 20

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
	files, walkErrs := expand(paths)
	rep.Failed = append(rep.Failed, walkErrs...)
	b.write.Lock()
	defer b.write.Unlock()
	changed := false
	defer func() {
		if changed {
			b.saveKeywords(context.WithoutCancel(ctx))
		}
	}()
	for i, path := range files {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		p := Progress{File: path, FileIndex: i + 1, FilesTotal: len(files)}
		res, err := b.importFile(ctx, path, p, onProgress)
		switch {
		case err == nil && res.skipped:
			rep.Skipped = append(rep.Skipped, path)
			p.Stage = StageSkipped
		case err == nil:
			changed = true
			rep.Imported = append(rep.Imported, path)
			rep.Documents += res.docs
			rep.Chunks += res.chunks
			rep.Pages += res.pages
			p.Stage, p.Pages, p.Chunks, p.Embedded = StageDone, res.pages, res.chunks, res.embedded
		case ctx.Err() != nil:
			return rep, ctx.Err()
		case errors.Is(err, errDatabase):
			return rep, err
		default:
			rep.Failed = append(rep.Failed, FileError{Path: path, Err: err})
			p.Stage, p.Error = StageFailed, err.Error()
			b.log.Info("file not imported", "file", path, "err", err)
		}
		onProgress(p)
	}
	return rep, nil
}

// errDatabase marks failures of the database itself, which stop an import.
var errDatabase = errors.New("knowledge database")

// expand turns the arguments into absolute file paths, sorted, without
// duplicates. A missing path is a FileError, not a reason to stop.
func expand(paths []string) ([]string, []FileError) {
	seen := map[string]bool{}
	var files []string
	var errs []FileError
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			files = append(files, p)
		}
	}
	for _, arg := range paths {
		abs, err := filepath.Abs(arg)
		if err != nil {
			errs = append(errs, FileError{Path: arg, Err: err})
			continue
		}
		info, err := os.Stat(abs)
		if err != nil {
			errs = append(errs, FileError{Path: arg, Err: err})
			continue
		}
		if !info.IsDir() {
			add(abs) // named explicitly: unsupported types get a clear error later
			continue
		}
		err = filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				errs = append(errs, FileError{Path: p, Err: err})
				return nil
			}
			if p != abs && strings.HasPrefix(d.Name(), ".") {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if _, ok := importer.KindOf(p); ok && d.Type().IsRegular() {
				add(p)
			}
			return nil
		})
		if err != nil {
			errs = append(errs, FileError{Path: arg, Err: err})
		}
	}
	slices.Sort(files)
	return files, errs
}

type fileResult struct {
	skipped                       bool
	docs, chunks, pages, embedded int
	newDocs                       []Document
	newChunks                     []Chunk
}

func (b *Base) importFile(ctx context.Context, path string, p Progress, onProgress func(Progress)) (fileResult, error) {
	p.Stage = StageReading
	onProgress(p)
	info, err := os.Stat(path)
	if err != nil {
		return fileResult{}, err
	}
	if info.Size() > maxFileSize {
		return fileResult{}, fmt.Errorf("file is %d MB; the limit is %d MB", info.Size()>>20, maxFileSize>>20)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fileResult{}, err
	}
	sum := sha256.Sum256(data)
	hash := hex.EncodeToString(sum[:])
	var known int64
	if err := b.db.WithContext(ctx).Model(&Document{}).Where("source = ? AND file_hash = ?", path, hash).Count(&known).Error; err != nil {
		return fileResult{}, fmt.Errorf("%w: %w", errDatabase, err)
	}
	if known > 0 {
		return fileResult{skipped: true}, nil
	}
	imp := importer.Importer{PDF: b.opts.PDF}
	parsed, err := imp.Import(ctx, path, data)
	if err != nil {
		return fileResult{}, err
	}
	res, err := b.store(ctx, path, hash, info.Size(), parsed, p, onProgress)
	if err == nil {
		res.embedded = b.sink(ctx, res.newDocs, res.newChunks, p, onProgress)
	}
	return res, err
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
	b.write.Lock()
	defer b.write.Unlock()
	var known int64
	if err := b.db.WithContext(ctx).Model(&Document{}).Where("source = ? AND file_hash = ?", source, version).Count(&known).Error; err != nil {
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
	res, err := b.store(ctx, source, version, int64(size), docs, p, onProgress)
	if err != nil {
		return false, fmt.Errorf("index %s: %w", source, err)
	}
	b.saveKeywords(context.WithoutCancel(ctx))
	p.Stage, p.Chunks = StageDone, res.chunks
	onProgress(p)
	return true, nil
}

// store chunks parsed documents and swaps them in for the source's old ones;
// the caller hands the new chunks to the sink (embedding).
func (b *Base) store(ctx context.Context, source, hash string, size int64, parsed []importer.Document, p Progress, onProgress func(Progress)) (fileResult, error) {
	p.Stage = StageChunking
	for _, d := range parsed {
		p.Pages += d.Pages
	}
	onProgress(p)

	now := time.Now()
	var docs []Document
	var chunks []Chunk
	for _, d := range parsed {
		id, err := uuid.NewV7()
		if err != nil {
			return fileResult{}, err
		}
		opt := b.opts.Chunk
		opt.Markdown = d.Markdown
		cs := chunk.Split(d.Parts, opt)
		if len(cs) == 0 {
			continue
		}
		doc := Document{
			ID: id.String(), RecordID: d.ID, Source: source, Title: d.Title, Kind: string(d.Kind),
			FileHash: hash, FileSize: size, Pages: d.Pages, Chunks: len(cs), CreatedAt: now, UpdatedAt: now,
		}
		docs = append(docs, doc)
		for _, c := range cs {
			chunks = append(chunks, Chunk{
				ID: fmt.Sprintf("%s:%d", doc.ID, c.Index), DocID: doc.ID, Seq: c.Index,
				Page: c.Page, Heading: c.Heading, Text: c.Text,
			})
		}
	}
	if len(chunks) == 0 {
		return fileResult{}, importer.ErrEmpty
	}
	p.Chunks = len(chunks)
	onProgress(p)

	oldDocs, oldChunks, err := b.replace(ctx, source, docs, chunks)
	if err != nil {
		return fileResult{}, fmt.Errorf("%w: store %q: %w", errDatabase, source, err)
	}
	b.forget(ctx, oldDocs, oldChunks)
	for _, c := range chunks {
		b.keywords.Add(c.ID, indexText(c))
	}
	b.mu.Lock()
	for _, d := range docs {
		b.docs[d.ID] = metaOf(d)
	}
	b.mu.Unlock()
	return fileResult{docs: len(docs), chunks: len(chunks), pages: p.Pages, newDocs: docs, newChunks: chunks}, nil
}

// replace swaps the file's old documents for the new ones in one
// transaction, so a crash leaves either the old or the new version.
func (b *Base) replace(ctx context.Context, path string, docs []Document, chunks []Chunk) (oldDocs, oldChunks []string, err error) {
	err = b.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Model(&Document{}).Where("source = ?", path).Pluck("id", &oldDocs).Error; err != nil {
			return err
		}
		if len(oldDocs) > 0 {
			if err := tx.Model(&Chunk{}).Where("doc_id IN ?", oldDocs).Pluck("id", &oldChunks).Error; err != nil {
				return err
			}
			if err := tx.Where("doc_id IN ?", oldDocs).Delete(&Chunk{}).Error; err != nil {
				return err
			}
			if err := tx.Where("id IN ?", oldDocs).Delete(&Document{}).Error; err != nil {
				return err
			}
		}
		if err := tx.CreateInBatches(docs, 200).Error; err != nil {
			return err
		}
		if err := tx.CreateInBatches(chunks, 200).Error; err != nil {
			return err
		}
		return bumpGeneration(tx)
	})
	return oldDocs, oldChunks, err
}

// sink hands new chunks to the vector half, if any. Embedding failures do
// not fail the import: keyword search already has the chunks.
func (b *Base) sink(ctx context.Context, docs []Document, chunks []Chunk, p Progress, onProgress func(Progress)) int {
	if b.opts.Sink == nil {
		return 0
	}
	byID := make(map[string]Document, len(docs))
	for _, d := range docs {
		byID[d.ID] = d
	}
	items := make([]IndexedChunk, len(chunks))
	for i, c := range chunks {
		d := byID[c.DocID]
		items[i] = IndexedChunk{Chunk: c, Source: d.Source, Kind: d.Kind, Title: d.Title}
	}
	embedded := 0
	p.Stage = StageEmbedding
	onProgress(p)
	err := b.opts.Sink.Upsert(ctx, items, func(done, total int) {
		embedded = done
		p.Embedded = done
		onProgress(p)
	})
	if err != nil {
		b.log.Warn("chunks not embedded; keyword search still finds them", "file", p.File, "err", err)
	}
	return embedded
}
