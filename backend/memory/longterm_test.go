package memory

import (
	"bytes"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wayfinder-app/wayfinder/backend/llm"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/backend/store"
)

// env is a memory store on a fresh database, with vectors from the fake
// Ollama when withVectors is set.
type env struct {
	dir    string
	srv    *ollamatest.Server
	client *llm.Client
	model  string // embedding model the next open uses
}

func newEnv(t *testing.T, withVectors bool) *env {
	e := &env{dir: t.TempDir(), model: "bge-m3"}
	if withVectors {
		e.srv = ollamatest.New(t, ollamatest.WithEmbedDim(256))
		var err error
		if e.client, err = llm.New(e.srv.URL(), llm.WithRetry(0, 0)); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

func (e *env) vectorDir() string { return filepath.Join(e.dir, "memory-vectors") }

// open opens the store as the app would at start; the returned func closes
// it as the app would at quit.
func (e *env) open(t *testing.T) (*Store, *Vectors, func()) {
	t.Helper()
	db, err := store.OpenDB(filepath.Join(e.dir, "wayfinder.db"))
	if err != nil {
		t.Fatal(err)
	}
	var vec *Vectors
	if e.client != nil {
		if vec, err = NewChromemVectors(e.vectorDir(), e.model, e.client, nil); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(t.Context(), db, vec, nil)
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	closeFn := func() {
		if closed {
			return
		}
		closed = true
		if sqlDB, err := db.DB(); err == nil {
			sqlDB.Close()
		}
	}
	t.Cleanup(closeFn)
	return s, vec, closeFn
}

func texts(ms []Memory) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Text
	}
	return out
}

func TestAddDeduplicates(t *testing.T) {
	tests := []struct {
		name        string
		first, then string
		vectors     bool
		wantDup     bool
	}{
		{"identical", "사용자는 커피를 좋아한다", "사용자는 커피를 좋아한다", false, true},
		{"punctuation and case", "Prefers FREE tools.", "prefers free tools", false, true},
		{"extra spaces", "커피를  좋아한다", " 커피를 좋아한다 ", false, true},
		{"high term overlap", "프로젝트 마감일은 3월 15일이다", "프로젝트 마감일은 3월 15일이다 확정", false, true},
		{"different fact", "사용자는 커피를 좋아한다", "사용자는 차를 좋아한다", false, false},
		{"same topic other facts", "Name is Chulsoo", "Deadline is March 15", false, false},
		{"vectors: identical words reordered", "likes coffee black strong", "strong black coffee likes", true, true},
		{"vectors: different", "사용자는 커피를 좋아한다", "예산은 1억원이다", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _, _ := newEnv(t, tt.vectors).open(t)
			ctx := t.Context()
			a, created, err := s.Add(ctx, tt.first, KindFact, Reflected("s1"))
			if err != nil || !created {
				t.Fatalf("first Add: %v, %v", created, err)
			}
			b, created, err := s.Add(ctx, tt.then, KindPreference, Reflected("s2"))
			if err != nil {
				t.Fatal(err)
			}
			all, _ := s.List(ctx)
			if tt.wantDup {
				if created || b.ID != a.ID || len(all) != 1 {
					t.Fatalf("not merged: created=%v ids %s/%s, %d memories", created, a.ID, b.ID, len(all))
				}
				if all[0].Text != strings.TrimSpace(tt.then) || all[0].Kind != KindPreference || all[0].SessionID != "s2" {
					t.Errorf("update did not take the new wording and kind: %+v", all[0])
				}
				if !all[0].CreatedAt.Equal(a.CreatedAt) {
					t.Errorf("created time changed")
				}
			} else if !created || len(all) != 2 {
				t.Fatalf("merged distinct memories: created=%v, %d memories", created, len(all))
			}
		})
	}
}

func TestAddValidates(t *testing.T) {
	s, _, _ := newEnv(t, false).open(t)
	for _, tc := range []struct {
		text string
		kind Kind
	}{
		{"", KindFact}, {"   ", KindFact}, {"ok", "opinion"}, {strings.Repeat("가", MaxTextLen+1), KindFact},
	} {
		if _, _, err := s.Add(t.Context(), tc.text, tc.kind, ByHand()); !errors.Is(err, ErrInvalid) {
			t.Errorf("Add(%.10q, %q) = %v, want ErrInvalid", tc.text, tc.kind, err)
		}
	}
}

func TestSearchKorean(t *testing.T) {
	for _, vectors := range []bool{false, true} {
		t.Run(map[bool]string{false: "keywords", true: "hybrid"}[vectors], func(t *testing.T) {
			s, _, _ := newEnv(t, vectors).open(t)
			ctx := t.Context()
			for _, m := range []string{"사용자는 커피를 좋아한다", "프로젝트 마감일은 3월 15일", "Prefers free video tools", "이름은 철수"} {
				if _, _, err := s.Add(ctx, m, KindFact, ByHand()); err != nil {
					t.Fatal(err)
				}
			}
			tests := []struct{ query, want string }{
				{"커피", "사용자는 커피를 좋아한다"},
				{"커피를 좋아해?", "사용자는 커피를 좋아한다"},
				{"마감일이 언제야", "프로젝트 마감일은 3월 15일"},
				{"video tools", "Prefers free video tools"},
				{"내 이름", "이름은 철수"},
			}
			for _, tt := range tests {
				got, err := s.Search(ctx, tt.query, 2)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) == 0 || got[0].Text != tt.want {
					t.Errorf("Search(%q) = %q, want %q first", tt.query, texts(got), tt.want)
				}
			}
			if got, _ := s.Search(ctx, "", 2); len(got) != 2 {
				t.Errorf("empty query: %d memories, want the 2 most recent", len(got))
			}
		})
	}
}

// Search keeps its own copy of the memories (terms included); it must see
// every change at once, in the table's order.
func TestSearchSeesEveryChange(t *testing.T) {
	s, _, _ := newEnv(t, false).open(t)
	ctx := t.Context()
	recent := func(step string) {
		t.Helper()
		list, err := s.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Search(ctx, "", 10)
		if err != nil || !slices.Equal(texts(got), texts(list)) {
			t.Errorf("%s: most recent = %q, %v; the table has %q", step, texts(got), err, texts(list))
		}
	}
	first := func(query string) string {
		t.Helper()
		got, err := s.Search(ctx, query, 3)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) == 0 {
			return ""
		}
		return got[0].Text
	}
	coffee, _, _ := s.Add(ctx, "사용자는 커피를 좋아한다", KindPreference, Reflected("s1"))
	budget, _, _ := s.Add(ctx, "예산은 1억원이다", KindFact, Reflected("s1"))
	s.Add(ctx, "이름은 철수", KindFact, Reflected("s1"))
	recent("after adding")

	if _, err := s.Edit(ctx, coffee.ID, "사용자는 녹차를 좋아한다", KindPreference); err != nil {
		t.Fatal(err)
	}
	if got := first("커피"); got != "" {
		t.Errorf("the old wording is still found: %q", got)
	}
	if got := first("녹차"); got != "사용자는 녹차를 좋아한다" {
		t.Errorf("the new wording is not found: %q", got)
	}
	recent("after editing")
	if _, created, _ := s.Add(ctx, "사용자는 녹차를 좋아한다", KindFact, ByHand()); created {
		t.Error("a restatement was added as a new memory")
	}
	recent("after a restatement")

	if err := s.Delete(ctx, budget.ID); err != nil {
		t.Fatal(err)
	}
	if got := first("예산"); got != "" {
		t.Errorf("a deleted memory is still found: %q", got)
	}
	recent("after deleting")
	if err := s.DeleteAll(ctx); err != nil {
		t.Fatal(err)
	}
	recent("after deleting all")
}

// TestReopenNeverReembeds: memories and vectors survive a restart, and the
// only /api/embed call after it is the search's own query.
func TestReopenNeverReembeds(t *testing.T) {
	e := newEnv(t, true)
	s, vec, closeFn := e.open(t)
	ctx := t.Context()
	for _, m := range []string{"사용자는 커피를 좋아한다", "예산은 1억원이다", "Uses Windows and a Mac"} {
		if _, _, err := s.Add(ctx, m, KindFact, Reflected("s1")); err != nil {
			t.Fatal(err)
		}
	}
	if n := vec.count(); n != 3 {
		t.Fatalf("%d vectors, want 3", n)
	}
	before, err := s.Search(ctx, "커피", 3)
	if err != nil {
		t.Fatal(err)
	}
	closeFn()
	embeds := e.srv.Count(ollamatest.PathEmbed)

	var err2 error
	if e.client, err2 = llm.New(e.srv.URL(), llm.WithRetry(0, 0)); err2 != nil { // a new process
		t.Fatal(err2)
	}
	s2, vec2, _ := e.open(t)
	if got := e.srv.Count(ollamatest.PathEmbed) - embeds; got != 0 {
		t.Fatalf("reopening made %d /api/embed calls", got)
	}
	if n := vec2.count(); n != 3 {
		t.Fatalf("%d vectors after reopen, want 3", n)
	}
	after, err := s2.Search(ctx, "커피", 3)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(texts(before), texts(after)); diff != "" {
		t.Errorf("search changed across restart:\n%s", diff)
	}
	if got := e.srv.Count(ollamatest.PathEmbed) - embeds; got != 1 {
		t.Errorf("/api/embed calls after reopen = %d, want 1 (the query)", got)
	}
}

func TestEditDeleteRemoveVectors(t *testing.T) {
	e := newEnv(t, true)
	s, vec, closeFn := e.open(t)
	ctx := t.Context()
	coffee, _, _ := s.Add(ctx, "사용자는 커피를 좋아한다", KindPreference, Reflected("s1"))
	budget, _, _ := s.Add(ctx, "예산은 1억원이다", KindFact, Reflected("s1"))
	name, _, _ := s.Add(ctx, "이름은 철수", KindFact, Reflected("s1"))

	edited, err := s.Edit(ctx, coffee.ID, "사용자는 녹차를 좋아한다", KindPreference)
	if err != nil || edited.Text != "사용자는 녹차를 좋아한다" {
		t.Fatalf("Edit = %+v, %v", edited, err)
	}
	hits, err := vec.query(ctx, "녹차", 1)
	if err != nil || len(hits) != 1 || hits[0].ID != coffee.ID || hits[0].Text != "사용자는 녹차를 좋아한다" {
		t.Fatalf("vector not updated by Edit: %+v, %v", hits, err)
	}
	if _, err := s.Edit(ctx, "nope", "x", KindFact); !errors.Is(err, ErrNotFound) {
		t.Errorf("Edit unknown: %v", err)
	}

	if err := s.Delete(ctx, budget.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, budget.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("second Delete: %v", err)
	}
	if diff := cmp.Diff(map[string]string{coffee.ID: "사용자는 녹차를 좋아한다", name.ID: "이름은 철수"}, vectorTexts(t, vec, coffee.ID, budget.ID, name.ID)); diff != "" {
		t.Errorf("vectors after Delete (-want +got):\n%s", diff)
	}
	if got, _ := s.Search(ctx, "예산", 3); slices.Contains(texts(got), "예산은 1억원이다") {
		t.Errorf("deleted memory still found: %q", texts(got))
	}

	if err := s.DeleteAll(ctx); err != nil {
		t.Fatal(err)
	}
	if all, _ := s.List(ctx); len(all) != 0 {
		t.Errorf("List after DeleteAll: %d", len(all))
	}
	if n := vec.count(); n != 0 {
		t.Errorf("vector count after DeleteAll: %d", n)
	}
	closeFn()
	// Nothing forgotten may linger on disk.
	assertNotOnDisk(t, e.vectorDir(), "커피", "녹차", "예산", "철수")
	if _, vec2, _ := e.open(t); vec2.count() != 0 {
		t.Errorf("vector count after DeleteAll and reopen: %d", vec2.count())
	}
}

// vectorTexts returns, for those of ids that have a vector, the text it was
// embedded from; it fails the test if other vectors exist.
func vectorTexts(t *testing.T, v *Vectors, ids ...string) map[string]string {
	t.Helper()
	v.mu.RLock()
	defer v.mu.RUnlock()
	out := map[string]string{}
	for _, id := range ids {
		if d, err := v.col.GetByID(t.Context(), id); err == nil {
			out[id] = d.Content
		}
	}
	if n := v.col.Count(); n != len(out) {
		t.Errorf("%d vectors, %d of them for the memories asked about", n, len(out))
	}
	return out
}

// assertNotOnDisk fails if any file under dir holds one of texts.
func assertNotOnDisk(t *testing.T, dir string, texts ...string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, gone := range texts {
			if bytes.Contains(raw, []byte(gone)) {
				t.Errorf("%s still holds %q", path, gone)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestOpenReconciles: a vector whose row is gone (say, a write from an older
// version, or a disk error) is deleted at start; a row without a vector, or
// with one made from other text, is embedded.
func TestOpenReconciles(t *testing.T) {
	tests := []struct {
		name    string
		keep    bool // whether one memory keeps its correct vector
		missing bool // whether one memory loses its vector
		stale   bool // whether one memory's vector is of older text
	}{
		{name: "orphan beside good vectors", keep: true, missing: true, stale: true},
		{name: "only orphans", missing: true},
		{name: "orphan alone"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, true)
			s, vec, closeFn := e.open(t)
			ctx := t.Context()
			want := map[string]string{}
			add := func(text string) string {
				m, _, err := s.Add(ctx, text, KindFact, ByHand())
				if err != nil {
					t.Fatal(err)
				}
				want[m.ID] = text
				return m.ID
			}
			if tt.keep {
				add("이름은 철수")
			}
			if tt.missing {
				if err := vec.remove(ctx, add("예산은 1억원이다")); err != nil {
					t.Fatal(err)
				}
			}
			if tt.stale {
				id := add("사용자는 녹차를 좋아한다")
				if err := vec.put(ctx, []vecDoc{{ID: id, Text: "사용자는 커피를 좋아한다"}}); err != nil {
					t.Fatal(err)
				}
			}
			if err := vec.put(ctx, []vecDoc{{ID: "orphan", Text: "숨겨진 기억"}}); err != nil {
				t.Fatal(err)
			}
			closeFn()

			_, vec2, _ := e.open(t)
			ids := append(slices.Collect(maps.Keys(want)), "orphan")
			if diff := cmp.Diff(want, vectorTexts(t, vec2, ids...)); diff != "" {
				t.Errorf("vectors after reconcile (-want +got):\n%s", diff)
			}
			assertNotOnDisk(t, e.vectorDir(), "숨겨진", "커피")
		})
	}
}

func TestSearchFallsBackWhenEmbeddingFails(t *testing.T) {
	e := newEnv(t, true)
	s, _, _ := e.open(t)
	ctx := t.Context()
	if _, _, err := s.Add(ctx, "사용자는 커피를 좋아한다", KindPreference, ByHand()); err != nil {
		t.Fatal(err)
	}
	e.srv.Fail(ollamatest.PathEmbed, -1, ollamatest.Fault{Kind: ollamatest.FaultHTTP500})
	got, err := s.Search(ctx, "커피", 3)
	if err != nil || len(got) != 1 {
		t.Fatalf("Search with Ollama failing = %q, %v", texts(got), err)
	}
	// Adding still works: the row is saved and the vector waits.
	if _, created, err := s.Add(ctx, "예산은 1억원이다", KindFact, ByHand()); err != nil || !created {
		t.Fatalf("Add with Ollama failing: %v, %v", created, err)
	}
}

func TestWithinBudget(t *testing.T) {
	mems := []Memory{{Text: "사용자는 커피를 좋아한다"}, {Text: "Prefers free tools"}, {Text: "이름은 철수"}}
	// 11 syllables + ceil(2 spaces/4) = 12, +4 per line = 16;
	// "Prefers free tools": ceil(18/4) = 5, +4 = 9, so 25 for both.
	tests := []struct {
		budget int
		want   int
	}{{0, 0}, {15, 0}, {16, 1}, {24, 1}, {25, 2}, {1000, 3}}
	for _, tt := range tests {
		if got := WithinBudget(mems, tt.budget); len(got) != tt.want {
			t.Errorf("WithinBudget(%d) kept %d, want %d", tt.budget, len(got), tt.want)
		}
	}
}

func TestTerms(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"커피를 좋아한다", []string{"커피", "피를", "좋아", "아한", "한다"}},
		{"커피", []string{"커피"}},
		{"Free AI tools!", []string{"free", "ai", "tool"}},
		{"차", []string{"차"}},
		{"책을 좋아함", []string{"책을", "책", "좋아", "아함"}},
	}
	for _, tt := range tests {
		var got []string
		for k := range terms(tt.in) {
			got = append(got, k)
		}
		slices.Sort(got)
		slices.Sort(tt.want)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("terms(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

// TestConcurrentAddsMerge: the same fact stated by two turns at once is
// remembered once.
func TestConcurrentAddsMerge(t *testing.T) {
	s, _, _ := newEnv(t, false).open(t)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, _, err := s.Add(t.Context(), "사용자는 커피를 좋아한다", KindPreference, Said("s")); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if all, _ := s.List(t.Context()); len(all) != 1 {
		t.Errorf("%d memories, want 1", len(all))
	}
}

// Changing the embedding model in Settings re-embeds every memory with the
// new model at once and drops the old model's vectors; the same model again
// changes nothing.
func TestUseEmbedModelReembeds(t *testing.T) {
	e := newEnv(t, true)
	s, vec, _ := e.open(t)
	ctx := t.Context()
	want := map[string]string{}
	for _, text := range []string{"사용자는 커피를 좋아한다", "예산은 1억원이다"} {
		m, _, err := s.Add(ctx, text, KindFact, ByHand())
		if err != nil {
			t.Fatal(err)
		}
		want[m.ID] = text
	}
	e.srv.AddModel(ollamatest.Model{Name: "nomic-embed-text", Capabilities: []string{"embedding"}})
	before := len(e.srv.EmbedRequests())
	if err := s.UseEmbedModel(ctx, "nomic-embed-text"); err != nil {
		t.Fatal(err)
	}
	var models []string
	for _, r := range e.srv.EmbedRequests()[before:] {
		models = append(models, r.Model)
	}
	if len(models) == 0 || slices.ContainsFunc(models, func(m string) bool { return m != "nomic-embed-text" }) {
		t.Errorf("embed calls after the switch used %v, want only nomic-embed-text", models)
	}
	if diff := cmp.Diff(want, vectorTexts(t, vec, slices.Collect(maps.Keys(want))...)); diff != "" {
		t.Errorf("vectors after the switch (-want +got):\n%s", diff)
	}
	if got := slices.Collect(maps.Keys(vec.db.ListCollections())); !cmp.Equal(got, []string{collectionPrefix + "nomic-embed-text"}) {
		t.Errorf("collections %v, want only the new model's", got)
	}
	hits, err := s.Search(ctx, "커피", 1)
	if err != nil || len(hits) != 1 || hits[0].Text != "사용자는 커피를 좋아한다" {
		t.Errorf("search after the switch: %v, %v", texts(hits), err)
	}
	n := len(e.srv.EmbedRequests())
	if err := s.UseEmbedModel(ctx, "nomic-embed-text"); err != nil || len(e.srv.EmbedRequests()) != n {
		t.Errorf("the same model again: %v, %d embed calls", err, len(e.srv.EmbedRequests())-n)
	}
}
