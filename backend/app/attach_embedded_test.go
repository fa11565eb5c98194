package app

import (
	"context"
	"encoding/base64"
	"slices"
	"strings"
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
	fake := retrievingModel(t)
	a, events := openTestApp(t, fake, "llama3.2:3b")
	c, k := &ChatService{a}, &KnowledgeService{a}
	if _, err := a.library.base(context.Background()); err != nil {
		t.Fatal(err)
	}
	a.library.bg.Wait() // the catalog embedded: what hangs next is the attachment's
	sess, err := c.Create("")
	if err != nil {
		t.Fatal(err)
	}
	embeds := fake.Count(ollamatest.PathEmbed)
	fake.Fail(ollamatest.PathEmbed, 1, ollamatest.Fault{Kind: ollamatest.FaultHang})
	fake.Fail(ollamatest.PathEmbed, -1, ollamatest.Fault{Kind: ollamatest.FaultHTTP500, Message: "busy"})
	text := "# 출장 규정\n\n출장비는 하루 10만원까지 지원합니다.\n\n" + strings.Repeat("출장 중 식비와 교통비의 정산 방법을 설명합니다. ", 300)
	id, err := k.Attach(sess.ID, "출장규정.md", base64.StdEncoding.EncodeToString([]byte(text)))
	if err != nil {
		t.Fatal(err)
	}
	events.waitFor(t, api.EventImport, func(p any) bool {
		ev := p.(api.ImportProgress)
		return ev.ImportID == id && ev.Stage == "embedding"
	})
	for fake.Count(ollamatest.PathEmbed) == embeds { // its first batch hangs
		time.Sleep(time.Millisecond)
	}
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
