package app

import (
	"slices"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// A conversation's file whose embedding was left to the background says
// so in Attached (a reopened conversation shows it as the window that
// attached it did), and once the vector index's worker has embedded it
// the windows are told (knowledge.embedded, with its conversation) and
// Attached says it no more.
//
// The attachment's own first embedding batch is the one that hangs (not a
// query's: 0307a82); stopping it leaves its passages pending, and Ollama
// then fails each of the worker's batches until Reset, so that the file
// is seen pending before it is embedded.
func TestAttachedFileSaysItsEmbeddingCaughtUp(t *testing.T) {
	h := attachWhileEmbeddingHangs(t, ollamatest.Fault{Kind: ollamatest.FaultHTTP500, Message: "busy"})
	fake, a, events, k, sess, id := h.fake, h.a, h.events, h.k, h.sess, h.id
	if err := k.CancelImport(id); err != nil { // only its embedding stops
		t.Fatal(err)
	}
	events.waitFor(t, api.EventImportDone, func(p any) bool { return p.(api.ImportReport).ImportID == id })

	docs, err := k.Attached(sess.ID)
	if err != nil || len(docs) != 1 {
		t.Fatalf("attached: %+v, %v", docs, err)
	}
	source := docs[0].Source
	if !docs[0].EmbedPending {
		t.Fatalf("the file's embedding is left to the background, Attached says it is not: %+v", docs[0])
	}
	ofFile := func(p any) bool {
		ev := p.(api.EmbeddingsDone)
		return slices.Contains(ev.Sources, source) && slices.Equal(ev.Conversations, []string{sess.ID})
	}
	if n := events.count(api.EventEmbedded, ofFile); n != 0 {
		t.Fatalf("told %d times the file was embedded while Ollama failed", n)
	}

	// Ollama answers again: the worker's next try embeds it (its retries
	// wait 2 s, doubling).
	fake.Reset()
	deadline := time.Now().Add(2 * time.Minute)
	for events.count(api.EventEmbedded, ofFile) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("never told the file is embedded; events: %+v", events.all(api.EventEmbedded))
		}
		time.Sleep(10 * time.Millisecond)
	}
	if docs, err := k.Attached(sess.ID); err != nil || len(docs) != 1 || docs[0].EmbedPending {
		t.Fatalf("attached after its embedding: %+v, %v", docs, err)
	}
	if n := a.library.vectors.Status().Pending; n != 0 {
		t.Errorf("%d passages pending after the signal", n)
	}
}
