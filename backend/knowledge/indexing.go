package knowledge

import (
	"context"
	"fmt"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/keyword"
)

// indexCheck is how many passages are indexed between two looks at the
// import's context: about 20 ms of CPU at 60 MB of Korean, so a stop is
// felt at once, and a look costs nothing beside indexing 128 passages.
const indexCheck = 128

// passageIndexed is called after each passage's words are added to the
// batch: the tests stop an import there, inside a page, where the
// progress callback (between pages) cannot.
var passageIndexed = func() {}

// newDoc is a document of the file, for the search filters' list once it
// is swapped in.
type newDoc struct{ id, kind string }

// indexStaged makes the keyword postings of the file's staged chunks in a
// batch of their own, read back from the database a page at a time, and
// says how far it is (StageIndexing, Indexed of Chunks) after each page:
// at 60 MB of Korean text this is about 5 s of CPU (more on a loaded
// machine), during which the bar showed nothing new and Stop did nothing.
// The live index is not touched: finish merges the batch into it after the
// swap, or drops it with the rows, so a stop here (ctx, looked at every
// indexCheck passages) leaves no posting of a row rolled back, and
// searches meanwhile rank as before the import.
func (s *stager) indexStaged(ctx context.Context) (*keyword.Index, []newDoc, error) {
	batch := s.b.keywords.NewBatch()
	maxTerms := maxFileTerms
	if s.b.opts.FileTerms > 0 {
		maxTerms = s.b.opts.FileTerms
	}
	var docs []newDoc
	s.p.Stage, s.p.Chunks, s.p.Indexed = StageIndexing, s.nChunks, 0
	s.onProgress(s.p)
	const page = 1000
	for after := s.lastRowID; ; {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		rows, last, err := s.b.chunksAfter(ctx, after, page)
		var staged map[string]string
		if err == nil && len(rows) > 0 {
			after = last
			staged, err = s.b.stagedKinds(ctx, s.source, rows)
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			return nil, nil, fmt.Errorf("%w: index %q: %w", errDatabase, s.source, err)
		}
		for i, c := range rows {
			if i%indexCheck == 0 && ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			kind, ok := staged[c.DocID]
			if !ok {
				continue
			}
			if len(docs) == 0 || docs[len(docs)-1].id != c.DocID {
				docs = append(docs, newDoc{c.DocID, kind})
			}
			batch.Add(c.ID, indexText(c))
			// Looked at after each passage: one adds a few thousand
			// terms at most, so the batch stops just past the bound.
			if batch.Terms() > maxTerms {
				return nil, nil, &TooManyTermsError{Max: maxTerms}
			}
			passageIndexed()
		}
		s.p.Indexed += len(rows)
		s.onProgress(s.p)
		if len(rows) < page {
			return batch, docs, ctx.Err()
		}
	}
}

// stagedKinds is the kind of each staged document of source that the
// chunks belong to.
func (b *Base) stagedKinds(ctx context.Context, source string, chunks []Chunk) (map[string]string, error) {
	ids := make([]string, 0, 4)
	for i, c := range chunks {
		if i == 0 || c.DocID != chunks[i-1].DocID {
			ids = append(ids, c.DocID)
		}
	}
	var docs []Document
	if err := b.db.WithContext(context.WithoutCancel(ctx)).Select("id", "kind").Where("id IN ? AND staged AND source = ?", ids, source).Find(&docs).Error; err != nil {
		return nil, err
	}
	out := make(map[string]string, len(docs))
	for _, d := range docs {
		out[d.ID] = d.Kind
	}
	return out, nil
}
