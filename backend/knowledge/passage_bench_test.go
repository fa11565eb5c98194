package knowledge

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// benchmarkReader measures what the Knowledge screen's reader asks for in
// the middle of one document of n chunks of about 1 KB: the hit's Passage
// and a page of 16 chunks (Span). Both look chunks up by id, so the cost
// should not grow with the document (a 500 MB file is about 500,000
// chunks). A cited chunk found again in the document imported since
// (PassageNow): its text there word for word (cited-text), the passage
// with some words changed (cited-changed) and a passage no longer there
// (cited-gone), each found through the keyword index; opened again, each
// is remembered (-again). Each -scan beside them is the same answer by
// reading the document whole (scan), as the first click did before the
// index was asked: the old way and the new one in the same run.
func benchmarkReader(b *testing.B, n int) {
	kb := openBench(b, filepath.Join(b.TempDir(), "kb"))
	ctx := context.Background()
	const docID = "bigdoc"
	now := time.Now()
	if err := kb.db.Create(&Document{ID: docID, Source: "/data/big.txt", Title: "big", Kind: "text", Chunks: n, CreatedAt: now, UpdatedAt: now}).Error; err != nil {
		b.Fatal(err)
	}
	line := strings.Repeat("Some ordinary words of a very long document. ", 22) // ~1 KB
	batch := make([]Chunk, 0, 500)
	for i := range n {
		batch = append(batch, Chunk{ID: fmt.Sprintf("%s:%d", docID, i), DocID: docID, Seq: i, Page: i/3 + 1, Text: fmt.Sprintf("[%d] %s", i, line)})
		if len(batch) == cap(batch) || i == n-1 {
			if err := kb.db.Create(&batch).Error; err != nil {
				b.Fatal(err)
			}
			for _, c := range batch { // as an import indexes them
				kb.keywords.Add(c.ID, indexText(c))
			}
			batch = batch[:0]
		}
	}
	mid := n / 2
	b.Run("passage", func(b *testing.B) {
		for b.Loop() {
			if p, err := kb.Passage(ctx, "", fmt.Sprintf("%s:%d", docID, mid)); err != nil || p.After == nil {
				b.Fatal(err)
			}
		}
	})
	// A chunk cited from an earlier import of the file: found by its text
	// in the document now (PassageNow, locate), its text there or a
	// passage no longer in it (every chunk compared word by word), on the
	// first click (nothing remembered) and again.
	cited := fmt.Sprintf("[%d] %s", mid, line)
	changed := fmt.Sprintf("[%d] %s", mid, strings.Replace(line, "ordinary", "unusual", 1))
	for _, c := range []struct {
		name, text string
		found      Found
	}{{"cited-text", cited, FoundText}, {"cited-changed", changed, FoundSimilar}, {"cited-gone", "Words that no chunk of it holds at all.", FoundGone}} {
		open := func(b *testing.B) {
			if p, err := kb.PassageNow(ctx, "", "imported-before:7", "/data/big.txt", c.text); err != nil || p.Found != c.found {
				b.Fatal(p.Found, err)
			}
		}
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				kb.found = newFoundCache()
				open(b)
			}
		})
		b.Run(c.name+"-scan", func(b *testing.B) {
			doc := Document{ID: docID, Chunks: n}
			want, prefix := normCited(c.text)
			for b.Loop() {
				if _, found, err := kb.scan(ctx, doc, 7, want, prefix); err != nil || found != c.found {
					b.Fatal(found, err)
				}
			}
		})
		b.Run(c.name+"-again", func(b *testing.B) {
			open(b)
			for b.Loop() {
				open(b)
			}
		})
	}
	b.Run("span16", func(b *testing.B) {
		for b.Loop() {
			if s, err := kb.Span(ctx, "", docID, mid, 16); err != nil || len(s.Chunks) != 16 {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkReader1k(b *testing.B)  { benchmarkReader(b, 1_000) }
func BenchmarkReader50k(b *testing.B) { benchmarkReader(b, 50_000) }
