package knowledge

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/chunk"
)

// A hit opens with the chunks around it; a conversation's own file and an
// unknown id are not found.
func TestPassage(t *testing.T) {
	e := newPlainEnv(t)
	dir := filepath.Join(e.dir, "uploads")
	b := e.openWith(Options{Sink: e.sink, UploadDir: dir, Chunk: chunk.Options{Size: 200, Overlap: 40}})
	ctx := context.Background()
	var text strings.Builder
	text.WriteString("# Handbook\n\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&text, "Rule %d says something ordinary about the office. ", i)
		if i == 20 {
			text.WriteString("Annual leave is fifteen days. ")
		}
	}
	if _, err := b.Upload(ctx, "handbook.md", strings.NewReader(text.String()), nil); err != nil {
		t.Fatal(err)
	}
	hits, err := b.Search(ctx, "annual leave fifteen", SearchOptions{TopK: 1})
	if err != nil || len(hits) == 0 {
		t.Fatalf("hits %+v %v", hits, err)
	}
	p, err := b.Passage(ctx, hits[0].ChunkID)
	if err != nil {
		t.Fatal(err)
	}
	if p.Chunk == nil || p.Chunk.ID != hits[0].ChunkID || !strings.Contains(p.Chunk.Text, "Annual leave") || p.Doc.Title == "" {
		t.Fatalf("passage %+v", p)
	}
	if p.Before == nil || p.After == nil || p.Before.Seq != p.Chunk.Seq-1 || p.After.Seq != p.Chunk.Seq+1 {
		t.Fatalf("neighbours %+v / %+v of seq %d", p.Before, p.After, p.Chunk.Seq)
	}

	first, err := b.Passage(ctx, p.Chunk.DocID+":0")
	if err != nil || first.Before != nil || first.After == nil {
		t.Fatalf("the first chunk: %+v %v", first, err)
	}
	if _, err := b.Passage(ctx, "no-such-doc:3"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown chunk: %v", err)
	}
	const conv = "0199a000-0000-7000-8000-00000000000a"
	if _, err := b.UploadToConversation(ctx, conv, "secret.md", strings.NewReader("# Secret\n\nThe vault code is private.\n"), nil); err != nil {
		t.Fatal(err)
	}
	docs, err := b.ConversationDocuments(ctx, conv)
	if err != nil || len(docs) != 1 {
		t.Fatalf("conversation docs %+v %v", docs, err)
	}
	if _, err := b.Passage(ctx, docs[0].ID+":0"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a conversation's file through the library: %v", err)
	}
}

func TestWithoutOverlap(t *testing.T) {
	for _, tc := range []struct{ name, prev, next, want string }{
		{"overlap", "one two three", "two three four", " four"},
		{"none", "one two", "three four", "three four"},
		{"all of it", "abc", "bc", ""},
		{"Korean", "연차 휴가는 15일", "휴가는 15일입니다", "입니다"},
		{"empty", "", "x", "x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := WithoutOverlap(tc.prev, tc.next); got != tc.want {
				t.Fatalf("WithoutOverlap(%q, %q) = %q, want %q", tc.prev, tc.next, got, tc.want)
			}
		})
	}
}
