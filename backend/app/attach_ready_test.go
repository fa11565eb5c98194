package app

import (
	"context"
	"encoding/base64"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/knowledge"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// A file attached in a new chat names its conversation once it is found
// by its words, not when a local model has embedded it minutes later: the
// list is told to look again when the file reaches its embedding, and
// finds it in the conversation's folder. A question sent meanwhile titles
// the conversation, and the end of the import does not name it after the
// file again.
func TestAttachedFileNamesItsConversationWhileItEmbeds(t *testing.T) {
	h := attachWhileEmbeddingHangs(t)
	a, events, c, sess, id := h.a, h.events, h.c, h.sess, h.id
	ofSession := func(p any) bool { return p.(api.SessionsChanged).SessionID == sess.ID }
	if n := events.count(api.EventSessions, ofSession); n != 2 {
		t.Fatalf("%d sessions events while the file embeds, want 2 (made, its file ready)", n)
	}
	if files, _ := knowledge.AttachedFiles(a.uploadDir(), sess.ID); !slices.Equal(files, []string{"출장규정.md"}) {
		t.Fatalf("the conversation's folder while the file embeds: %v", files)
	}
	if list, _ := c.ListSessions(""); len(list) != 1 || list[0].Title != "" || !slices.Equal(list[0].Files, []string{"출장규정.md"}) {
		t.Fatalf("the list while the file embeds: %+v", list)
	}
	if rep := events.count(api.EventImportDone, func(p any) bool { return p.(api.ImportReport).ImportID == id }); rep != 0 {
		t.Fatal("the import ended: its embedding was to hang")
	}

	// The person asks while it embeds: their question titles it.
	ack, err := c.Send(sess.ID, "출장비는 하루 얼마까지 지원하나요?", api.SendOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := events.finished(t, ack.TurnID).Content; !strings.Contains(got, "10만원") {
		t.Fatalf("the answer while the file embeds: %q", got)
	}
	a.agent.Wait()
	h.stop(t) // only its embedding stops
	if n := events.count(api.EventSessions, ofSession); n < 4 {
		t.Fatalf("%d sessions events, want the question's and the import's end too", n)
	}
	list, _ := c.ListSessions("")
	if len(list) != 1 || list[0].Title != "출장비는 하루 얼마까지 지원하나요?" || list[0].Files != nil {
		t.Fatalf("after the import ended, the conversation is called: %+v", list)
	}
	if files, _ := knowledge.AttachedFiles(a.uploadDir(), sess.ID); !slices.Equal(files, []string{"출장규정.md"}) {
		t.Fatalf("the file stays attached after its embedding stopped: %v", files)
	}
}

// hungAttachment is a new conversation with a travel-rules file attached
// whose first embedding batch hangs at Ollama: the catalog is embedded
// before, so the hang is the attachment's and not a question's query
// (0307a82). then are the faults Ollama gives the embeddings after it.
type hungAttachment struct {
	fake   *ollamatest.Server
	a      *App
	events *eventLog
	c      *ChatService
	k      *KnowledgeService
	sess   api.Session
	id     string // the attachment's import
}

// stop is the person's Stop on the attachment's import, which pauses its
// embedding, waited for until the import is over.
func (h hungAttachment) stop(t *testing.T) {
	t.Helper()
	if err := h.k.CancelImport(h.id); err != nil {
		t.Fatal(err)
	}
	h.events.waitFor(t, api.EventImportDone, func(p any) bool { return p.(api.ImportReport).ImportID == h.id })
}

// stopped is stop, then the conversation's one file, paused by it.
func (h hungAttachment) stopped(t *testing.T) api.KBDocument {
	t.Helper()
	h.stop(t)
	docs, err := h.k.Attached(h.sess.ID)
	if err != nil || len(docs) != 1 || !docs[0].EmbedPaused {
		t.Fatalf("attached after the Stop: %+v, %v", docs, err)
	}
	return docs[0]
}

func attachWhileEmbeddingHangs(t *testing.T, then ...ollamatest.Fault) hungAttachment {
	t.Helper()
	h := hungAttachment{fake: retrievingModel(t)}
	h.a, h.events = openTestApp(t, h.fake, "llama3.2:3b")
	h.c, h.k = &ChatService{h.a}, &KnowledgeService{h.a}
	if _, err := h.a.library.base(context.Background()); err != nil {
		t.Fatal(err)
	}
	h.a.library.bg.Wait()
	var err error
	if h.sess, err = h.c.Create(""); err != nil {
		t.Fatal(err)
	}
	embeds := h.fake.Count(ollamatest.PathEmbed)
	h.fake.Fail(ollamatest.PathEmbed, 1, ollamatest.Fault{Kind: ollamatest.FaultHang})
	for _, f := range then {
		h.fake.Fail(ollamatest.PathEmbed, -1, f)
	}
	text := "# 출장 규정\n\n출장비는 하루 10만원까지 지원합니다.\n\n" + strings.Repeat("출장 중 식비와 교통비의 정산 방법을 설명합니다. ", 300)
	if h.id, err = h.k.Attach(h.sess.ID, "출장규정.md", base64.StdEncoding.EncodeToString([]byte(text))); err != nil {
		t.Fatal(err)
	}
	h.events.waitFor(t, api.EventImport, func(p any) bool {
		ev := p.(api.ImportProgress)
		return ev.ImportID == h.id && ev.Stage == "embedding"
	})
	for h.fake.Count(ollamatest.PathEmbed) == embeds { // its first batch hangs
		time.Sleep(time.Millisecond)
	}
	return h
}
