package app

import (
	"encoding/base64"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// A file added to the library is told to every window (knowledge.added),
// once, with the record AddToLibrary answers, so that another window with
// the conversation open makes the same row at once: it showed none until
// it was reloaded.
func TestAddedToLibraryIsTold(t *testing.T) {
	h := attachWhileEmbeddingHangs(t)
	doc := h.stopped(t)
	lib, err := h.k.AddToLibrary(h.sess.ID, doc.Source)
	if err != nil {
		t.Fatal(err)
	}
	got := h.events.waitFor(t, api.EventAddedToLibrary, func(any) bool { return true }).(api.AddedToLibrary)
	if got.SessionID != h.sess.ID || got.File.ID != lib.ID || got.File.ID == 0 || got.File.Source != lib.Source || !slices.Equal(got.File.DocIDs, lib.DocIDs) || got.File.EmbedPaused != lib.EmbedPaused || got.File.Pending != lib.Pending || got.File.Chunks != lib.Chunks {
		t.Fatalf("told %+v; want session %s and %+v", got, h.sess.ID, lib)
	}
	if n := h.events.count(api.EventAddedToLibrary, func(any) bool { return true }); n != 1 {
		t.Fatalf("told %d times; want once", n)
	}
}

// A file added to the library from a chat is kept with its conversation:
// AddedToLibrary lists it as AddToLibrary answered (paused here, its Stop
// having paused it), then as the library has it (removed on the Knowledge
// screen), until the person dismisses its row; another conversation has
// none of it.
func TestAddedToLibraryIsKept(t *testing.T) {
	h := attachWhileEmbeddingHangs(t)
	doc := h.stopped(t)
	lib, err := h.k.AddToLibrary(h.sess.ID, doc.Source)
	if err != nil || lib.ID == 0 || !slices.Equal(lib.DocIDs, []string{doc.ID}) || !lib.EmbedPaused {
		t.Fatalf("AddToLibrary = %+v, %v; want its record, its document, paused", lib, err)
	}
	added := func(sid string) []api.LibraryFile {
		t.Helper()
		got, err := h.k.AddedToLibrary(sid)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	got := added(h.sess.ID)
	if len(got) != 1 || got[0].ID != lib.ID || got[0].Source != lib.Source || !got[0].EmbedPaused || got[0].Pending != lib.Pending || got[0].Chunks != lib.Chunks || len(got[0].Removed) != 0 {
		t.Fatalf("AddedToLibrary = %+v; want it as AddToLibrary said, %+v", got, lib)
	}
	other, err := h.c.Create("")
	if err != nil {
		t.Fatal(err)
	}
	if got := added(other.ID); len(got) != 0 {
		t.Fatalf("another conversation's: %+v", got)
	}

	if err := h.k.Remove(doc.ID); err != nil {
		t.Fatal(err)
	}
	got = added(h.sess.ID)
	if len(got) != 1 || !slices.Equal(got[0].Removed, []string{doc.ID}) || got[0].EmbedPaused || got[0].EmbedPending {
		t.Fatalf("after its removal on the Knowledge screen: %+v", got)
	}
	if err := h.k.DismissAdded(h.sess.ID, lib.ID); err != nil {
		t.Fatal(err)
	}
	if got := added(h.sess.ID); len(got) != 0 {
		t.Fatalf("after its row was dismissed: %+v", got)
	}

	// Another file added, then its conversation deleted and purged: its
	// folder went with its last file, and its record goes at the purge.
	id, err := h.k.Attach(h.sess.ID, "메모.md", base64.StdEncoding.EncodeToString([]byte("# 메모\n\n회의는 화요일입니다.\n")))
	if err != nil {
		t.Fatal(err)
	}
	h.events.waitFor(t, api.EventImportDone, func(p any) bool { return p.(api.ImportReport).ImportID == id })
	docs, err := h.k.Attached(h.sess.ID)
	i := slices.IndexFunc(docs, func(d api.KBDocument) bool { return strings.HasSuffix(d.Source, "메모.md") })
	if err != nil || i < 0 {
		t.Fatalf("attached: %+v, %v", docs, err)
	}
	memo := docs[i]
	if _, err := h.k.AddToLibrary(h.sess.ID, memo.Source); err != nil {
		t.Fatal(err)
	}
	if got := added(h.sess.ID); len(got) != 1 {
		t.Fatalf("the second file added: %+v", got)
	}
	if err := h.c.Delete(h.sess.ID); err != nil {
		t.Fatal(err)
	}
	if err := h.a.forgetPurged(h.a.ctx); err != nil {
		t.Fatal(err)
	}
	if got := added(h.sess.ID); len(got) != 1 {
		t.Fatalf("a deleted conversation's record went before the purge: %+v", got)
	}
	if err := h.a.store.PurgeDeleted(h.a.ctx, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := h.a.forgetPurged(h.a.ctx); err != nil {
		t.Fatal(err)
	}
	if got := added(h.sess.ID); len(got) != 0 {
		t.Fatalf("a purged conversation's records stay: %+v", got)
	}
}
