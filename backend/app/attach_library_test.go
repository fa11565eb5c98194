package app

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
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
		to  string
		err error
	}
	out := make(chan result, 1)
	go func() {
		to, err := k.AddToLibrary(sess.ID, docs[0].Source)
		out <- result{to, err}
	}()
	var r result
	select {
	case r = <-out:
	case <-time.After(time.Minute): // the embedding hangs for good: waiting for it never ends
		t.Fatal("Add to library waits for the file's embedding")
	}
	if want := filepath.Join(a.uploadDir(), "출장규정.md"); r.err != nil || r.to != want {
		t.Fatalf("add to library: %q, %v; want %q", r.to, r.err, want)
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
	if hits, _ := k.Search("출장비", 5); len(hits) == 0 {
		t.Fatal("the library's search does not find it by its words")
	}

	// Ollama answers again: the background embedding finishes it (its
	// retries wait 2 s, doubling).
	h.fake.Reset()
	deadline := time.Now().Add(2 * time.Minute)
	for a.library.vectors.Status().Pending > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d passages still pending", a.library.vectors.Status().Pending)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
