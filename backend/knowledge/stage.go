package knowledge

import (
	"context"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/chunk"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/keyword"
)

// stageBatch is how many chunks go to the database in one transaction.
// Each batch holds the write lock briefly, so the rest of the app (chat,
// settings) writes between batches even while a large file is imported.
const stageBatch = 500

// stager is the importer.Sink of one file: its documents and chunks are
// written as they come, in short transactions, as staged rows that nothing
// shows; finish swaps them for the file's old documents in one transaction,
// or deletes them. So a file that fails at its last byte leaves nothing
// behind, a crash leaves the old version (Open removes staged rows), and
// memory holds one batch.
type stager struct {
	b              *Base
	ctx            context.Context
	source, hash   string
	size           int64
	now            time.Time
	p              Progress
	onProgress     func(Progress)
	embed          bool       // hand the new chunks to the sink after the swap
	docs           []Document // rows to insert: a document's is written when it begins
	chunks         []Chunk
	ended          []Document // documents that ended after their row was written
	dropped        []string   // documents that ended without text after their row was written
	cur            Document
	curRow         int // index of cur in docs; -1 once written
	split          *chunk.Splitter
	page           int
	heading        string
	nDocs, nChunks int
	maxChunks      int // TooManyChunksError past it
	pages          int
	unit           string // what pages counts (the file's documents share it)
	// lastRowID is kb_chunks' largest rowid before the import: SQLite gives
	// new rows larger ones, and only imports (one at a time, under
	// Base.write) add chunks, so the new chunks are the rows above it.
	lastRowID int64
}

func (b *Base) newStager(ctx context.Context, source, hash string, size int64, p Progress, onProgress func(Progress)) (*stager, error) {
	p.Stage = StageChunking
	s := &stager{b: b, ctx: ctx, source: source, hash: hash, size: size, now: time.Now(), p: p, onProgress: onProgress, embed: true, maxChunks: maxFileChunks}
	if b.opts.FileChunks > 0 {
		s.maxChunks = b.opts.FileChunks
	}
	if err := b.db.WithContext(ctx).Raw("SELECT COALESCE(MAX(rowid), 0) FROM kb_chunks").Scan(&s.lastRowID).Error; err != nil {
		return nil, fmt.Errorf("%w: %w", errDatabase, err)
	}
	return s, nil
}

// Begin implements importer.Sink.
func (s *stager) Begin(d importer.Document) error {
	id, err := uuid.NewV7()
	if err != nil {
		return err
	}
	s.cur = Document{ID: id.String(), Source: s.source, Kind: string(d.Kind), Unit: string(importer.UnitOf(string(d.Unit))), Title: d.Title, FileHash: s.hash, FileSize: s.size, Staged: true, CreatedAt: s.now, UpdatedAt: s.now}
	s.docs = append(s.docs, s.cur) // so that a failure finds the chunks' rows by their document
	s.curRow = len(s.docs) - 1
	opt := s.b.opts.Chunk
	opt.Markdown = d.Markdown
	s.split = chunk.NewSplitter(opt, s.add)
	s.page, s.heading = 0, ""
	for _, part := range d.Parts {
		if err := s.write(part); err != nil {
			return err
		}
	}
	return nil
}

// writeBlock is the most text handed to the splitter at once: a document
// that arrives whole (a JSON record of one 30 MB string, a PDF page) is
// handed on in blocks, as a text file's is, so the splitter holds about a
// chunk of it rather than a copy of all of it as runes (four bytes each).
const writeBlock = 64 << 10

func (s *stager) write(in chunk.Input) error {
	s.page, s.heading = in.Page, in.Heading
	for len(in.Text) > writeBlock {
		i := writeBlock
		for i > 0 && !utf8.RuneStart(in.Text[i]) {
			i--
		}
		if err := s.split.Write(chunk.Input{Page: in.Page, Heading: in.Heading, Text: in.Text[:i]}); err != nil {
			return err
		}
		in.Text = in.Text[i:]
	}
	return s.split.Write(in)
}

// Text implements importer.Sink.
func (s *stager) Text(text string) error {
	return s.write(chunk.Input{Page: s.page, Heading: s.heading, Text: text})
}

func (s *stager) add(c chunk.Chunk) error {
	if s.nChunks+len(s.chunks) >= s.maxChunks {
		return &TooManyChunksError{Max: s.maxChunks}
	}
	s.chunks = append(s.chunks, Chunk{
		ID: fmt.Sprintf("%s:%d", s.cur.ID, c.Index), DocID: s.cur.ID, Seq: c.Index,
		Page: c.Page, Heading: c.Heading, Text: c.Text,
	})
	if len(s.chunks) >= stageBatch {
		return s.flush()
	}
	return nil
}

// End implements importer.Sink. A document without text is left out, as
// an empty JSON record is.
func (s *stager) End(d importer.Document) error {
	if err := s.split.Close(); err != nil {
		return err
	}
	n := s.split.Count()
	doc := s.cur
	doc.RecordID, doc.Title, doc.Kind, doc.Pages, doc.Chunks = d.ID, d.Title, string(d.Kind), d.Pages, n
	doc.Unit = string(importer.UnitOf(string(d.Unit)))
	switch {
	case n == 0 && s.curRow >= 0:
		s.docs = s.docs[:s.curRow]
	case n == 0:
		s.dropped = append(s.dropped, doc.ID)
	case s.curRow >= 0:
		s.docs[s.curRow] = doc
	default:
		s.ended = append(s.ended, doc)
	}
	if n > 0 {
		s.pages += d.Pages
		s.unit = doc.Unit
		s.nDocs++
	}
	if len(s.docs) >= stageBatch {
		return s.flush()
	}
	return nil
}

// flush writes the batch.
func (s *stager) flush() error {
	if len(s.docs)+len(s.chunks)+len(s.ended)+len(s.dropped) == 0 {
		return nil
	}
	err := s.b.db.WithContext(s.ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.CreateInBatches(s.docs, 100).Error; err != nil {
			return err
		}
		if err := tx.CreateInBatches(s.chunks, 100).Error; err != nil {
			return err
		}
		for _, d := range s.ended {
			if err := tx.Select("record_id", "title", "kind", "pages", "unit", "chunks").Updates(&d).Error; err != nil {
				return err
			}
		}
		if len(s.dropped) > 0 {
			return tx.Where("id IN ?", s.dropped).Delete(&Document{}).Error
		}
		return nil
	})
	if err != nil {
		if s.ctx.Err() != nil {
			return s.ctx.Err()
		}
		return fmt.Errorf("%w: store %q: %w", errDatabase, s.source, err)
	}
	s.nChunks += len(s.chunks)
	s.docs, s.chunks, s.ended, s.dropped = s.docs[:0], s.chunks[:0], s.ended[:0], s.dropped[:0]
	s.curRow = -1
	s.p.Pages, s.p.Unit, s.p.Chunks = s.pages, s.unit, s.nChunks
	s.onProgress(s.p)
	return nil
}

// finish ends the import: it indexes the staged chunks' words apart
// (indexStaged); on failure (err, or no text at all), or when the import
// was stopped before the swap, indexing included, it deletes the staged
// rows and drops their postings, and an earlier version of the file stays
// as it was; otherwise it swaps them in, moves their postings into the
// keyword index and hands them to the sink.
//
// The swap comes before embedding, so the file is found by its words as
// soon as it is read: embedding is most of an import's time with a local
// model, and a person asks about a document right after adding it. A stop
// while the file embeds therefore keeps the file, found by its words, and
// stops only the embedding; Reindex embeds the rest later, as after an
// embedding that failed.
func (s *stager) finish(ctx context.Context, err error) (fileResult, error) {
	if err == nil && s.nChunks == 0 {
		err = importer.ErrEmpty
	}
	if err == nil {
		err = ctx.Err()
	}
	// The file's rows are dropped or swapped in whole, whatever ctx does now.
	keep := context.WithoutCancel(ctx)
	var batch *keyword.Index
	var newDocs []newDoc
	if err == nil {
		// Its words are indexed before the swap, apart from the live
		// index (indexing.go): a stop meanwhile drops the rows and the
		// batch, and leaves nothing of the file anywhere.
		batch, newDocs, err = s.indexStaged(ctx)
	}
	if err != nil {
		start := time.Now()
		if cerr := s.b.dropStaged(keep, "source = ?", s.source); cerr != nil {
			s.b.log.Warn("staged rows of a failed import stay until the next start", "file", s.source, "err", cerr)
		}
		s.b.log.Debug("staged rows dropped", "file", s.source, "chunks", s.nChunks, "took", time.Since(start))
		return fileResult{}, err
	}
	var oldDocs, oldChunks []string
	err = s.b.db.WithContext(keep).Transaction(func(tx *gorm.DB) error {
		if err := tx.Model(&Document{}).Where("source = ? AND NOT staged", s.source).Pluck("id", &oldDocs).Error; err != nil {
			return err
		}
		var err error
		if oldChunks, err = deleteRows(tx, oldDocs); err != nil {
			return err
		}
		if err := tx.Model(&Document{}).Where("source = ? AND staged", s.source).Update("staged", false).Error; err != nil {
			return err
		}
		return bumpGeneration(tx)
	})
	if err != nil {
		_ = s.b.dropStaged(keep, "source = ?", s.source)
		return fileResult{}, fmt.Errorf("%w: store %q: %w", errDatabase, s.source, err)
	}
	s.b.forget(keep, oldDocs, oldChunks)
	res := fileResult{docs: s.nDocs, chunks: s.nChunks, pages: s.pages, unit: s.unit}
	s.b.keywords.Merge(batch)
	s.p.Indexed = 0
	for _, d := range newDocs {
		s.b.docs.add(d.id, s.source, d.kind)
	}
	res.embedded, res.embedErr = s.embedNew(ctx)
	return res, nil
}

// embedNew hands the swapped-in chunks to the sink. The first failure, or
// the import being stopped, leaves the rest to Reindex and says why:
// keyword search has them meanwhile. An embedding that times out, or one
// of an import queued with this one that did (embedlater.go), leaves the
// rest to the vector index's background embedding instead, at once.
func (s *stager) embedNew(ctx context.Context) (embedded int, embedErr error) {
	if !s.embed || s.b.opts.Sink == nil {
		return 0, nil
	}
	var now error // why the file is not embedded in line at all
	if later := s.b.embedQ.deferred(); later != nil {
		now = later
	} else if s.b.embedQ.waiting() {
		now = ErrEmbedHandedOn
	}
	if now != nil {
		// Not a word of "embedding" for this file: it is done.
		err := s.eachNew(ctx, func(rows []Chunk, docs map[string]Document) error {
			return s.keepForLater(ctx, rows, docs)
		})
		if err != nil {
			return 0, err
		}
		return 0, now
	}
	s.p.Stage = StageEmbedding
	s.onProgress(s.p)
	var later *EmbedLaterError
	// The file is in whatever ctx does: its chunks are read back, and
	// those a stop leaves unembedded are kept for later, without it.
	keep := context.WithoutCancel(ctx)
	inLine, done := s.b.embedQ.embedInLine(ctx)
	defer done()
	stopped, handedOn := false, false
	err := s.eachNew(keep, func(rows []Chunk, docs map[string]Document) error {
		if later != nil || stopped || handedOn {
			return s.keepForLater(keep, rows, docs)
		}
		err := s.sink(inLine, rows, docs, &embedded)
		if err == nil && inLine.Err() != nil {
			err = inLine.Err() // handed on as the last batch ended
		}
		switch {
		case err != nil && ctx.Err() == nil && errors.Is(context.Cause(inLine), ErrEmbedHandedOn):
			// Another file waits: the rest goes to the background, as
			// after a stop.
			handedOn = true
			return s.keepForLater(keep, s.unembedded(rows), docs)
		case err != nil && ctx.Err() != nil:
			// Stopped (the person, or Add to library, which lets the
			// embedding go on in the library): every chunk not embedded
			// yet, of this page and the pages after it, goes to the
			// vector index's background embedding, so that "its meaning
			// comes later" holds for the whole file, and the index's
			// signal that the file settled means all of it.
			stopped = true
			return s.keepForLater(keep, s.unembedded(rows), docs)
		case err != nil && timedOut(err):
			// (The sink kept these chunks to embed later: Upsert stores
			// what it cannot embed.)
			later = s.b.embedQ.hung(err)
			return nil
		}
		return err
	})
	switch {
	case err == nil && stopped:
		err = ctx.Err()
	case err == nil && handedOn:
		err = ErrEmbedHandedOn
	case err == nil && later != nil:
		err = later
	}
	return embedded, err
}

// unembedded are the rows the sink holds no vector of (all of them when it
// cannot tell): a stop keeps those for later, not the ones embedded.
func (s *stager) unembedded(rows []Chunk) []Chunk {
	cov, ok := s.b.opts.Sink.(vectorCoverage)
	if !ok {
		return rows
	}
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	var out []Chunk
	for i, has := range cov.HasVectors(ids) {
		if !has {
			out = append(out, rows[i])
		}
	}
	return out
}

// eachNew calls fn on the chunks the import added, a page at a time with
// their documents, until fn fails; a failure to read them is logged.
func (s *stager) eachNew(ctx context.Context, fn func([]Chunk, map[string]Document) error) error {
	const page = 1000
	for after := s.lastRowID; ; {
		rows, last, err := s.b.chunksAfter(ctx, after, page)
		var docs map[string]Document
		if err == nil && len(rows) > 0 {
			after = last
			docs, err = s.b.docsOf(ctx, rows)
		}
		if err != nil {
			if ctx.Err() == nil {
				s.b.log.Error("read back imported chunks; they are found after a restart", "file", s.source, "err", err)
			}
			return err
		}
		if len(rows) == 0 {
			return nil
		}
		if err := fn(rows, docs); err != nil {
			return err
		}
		if len(rows) < page {
			return nil
		}
	}
}

// sink hands chunks to the vector half.
func (s *stager) sink(ctx context.Context, rows []Chunk, docs map[string]Document, embedded *int) error {
	items := indexed(rows, docs)
	before := *embedded
	progress := func(done, total int) {
		s.p.Embedded = before + done
		s.onProgress(s.p)
	}
	var err error
	if ws, ok := s.b.opts.Sink.(WaitingSink); ok {
		err = ws.UpsertWaiting(ctx, items, progress, func(waiting bool) {
			s.p.Waiting = waiting
			s.onProgress(s.p)
		})
	} else {
		err = s.b.opts.Sink.Upsert(ctx, items, progress)
	}
	s.p.Waiting = false
	if err != nil {
		if ctx.Err() == nil {
			s.b.log.Warn("chunks not embedded; keyword search still finds them", "file", s.source, "err", err)
		}
		return err
	}
	*embedded += len(items)
	return nil
}

// indexed pairs chunks with their documents' fields.
func indexed(rows []Chunk, docs map[string]Document) []IndexedChunk {
	items := make([]IndexedChunk, len(rows))
	for i, c := range rows {
		d := docs[c.DocID]
		items[i] = IndexedChunk{Chunk: c, Source: d.Source, Kind: d.Kind, Title: d.Title}
	}
	return items
}

// chunksAfter reads up to n chunks with a rowid above after, in rowid
// order, and returns the last rowid read.
func (b *Base) chunksAfter(ctx context.Context, after int64, n int) ([]Chunk, int64, error) {
	rows, err := b.db.WithContext(context.WithoutCancel(ctx)).
		Raw("SELECT rowid, id, doc_id, seq, page, heading, text FROM kb_chunks WHERE rowid > ? ORDER BY rowid LIMIT ?", after, n).Rows()
	if err != nil {
		return nil, after, err
	}
	defer rows.Close()
	var out []Chunk
	for rows.Next() {
		var c Chunk
		if err := rows.Scan(&after, &c.ID, &c.DocID, &c.Seq, &c.Page, &c.Heading, &c.Text); err != nil {
			return nil, after, err
		}
		out = append(out, c)
	}
	return out, after, rows.Err()
}

// docsOf loads the live documents of the chunks.
func (b *Base) docsOf(ctx context.Context, chunks []Chunk) (map[string]Document, error) {
	ids := make([]string, 0, len(chunks))
	seen := map[string]bool{}
	for _, c := range chunks {
		if !seen[c.DocID] {
			seen[c.DocID] = true
			ids = append(ids, c.DocID)
		}
	}
	var docs []Document
	if err := b.db.WithContext(context.WithoutCancel(ctx)).Where("id IN ? AND NOT staged", ids).Find(&docs).Error; err != nil {
		return nil, err
	}
	out := make(map[string]Document, len(docs))
	for _, d := range docs {
		out[d.ID] = d
	}
	return out, nil
}

// defaultDropBatch is the most rows of each table one transaction of
// dropStaged deletes (Base.dropBatch, smaller in tests). A file stopped at
// its chunk limit has staged 500,000 chunks (a JSON Lines file of tiny
// records: as many documents too); deleted in one transaction they held
// the database's write lock for 6 s on a loaded machine, and every other
// write of the app (a message, a setting) waited behind it. In batches,
// each waits at most one.
const defaultDropBatch = 10_000

// dropStaged deletes staged documents matching the condition and their
// chunks: a failed import's, or at start, a crashed one's. Each
// transaction deletes at most b.dropBatch chunks of the next batch of
// documents, and the documents once none of their chunks is left (a cut
// in between leaves staged documents, which the next start drops, never
// chunks without their document).
func (b *Base) dropStaged(ctx context.Context, cond string, args ...any) error {
	for {
		done := false
		err := b.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
			// The next batch of staged documents, the same in each
			// statement until they are deleted.
			batch := func(col string) *gorm.DB {
				return tx.Model(&Document{}).Select(col).Where("staged").Where(cond, args...).Order("rowid").Limit(b.dropBatch)
			}
			if err := tx.Exec("DELETE FROM kb_chunks WHERE rowid IN (SELECT rowid FROM kb_chunks WHERE doc_id IN (?) LIMIT ?)", batch("id"), b.dropBatch).Error; err != nil {
				return err
			}
			var left int64
			if err := tx.Raw("SELECT COUNT(*) FROM (SELECT 1 FROM kb_chunks WHERE doc_id IN (?) LIMIT 1)", batch("id")).Scan(&left).Error; err != nil || left > 0 {
				return err
			}
			res := tx.Exec("DELETE FROM kb_documents WHERE rowid IN (?)", batch("rowid"))
			done = res.RowsAffected == 0
			return res.Error
		})
		if err != nil || done {
			return err
		}
	}
}

var _ importer.Sink = (*stager)(nil)
