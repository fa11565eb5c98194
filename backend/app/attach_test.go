package app

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/agent"
	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/knowledge"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// TestAttachedFiles: a file attached in a conversation reaches the model
// in that conversation's turns (the up-front document search and
// retrieve_docs), not in another conversation's, not in the library's
// list or search; it opens in the reader from that conversation only;
// added to the library, every conversation finds it.
func TestAttachedFiles(t *testing.T) {
	// A second embedding model, for the person to switch to.
	models := append(ollamatest.DefaultModels(), ollamatest.Model{Name: "nomic-embed-text", Capabilities: []string{"embedding"}})
	fake := ollamatest.New(t, ollamatest.WithDefaultReply(ollamatest.Reply{Text: "ok"}), ollamatest.WithModels(models...))
	fake.On(ollamatest.SystemContains(agent.RoleRouter), ollamatest.Reply{JSON: map[string]any{
		"route": "simple", "needs_documents": true, "refers_to_previous": false, "out_of_scope": false}})
	a, events := openTestApp(t, fake, "llama3.2:3b")
	c, k := &ChatService{a}, &KnowledgeService{a}
	prompt := func(r ollama.ChatRequest) string {
		var b strings.Builder
		for _, m := range r.Messages {
			b.WriteString(m.Content)
		}
		return b.String()
	}
	// answerSees says whether the answer call of a turn held the passage.
	answerSees := func(session, text, passage string) (string, bool) {
		t.Helper()
		n := len(fake.ChatRequests())
		ack, err := c.Send(session, text, api.SendOptions{})
		if err != nil {
			t.Fatal(err)
		}
		events.finished(t, ack.TurnID)
		a.agent.Wait()
		for _, r := range fake.ChatRequests()[n:] {
			if ollamatest.SystemContains(agent.RoleAnswer)(r) {
				return ack.SessionID, strings.Contains(prompt(r), passage)
			}
		}
		t.Fatalf("no answer call in the turn %q", text)
		return "", false
	}
	attach := func(session, name, content string) api.ImportReport {
		t.Helper()
		id, err := k.Attach(session, name, base64.StdEncoding.EncodeToString([]byte(content)))
		if err != nil {
			t.Fatal(err)
		}
		return events.waitFor(t, api.EventImportDone, func(p any) bool { return p.(api.ImportReport).ImportID == id }).(api.ImportReport)
	}

	mine, _ := answerSees("", "hello", "never")
	other, _ := answerSees("", "hello too", "never")
	rep := attach(mine, "출장규정.md", "# 출장 규정\n\n출장비는 하루 10만원까지 지원합니다.\n")
	if len(rep.Imported) != 1 || rep.Error != nil || rep.Conversation != mine {
		t.Fatalf("attach: %+v", rep)
	}
	if _, seen := answerSees(mine, "출장비는 하루 얼마까지 지원하나요?", "10만원까지"); !seen {
		t.Fatal("the conversation's own file did not reach its answer")
	}
	if _, seen := answerSees(other, "출장비는 하루 얼마까지 지원하나요?", "10만원까지"); seen {
		t.Fatal("another conversation's answer got the file")
	}
	if docs, _ := k.Documents(); len(docs) != 0 {
		t.Fatalf("the library lists an attached file: %+v", docs)
	}
	if hits, _ := k.Search("출장비", 5); len(hits) != 0 {
		t.Fatalf("the library's search finds an attached file: %+v", hits)
	}
	files, err := k.Attached(mine)
	if err != nil || len(files) != 1 || !strings.HasSuffix(files[0].Source, "출장규정.md") {
		t.Fatalf("Attached: %+v %v", files, err)
	}
	if list, _ := k.Attached(other); len(list) != 0 {
		t.Fatalf("another conversation lists it: %+v", list)
	}
	// A cited attached file opens whole in the reader from its own
	// conversation; from another one, or the Knowledge screen, it is not
	// there at all (the same error as a removed document).
	if p, err := k.Passage(mine, files[0].ID+":0", files[0].Source, ""); err != nil || !strings.Contains(p.Text, "10만원까지") || p.File != "출장규정.md" {
		t.Fatalf("the attached file's passage from its conversation: %+v %v", p, err)
	}
	if s, err := k.Span(mine, files[0].ID, 0, knowledge.MaxSpan); err != nil || len(s.Parts) == 0 || !strings.Contains(s.Parts[0].Text, "10만원까지") {
		t.Fatalf("the attached file's text from its conversation: %+v %v", s, err)
	}
	for _, from := range []string{other, ""} {
		if p, err := k.Passage(from, files[0].ID+":0", files[0].Source, ""); describe(err).Code != api.ErrDocumentNotFound {
			t.Fatalf("the attached file's passage from %q: %+v %v", from, p, err)
		}
		if s, err := k.Span(from, files[0].ID, 0, 5); describe(err).Code != api.ErrDocumentNotFound {
			t.Fatalf("the attached file's text from %q: %+v %v", from, s, err)
		}
	}
	if _, err := k.Attach("no-such-session", "x.md", "eA=="); describe(err).Code != api.ErrSessionNotFound {
		t.Fatalf("attach to an unknown conversation: %v", err)
	}

	// Added to the library: everyone's.
	if _, err := k.AddToLibrary(other, files[0].Source); describe(err).Code != api.ErrNotFound {
		t.Fatalf("another conversation added it: %v", err)
	}
	told := func() int {
		return events.count(api.EventSessions, func(p any) bool { return p.(api.SessionsChanged).SessionID == mine })
	}
	before := told()
	if f, err := k.AddToLibrary(mine, files[0].Source); err != nil || f.EmbedPending {
		t.Fatalf("add to library: %+v, %v; want it embedded already", f, err)
	}
	if told() != before+1 {
		t.Fatal("the list was not told that the conversation's files changed")
	}
	if _, seen := answerSees(other, "출장비는 하루 얼마까지 지원하나요?", "10만원까지"); !seen {
		t.Fatal("after adding it to the library, another conversation does not see it")
	}
	if docs, _ := k.Documents(); len(docs) != 1 {
		t.Fatalf("the library after adding: %+v", docs)
	}
	if list, _ := k.Attached(mine); len(list) != 0 {
		t.Fatalf("still attached after adding: %+v", list)
	}
}

// retrievingModel is a fake model whose answer calls retrieve_docs for
// "출장비 지원" and then says what the tool found.
func retrievingModel(t *testing.T) *ollamatest.Server {
	t.Helper()
	// A second embedding model, for the person to switch to.
	models := append(ollamatest.DefaultModels(), ollamatest.Model{Name: "nomic-embed-text", Capabilities: []string{"embedding"}})
	fake := ollamatest.New(t, ollamatest.WithDefaultReply(ollamatest.Reply{Text: "ok"}), ollamatest.WithModels(models...))
	fake.On(ollamatest.SystemContains(agent.RoleRouter), ollamatest.Reply{JSON: map[string]any{
		"route": "simple", "needs_documents": false, "refers_to_previous": false, "out_of_scope": false}})
	fake.OnFunc(ollamatest.SystemContains(agent.RoleAnswer), func(r ollama.ChatRequest) ollamatest.Reply {
		if last := r.Messages[len(r.Messages)-1]; last.Role == "tool" {
			return ollamatest.Reply{Text: "found: " + last.Content}
		}
		return ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{{Name: "retrieve_docs", Args: map[string]any{"query": "출장비 지원"}}}}
	})
	return fake
}

// twoChats opens the app on fake with two conversations, the first
// with a file of its own ("출장비는 하루 10만원까지"), and returns a
// reply func that sends a message and gives the finished answer.
func twoChats(t *testing.T, fake *ollamatest.Server) (reply func(session, text string) string, mine, other string) {
	t.Helper()
	a, events := openTestApp(t, fake, "llama3.2:3b")
	c, k := &ChatService{a}, &KnowledgeService{a}
	send := func(session, text string) (string, string) {
		t.Helper()
		ack, err := c.Send(session, text, api.SendOptions{})
		if err != nil {
			t.Fatal(err)
		}
		m := events.finished(t, ack.TurnID)
		a.agent.Wait()
		return ack.SessionID, m.Content
	}
	mine, _ = send("", "hello")
	other, _ = send("", "hello too")
	id, err := k.Attach(mine, "출장규정.md", base64.StdEncoding.EncodeToString([]byte("# 출장 규정\n\n출장비는 하루 10만원까지 지원합니다.\n")))
	if err != nil {
		t.Fatal(err)
	}
	events.waitFor(t, api.EventImportDone, func(p any) bool { return p.(api.ImportReport).ImportID == id })
	return func(session, text string) string {
		t.Helper()
		_, got := send(session, text)
		return got
	}, mine, other
}

// The agent's retrieve_docs tool, called by the model mid-answer, honours
// the conversation too.
func TestAttachedFilesRetrieveDocs(t *testing.T) {
	reply, mine, other := twoChats(t, retrievingModel(t))
	if got := reply(mine, "출장비 규정을 찾아 줘"); !strings.Contains(got, "10만원") {
		t.Fatalf("retrieve_docs in its conversation: %q", got)
	}
	if got := reply(other, "출장비 규정을 찾아 줘"); strings.Contains(got, "10만원") {
		t.Fatalf("retrieve_docs in another conversation found it: %q", got)
	}
}

// A conversation's files are searched up front for its messages even
// where the router's model says no documents are needed; another
// conversation, without files, keeps the model's verdict.
func TestAttachedFilesSearchedUpFront(t *testing.T) {
	// A second embedding model, for the person to switch to.
	models := append(ollamatest.DefaultModels(), ollamatest.Model{Name: "nomic-embed-text", Capabilities: []string{"embedding"}})
	fake := ollamatest.New(t, ollamatest.WithDefaultReply(ollamatest.Reply{Text: "ok"}), ollamatest.WithModels(models...))
	fake.On(ollamatest.SystemContains(agent.RoleRouter), ollamatest.Reply{JSON: map[string]any{
		"route": "simple", "needs_documents": false, "refers_to_previous": false, "out_of_scope": false}})
	fake.OnFunc(ollamatest.SystemContains(agent.RoleAnswer), func(r ollama.ChatRequest) ollamatest.Reply {
		for _, m := range r.Messages {
			if strings.Contains(m.Content, "10만원") {
				return ollamatest.Reply{Text: "read the file"}
			}
		}
		return ollamatest.Reply{Text: "read nothing"}
	})
	reply, mine, other := twoChats(t, fake)
	if got := reply(mine, "출장비 규정 요약해 줘"); got != "read the file" {
		t.Fatalf("the conversation with the file: %q", got)
	}
	if got := reply(other, "출장비 규정 요약해 줘"); got != "read nothing" {
		t.Fatalf("a conversation without files: %q", got)
	}
}

// A file attached to a conversation answers its questions while it is
// still embedding: it was swapped in, indexed for its words, before the
// embedding began, and the window lets the person send then (a local
// embedding model takes minutes on a long file).
func TestAttachedFileAnswersWhileItEmbeds(t *testing.T) {
	fake := retrievingModel(t)
	a, events := openTestApp(t, fake, "llama3.2:3b")
	c, k := &ChatService{a}, &KnowledgeService{a}
	ack, err := c.Send("", "hello", api.SendOptions{})
	if err != nil {
		t.Fatal(err)
	}
	events.finished(t, ack.TurnID)
	a.agent.Wait()
	a.library.bg.Wait() // the catalog embedded: what hangs next is the attachment's
	fake.Fail(ollamatest.PathEmbed, 1, ollamatest.Fault{Kind: ollamatest.FaultHang})
	embeds := fake.Count(ollamatest.PathEmbed)
	text := "# 출장 규정\n\n출장비는 하루 10만원까지 지원합니다.\n\n" + strings.Repeat("출장 중 식비와 교통비의 정산 방법을 설명합니다. ", 300)
	id, err := k.Attach(ack.SessionID, "출장규정.md", base64.StdEncoding.EncodeToString([]byte(text)))
	if err != nil {
		t.Fatal(err)
	}
	events.waitFor(t, api.EventImport, func(p any) bool {
		ev := p.(api.ImportProgress)
		return ev.ImportID == id && ev.Stage == "embedding"
	})
	// Its first batch is the embedding that hangs, not the question's
	// query (which would wait for it, and the turn with it).
	for fake.Count(ollamatest.PathEmbed) == embeds {
		time.Sleep(time.Millisecond)
	}
	ack, err = c.Send(ack.SessionID, "출장비 규정을 찾아 줘", api.SendOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := events.finished(t, ack.TurnID).Content; !strings.Contains(got, "10만원") {
		t.Fatalf("a question while the file embeds: %q", got)
	}
	a.agent.Wait()
	// It was still embedding: stopped now, only its embedding stops.
	if err := k.CancelImport(id); err != nil {
		t.Fatal(err)
	}
	events.waitFor(t, api.EventImport, func(p any) bool {
		ev := p.(api.ImportProgress)
		return ev.ImportID == id && ev.Stage == "done" && ev.EmbedStopped
	})
}

// A conversation purged for good takes its attached files with it at the
// next start.
func TestAttachedFilesPurged(t *testing.T) {
	fake := ollamatest.New(t, ollamatest.WithDefaultReply(ollamatest.Reply{Text: "ok"}))
	a, events := openTestApp(t, fake, "llama3.2:3b")
	c, k := &ChatService{a}, &KnowledgeService{a}
	ack, err := c.Send("", "hello", api.SendOptions{})
	if err != nil {
		t.Fatal(err)
	}
	events.finished(t, ack.TurnID)
	id, err := k.Attach(ack.SessionID, "memo.txt", base64.StdEncoding.EncodeToString([]byte("회의는 화요일입니다.")))
	if err != nil {
		t.Fatal(err)
	}
	events.waitFor(t, api.EventImportDone, func(p any) bool { return p.(api.ImportReport).ImportID == id })
	folder := filepath.Join(a.dataDir, "uploads", ".conversations", ack.SessionID)
	if _, err := os.Stat(filepath.Join(folder, "memo.txt")); err != nil {
		t.Fatal(err)
	}
	// Still there while the conversation can be restored.
	a.forgetAttached(map[string]bool{ack.SessionID: true})
	a.bg.Wait()
	if _, err := os.Stat(folder); err != nil {
		t.Fatalf("a live conversation's files went: %v", err)
	}
	a.forgetAttached(map[string]bool{})
	a.bg.Wait()
	if _, err := os.Stat(folder); !os.IsNotExist(err) {
		t.Fatalf("a purged conversation's folder stays: %v", err)
	}
	kb, _ := a.library.base(a.ctx)
	if docs, _ := kb.ConversationDocuments(a.ctx, ack.SessionID); len(docs) != 0 {
		t.Fatalf("a purged conversation's documents stay: %+v", docs)
	}
}

// TestAttachInNewChat: files attached in a new chat go into a
// conversation made for them (with the model picked there), which the
// sidebar lists untitled; its first message titles it, finds the file,
// and a later message leaves the title alone.
func TestAttachInNewChat(t *testing.T) {
	fake := ollamatest.New(t, ollamatest.WithModels(
		ollamatest.Model{Name: "llama3.2:3b", Capabilities: []string{"completion", "tools"}},
		ollamatest.Model{Name: "qwen3:4b", Capabilities: []string{"completion", "tools"}},
		ollamatest.Model{Name: "bge-m3", Capabilities: []string{"embedding"}},
	), ollamatest.WithDefaultReply(ollamatest.Reply{Text: "ok"}))
	fake.On(ollamatest.SystemContains(agent.RoleRouter), ollamatest.Reply{JSON: map[string]any{
		"route": "simple", "needs_documents": true, "refers_to_previous": false, "out_of_scope": false}})
	a, events := openTestApp(t, fake, "llama3.2:3b")
	c, k := &ChatService{a}, &KnowledgeService{a}
	sess, err := c.Create("qwen3:4b")
	if err != nil || sess.ID == "" || sess.Title != "" || sess.Model != "qwen3:4b" || sess.MessageCount != 0 {
		t.Fatalf("Create: %+v %v", sess, err)
	}
	events.waitFor(t, api.EventSessions, func(p any) bool { return p.(api.SessionsChanged).SessionID == sess.ID })
	if _, err := c.Create("bad\nname"); describe(err).Code != api.ErrInvalidInput {
		t.Fatalf("a bad model name: %v", err)
	}
	id, err := k.Attach(sess.ID, "출장규정.md", base64.StdEncoding.EncodeToString([]byte("# 출장 규정\n\n출장비는 하루 10만원까지 지원합니다.\n")))
	if err != nil {
		t.Fatal(err)
	}
	if rep := events.waitFor(t, api.EventImportDone, func(p any) bool { return p.(api.ImportReport).ImportID == id }).(api.ImportReport); len(rep.Imported) != 1 || rep.Conversation != sess.ID {
		t.Fatalf("attach: %+v", rep)
	}
	// Untitled until its first message, the list names it after its file,
	// and is told to look again when the file is found by its words and
	// when its import ends.
	if list, _ := c.ListSessions(""); len(list) != 1 || list[0].ID != sess.ID || list[0].Title != "" || !slices.Equal(list[0].Files, []string{"출장규정.md"}) {
		t.Fatalf("sidebar before the first message: %+v", list)
	}
	if found, _ := c.ListSessions("출장규정"); len(found) != 1 || found[0].ID != sess.ID {
		t.Fatalf("searching the list by the file's name: %+v", found)
	}
	if found, _ := c.ListSessions("회의록"); len(found) != 0 {
		t.Fatalf("searching for another name: %+v", found)
	}
	if n := events.count(api.EventSessions, func(p any) bool { return p.(api.SessionsChanged).SessionID == sess.ID }); n != 3 {
		t.Fatalf("%d sessions events for the conversation, want 3 (made, its file found by its words, its file in)", n)
	}

	n := len(fake.ChatRequests())
	ack, err := c.Send(sess.ID, "출장비는   하루 얼마까지\n지원하나요?", api.SendOptions{})
	if err != nil || ack.SessionID != sess.ID {
		t.Fatalf("first message: %+v %v", ack, err)
	}
	events.finished(t, ack.TurnID)
	a.agent.Wait()
	seen := false
	for _, r := range fake.ChatRequests()[n:] {
		if r.Model != "qwen3:4b" {
			t.Errorf("a call of the conversation used %s", r.Model)
		}
		for _, m := range r.Messages {
			seen = seen || strings.Contains(m.Content, "10만원까지")
		}
	}
	if !seen {
		t.Fatal("the first message's answer did not get the attached file")
	}
	got, _ := a.store.Session(a.ctx, sess.ID)
	if got.Title != "출장비는 하루 얼마까지 지원하나요?" {
		t.Fatalf("title after the first message: %q", got.Title)
	}
	if list, _ := c.ListSessions(""); len(list) != 1 || list[0].Files != nil {
		t.Fatalf("a titled conversation is listed by its title alone: %+v", list)
	}
	next, err := c.Send(sess.ID, "고마워요", api.SendOptions{})
	if err != nil {
		t.Fatal(err)
	}
	events.finished(t, next.TurnID)
	a.agent.Wait()
	if got, _ := a.store.Session(a.ctx, sess.ID); got.Title != "출장비는 하루 얼마까지 지원하나요?" {
		t.Fatalf("a later message changed the title: %q", got.Title)
	}
}

// TestExportNamesAConversationAfterItsFiles: a conversation made only of
// attached files is exported under the name the window gives it (its
// files'), in the export's language, in the Markdown's heading and the
// file's name, not as "Untitled conversation".
func TestExportNamesAConversationAfterItsFiles(t *testing.T) {
	fake := ollamatest.New(t, ollamatest.WithDefaultReply(ollamatest.Reply{Text: "ok"}))
	a, events := openTestApp(t, fake, "llama3.2:3b")
	c, k := &ChatService{a}, &KnowledgeService{a}
	sess, err := c.Create("")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"휴가 규정.md", "minutes.txt"} {
		id, err := k.Attach(sess.ID, name, base64.StdEncoding.EncodeToString([]byte(name+": annual leave is 15 days. 연차는 15일입니다.\n")))
		if err != nil {
			t.Fatal(err)
		}
		events.waitFor(t, api.EventImportDone, func(p any) bool { return p.(api.ImportReport).ImportID == id })
	}
	for _, tc := range []struct{ lang, title, file string }{
		{"en", "# 휴가 규정.md and minutes.txt\n", "휴가-규정.md-and-minutes.txt.md"},
		{"ko", "# 휴가 규정.md, minutes.txt\n", "휴가-규정.md,-minutes.txt.md"},
	} {
		md, err := c.Export([]string{sess.ID}, "md", tc.lang)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(md.Content, tc.title) || strings.Contains(md.Content, "Untitled") || strings.Contains(md.Content, "제목 없는") {
			t.Errorf("%s: the Markdown starts:\n%s\nwant %q", tc.lang, md.Content, tc.title)
		}
		if md.Name != tc.file {
			t.Errorf("%s: the file is named %q, want %q", tc.lang, md.Name, tc.file)
		}
	}
	// The whole archive (every conversation) heads it the same way.
	all, err := c.Export(nil, "md", "en")
	if err != nil || !strings.HasPrefix(all.Content, "# 휴가 규정.md and minutes.txt\n") {
		t.Fatalf("every conversation: %v\n%s", err, all.Content)
	}
}
