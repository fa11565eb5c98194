package knowledge

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// Files attached in a conversation answer that conversation's searches
// only (not another's, not the library's, in any scope); the same content
// is a duplicate only where it is seen; a name is replaced only within its
// own folder; added to the library, a file is everyone's without a second
// import; a conversation forgotten takes its files with it.
func TestConversationFiles(t *testing.T) {
	e, b, dir := uploadEnv(t)
	ctx := context.Background()
	const a, other = "0199a000-0000-7000-8000-00000000000a", "0199a000-0000-7000-8000-00000000000b"
	attach := func(conv, name, content string) UploadResult {
		t.Helper()
		var last Progress
		res, err := b.UploadToConversation(ctx, conv, name, strings.NewReader(content), time.Time{}, func(p Progress) { last = p })
		if err != nil {
			t.Fatalf("attach %s: %v", name, err)
		}
		if res.Outcome != UploadDuplicate && last.Stage != StageDone {
			t.Fatalf("attach %s: last progress %+v", name, last)
		}
		return res
	}
	titles := func(conv string, scope Scope, q string) []string {
		t.Helper()
		hits, err := b.Search(ctx, q, SearchOptions{Conversation: conv, Scope: scope, PerDoc: -1})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, h := range hits {
			out = append(out, filepath.Base(h.Source))
		}
		return out
	}

	res := attach(a, "출장규정.md", "# 출장 규정\n\n출장비는 하루 10만원까지 지원합니다.\n")
	if res.Outcome != UploadAdded || res.Path != filepath.Join(dir, ".conversations", a, "출장규정.md") {
		t.Fatalf("attach: %+v", res)
	}
	if got := titles(a, ScopeDocuments, "출장비"); !slices.Equal(got, []string{"출장규정.md"}) {
		t.Fatalf("its conversation: %v", got)
	}
	for _, sc := range []Scope{ScopeDocuments, ScopeAll} {
		if got := titles(other, sc, "출장비"); len(got) != 0 {
			t.Fatalf("another conversation (%s) sees it: %v", sc, got)
		}
		if got := titles("", sc, "출장비"); len(got) != 0 {
			t.Fatalf("the library's search (%s) sees it: %v", sc, got)
		}
	}
	if got := titles(a, ScopeCatalog, "출장비"); len(got) != 0 {
		t.Fatalf("the catalog scope holds it: %v", got)
	}

	// The same content in another conversation is that one's own; the
	// library's upload of it is new too; in the same conversation it is
	// a duplicate.
	if r := attach(other, "copy.md", "# 출장 규정\n\n출장비는 하루 10만원까지 지원합니다.\n"); r.Outcome != UploadAdded {
		t.Fatalf("the same content in another conversation: %+v", r)
	}
	if r := attach(a, "again.md", "# 출장 규정\n\n출장비는 하루 10만원까지 지원합니다.\n"); r.Outcome != UploadDuplicate {
		t.Fatalf("the same content again in its conversation: %+v", r)
	}
	// The same name in the library does not replace the conversation's.
	if r, err := b.Upload(ctx, "출장규정.md", strings.NewReader("# 다른 문서\n\n숙박비 규정.\n"), nil); err != nil || r.Outcome != UploadAdded {
		t.Fatalf("library upload of the same name: %+v %v", r, err)
	}
	if got := titles(a, ScopeDocuments, "출장비"); !slices.Equal(got, []string{"출장규정.md"}) {
		t.Fatalf("after the library's upload of the same name: %v", got)
	}
	docs, err := b.ConversationDocuments(ctx, a)
	if err != nil || len(docs) != 1 || docs[0].Title == "" {
		t.Fatalf("ConversationDocuments: %+v %v", docs, err)
	}

	// Added to the library: the name is taken there.
	if _, err := b.Promote(ctx, a, docs[0].Source); !errors.Is(err, ErrNameTaken) {
		t.Fatalf("promote onto a taken name: %v", err)
	}
	res = attach(a, "meeting.txt", "회의록: 다음 주 화요일에 예산 회의가 있습니다.")
	if _, err := b.Promote(ctx, other, res.Path); err == nil {
		t.Fatal("another conversation promoted a's file")
	}
	moved, err := b.Promote(ctx, a, res.Path)
	to := moved.Source
	if err != nil || to != filepath.Join(dir, "meeting.txt") {
		t.Fatalf("promote: %q %v", to, err)
	}
	if _, err := os.Stat(to); err != nil {
		t.Fatalf("the promoted copy: %v", err)
	}
	if got := titles(other, ScopeDocuments, "예산 회의"); !slices.Equal(got, []string{"meeting.txt"}) {
		t.Fatalf("another conversation after promoting: %v", got)
	}
	if got := titles("", ScopeDocuments, "예산 회의"); !slices.Equal(got, []string{"meeting.txt"}) {
		t.Fatalf("the library after promoting: %v", got)
	}

	// Reopened, the scopes hold (they come from the stored sources).
	b = e.openWith(Options{Sink: e.sink, UploadDir: dir})
	if got := titles(other, ScopeDocuments, "출장비"); !slices.Equal(got, []string{"copy.md"}) {
		t.Fatalf("after reopening, the other conversation: %v", got)
	}

	// Forgotten with its conversation.
	if n, err := b.ForgetConversation(ctx, a); err != nil || n != 1 {
		t.Fatalf("forget: %d %v", n, err)
	}
	if got := titles(a, ScopeDocuments, "출장비"); len(got) != 0 {
		t.Fatalf("a forgotten conversation's file is found: %v", got)
	}
	if _, err := os.Stat(filepath.Join(dir, ".conversations", a)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("its folder stays: %v", err)
	}

	for _, bad := range []string{"", "../x", "a/b", strings.Repeat("x", 65)} {
		if _, err := b.UploadToConversation(ctx, bad, "x.md", strings.NewReader("x"), time.Time{}, nil); !errors.Is(err, ErrConversation) {
			t.Errorf("conversation %q: %v", bad, err)
		}
	}
}

// A conversation's files are named in the order they were attached, from
// its folder: a file whose import failed is not there, one added to the
// library is no longer there, and a conversation without files has none.
func TestAttachedFiles(t *testing.T) {
	_, b, dir := uploadEnv(t)
	ctx := context.Background()
	const conv = "0199a000-0000-7000-8000-00000000000c"
	names := func() []string {
		t.Helper()
		got, err := AttachedFiles(dir, conv)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if got := names(); len(got) != 0 {
		t.Fatalf("before any file: %q", got)
	}
	// Listed in the order attached, not the order their imports ended (the
	// second file attached is read first here) nor by name.
	attached := time.Now().Add(-time.Hour)
	for _, f := range []struct {
		name, content string
		at            time.Duration
	}{
		{"budget.txt", "The budget is 40 million won.\n", time.Minute},
		{"회의록.md", "# 회의록\n\n다음 주 월요일에 출시합니다.\n", 0},
		{"broken.json", "{\"name\": \n", 2 * time.Minute},
	} {
		if _, err := b.UploadToConversation(ctx, conv, f.name, strings.NewReader(f.content), attached.Add(f.at), nil); err != nil {
			t.Fatal(err)
		}
	}
	if got := names(); !slices.Equal(got, []string{"회의록.md", "budget.txt"}) {
		t.Fatalf("attached files %q, want 회의록.md, budget.txt (broken.json failed)", got)
	}
	docs, err := b.ConversationDocuments(ctx, conv)
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, d := range docs {
		listed = append(listed, filepath.Base(d.Source))
	}
	if !slices.Equal(listed, []string{"회의록.md", "budget.txt"}) {
		t.Fatalf("the conversation's documents are listed %q, want the order attached: 회의록.md, budget.txt", listed)
	}
	if _, err := b.Promote(ctx, conv, filepath.Join(dir, conversationsDir, conv, "budget.txt")); err != nil {
		t.Fatal(err)
	}
	if got := names(); !slices.Equal(got, []string{"회의록.md"}) {
		t.Fatalf("after budget.txt went to the library: %q", got)
	}
	if _, err := AttachedFiles(dir, "../escape"); !errors.Is(err, ErrConversation) {
		t.Fatalf("a conversation id that leaves the folder: %v", err)
	}
}

// A file attached to a conversation is in its folder once it is swapped
// in, while it still embeds (a local model takes minutes), so that the
// conversation is named after it then; its embedding stopped, it stays.
func TestAttachedWhileItEmbeds(t *testing.T) {
	e := newPlainEnv(t)
	dir := filepath.Join(e.dir, "uploads")
	sink := &holdSink{fakeSink: e.sink, hold: "회의록.md", held: make(chan struct{})}
	b := e.openWith(Options{Sink: sink, UploadDir: dir})
	const conv = "0199a000-0000-7000-8000-00000000000d"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type result struct {
		res UploadResult
		err error
	}
	out := make(chan result, 1)
	go func() {
		res, err := b.UploadToConversation(ctx, conv, "회의록.md", strings.NewReader("# 회의록\n\n다음 주 월요일에 출시합니다.\n"), time.Time{}, nil)
		out <- result{res, err}
	}()
	<-sink.held
	if got, err := AttachedFiles(dir, conv); err != nil || !slices.Equal(got, []string{"회의록.md"}) {
		t.Fatalf("while it embeds, the conversation's files: %q, %v", got, err)
	}
	cancel() // only its embedding stops
	r := <-out
	if r.err != nil || r.res.Outcome != UploadAdded {
		t.Fatalf("stopped while it embedded: %+v, %v", r.res, r.err)
	}
	if got, _ := AttachedFiles(dir, conv); !slices.Equal(got, []string{"회의록.md"}) {
		t.Fatalf("after its embedding stopped: %q", got)
	}
	if left := files(t, dir); slices.ContainsFunc(left, func(f string) bool { return strings.HasPrefix(f, incomingDir) }) {
		t.Errorf("the incoming copy stays: %q", left)
	}
}
