package memory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/backend/store"
)

// fakeEmbedder embeds in process with the fake Ollama's vectors and fails
// any call whose inputs contain failOn, counting the calls.
type fakeEmbedder struct {
	dim int

	mu     sync.Mutex
	failOn string
	calls  [][]string
}

func (f *fakeEmbedder) Embed(_ context.Context, _ string, inputs []string) ([][]float32, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, slices.Clone(inputs))
	out := make([][]float32, len(inputs))
	for i, in := range inputs {
		if f.failOn != "" && strings.Contains(in, f.failOn) {
			return nil, errors.New("embedding model unavailable")
		}
		out[i] = ollamatest.Vector(in, f.dim)
	}
	return out, nil
}

func (f *fakeEmbedder) setFailOn(s string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.failOn = s
}

// callsWith counts embedding calls with an input containing s.
func (f *fakeEmbedder) callsWith(s string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, c := range f.calls {
		if slices.ContainsFunc(c, func(in string) bool { return strings.Contains(in, s) }) {
			n++
		}
	}
	return n
}

// openWith opens a store in dir whose vectors come from f, with a clock the
// test moves.
func openWith(t testing.TB, dir string, f *fakeEmbedder) (*Store, *Vectors, *time.Time) {
	t.Helper()
	db := openDB(t, dir)
	vec, err := NewChromemVectors(filepath.Join(dir, "memory-vectors"), "bge-m3", f, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(context.Background(), db, vec, nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	s.now = func() time.Time { return now }
	return s, vec, &now
}

// TestSearchHealsMissingVectors: a memory added while embedding fails gets
// its vector from a later search, and failures are retried at most once per
// healRetry.
func TestSearchHealsMissingVectors(t *testing.T) {
	f := &fakeEmbedder{dim: 64}
	s, vec, now := openWith(t, t.TempDir(), f)
	ctx := t.Context()
	coffee, _, err := s.Add(ctx, "사용자는 커피를 좋아한다", KindPreference, ByHand())
	if err != nil {
		t.Fatal(err)
	}
	f.setFailOn("예산")
	budget, created, err := s.Add(ctx, "예산은 1억원이다", KindFact, ByHand())
	if err != nil || !created {
		t.Fatalf("Add while embedding fails: %v, %v", created, err)
	}
	if n := vec.count(); n != 1 {
		t.Fatalf("%d vectors, want 1 (the failed one missing)", n)
	}
	tries := f.callsWith("예산")

	for range 2 { // the first search tries and fails, the second waits
		if got, err := s.Search(ctx, "커피", 2); err != nil || len(got) == 0 {
			t.Fatalf("Search = %q, %v", texts(got), err)
		}
	}
	if got := f.callsWith("예산") - tries; got != 1 {
		t.Errorf("%d attempts to embed the missing memory within healRetry, want 1", got)
	}

	f.setFailOn("")
	*now = now.Add(healRetry)
	if _, err := s.Search(ctx, "커피", 2); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{coffee.ID: coffee.Text, budget.ID: budget.Text}
	if diff := cmp.Diff(want, vectorTexts(t, vec, coffee.ID, budget.ID)); diff != "" {
		t.Errorf("missing vector not healed (-want +got):\n%s", diff)
	}
}

// TestEditFailureDropsOldVector: when the new wording cannot be embedded,
// the vector of the old wording goes, so it cannot answer for the memory;
// a later search embeds the new wording.
func TestEditFailureDropsOldVector(t *testing.T) {
	f := &fakeEmbedder{dim: 64}
	s, vec, _ := openWith(t, t.TempDir(), f)
	ctx := t.Context()
	m, _, err := s.Add(ctx, "사용자는 커피를 좋아한다", KindPreference, ByHand())
	if err != nil {
		t.Fatal(err)
	}
	f.setFailOn("녹차")
	if _, err := s.Edit(ctx, m.ID, "사용자는 녹차를 좋아한다", KindPreference); err != nil {
		t.Fatal(err)
	}
	if n := vec.count(); n != 0 {
		t.Fatalf("%d vectors after a failed re-embedding, want 0", n)
	}
	f.setFailOn("")
	got, err := s.Search(ctx, "녹차", 1)
	if err != nil || len(got) != 1 || got[0].ID != m.ID {
		t.Fatalf("Search = %q, %v", texts(got), err)
	}
	if v := vectorTexts(t, vec, m.ID); v[m.ID] != "사용자는 녹차를 좋아한다" {
		t.Errorf("vector after heal: %v", v)
	}
}

// TestModelChangeReembeds: opening with another embedding model drops the
// old vectors and embeds every memory once with the new model; the next
// restart embeds nothing.
func TestModelChangeReembeds(t *testing.T) {
	e := newEnv(t, true)
	s, _, closeFn := e.open(t)
	ctx := t.Context()
	for _, m := range []string{"사용자는 커피를 좋아한다", "예산은 1억원이다", "Uses Windows and a Mac"} {
		if _, _, err := s.Add(ctx, m, KindFact, ByHand()); err != nil {
			t.Fatal(err)
		}
	}
	closeFn()
	e.srv.AddModel(ollamatest.Model{Name: "nomic-embed-text", Capabilities: []string{"embedding"}})
	e.model = "nomic-embed-text"

	seen := len(e.srv.Requests())
	s2, vec2, closeFn2 := e.open(t)
	inputs := map[string]int{}
	for _, r := range e.srv.Requests()[seen:] {
		if r.Path != ollamatest.PathEmbed {
			continue
		}
		var req struct {
			Model string
			Input []string
		}
		if err := json.Unmarshal(r.Body, &req); err != nil {
			t.Fatal(err)
		}
		inputs[req.Model] += len(req.Input)
	}
	if inputs["nomic-embed-text"] != 3 || len(inputs) != 1 {
		t.Errorf("inputs embedded per model on reopen: %v, want 3 with nomic-embed-text", inputs)
	}
	if n := vec2.count(); n != 3 {
		t.Errorf("%d vectors with the new model, want 3", n)
	}
	dirs, err := os.ReadDir(e.vectorDir())
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) != 1 {
		t.Errorf("%d collection folders, want 1 (the old model's deleted)", len(dirs))
	}
	if got, err := s2.Search(ctx, "커피", 1); err != nil || len(got) != 1 || got[0].Text != "사용자는 커피를 좋아한다" {
		t.Errorf("Search with the new model = %q, %v", texts(got), err)
	}
	closeFn2()

	embeds := e.srv.Count(ollamatest.PathEmbed)
	e.open(t)
	if got := e.srv.Count(ollamatest.PathEmbed) - embeds; got != 0 {
		t.Errorf("reopening with the same model made %d /api/embed calls", got)
	}
}

// TestUnreadableVectorsRebuilt: a vector file cut short (a crash during
// chromem's in-place write) must not disable vector search for good; the
// folder is rebuilt from the rows.
func TestUnreadableVectorsRebuilt(t *testing.T) {
	dir := t.TempDir()
	f := &fakeEmbedder{dim: 64}
	s, _, _ := openWith(t, dir, f)
	m, _, err := s.Add(t.Context(), "사용자는 커피를 좋아한다", KindPreference, ByHand())
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "memory-vectors", "*", "*.gob"))
	if err != nil || len(files) != 2 { // the collection's metadata and the memory
		t.Fatalf("vector files %q, %v", files, err)
	}
	for _, file := range files {
		if err := os.Truncate(file, 5); err != nil {
			t.Fatal(err)
		}
	}

	_, vec, _ := openWith(t, dir, f)
	if diff := cmp.Diff(map[string]string{m.ID: m.Text}, vectorTexts(t, vec, m.ID)); diff != "" {
		t.Errorf("vectors after rebuild (-want +got):\n%s", diff)
	}
}

func TestNewChromemVectorsRefuses(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	f := &fakeEmbedder{dim: 8}
	tests := []struct {
		name, dir, model string
		e                Embedder
	}{
		{"no model", t.TempDir(), "", f},
		{"no embedder", t.TempDir(), "bge-m3", nil},
		{"dir is a file", file, "bge-m3", f},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := NewChromemVectors(tt.dir, tt.model, tt.e, nil); err == nil {
				t.Error("no error")
			}
		})
	}
}

// seedMemories writes n memories straight into the table; Open then embeds
// them all in one reconcile.
func seedMemories(b *testing.B, dir string, n int) {
	b.Helper()
	db, err := store.OpenDB(filepath.Join(dir, "wayfinder.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		if sqlDB, err := db.DB(); err == nil {
			sqlDB.Close()
		}
	}()
	if err := Migrate(b.Context(), db); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	topics := []string{"커피", "녹차", "예산", "마감일", "영상 편집", "번역", "Python", "free tools", "Windows", "회의록"}
	rows := make([]memoryRow, n)
	now := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	for i := range rows {
		text := fmt.Sprintf("사용자 메모 %d: %s 관련 선호 %d", i, topics[rng.IntN(len(topics))], rng.IntN(1000))
		rows[i] = memoryRow{ID: store.NewID(), Text: text, Norm: normalize(text), Kind: string(KindFact), CreatedAt: now, UpdatedAt: now}
	}
	if err := db.CreateInBatches(rows, 200).Error; err != nil {
		b.Fatal(err)
	}
}

// BenchmarkSearch is the per-turn memory lookup: keyword ranking over every
// row fused with a chromem query, at bge-m3's 1024 dimensions.
func BenchmarkSearch(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("memories=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			seedMemories(b, dir, n)
			s, vec, _ := openWith(b, dir, &fakeEmbedder{dim: 1024})
			if vec.count() != n {
				b.Fatalf("%d vectors, want %d", vec.count(), n)
			}
			for b.Loop() {
				if _, err := s.Search(b.Context(), "커피 좋아해?", 5); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkReopen is the start-up cost: chromem reads one file per memory,
// then Open checks every row against the vectors (no embedding).
func BenchmarkReopen(b *testing.B) {
	dir := b.TempDir()
	seedMemories(b, dir, 1000)
	f := &fakeEmbedder{dim: 1024}
	openWith(b, dir, f)
	calls := f.callsWith("")
	for b.Loop() {
		openWith(b, dir, f)
	}
	if got := f.callsWith("") - calls; got != 0 {
		b.Fatalf("reopening embedded %d times", got)
	}
}

// BenchmarkVectorsQuery is the chromem half of Search alone: embedding the
// query in process and an exhaustive search of 1000 memories.
func BenchmarkVectorsQuery(b *testing.B) {
	dir := b.TempDir()
	seedMemories(b, dir, 1000)
	_, vec, _ := openWith(b, dir, &fakeEmbedder{dim: 1024})
	for b.Loop() {
		if hits, err := vec.query(b.Context(), "커피 좋아해?", 5); err != nil || len(hits) != 5 {
			b.Fatal(len(hits), err)
		}
	}
}
