package knowledge

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gorm.io/gorm"
)

// Passage is a search hit's chunk in its document: the chunk and the ones
// just before and after it (nil at the document's ends), for a reader that
// shows the passage in context. Found says how a cited chunk was found in
// its document imported again since (PassageNow).
type Passage struct {
	Doc                  Document
	Before, Chunk, After *Chunk
	Found                Found
}

// Passage finds a chunk by its id ("<document id>:<seq>") with its two
// neighbours, as conversation ("" for none: the Knowledge screen) sees it.
// A chunk of a conversation's own files opens only from that conversation:
// any other, and the library's reader, are refused it as not found, as
// their searches never showed it (the boundary between conversations).
func (b *Base) Passage(ctx context.Context, conversation, chunkID string) (Passage, error) {
	var c Chunk
	err := b.db.WithContext(ctx).Where("id = ?", chunkID).Take(&c).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return Passage{}, fmt.Errorf("passage %q: %w", chunkID, ErrNotFound)
	}
	if err != nil {
		return Passage{}, fmt.Errorf("passage %q: %w", chunkID, err)
	}
	doc, err := b.readable(ctx, conversation, c.DocID)
	if err != nil {
		return Passage{}, fmt.Errorf("passage %q: %w", chunkID, err)
	}
	near, err := b.chunksAt(ctx, c.DocID, c.Seq-1, c.Seq+1)
	if err != nil {
		return Passage{}, fmt.Errorf("around passage %q: %w", chunkID, err)
	}
	p := Passage{Doc: doc, Chunk: &c}
	for i := range near {
		switch near[i].Seq {
		case c.Seq - 1:
			p.Before = &near[i]
		case c.Seq + 1:
			p.After = &near[i]
		}
	}
	return p, nil
}

// PassageNow is Passage for a chunk cited in an answer, whose document
// may have been imported again since: a new import is a new document (a
// new id), so the cited id is gone while its file is still there. Then
// the cited passage is looked for in the document now imported from
// source, by cited, its text as the answer cited it (the source's
// snippet): the chunk with that text, else the one most like it, else the
// one at the same place (see locate); Found says which, for the reader to
// say so. Visibility is as in Passage: source is only compared with the
// documents' recorded sources, never opened.
func (b *Base) PassageNow(ctx context.Context, conversation, chunkID, source, cited string) (Passage, error) {
	p, err := b.Passage(ctx, conversation, chunkID)
	if source == "" || !errors.Is(err, ErrNotFound) {
		return p, err
	}
	i := strings.LastIndex(chunkID, ":")
	seq, convErr := strconv.Atoi(chunkID[i+1:])
	if i < 0 || convErr != nil || seq < 0 {
		return p, err
	}
	var docs []Document
	if e := b.db.WithContext(ctx).Where("source = ? AND NOT staged AND chunks > 0", source).Order("created_at DESC").Limit(1).Find(&docs).Error; e != nil {
		return Passage{}, fmt.Errorf("passage %q in %q now: %w", chunkID, source, e)
	}
	if len(docs) == 0 || !b.visibleTo(docs[0].Source, conversation) {
		return p, err
	}
	at, found, err := b.locate(ctx, docs[0], seq, cited)
	if err != nil {
		return Passage{}, fmt.Errorf("passage %q in %q now: %w", chunkID, source, err)
	}
	if p, err = b.Passage(ctx, conversation, fmt.Sprintf("%s:%d", docs[0].ID, at)); err != nil {
		return Passage{}, err
	}
	p.Found = found
	return p, nil
}

// MaxSpan bounds the chunks one Span returns: a reader pages through a
// 500 MB document a few dozen kilobytes at a time.
const MaxSpan = 64

// Span is a run of a document's chunks in order, for a reader paging
// through the whole document. Each chunk's Text is without what it repeats
// of the chunk before it (see WithoutOverlap), so spans read in a row give
// the document's text once.
type Span struct {
	Doc    Document
	From   int     // the Seq of the first chunk asked for
	Chunks []Chunk // in Seq order; empty past the document's end
}

// Span reads count chunks (at most MaxSpan) of a document from the chunk
// numbered from. Chunks are looked up by their ids, so the cost is the
// same at the start of a document and in the middle of a 500 MB one: a
// query by document would read every chunk of it. A conversation's own
// file opens only from that conversation, as in Passage.
func (b *Base) Span(ctx context.Context, conversation, docID string, from, count int) (Span, error) {
	doc, err := b.readable(ctx, conversation, docID)
	if err != nil {
		return Span{}, fmt.Errorf("read document %q: %w", docID, err)
	}
	from = max(from, 0)
	to := min(from+min(max(count, 0), MaxSpan), doc.Chunks) - 1 // the last seq asked for
	s := Span{Doc: doc, From: from, Chunks: []Chunk{}}
	if to < from {
		return s, nil
	}
	// The chunk before the first, for what the first repeats of it.
	got, err := b.chunksAt(ctx, docID, seqRange(max(from-1, 0), to)...)
	if err != nil {
		return Span{}, fmt.Errorf("read document %q from chunk %d: %w", docID, from, err)
	}
	slices.SortFunc(got, func(x, y Chunk) int { return x.Seq - y.Seq })
	for i, c := range got {
		if i > 0 && got[i-1].Seq == c.Seq-1 {
			c.Text = b.WithoutOverlap(got[i-1], c)
		}
		if c.Seq >= from {
			s.Chunks = append(s.Chunks, c)
		}
	}
	return s, nil
}

// readable is a fully imported document (not one being staged) that
// conversation sees: the library's, or conversation's own file; another
// conversation's file is not found, whoever asks.
func (b *Base) readable(ctx context.Context, conversation, docID string) (Document, error) {
	var doc Document
	err := b.db.WithContext(ctx).Where("id = ? AND NOT staged", docID).Take(&doc).Error
	if errors.Is(err, gorm.ErrRecordNotFound) || (err == nil && !b.visibleTo(doc.Source, conversation)) {
		return Document{}, ErrNotFound
	}
	if err != nil {
		return Document{}, fmt.Errorf("document %q: %w", docID, err)
	}
	return doc, nil
}

// chunksAt loads a document's chunks by number, through their primary
// keys ("<document id>:<seq>"); numbers out of the document are skipped.
func (b *Base) chunksAt(ctx context.Context, docID string, seqs ...int) ([]Chunk, error) {
	ids := make([]string, 0, len(seqs))
	for _, s := range seqs {
		if s >= 0 {
			ids = append(ids, fmt.Sprintf("%s:%d", docID, s))
		}
	}
	var out []Chunk
	if len(ids) == 0 {
		return out, nil
	}
	err := b.db.WithContext(ctx).Where("id IN ?", ids).Find(&out).Error
	return out, err
}

// seqRange is from, from+1, ..., to.
func seqRange(from, to int) []int {
	out := make([]int, 0, max(to-from+1, 0))
	for s := from; s <= to; s++ {
		out = append(out, s)
	}
	return out
}

// WithoutOverlap is next's text without what it repeats from the end of
// prev, the chunk before it: chunks overlap so that a search finds a
// sentence cut at a boundary, and a reader showing them in a row shows it
// once. Only chunks of one section overlap (the chunker starts afresh at a
// page or heading), and by at most the chunker's overlap: a document that
// repeats itself word for word must not lose the repetition, nor a section
// the words that happen to end the one before it.
func (b *Base) WithoutOverlap(prev, next Chunk) string {
	return withoutOverlap(prev, next, b.opts.Chunk.MaxOverlap())
}

func withoutOverlap(prev, next Chunk, maxRunes int) string {
	if prev.Page != next.Page || prev.Heading != next.Heading || maxRunes <= 0 {
		return next.Text
	}
	limit := 0 // bytes of next's first maxRunes runes
	for i := range next.Text {
		if maxRunes == 0 {
			break
		}
		maxRunes--
		_, size := utf8.DecodeRuneInString(next.Text[i:])
		limit = i + size
	}
	limit = min(limit, len(prev.Text))
	for k := limit; k > 0; k-- {
		if strings.HasSuffix(prev.Text, next.Text[:k]) {
			return next.Text[k:]
		}
	}
	return next.Text
}
