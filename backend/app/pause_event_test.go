package app

import (
	"slices"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// The windows are told when a file's meaning indexing is paused and when
// its pause ends (knowledge.embed_pause), so that another window's rows,
// and the same window's other views, follow at once: a Resume elsewhere
// showed only once the file's first batch was stored, and a paused file
// removed from the library went on saying paused in the chat.
func TestPauseAndResumeAreTold(t *testing.T) {
	h := attachWhileEmbeddingHangs(t)
	events, k, sess := h.events, h.k, h.sess
	h.stop(t)
	docs, err := k.Attached(sess.ID)
	if err != nil || len(docs) != 1 {
		t.Fatalf("attached: %+v, %v", docs, err)
	}
	source := docs[0].Source
	told := func(want api.EmbedPauseChanged) func(p any) bool {
		return func(p any) bool { return p.(api.EmbedPauseChanged) == want }
	}
	if n := events.count(api.EventEmbedPause, told(api.EmbedPauseChanged{Source: source, Paused: true})); n != 1 {
		t.Fatalf("the Stop paused %s, told %d times; want once", source, n)
	}
	if err := k.ResumeEmbedding(source); err != nil {
		t.Fatal(err)
	}
	resumed := told(api.EmbedPauseChanged{Source: source})
	events.waitFor(t, api.EventEmbedPause, resumed)
	if err := k.ResumeEmbedding(source); err != nil {
		t.Fatal(err)
	}
	if n := events.count(api.EventEmbedPause, resumed); n != 1 {
		t.Errorf("resumed once, then again when not paused: told %d times; want once", n)
	}
}

// TestRemovedPausedFileIsTold: a paused file added to the library is told
// paused there, under its new name; removed there, its pause ends, and
// the windows are told it was removed.
func TestRemovedPausedFileIsTold(t *testing.T) {
	h := attachWhileEmbeddingHangs(t)
	events, k, sess := h.events, h.k, h.sess
	paused := h.stopped(t)
	lib, err := k.AddToLibrary(sess.ID, paused.Source)
	if err != nil || !lib.EmbedPaused {
		t.Fatalf("AddToLibrary = %+v, %v; want it paused there", lib, err)
	}
	// Paused under its new name: the other windows' Knowledge screens list it so.
	if n := events.count(api.EventEmbedPause, func(p any) bool {
		return p.(api.EmbedPauseChanged) == api.EmbedPauseChanged{Source: lib.Source, Paused: true}
	}); n != 1 {
		t.Errorf("added to the library paused, told %d times it is paused there; want once", n)
	}
	all, err := k.Documents()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(all, func(d api.KBDocument) bool { return d.Source == lib.Source })
	if i < 0 {
		t.Fatalf("the library lists %+v; want %s", all, lib.Source)
	}
	if err := k.Remove(all[i].ID); err != nil {
		t.Fatal(err)
	}
	events.waitFor(t, api.EventEmbedPause, func(p any) bool {
		return p.(api.EmbedPauseChanged) == api.EmbedPauseChanged{Source: lib.Source, Removed: true}
	})
	if a := h.a.library.pausedSources(); a[lib.Source] {
		t.Errorf("removed, %s is still paused", lib.Source)
	}
}
