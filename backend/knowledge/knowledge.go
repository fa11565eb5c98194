// Package knowledge is the person's document library: it imports files
// (PDF, Word, HWPX, OpenDocument, Markdown, text, JSON/JSON Lines), cuts
// them into cited chunks, keeps documents and chunks in the app's SQLite
// database, and answers keyword searches that work in Korean and English.
//
// Subpackages do the parts that can be tested alone: pdftext (PDFium under
// wazero), importer (file formats), chunk (passages), keyword (BM25 with a
// snapshot file). This package ties them to the database, so that importing
// an unchanged file costs one hash, a changed file replaces its chunks, and a
// restart loads the keyword index instead of rebuilding it.
//
// Vectors are a separate half (package vector): a Base hands every chunk it
// stores to an optional ChunkSink and removes them from it again, so hybrid
// search can be layered on top of Search without changing the ingestion path.
package knowledge

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/chunk"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/keyword"
	"github.com/wayfinder-app/wayfinder/backend/store"
)

// ErrNotFound is returned for an unknown document id.
var ErrNotFound = errors.New("document not found")

// Document is one imported document as stored: a whole file, or one record
// of a JSON file.
type Document struct {
	ID       string `gorm:"primaryKey" json:"id"`
	RecordID string `gorm:"index" json:"record_id,omitempty"` // the JSON record's own `_id`/`id`
	Source   string `gorm:"index" json:"source"`              // absolute path of the file
	Title    string `json:"title"`
	Kind     string `json:"kind"`
	FileHash string `json:"file_hash"` // sha256 of the whole file, for skipping unchanged files
	FileSize int64  `json:"file_size"`
	Pages    int    `json:"pages,omitempty"`
	// Unit is what the document's pages are: "page", or "slide" for a
	// presentation (importer.Unit), so citations name them as a person
	// finds them.
	Unit   string `gorm:"not null;default:page" json:"unit"`
	Chunks int    `json:"chunks"`
	// Staged marks the rows of an import still being read: hidden until the
	// import swaps them in, deleted if it fails (see stager).
	Staged    bool      `json:"-"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// TableName keeps knowledge tables apart from other packages' in the shared file.
func (Document) TableName() string { return "kb_documents" }

// Chunk is one stored passage. ID is "<document id>:<seq>".
type Chunk struct {
	ID      string `gorm:"primaryKey" json:"id"`
	DocID   string `gorm:"index" json:"doc_id"`
	Seq     int    `json:"seq"`
	Page    int    `json:"page,omitempty"`
	Heading string `json:"heading,omitempty"`
	Text    string `json:"text"`
}

// TableName keeps knowledge tables apart from other packages' in the shared file.
func (Chunk) TableName() string { return "kb_chunks" }

// meta is a key/value row; "generation" counts changes so the keyword
// snapshot can tell whether it is current.
type meta struct {
	Key   string `gorm:"primaryKey"`
	Value string
}

func (meta) TableName() string { return "kb_meta" }

// MigrationSet names this package's migrations in store.Migrate.
const MigrationSet = "knowledge"

// Migrations returns the schema of the knowledge tables. The structs are
// frozen copies so that later edits to Document or Chunk need a new
// migration instead of silently changing version 1.
func Migrations() []store.Migration {
	type kbDocument struct {
		ID        string `gorm:"primaryKey"`
		RecordID  string `gorm:"index"`
		Source    string `gorm:"index"`
		Title     string
		Kind      string
		FileHash  string
		FileSize  int64
		Pages     int
		Chunks    int
		CreatedAt time.Time
		UpdatedAt time.Time
	}
	type kbChunk struct {
		ID      string `gorm:"primaryKey"`
		DocID   string `gorm:"index"`
		Seq     int
		Page    int
		Heading string
		Text    string
	}
	return []store.Migration{{
		Version: 1,
		Name:    "documents, chunks and meta",
		Up: func(tx *gorm.DB) error {
			return errors.Join(
				tx.Table("kb_documents").AutoMigrate(&kbDocument{}),
				tx.Table("kb_chunks").AutoMigrate(&kbChunk{}),
				tx.Table("kb_meta").AutoMigrate(&meta{}),
			)
		},
	}, {
		Version: 2,
		Name:    "staged imports; documents by content hash",
		Up: func(tx *gorm.DB) error {
			return errors.Join(
				tx.Exec("ALTER TABLE kb_documents ADD COLUMN staged numeric NOT NULL DEFAULT false").Error,
				tx.Exec("CREATE INDEX IF NOT EXISTS idx_kb_documents_file_hash ON kb_documents(file_hash)").Error,
			)
		},
	}, {
		Version: 3,
		Name:    "the unit of a document's pages (slides for presentations)",
		Up: func(tx *gorm.DB) error {
			// PowerPoint files were read a slide a page before units were
			// kept: their kind says which documents are slides.
			if err := tx.Exec("ALTER TABLE kb_documents ADD COLUMN unit text NOT NULL DEFAULT 'page'").Error; err != nil {
				return err
			}
			return tx.Exec("UPDATE kb_documents SET unit = 'slide' WHERE kind = ?", string(importer.KindSlides)).Error
		},
	}, {
		Version: 4,
		Name:    "files conversations added to the library",
		Up:      promotionsMigration,
	}}
}

// ChunkSink receives chunks as they are stored and forgets them when their
// document goes: the seam for the vector index.
type ChunkSink interface {
	Upsert(ctx context.Context, chunks []IndexedChunk, onProgress func(done, total int)) error
	Delete(ctx context.Context, chunkIDs []string) error
}

// WaitingSink is a ChunkSink whose embedding can wait for something more
// urgent (the person's chat turn: vector.WithPace) and says so: onWait
// hears true when it waits and false when it goes on, and the file's
// progress says it (Progress.Waiting), so its row does not look stuck.
type WaitingSink interface {
	UpsertWaiting(ctx context.Context, chunks []IndexedChunk, onProgress func(done, total int), onWait func(waiting bool)) error
}

// IndexedChunk is a chunk with the document fields a vector index filters on.
type IndexedChunk struct {
	Chunk
	Source string
	Kind   string
	Title  string
}

// Options configure a Base. Zero values are usable.
type Options struct {
	PDF     importer.PDFExtractor // nil: PDF files fail with importer.ErrUnsupported
	Chunk   chunk.Options         // chunk sizes; Markdown is set per document
	Sink    ChunkSink             // optional: receives chunks to embed
	Vectors VectorSearcher        // optional: vector ranking for hybrid search
	Logger  *slog.Logger
	// FileTime is how long reading one file may take; zero means
	// fileBudget (2 minutes plus a second per MB).
	FileTime time.Duration
	// FileChunks is the most chunks one file may add; zero means
	// maxFileChunks.
	FileChunks int
	// FileTerms is the most different words one file's passages may
	// hold; zero means maxFileTerms.
	FileTerms int
	// UploadDir is the folder where uploads are kept (see upload.go);
	// absolute. Upload fails without it.
	UploadDir string
}

// Base is the document library. Its methods are safe for concurrent use;
// imports and removals run one at a time.
type Base struct {
	db       *gorm.DB
	dir      string
	opts     Options
	log      *slog.Logger
	keywords *keyword.Index

	write   sync.Mutex // serialises imports and removals
	embedQ  embedQueue // whether the queued imports embed in line (embedlater.go)
	uploads sync.Mutex // serialises uploads and removals; taken before write
	reading reading    // the file the import holding write reads (queue.go)
	// readOnly: opened beside the app that owns the data folder
	// (OpenReadOnly); every change is refused with ErrReadOnly.
	readOnly bool

	docs *docSet // live documents' sources and kinds, for search filters

	found *foundCache  // where cited passages were found (locate)
	scans atomic.Int64 // documents read whole to find a cited passage (scan), for tests to tell

	dropBatch int // the most rows one statement of dropStaged deletes
}

// snapshotName is the keyword index file inside the Base's directory.
const snapshotName = "keyword.idx"

// Open runs the migrations, loads the keyword index from dir (rebuilding it
// from the database when the snapshot is missing or stale) and returns the
// library. dir is a directory of the app's data folder owned by this package.
func Open(ctx context.Context, db *gorm.DB, dir string, opts Options) (*Base, error) {
	if err := store.Migrate(ctx, db, MigrationSet, Migrations()); err != nil {
		return nil, fmt.Errorf("open knowledge base: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("open knowledge base: %w", err)
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	b := &Base{db: db, dir: dir, opts: opts, log: opts.Logger, docs: newDocSet(), found: newFoundCache(), dropBatch: defaultDropBatch}
	if err := b.dropStaged(ctx, "1 = 1"); err != nil { // a previous run stopped mid-import
		return nil, fmt.Errorf("open knowledge base: remove an unfinished import: %w", err)
	}
	b.sweepUploads(ctx)
	if err := b.loadDocMeta(ctx); err != nil {
		return nil, fmt.Errorf("open knowledge base: %w", err)
	}
	if err := b.loadKeywords(ctx); err != nil {
		return nil, err
	}
	return b, nil
}

// ErrReadOnly refuses a change to a library opened with OpenReadOnly.
var ErrReadOnly = errors.New("the knowledge base is open read-only: another Wayfinder owns the data folder")

// ownerSetUp is how long a reader waits for the open app to set up its
// knowledge base's tables, which it does in the background as it starts
// (milliseconds, seconds on a loaded machine).
const ownerSetUp = 10 * time.Second

// OpenReadOnly opens the library for searching and listing while another
// process (the open app) owns it and may be importing: no migration, no
// clean-up of an unfinished import (its rows stay hidden, as they are
// from every search), and a keyword snapshot that is not current is
// rebuilt in memory from the committed chunks and never written. db is a
// read-only connection (store.OpenReadOnly). Import, Remove and Reindex
// return ErrReadOnly.
func OpenReadOnly(ctx context.Context, db *gorm.DB, dir string, opts Options) (*Base, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	b := &Base{db: db, dir: dir, opts: opts, log: opts.Logger, docs: newDocSet(), found: newFoundCache(), readOnly: true}
	if err := store.AwaitMigrated(ctx, db, MigrationSet, Migrations(), ownerSetUp); err != nil {
		return nil, fmt.Errorf("open knowledge base: %w", err)
	}
	if err := b.loadDocMeta(ctx); err != nil {
		return nil, fmt.Errorf("open knowledge base: %w", err)
	}
	if err := b.loadKeywords(ctx); err != nil {
		return nil, err
	}
	return b, nil
}

// writable refuses changes to a library opened read-only.
func (b *Base) writable() error {
	if b.readOnly {
		return ErrReadOnly
	}
	return nil
}

// loadDocMeta reads the fields search filters need, scanning plain
// columns: with 50k documents, gorm's reflection and time parsing made
// this the slowest part of start-up.
func (b *Base) loadDocMeta(ctx context.Context) error {
	rows, err := b.db.WithContext(ctx).Model(&Document{}).
		Select("id", "source", "kind").Where("NOT staged").Rows()
	if err != nil {
		return fmt.Errorf("list documents: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, source, kind string
		if err := rows.Scan(&id, &source, &kind); err != nil {
			return fmt.Errorf("list documents: %w", err)
		}
		b.docs.add(id, source, kind)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("list documents: %w", err)
	}
	return nil
}

func (b *Base) snapshotPath() string { return filepath.Join(b.dir, snapshotName) }

// loadKeywords uses the snapshot when its stamp matches the database's
// generation and its analyzer is the current one; otherwise it rebuilds.
func (b *Base) loadKeywords(ctx context.Context) error {
	gen, err := b.generation(b.db.WithContext(ctx))
	if err != nil {
		return fmt.Errorf("open knowledge base: %w", err)
	}
	ix, stamp, err := keyword.Load(b.snapshotPath())
	switch {
	case err == nil && stamp == gen && ix.Analyzer() == keyword.DefaultAnalyzer():
		b.keywords = ix
		return nil
	case err == nil:
		b.log.Info("keyword index is stale; rebuilding", "snapshot", stamp, "database", gen)
	case !errors.Is(err, os.ErrNotExist):
		b.log.Warn("keyword index unreadable; rebuilding", "err", err)
	}
	return b.rebuildKeywords(ctx, gen)
}

func (b *Base) rebuildKeywords(ctx context.Context, gen string) error {
	ix := keyword.New(keyword.DefaultAnalyzer(), keyword.DefaultParams())
	var batch []Chunk
	live := b.db.Model(&Document{}).Select("id").Where("NOT staged")
	err := b.db.WithContext(ctx).Model(&Chunk{}).Where("doc_id IN (?)", live).Order("id").FindInBatches(&batch, 2000, func(*gorm.DB, int) error {
		for _, c := range batch {
			ix.Add(c.ID, indexText(c))
		}
		return ctx.Err()
	}).Error
	if err != nil {
		return fmt.Errorf("rebuild keyword index: %w", err)
	}
	b.keywords = ix
	if b.readOnly {
		return nil // the owner of the folder writes the snapshot
	}
	if err := ix.Save(b.snapshotPath(), gen); err != nil {
		b.log.Warn("keyword snapshot not saved; it will be rebuilt next start", "err", err)
	}
	return nil
}

// indexText is what keyword search sees of a chunk: its heading (for JSON
// records, the title) counts like body text, as Anserini's "flat" setting
// indexes title and abstract together.
func indexText(c Chunk) string {
	if c.Heading == "" {
		return c.Text
	}
	return c.Heading + "\n" + c.Text
}

func (b *Base) generation(db *gorm.DB) (string, error) {
	var m meta
	err := db.Where("key = ?", "generation").Limit(1).Find(&m).Error
	if err != nil {
		return "", fmt.Errorf("read generation: %w", err)
	}
	if m.Value == "" {
		return "0", nil
	}
	return m.Value, nil
}

// bumpGeneration records a change inside the transaction that made it.
func bumpGeneration(tx *gorm.DB) error {
	var m meta
	if err := tx.Where("key = ?", "generation").Limit(1).Find(&m).Error; err != nil {
		return err
	}
	n, _ := strconv.Atoi(m.Value)
	return tx.Clauses(clause.OnConflict{UpdateAll: true}).
		Create(&meta{Key: "generation", Value: strconv.Itoa(n + 1)}).Error
}

// saveKeywords writes the snapshot after a change; a failure only costs a
// rebuild at the next start.
func (b *Base) saveKeywords(ctx context.Context) {
	gen, err := b.generation(b.db.WithContext(ctx))
	if err == nil {
		err = b.keywords.Save(b.snapshotPath(), gen)
	}
	if err != nil {
		b.log.Warn("keyword snapshot not saved; it will be rebuilt next start", "err", err)
	}
}

// List returns the stored documents, newest first.
func (b *Base) List(ctx context.Context) ([]Document, error) {
	var docs []Document
	if err := b.db.WithContext(ctx).Where("NOT staged").Order("updated_at desc, id").Find(&docs).Error; err != nil {
		return nil, fmt.Errorf("list documents: %w", err)
	}
	return docs, nil
}

// Chunks returns a document's chunks in order.
func (b *Base) Chunks(ctx context.Context, docID string) ([]Chunk, error) {
	var cs []Chunk
	if err := b.db.WithContext(ctx).Where("doc_id = ?", docID).Order("seq").Find(&cs).Error; err != nil {
		return nil, fmt.Errorf("chunks of %s: %w", docID, err)
	}
	return cs, nil
}

// Remove deletes one document and its chunks, and the uploaded copy of
// its file when no other document comes from it. Like a removal of a
// file, it takes its turn in the queue of imports, so that a file
// embedding in line hands its embedding on (embedlater.go) rather than
// keep the person's removal waiting for minutes.
func (b *Base) Remove(ctx context.Context, docID string) error {
	if err := b.writable(); err != nil {
		return err
	}
	leave := b.embedQ.join()
	defer leave()
	b.uploads.Lock()
	defer b.uploads.Unlock()
	b.write.Lock()
	defer b.write.Unlock()
	n, err := b.deleteDocs(ctx, "id = ?", docID)
	if err != nil {
		return fmt.Errorf("remove document %s: %w", docID, err)
	}
	if n == 0 {
		return fmt.Errorf("remove document %s: %w", docID, ErrNotFound)
	}
	b.saveKeywords(ctx)
	return nil
}

// RemoveSource deletes every document imported from the file at path.
func (b *Base) RemoveSource(ctx context.Context, path string) (int, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return 0, fmt.Errorf("remove %q: %w", path, err)
	}
	if err := b.writable(); err != nil {
		return 0, err
	}
	leave := b.embedQ.join() // as Remove
	defer leave()
	b.uploads.Lock()
	defer b.uploads.Unlock()
	b.write.Lock()
	defer b.write.Unlock()
	n, err := b.deleteDocs(ctx, "source = ?", abs)
	if err != nil {
		return 0, fmt.Errorf("remove %q: %w", path, err)
	}
	b.saveKeywords(ctx)
	return n, nil
}

// deleteDocs removes the documents matching the condition, in one
// transaction, then from the in-memory indexes, and the uploaded copies no
// document uses any more. Callers hold b.write.
func (b *Base) deleteDocs(ctx context.Context, cond string, arg any) (int, error) {
	var ids, chunkIDs, sources []string
	err := b.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Model(&Document{}).Where(cond, arg).Pluck("id", &ids).Error; err != nil {
			return err
		}
		if len(ids) == 0 {
			return nil
		}
		if err := tx.Model(&Document{}).Where("id IN ?", ids).Distinct("source").Pluck("source", &sources).Error; err != nil {
			return err
		}
		var err error
		if chunkIDs, err = deleteRows(tx, ids); err != nil {
			return err
		}
		return bumpGeneration(tx)
	})
	if err != nil {
		return 0, err
	}
	b.forget(ctx, ids, chunkIDs)
	b.dropUploadsOf(ctx, sources)
	return len(ids), nil
}

// deleteRows deletes documents and their chunks inside tx and returns the
// chunks' ids, for the in-memory indexes.
func deleteRows(tx *gorm.DB, docIDs []string) (chunkIDs []string, err error) {
	if len(docIDs) == 0 {
		return nil, nil
	}
	if err := tx.Model(&Chunk{}).Where("doc_id IN ?", docIDs).Pluck("id", &chunkIDs).Error; err != nil {
		return nil, err
	}
	if err := tx.Where("doc_id IN ?", docIDs).Delete(&Chunk{}).Error; err != nil {
		return nil, err
	}
	return chunkIDs, tx.Where("id IN ?", docIDs).Delete(&Document{}).Error
}

func (b *Base) forget(ctx context.Context, docIDs, chunkIDs []string) {
	for _, id := range chunkIDs {
		b.keywords.Remove(id)
	}
	b.docs.remove(docIDs)
	b.found.forget(docIDs)
	if b.opts.Sink != nil && len(chunkIDs) > 0 {
		if err := b.opts.Sink.Delete(ctx, chunkIDs); err != nil {
			b.log.Warn("vector index kept removed chunks", "err", err)
		}
	}
}

// DocOf is the document a chunk id names (vector.WithPendingLeft groups
// the index's passages by it).
func DocOf(chunkID string) string { return docOf(chunkID) }

// docOf returns the document id part of a chunk id.
func docOf(chunkID string) string {
	if len(chunkID) > 36 && chunkID[36] == ':' { // "<uuid>:<seq>", every id this package makes; search asks per candidate
		return chunkID[:36]
	}
	if i := strings.LastIndexByte(chunkID, ':'); i >= 0 {
		return chunkID[:i]
	}
	return chunkID
}
