package app

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	ollamaapi "github.com/ollama/ollama/api"
	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/vector"
)

// A conversation's file whose embedding the person stopped says so in
// Attached (a reopened conversation shows it as the window that attached
// it did): found by its words, its meaning indexing paused. The vector
// index's worker leaves its passages alone while it embeds another
// file's, until the person resumes it (ResumeEmbedding); then the windows
// are told it is embedded (knowledge.embedded, with its conversation) and
// Attached says it no more.
//
// The attachment's own first embedding batch is the one that hangs (not a
// query's: 0307a82), and the person stops it there.
func TestAttachedFileStoppedWaitsForResume(t *testing.T) {
	h := attachWhileEmbeddingHangs(t)
	a, events, k, sess := h.a, h.events, h.k, h.sess
	h.stop(t) // only its embedding stops

	docs, err := k.Attached(sess.ID)
	if err != nil || len(docs) != 1 {
		t.Fatalf("attached: %+v, %v", docs, err)
	}
	source := docs[0].Source
	if !docs[0].EmbedPending || !docs[0].EmbedPaused || docs[0].Pending == 0 {
		t.Fatalf("the person stopped the file's embedding, Attached says %+v; want pending and paused", docs[0])
	}
	left := docs[0].Pending

	// Another file's passages wait too: the worker embeds those, and
	// not a passage of the paused one.
	other := []vector.Doc{{ID: "other:0", Text: "another file", Metadata: map[string]string{"source": "other.md"}}}
	if err := a.library.vectors.AddLater(a.ctx, other); err != nil {
		t.Fatal(err)
	}
	events.waitFor(t, api.EventEmbedded, func(p any) bool { return slices.Contains(p.(api.EmbeddingsDone).Sources, "other.md") })
	ofFile := func(p any) bool {
		ev := p.(api.EmbeddingsDone)
		return slices.Contains(ev.Sources, source) && slices.Equal(ev.Conversations, []string{sess.ID})
	}
	if n := events.count(api.EventEmbedded, ofFile); n != 0 {
		t.Fatalf("told %d times the paused file was embedded", n)
	}
	if docs, err := k.Attached(sess.ID); err != nil || docs[0].Pending != left || !docs[0].EmbedPaused {
		t.Fatalf("attached while paused and another file embedded: %+v, %v; want %d pending, paused", docs, err, left)
	}

	if err := k.ResumeEmbedding(source); err != nil {
		t.Fatal(err)
	}
	events.waitFor(t, api.EventEmbedded, ofFile)
	if docs, err := k.Attached(sess.ID); err != nil || len(docs) != 1 || docs[0].EmbedPending || docs[0].EmbedPaused {
		t.Fatalf("attached after its embedding: %+v, %v", docs, err)
	}
	if n := a.library.vectors.Status().Pending; n != 0 {
		t.Errorf("%d passages pending after the signal", n)
	}
	if err := k.ResumeEmbedding(source); err != nil { // resumed already: no error
		t.Errorf("ResumeEmbedding again: %v", err)
	}
	if err := k.ResumeEmbedding(" "); err == nil {
		t.Error("ResumeEmbedding without a file: no error")
	}
}

// TestHandedOnFileIsNotPaused: a file whose embedding is handed on
// because another file joins the queue is no stop of the person's: its
// passages are embedded in the background at once, and Attached never
// says it is paused.
func TestHandedOnFileIsNotPaused(t *testing.T) {
	h := attachWhileEmbeddingHangs(t)
	events, k, sess, id := h.events, h.k, h.sess, h.id
	second, err := k.Attach(sess.ID, "second.md", base64.StdEncoding.EncodeToString([]byte("# Second\n\n"+strings.Repeat("A second file joins the queue. ", 20))))
	if err != nil {
		t.Fatal(err)
	}
	first := events.waitFor(t, api.EventImport, func(p any) bool {
		ev := p.(api.ImportProgress)
		return ev.ImportID == id && ev.Stage == "done"
	}).(api.ImportProgress)
	if !first.EmbedHandedOn || first.EmbedStopped {
		t.Fatalf("the first file's end: %+v; want handed on, not stopped", first)
	}
	if paused := h.a.library.pausedSources(); len(paused) != 0 {
		t.Errorf("paused after a hand-on: %v", paused)
	}
	events.waitFor(t, api.EventImportDone, func(p any) bool { return p.(api.ImportReport).ImportID == second })
	events.waitFor(t, api.EventEmbedded, func(p any) bool {
		for _, s := range p.(api.EmbeddingsDone).Sources {
			if strings.HasSuffix(s, "출장규정.md") {
				return true
			}
		}
		return false
	})
	docs, err := k.Attached(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		if d.EmbedPaused {
			t.Errorf("%s says it is paused after a hand-on", d.Source)
		}
	}
}

// TestStoppedFileAttachedAgainIsNotPaused: a file attached again after its
// Stop is the person wanting it now: its pause is forgotten as it is read
// in again, and it is embedded.
func TestStoppedFileAttachedAgainIsNotPaused(t *testing.T) {
	h := attachWhileEmbeddingHangs(t)
	events, k, sess := h.events, h.k, h.sess
	h.stop(t)
	if len(h.a.library.pausedSources()) != 1 {
		t.Fatalf("paused after the Stop: %v", h.a.library.pausedSources())
	}
	again, err := k.Attach(sess.ID, "출장규정.md", base64.StdEncoding.EncodeToString([]byte("# 출장 규정\n\n출장비는 하루 12만원까지 지원합니다.\n")))
	if err != nil {
		t.Fatal(err)
	}
	events.waitFor(t, api.EventImportDone, func(p any) bool { return p.(api.ImportReport).ImportID == again })
	if paused := h.a.library.pausedSources(); len(paused) != 0 {
		t.Errorf("still paused after the file was attached again: %v", paused)
	}
	docs, err := k.Attached(sess.ID)
	if err != nil || len(docs) != 1 || docs[0].EmbedPaused || docs[0].EmbedPending {
		t.Fatalf("attached again: %+v, %v; want embedded, not paused", docs, err)
	}
}

// TestStoppedFileAddedToLibraryStaysPaused: a conversation's file whose
// embedding the person stopped, added to the library, stays paused there,
// and AddToLibrary and Documents say so with its passages left, so that
// the chat's row and the Knowledge screen tell the truth; the library's
// Resume embeds it there.
func TestStoppedFileAddedToLibraryStaysPaused(t *testing.T) {
	h := attachWhileEmbeddingHangs(t)
	events, k, sess := h.events, h.k, h.sess
	paused := h.stopped(t)
	left, chunks := paused.Pending, paused.Chunks
	lib, err := k.AddToLibrary(sess.ID, paused.Source)
	if err != nil {
		t.Fatal(err)
	}
	want := api.LibraryFile{Source: lib.Source, EmbedPending: true, EmbedPaused: true, Pending: left, Chunks: chunks, ID: lib.ID, DocIDs: []string{paused.ID}}
	if !cmp.Equal(lib, want) || lib.ID == 0 || lib.Source == paused.Source {
		t.Fatalf("AddToLibrary = %+v; want %+v, in the library", lib, want)
	}
	all, err := k.Documents()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(all, func(d api.KBDocument) bool { return d.Source == lib.Source })
	if i < 0 || !all[i].EmbedPaused || all[i].Pending != left {
		t.Fatalf("the library lists %+v; want %s paused with %d left", all, lib.Source, left)
	}
	if err := k.ResumeEmbedding(lib.Source); err != nil {
		t.Fatal(err)
	}
	events.waitFor(t, api.EventEmbedded, func(p any) bool { return slices.Contains(p.(api.EmbeddingsDone).Sources, lib.Source) })
	if all, err = k.Documents(); err != nil {
		t.Fatal(err)
	}
	if i := slices.IndexFunc(all, func(d api.KBDocument) bool { return d.Source == lib.Source }); i < 0 || all[i].EmbedPaused || all[i].Pending != 0 {
		t.Errorf("the library lists %+v after Resume; want it embedded", all)
	}
}

// TestPausedFileWaitsThroughAModelChange: the person picks another
// embedding model in Settings while a file's embedding is paused. Every
// passage then needs the new model; the paused file's wait for its
// Resume (nothing embeds it behind the person's back), its list says so,
// all its passages left, while the other passages are re-embedded and
// search by meaning comes back on; Resume embeds it with the new model.
func TestPausedFileWaitsThroughAModelChange(t *testing.T) {
	h := attachWhileEmbeddingHangs(t)
	a, events, k, sess := h.a, h.events, h.k, h.sess
	h.stop(t)
	// What Settings' watcher does with the new model (app.go); the
	// test app's model is pinned as by --embed-model.
	const model = "nomic-embed-text"
	before, err := k.Attached(sess.ID)
	if err != nil || len(before) != 1 {
		t.Fatalf("attached before the model change: %+v, %v", before, err)
	}
	a.useEmbedModel(model)
	// Its count is said anew, all its passages left: no batch would say it.
	events.waitFor(t, api.EventEmbedding, func(p any) bool {
		return slices.Contains(p.(api.EmbeddingProgress).Docs, api.DocPending{DocID: before[0].ID, Pending: before[0].Chunks})
	})
	deadline := time.Now().Add(time.Minute)
	for st := a.library.vectors.Status(); st.Model != model || st.Reembedding; st = a.library.vectors.Status() {
		if time.Now().After(deadline) {
			t.Fatalf("the catch-up with the new model never ended: %+v", st)
		}
		time.Sleep(5 * time.Millisecond)
	}
	mine := func(r ollamaapi.EmbedRequest) bool {
		return r.Model == model && strings.Contains(fmt.Sprint(r.Input), "정산 방법")
	}
	if n := len(slices.DeleteFunc(h.fake.EmbedRequests(), func(r ollamaapi.EmbedRequest) bool { return !mine(r) })); n != 0 {
		t.Fatalf("the paused file was embedded %d times with the new model before its Resume", n)
	}
	docs, err := k.Attached(sess.ID)
	if err != nil || len(docs) != 1 || !docs[0].EmbedPaused || docs[0].Pending != docs[0].Chunks {
		t.Fatalf("attached after the model change: %+v, %v; want paused, every passage left", docs, err)
	}
	if err := k.ResumeEmbedding(docs[0].Source); err != nil {
		t.Fatal(err)
	}
	events.waitFor(t, api.EventEmbedded, func(p any) bool { return slices.Contains(p.(api.EmbeddingsDone).Sources, docs[0].Source) })
	if !slices.ContainsFunc(h.fake.EmbedRequests(), mine) {
		t.Error("resumed, the file was not embedded with the new model")
	}
}
