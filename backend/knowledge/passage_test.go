package knowledge

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/chunk"
)

// A hit opens with the chunks around it; a conversation's own file opens
// only from that conversation, and an unknown id is not found.
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
	p, err := b.Passage(ctx, "", hits[0].ChunkID)
	if err != nil {
		t.Fatal(err)
	}
	if p.Chunk == nil || p.Chunk.ID != hits[0].ChunkID || !strings.Contains(p.Chunk.Text, "Annual leave") || p.Doc.Title == "" {
		t.Fatalf("passage %+v", p)
	}
	if p.Before == nil || p.After == nil || p.Before.Seq != p.Chunk.Seq-1 || p.After.Seq != p.Chunk.Seq+1 {
		t.Fatalf("neighbours %+v / %+v of seq %d", p.Before, p.After, p.Chunk.Seq)
	}

	first, err := b.Passage(ctx, "", p.Chunk.DocID+":0")
	if err != nil || first.Before != nil || first.After == nil {
		t.Fatalf("the first chunk: %+v %v", first, err)
	}
	if _, err := b.Passage(ctx, "", "no-such-doc:3"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown chunk: %v", err)
	}
	const conv = "0199a000-0000-7000-8000-00000000000a"
	if _, err := b.UploadToConversation(ctx, conv, "secret.md", strings.NewReader("# Secret\n\nThe vault code is private.\n"), time.Time{}, nil); err != nil {
		t.Fatal(err)
	}
	docs, err := b.ConversationDocuments(ctx, conv)
	if err != nil || len(docs) != 1 {
		t.Fatalf("conversation docs %+v %v", docs, err)
	}
	// A conversation's own file opens from that conversation, whole, and
	// from nowhere else: not the library's reader, not another conversation.
	for _, tc := range []struct {
		from string
		open bool
	}{
		{"", false},
		{conv, true},
		{"0199a000-0000-7000-8000-00000000000f", false},
		{"../" + conv, false},
	} {
		p, err := b.Passage(ctx, tc.from, docs[0].ID+":0")
		if tc.open && (err != nil || p.Chunk == nil || !strings.Contains(p.Chunk.Text, "vault code")) {
			t.Errorf("the file from its own conversation: %+v %v", p, err)
		}
		if !tc.open && !errors.Is(err, ErrNotFound) {
			t.Errorf("the file from %q: %+v %v, want not found", tc.from, p, err)
		}
	}
	// A library document opens from any conversation.
	if _, err := b.Passage(ctx, conv, hits[0].ChunkID); err != nil {
		t.Fatalf("a library passage from a conversation: %v", err)
	}
}

// Consecutive chunks of one section show what they repeat once: at most
// the chunker's overlap, so a document that repeats itself word for word
// keeps its repetition, and nothing is cut where a page or heading starts
// afresh (no overlap there, whatever the words).
func TestWithoutOverlap(t *testing.T) {
	repeated := strings.Repeat("같은 문장을 다시 씁니다. ", 20) // 300 runes
	for _, tc := range []struct {
		name       string
		prev, next Chunk
		want       string
	}{
		{"overlap", Chunk{Text: "one two three"}, Chunk{Text: "two three four"}, " four"},
		{"none", Chunk{Text: "one two"}, Chunk{Text: "three four"}, "three four"},
		{"all of it", Chunk{Text: "abc"}, Chunk{Text: "bc"}, ""},
		{"Korean", Chunk{Text: "연차 휴가는 15일"}, Chunk{Text: "휴가는 15일입니다"}, "입니다"},
		{"empty", Chunk{}, Chunk{Text: "x"}, "x"},
		{"a repeating document keeps its repetition", Chunk{Text: repeated}, Chunk{Text: repeated + "끝"},
			strings.TrimPrefix(repeated+"끝", strings.Repeat("같은 문장을 다시 씁니다. ", 2))},
		{"another heading", Chunk{Heading: "1장", Text: "끝입니다."}, Chunk{Heading: "2장", Text: "끝입니다. 새 장"}, "끝입니다. 새 장"},
		{"another page", Chunk{Page: 1, Text: "머리글"}, Chunk{Page: 2, Text: "머리글 둘째 쪽"}, "머리글 둘째 쪽"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := withoutOverlap(tc.prev, tc.next, 30); got != tc.want {
				t.Fatalf("withoutOverlap(%q, %q) = %q, want %q", tc.prev.Text, tc.next.Text, got, tc.want)
			}
		})
	}
}

// A document read span by span gives its text once, in order, whatever
// the spans' sizes: nothing the chunks repeat of each other twice, nothing
// left out; a span is bounded, ends at the document's end, and a
// conversation's own file from elsewhere, or an unknown document, is not found.
func TestSpan(t *testing.T) {
	e := newPlainEnv(t)
	b := e.openWith(Options{Sink: e.sink, UploadDir: filepath.Join(e.dir, "uploads"), Chunk: chunk.Options{Size: 120, Overlap: 30}})
	ctx := context.Background()
	var text strings.Builder
	text.WriteString("# Handbook\n\n")
	for i := 1; i <= 300; i++ {
		fmt.Fprintf(&text, "Rule %d says something ordinary. ", i)
	}
	if _, err := b.Upload(ctx, "handbook.md", strings.NewReader(text.String()), nil); err != nil {
		t.Fatal(err)
	}
	docs, err := b.List(ctx)
	if err != nil || len(docs) != 1 || docs[0].Chunks <= MaxSpan {
		t.Fatalf("want one document of more than %d chunks: %+v %v", MaxSpan, docs, err)
	}
	doc := docs[0]
	read := func(step int) string {
		var all strings.Builder
		for from := 0; ; from += step {
			s, err := b.Span(ctx, "", doc.ID, from, step)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Chunks) == 0 {
				if from < doc.Chunks {
					t.Fatalf("span from %d of %d is empty", from, doc.Chunks)
				}
				return all.String()
			}
			for i, c := range s.Chunks {
				if c.Seq != from+i || c.DocID != doc.ID {
					t.Fatalf("span from %d: chunk %d is %s", from, i, c.ID)
				}
				all.WriteString(c.Text)
			}
		}
	}
	whole := read(MaxSpan)
	for i := 1; i <= 300; i++ {
		if n := strings.Count(whole, fmt.Sprintf("Rule %d says something ordinary.", i)); n != 1 {
			t.Fatalf("rule %d is in the document %d times:\n%s", i, n, whole)
		}
	}
	for _, step := range []int{1, 7} {
		if got := read(step); got != whole {
			t.Fatalf("read %d chunks at a time:\n%q\nwant\n%q", step, got, whole)
		}
	}

	for _, tc := range []struct {
		name            string
		from, count     int
		wantFrom, wantN int
	}{
		{"bounded", 0, 10_000, 0, MaxSpan},
		{"before the start", -5, 3, 0, 3},
		{"up to the end", doc.Chunks - 2, 10, doc.Chunks - 2, 2},
		{"past the end", doc.Chunks, 10, doc.Chunks, 0},
		{"nothing asked", 3, 0, 3, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := b.Span(ctx, "", doc.ID, tc.from, tc.count)
			if err != nil || s.From != tc.wantFrom || len(s.Chunks) != tc.wantN || s.Doc.Chunks != doc.Chunks {
				t.Fatalf("Span(%d, %d) = from %d, %d chunks, %v; want from %d, %d chunks", tc.from, tc.count, s.From, len(s.Chunks), err, tc.wantFrom, tc.wantN)
			}
		})
	}

	if _, err := b.Span(ctx, "", "no-such-doc", 0, 5); !errors.Is(err, ErrNotFound) {
		t.Fatalf("an unknown document: %v", err)
	}
	const conv = "0199a000-0000-7000-8000-00000000000b"
	if _, err := b.UploadToConversation(ctx, conv, "secret.md", strings.NewReader("# Secret\n\nThe vault code is private.\n"), time.Time{}, nil); err != nil {
		t.Fatal(err)
	}
	mine, err := b.ConversationDocuments(ctx, conv)
	if err != nil || len(mine) != 1 {
		t.Fatalf("conversation docs %+v %v", mine, err)
	}
	for _, tc := range []struct {
		from string
		open bool
	}{
		{"", false},
		{conv, true},
		{"0199a000-0000-7000-8000-00000000000f", false},
	} {
		s, err := b.Span(ctx, tc.from, mine[0].ID, 0, 5)
		if tc.open && (err != nil || len(s.Chunks) == 0 || !strings.Contains(s.Chunks[0].Text, "vault code")) {
			t.Errorf("the file from its own conversation: %+v %v", s, err)
		}
		if !tc.open && !errors.Is(err, ErrNotFound) {
			t.Errorf("the file from %q: %+v %v, want not found", tc.from, s, err)
		}
	}
}

// A cited chunk whose document was imported again since (a new id) opens
// at the same place in the document as it is now, found by its file; a
// chunk past the new document's end opens at its last; another
// conversation's file is not found through its path either.
func TestPassageNow(t *testing.T) {
	e := newPlainEnv(t)
	b := e.openWith(Options{Sink: e.sink, UploadDir: filepath.Join(e.dir, "uploads"), Chunk: chunk.Options{Size: 200, Overlap: 40}})
	ctx := context.Background()
	doc := func(rules int, leave string) string {
		var text strings.Builder
		text.WriteString("# Handbook\n\n")
		for i := 1; i <= rules; i++ {
			fmt.Fprintf(&text, "Rule %d says something ordinary about the office. %s", i, map[bool]string{true: leave + " "}[i == 3])
		}
		return text.String()
	}
	if _, err := b.Upload(ctx, "handbook.md", strings.NewReader(doc(40, "Annual leave is fifteen days.")), nil); err != nil {
		t.Fatal(err)
	}
	cited, source, was := citeTop(t, b, "annual leave fifteen")
	last, err := b.Passage(ctx, "", fmt.Sprintf("%s:%d", was.Doc.ID, was.Doc.Chunks-1))
	if err != nil {
		t.Fatal(err)
	}
	// Unchanged: the cited chunk itself.
	if p, err := b.PassageNow(ctx, "", cited, source, was.Chunk.Text); err != nil || p.Chunk.ID != cited {
		t.Fatalf("unchanged: %+v %v", p.Chunk, err)
	}

	if _, err := b.Upload(ctx, "handbook.md", strings.NewReader(doc(40, "Annual leave is twenty days.")), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Passage(ctx, "", cited); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the old id after the new import: %v", err)
	}
	p, err := b.PassageNow(ctx, "", cited, source, was.Chunk.Text)
	if err != nil || p.Doc.ID == was.Doc.ID || p.Chunk.Seq != was.Chunk.Seq || !strings.Contains(p.Chunk.Text, "twenty days") {
		t.Fatalf("the same place now: %+v %+v %v", p.Doc, p.Chunk, err)
	}
	if _, err := b.PassageNow(ctx, "", cited, "", was.Chunk.Text); !errors.Is(err, ErrNotFound) {
		t.Fatalf("without its file: %v", err)
	}
	if _, err := b.PassageNow(ctx, "", cited, "/elsewhere/handbook.md", was.Chunk.Text); !errors.Is(err, ErrNotFound) {
		t.Fatalf("another file: %v", err)
	}

	// Shorter now: the last chunk.
	if _, err := b.Upload(ctx, "handbook.md", strings.NewReader(doc(4, "Annual leave is ten days.")), nil); err != nil {
		t.Fatal(err)
	}
	p, err = b.PassageNow(ctx, "", last.Chunk.ID, source, last.Chunk.Text)
	if err != nil || p.Chunk.Seq != p.Doc.Chunks-1 || p.After != nil {
		t.Fatalf("past the end now: %+v %+v %v", p.Doc, p.Chunk, err)
	}

	// A conversation's file, imported again: from its conversation only.
	const conv = "0199a000-0000-7000-8000-00000000000c"
	if _, err := b.UploadToConversation(ctx, conv, "secret.md", strings.NewReader("# Secret\n\nThe vault code is private.\n"), time.Time{}, nil); err != nil {
		t.Fatal(err)
	}
	mine, err := b.ConversationDocuments(ctx, conv)
	if err != nil || len(mine) != 1 {
		t.Fatalf("conversation docs %+v %v", mine, err)
	}
	old := mine[0].ID + ":0"
	if _, err := b.UploadToConversation(ctx, conv, "secret.md", strings.NewReader("# Secret\n\nThe vault code changed.\n"), time.Time{}, nil); err != nil {
		t.Fatal(err)
	}
	if p, err := b.PassageNow(ctx, conv, old, mine[0].Source, "The vault code is private."); err != nil || !strings.Contains(p.Chunk.Text, "changed") {
		t.Fatalf("the conversation's file now, from it: %+v %v", p.Chunk, err)
	}
	for _, from := range []string{"", "0199a000-0000-7000-8000-00000000000f"} {
		if p, err := b.PassageNow(ctx, from, old, mine[0].Source, ""); !errors.Is(err, ErrNotFound) {
			t.Fatalf("the conversation's file now, from %q: %+v %v", from, p.Chunk, err)
		}
	}
}

// citeTop searches b for query and opens its best hit as an answer would
// cite it: the hit's chunk id and source, and its passage.
func citeTop(t *testing.T, b *Base, query string) (cited, source string, was Passage) {
	t.Helper()
	hits, err := b.Search(context.Background(), query, SearchOptions{TopK: 1})
	if err != nil || len(hits) == 0 {
		t.Fatalf("hits %+v %v", hits, err)
	}
	was, err = b.Passage(context.Background(), "", hits[0].ChunkID)
	if err != nil {
		t.Fatal(err)
	}
	return hits[0].ChunkID, hits[0].Source, was
}

// uploadAs uploads text to b as the file name.
func uploadAs(t *testing.T, b *Base, name, text string) {
	t.Helper()
	if _, err := b.Upload(context.Background(), name, strings.NewReader(text), nil); err != nil {
		t.Fatal(err)
	}
}
