package app

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/knowledge"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// Add to library on a file still embedding acts at once: the file is in
// and found by its words, so it joins the library now, its import ends
// (its embedding stopped: embed_stopped), and the passages not embedded
// yet are the vector index's background embedding's, which embeds them
// in the library once Ollama answers. It does not wait for the embedding,
// which here hangs until the import is stopped.
func TestAddToLibraryWhileItEmbeds(t *testing.T) {
	h := attachWhileEmbeddingHangs(t, ollamatest.Fault{Kind: ollamatest.FaultHTTP500, Message: "busy"})
	a, events, k, sess, id := h.a, h.events, h.k, h.sess, h.id
	docs, err := k.Attached(sess.ID)
	if err != nil || len(docs) != 1 {
		t.Fatalf("attached while it embeds: %+v, %v", docs, err)
	}
	type result struct {
		to      string
		pending bool
		err     error
	}
	out := make(chan result, 1)
	go func() {
		f, err := k.AddToLibrary(sess.ID, docs[0].Source)
		out <- result{f.Source, f.EmbedPending, err}
	}()
	var r result
	select {
	case r = <-out:
	case <-time.After(time.Minute): // the embedding hangs for good: waiting for it never ends
		t.Fatal("Add to library waits for the file's embedding")
	}
	if want := filepath.Join(a.uploadDir(), "출장규정.md"); r.err != nil || r.to != want || !r.pending {
		t.Fatalf("add to library: %q (its meaning pending: %v), %v; want %q, pending", r.to, r.pending, r.err, want)
	}
	rep := events.waitFor(t, api.EventImportDone, func(p any) bool { return p.(api.ImportReport).ImportID == id }).(api.ImportReport)
	if len(rep.Imported) != 1 || rep.Error != nil || len(rep.Stopped) != 0 {
		t.Fatalf("the import's report: %+v", rep)
	}
	last := events.all(api.EventImport)
	var ended api.ImportProgress
	for _, p := range last {
		if ev := p.(api.ImportProgress); ev.ImportID == id {
			ended = ev
		}
	}
	if ended.Stage != "done" || !ended.EmbedStopped {
		t.Fatalf("the file's last progress: %+v; want done, its embedding stopped", ended)
	}
	if left, _ := k.Attached(sess.ID); len(left) != 0 {
		t.Fatalf("the conversation still lists it: %+v", left)
	}
	lib, err := k.Documents()
	if err != nil || len(lib) != 1 || lib[0].Source != r.to {
		t.Fatalf("the library: %+v, %v", lib, err)
	}
	if n := a.library.vectors.Status().Pending; n == 0 {
		t.Fatal("no passage left to the background embedding")
	}
	// Its passages moved with it: those pending are the library file's,
	// none is left under the conversation's path.
	pending := a.library.pendingSources()
	if pending[r.to] != a.library.vectors.Status().Pending || pending[docs[0].Source] != 0 {
		t.Fatalf("pending by source after the move: %v; want all of them under %s", pending, r.to)
	}
	if lib[0].Pending == 0 || lib[0].Pending > lib[0].Chunks {
		t.Fatalf("the library's list says %d of %d passages pending", lib[0].Pending, lib[0].Chunks)
	}
	if hits, _ := k.Search("출장비", 5); len(hits) == 0 {
		t.Fatal("the library's search does not find it by its words")
	}

	// Ollama answers again: the background embedding finishes it (its
	// retries wait 2 s, doubling), and says so of the library's file.
	h.fake.Reset()
	deadline := time.Now().Add(2 * time.Minute)
	for a.library.vectors.Status().Pending > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d passages still pending", a.library.vectors.Status().Pending)
		}
		time.Sleep(10 * time.Millisecond)
	}
	ev := events.waitFor(t, api.EventEmbedded, func(p any) bool { return slices.Contains(p.(api.EmbeddingsDone).Sources, r.to) }).(api.EmbeddingsDone)
	if len(ev.Conversations) != 0 {
		t.Errorf("the library's file said to be the conversations' %v", ev.Conversations)
	}
	// The list was told how far its document was, down to none left.
	var counted []int
	for _, p := range events.all(api.EventEmbedding) {
		for _, d := range p.(api.EmbeddingProgress).Docs {
			if d.DocID == lib[0].ID {
				counted = append(counted, d.Pending)
			}
		}
	}
	if len(counted) == 0 || counted[len(counted)-1] != 0 || !slices.IsSortedFunc(counted, func(a, b int) int { return b - a }) {
		t.Errorf("the document's passages left, as told: %v; want them counted down to 0", counted)
	}
	// Every passage has its vector under the library's file, none is left
	// under the conversation's path.
	if hits, err := a.library.vectors.Query(t.Context(), "출장비", 50, map[string]string{"source": r.to}); err != nil || len(hits) != lib[0].Chunks {
		t.Errorf("vectors filed under the library's file: %d, %v; want %d", len(hits), err, lib[0].Chunks)
	}
	if hits, err := a.library.vectors.Query(t.Context(), "출장비", 50, map[string]string{"source": docs[0].Source}); err != nil || len(hits) != 0 {
		t.Errorf("vectors left under the conversation's path: %d, %v", len(hits), err)
	}
	if lib, _ = k.Documents(); len(lib) != 1 || lib[0].Pending != 0 {
		t.Errorf("the library's list after the background embedding: %+v", lib)
	}
}

// RemoveAttached takes a file out of its conversation: its documents, its
// passages and its copy go, and the list is told (a conversation named
// after its files is named after one fewer). Another conversation cannot
// remove it. A file still embedding goes at once, its embedding stopped,
// and leaves nothing pending for the background embedding.
func TestRemoveAttached(t *testing.T) {
	h := attachWhileEmbeddingHangs(t, ollamatest.Fault{Kind: ollamatest.FaultHTTP500, Message: "busy"})
	a, events, c, k, sess, id := h.a, h.events, h.c, h.k, h.sess, h.id
	docs, err := k.Attached(sess.ID)
	if err != nil || len(docs) != 1 {
		t.Fatalf("attached while it embeds: %+v, %v", docs, err)
	}
	other, err := c.Create("")
	if err != nil {
		t.Fatal(err)
	}
	if err := k.RemoveAttached(other.ID, docs[0].Source); describe(err).Code != api.ErrNotFound {
		t.Fatalf("another conversation removed it: %v", err)
	}
	told := func() int {
		return events.count(api.EventSessions, func(p any) bool { return p.(api.SessionsChanged).SessionID == sess.ID })
	}
	before := told()
	out := make(chan error, 1)
	go func() { out <- k.RemoveAttached(sess.ID, docs[0].Source) }()
	select {
	case err = <-out:
	case <-time.After(time.Minute): // the embedding hangs for good: waiting for it never ends
		t.Fatal("removing the file waits for its embedding")
	}
	if err != nil {
		t.Fatal(err)
	}
	events.waitFor(t, api.EventImportDone, func(p any) bool { return p.(api.ImportReport).ImportID == id })
	if left, _ := k.Attached(sess.ID); len(left) != 0 {
		t.Fatalf("the conversation still lists it: %+v", left)
	}
	if files, _ := knowledge.AttachedFiles(a.uploadDir(), sess.ID); len(files) != 0 {
		t.Fatalf("its copy is kept: %v", files)
	}
	if n := a.library.vectors.Status().Pending; n != 0 {
		t.Errorf("%d passages of the removed file left pending", n)
	}
	if told() <= before {
		t.Error("the list was not told")
	}
	if err := k.RemoveAttached(sess.ID, docs[0].Source); describe(err).Code != api.ErrNotFound {
		t.Fatalf("removed twice: %v", err)
	}
}
