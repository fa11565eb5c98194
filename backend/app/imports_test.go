package app

import (
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/knowledge"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// TestCancelImport: an upload stopped while Ollama holds its embedding
// stays, found by its words, with its copy kept, and only its embedding
// stops; its report carries no error. Stopping an ended import is no
// error. (An upload queued behind it is not stopped here: joining the
// queue hands the embedding on, so it waits only a moment, and whether a
// stop reaches it first is a race; knowledge's TestUploadStoppedWhileItWaits
// stops one that waits behind an import being read.)
func TestCancelImport(t *testing.T) {
	fake := ollamatest.New(t)
	a, events := openTestApp(t, fake, "llama3.2:3b")
	k := &KnowledgeService{a}
	ctx := context.Background()
	kb, err := a.library.base(ctx)
	if err != nil {
		t.Fatal(err)
	}
	a.library.bg.Wait() // the catalog embedded: what hangs next is the upload's
	count := func(table string) int {
		t.Helper()
		var n int
		if err := a.store.DB().Raw("SELECT COUNT(*) FROM " + table).Scan(&n).Error; err != nil {
			t.Fatal(err)
		}
		return n
	}
	docs, chunks := count("kb_documents"), count("kb_chunks")
	fake.Fail(ollamatest.PathEmbed, -1, ollamatest.Fault{Kind: ollamatest.FaultHang})

	upload := func(name, text string) string {
		t.Helper()
		id, err := k.Upload(name, base64.StdEncoding.EncodeToString([]byte(text)))
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	at := func(id, stage string) {
		t.Helper()
		events.waitFor(t, api.EventImport, func(p any) bool {
			ev := p.(api.ImportProgress)
			return ev.ImportID == id && ev.Stage == stage
		})
	}
	report := func(id string) api.ImportReport {
		t.Helper()
		return events.waitFor(t, api.EventImportDone, func(p any) bool { return p.(api.ImportReport).ImportID == id }).(api.ImportReport)
	}
	slow := upload("slow.md", "# Slow\n\n"+strings.Repeat("Embedding this passage takes a while. ", 400))
	at(slow, "embedding")
	if err := k.CancelImport(slow); err != nil {
		t.Fatal(err)
	}
	// Stopped while it embeds, the slow file stays, found by its words
	// (it was swapped in before embedding began); only its embedding stops.
	rep := report(slow)
	if len(rep.Imported) != 1 || filepath.Base(rep.Imported[0]) != "slow.md" || len(rep.Stopped) != 0 || rep.Error != nil {
		t.Errorf("the upload stopped while it embeds: %+v", rep)
	}
	at(slow, "done")
	a.bg.Wait()

	// The vector index embeds what is left of the slow file on its own
	// later; no vector stands for a chunk that is not there.
	if d, c, v := count("kb_documents"), count("kb_chunks"), a.library.vectors.Count(); d != docs+1 || c <= chunks || v > c {
		t.Errorf("after stopping: %d documents, %d chunks, %d vectors; want %d, more than %d, at most as many vectors as chunks (the slow file in)", d, c, v, docs+1, chunks)
	}
	list, err := kb.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range list {
		names = append(names, filepath.Base(d.Source))
	}
	if !slices.Contains(names, "slow.md") {
		t.Errorf("library %v: want slow.md in", names)
	}
	if hits, err := kb.Search(ctx, "passage takes a while", knowledge.SearchOptions{}); err != nil || len(hits) == 0 {
		t.Errorf("the slow file is not found by its words: %v, %v", hits, err)
	}
	var kept []string
	_ = filepath.WalkDir(filepath.Join(a.dataDir, "uploads"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			kept = append(kept, filepath.Base(p))
		}
		return nil
	})
	if !slices.Equal(kept, []string{"slow.md"}) {
		t.Errorf("uploads kept %v, want only slow.md's copy", kept)
	}

	// Once Ollama answers again the same file imports, and stopping an
	// import that has ended, or one that never was, changes nothing.
	fake.Reset()
	done := upload("slow.md", "# Slow\n\nNow it goes through.\n")
	if rep := report(done); len(rep.Imported) != 1 || len(rep.Stopped) != 0 {
		t.Fatalf("the upload after: %+v", rep)
	}
	for _, id := range []string{done, "no-such-import"} {
		if err := k.CancelImport(id); err != nil {
			t.Errorf("CancelImport(%q): %v", id, err)
		}
	}
	if err := k.CancelImport(" "); err == nil {
		t.Error("CancelImport without an id: no error")
	}
	if stages := stagesOf(events, done); slices.Contains(stages, "stopped") {
		t.Errorf("a finished import was stopped: %v", stages)
	}
}

// stagesOf lists the stages the import id's events went through.
func stagesOf(events *eventLog, id string) []string {
	var out []string
	events.count(api.EventImport, func(p any) bool {
		if ev := p.(api.ImportProgress); ev.ImportID == id {
			out = append(out, ev.Stage)
		}
		return false
	})
	return out
}

// TestKBImportCtrlC: `wayfinder kb import` stopped by Ctrl+C (its context
// ends) while Ollama holds the first file's embedding says what it
// imported and what it did not, in the command's language, and exits
// non-zero: the first file is in, found by its words, its embedding
// stopped; nothing of the second is kept.
func TestKBImportCtrlC(t *testing.T) {
	docs := t.TempDir()
	for name, text := range map[string]string{"a.md": "# A\n\napricots\n", "b.md": "# B\n\nbananas\n"} {
		if err := os.WriteFile(filepath.Join(docs, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ lang, embedStopped, summary, stopped string }{
		{"en_US.UTF-8", "  embedding stopped: keyword search finds this file now", "Imported 1 file", "Stopped: 1 file not imported."},
		{"ko_KR.UTF-8", "  임베딩 중지: 이 파일은 지금 키워드 검색으로 찾을 수 있고", "파일 1개를 가져왔습니다", "중지했습니다. 파일 1개를 가져오지 않았습니다."},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			t.Setenv("LC_ALL", tc.lang)
			fake := ollamatest.New(t)
			fake.Fail(ollamatest.PathEmbed, -1, ollamatest.Fault{Kind: ollamatest.FaultHang})
			data := t.TempDir()
			base := []string{"--data-dir", data, "--ollama-host", fake.URL(), "--embed-model", "bge-m3"}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var out, errOut strings.Builder
			code := make(chan int, 1)
			go func() {
				code <- Main(ctx, append(base, "kb", "import", docs), strings.NewReader(""), &out, &errOut, testShells)
			}()
			for fake.Count(ollamatest.PathEmbed) == 0 {
				time.Sleep(10 * time.Millisecond) // until the first file embeds: then Ctrl+C
			}
			cancel()
			if c := <-code; c == 0 {
				t.Errorf("exit 0 after Ctrl+C")
			}
			all := out.String() + errOut.String()
			for _, w := range []string{tc.embedStopped, tc.summary, tc.stopped} {
				if !strings.Contains(all, w) {
					t.Errorf("want %q in\n%s", w, all)
				}
			}
			if strings.Contains(all, "The request was stopped") {
				t.Errorf("the stop is explained as a fault:\n%s", all)
			}
			_, list, _ := wayfinder(t, append(base, "kb", "list")...)
			if !strings.Contains(list, "a.md") || strings.Contains(list, "b.md") {
				t.Errorf("want a.md listed and b.md not:\n%s", list)
			}
		})
	}
}

// An import's embedding waits while the person's turn runs (the window and
// serve pace it: vector.WithPace), so that the answer the person waits for
// has Ollama to itself, and goes on when the turn ends; its progress says
// that it waits (Waiting), and that it goes on.
func TestImportEmbeddingWaitsForTheTurn(t *testing.T) {
	fake := ollamatest.New(t)
	a, events := openTestApp(t, fake, "llama3.2:3b")
	c, k := &ChatService{a}, &KnowledgeService{a}
	if _, err := a.library.base(context.Background()); err != nil {
		t.Fatal(err)
	}
	a.library.bg.Wait() // the catalog embedded: the embeddings counted next are the upload's
	fake.Fail(ollamatest.PathChat, 1, ollamatest.Fault{Kind: ollamatest.FaultHang})
	ack, err := c.Send("", "hello", api.SendOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for fake.InFlight() == 0 { // the turn's first model call hangs
		time.Sleep(time.Millisecond)
	}
	embeds := fake.Count(ollamatest.PathEmbed)
	id, err := k.Upload("notes.md", base64.StdEncoding.EncodeToString([]byte("# 메모\n\n출장비는 하루 10만원까지 지원합니다.\n")))
	if err != nil {
		t.Fatal(err)
	}
	// Its row says why it does not move: it waits for the question.
	events.waitFor(t, api.EventImport, func(p any) bool {
		ev := p.(api.ImportProgress)
		return ev.ImportID == id && ev.Stage == "embedding" && ev.Waiting
	})
	if n := fake.Count(ollamatest.PathEmbed) - embeds; n != 0 {
		t.Fatalf("%d embeddings while the turn ran", n)
	}
	if err := c.Stop(ack.SessionID); err != nil {
		t.Fatal(err)
	}
	rep := events.waitFor(t, api.EventImportDone, func(p any) bool { return p.(api.ImportReport).ImportID == id }).(api.ImportReport)
	if len(rep.Imported) != 1 || fake.Count(ollamatest.PathEmbed) == embeds {
		t.Errorf("after the turn: %+v, %d embeddings", rep, fake.Count(ollamatest.PathEmbed)-embeds)
	}
	// It said it went on, before it embedded, and said it waited once.
	var said []string
	for _, p := range events.all(api.EventImport) {
		if ev := p.(api.ImportProgress); ev.ImportID == id {
			said = append(said, fmt.Sprintf("%s waiting=%v embedded=%d", ev.Stage, ev.Waiting, ev.Embedded))
		}
	}
	want := []string{"embedding waiting=false embedded=0", "embedding waiting=true embedded=0", "embedding waiting=false embedded=0", "embedding waiting=false embedded=1", "done waiting=false embedded=1"}
	if got := said[len(said)-len(want):]; !slices.Equal(got, want) {
		t.Errorf("the upload's events end with %q, want %q", said, want)
	}
}
