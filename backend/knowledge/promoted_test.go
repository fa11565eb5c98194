package knowledge

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// A file a conversation added to the library is kept in its record, which
// outlives a reopening: which of the documents it became are still there,
// one by one (a file of records is several, removed one by one on the
// Knowledge screen), a new version read in its place is the file still,
// the file removed leaves none; a dismissed record and a forgotten
// conversation's records go.
func TestPromotions(t *testing.T) {
	e, b, dir := uploadEnv(t)
	ctx := context.Background()
	const conv, other = "0199a000-0000-7000-8000-0000000000a1", "0199a000-0000-7000-8000-0000000000a2"
	records := `{"_id": "r1", "text": "귤은 겨울 과일"}` + "\n" + `{"_id": "r2", "text": "석류는 가을 과일"}` + "\n" + `{"_id": "r3", "text": "수박은 여름 과일"}` + "\n"
	res, err := b.UploadToConversation(ctx, conv, "fruit.jsonl", strings.NewReader(records), time.Time{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.UploadToConversation(ctx, conv, "note.md", strings.NewReader("# 메모\n\n회의는 화요일.\n"), time.Time{}, nil); err != nil {
		t.Fatal(err)
	}
	first, err := b.Promote(ctx, conv, res.Path)
	if err != nil {
		t.Fatal(err)
	}
	to := first.Source
	second, err := b.Promote(ctx, conv, filepath.Join(dir, conversationsDir, conv, "note.md"))
	if err != nil {
		t.Fatal(err)
	}
	list := func(conv string) []Promotion {
		t.Helper()
		ps, err := b.Promotions(ctx, conv)
		if err != nil {
			t.Fatal(err)
		}
		return ps
	}
	ps := list(conv)
	if len(ps) != 2 || ps[0].Source != to || len(ps[0].DocIDs) != 3 || !slices.Equal(ps[0].Left, ps[0].DocIDs) || filepath.Base(ps[1].Source) != "note.md" {
		t.Fatalf("after adding two files: %+v", ps)
	}
	// What Promote returned is the record, as listed (AddToLibrary's row
	// takes its id from it, not from a second read of them all).
	for i, got := range []Promotion{first, second} {
		want := ps[i]
		if got.ID != want.ID || got.ID == 0 || got.Source != want.Source || got.Conversation != conv || !slices.Equal(got.DocIDs, want.DocIDs) || !slices.Equal(got.Left, want.Left) || got.Chunks != want.Chunks || got.Chunks == 0 {
			t.Fatalf("Promote returned %+v, listed %+v", got, want)
		}
	}
	if got := list(other); len(got) != 0 {
		t.Fatalf("another conversation's: %+v", got)
	}
	ids, chunks := ps[0].DocIDs, ps[0].Chunks

	// One record removed on the Knowledge screen: two of three left, after a reopening too.
	if err := b.Remove(ctx, ids[1]); err != nil {
		t.Fatal(err)
	}
	b = e.openWith(Options{Sink: e.sink, UploadDir: dir})
	if ps := list(conv); !slices.Equal(ps[0].DocIDs, ids) || !slices.Equal(ps[0].Left, []string{ids[0], ids[2]}) || ps[0].Chunks <= 0 || ps[0].Chunks >= chunks {
		t.Fatalf("after removing one record and reopening: %+v", ps[0])
	}

	// A new version read in its place is the file, whole.
	if r, err := b.Upload(ctx, "fruit.jsonl", strings.NewReader(records+`{"_id": "r4", "text": "사과"}`+"\n"), nil); err != nil || r.Path != to {
		t.Fatalf("a new version: %+v %v", r, err)
	}
	if ps := list(conv); len(ps[0].DocIDs) != 4 || !slices.Equal(ps[0].Left, ps[0].DocIDs) || slices.Contains(ps[0].DocIDs, ids[0]) {
		t.Fatalf("after a new version: %+v", ps[0])
	}

	// Removed from the library: none left.
	if n, err := b.RemoveSource(ctx, to); err != nil || n != 4 {
		t.Fatalf("remove the file: %d %v", n, err)
	}
	if ps := list(conv); len(ps) != 2 || len(ps[0].Left) != 0 || len(ps[1].Left) != 1 {
		t.Fatalf("after removing the file: %+v", ps)
	}

	// Dismissed (by its conversation only), then forgotten with it.
	if err := b.ForgetPromotion(ctx, other, ps[0].ID); err != nil {
		t.Fatal(err)
	}
	if got := list(conv); len(got) != 2 {
		t.Fatalf("another conversation dismissed its record: %+v", got)
	}
	if err := b.ForgetPromotion(ctx, conv, ps[0].ID); err != nil {
		t.Fatal(err)
	}
	if got := list(conv); len(got) != 1 || filepath.Base(got[0].Source) != "note.md" {
		t.Fatalf("after dismissing: %+v", got)
	}
	if _, err := b.ForgetConversation(ctx, conv); err != nil {
		t.Fatal(err)
	}
	if got := list(conv); len(got) != 0 {
		t.Fatalf("a forgotten conversation's records: %+v", got)
	}
}
