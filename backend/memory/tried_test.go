package memory

import (
	"context"
	"log/slog"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gorm.io/gorm"

	"github.com/wayfinder-app/wayfinder/backend/store"
)

// A run that tries another embedding model (OpenInDataDir's saved) embeds
// the memories into a collection of its own and leaves the saved model's
// as it was, but for what the run rewords or forgets (gone from it at
// once, so that no forgotten text stays in the folder): the next run with
// the saved model embeds only the reworded memories, finds the forgotten
// ones gone from its vectors too, and deletes the tried model's.
func TestTriedModelKeepsSavedVectors(t *testing.T) {
	tests := []struct {
		name    string
		change  func(ctx context.Context, s *Store, ids []string) error
		embeds  []string // texts the next run with the saved model embeds
		vectors int      // memories with a vector then
		during  int      // collections in the tried run
		kept    int      // saved model's vectors left in the tried run
	}{
		{"nothing changed", func(context.Context, *Store, []string) error { return nil }, nil, 3, 2, 3},
		{"one reworded", func(ctx context.Context, s *Store, ids []string) error {
			_, err := s.Edit(ctx, ids[0], "사용자는 녹차를 좋아한다", KindPreference)
			return err
		}, []string{"사용자는 녹차를 좋아한다"}, 3, 2, 2},
		{"one forgotten", func(ctx context.Context, s *Store, ids []string) error { return s.Delete(ctx, ids[1]) }, nil, 2, 2, 2},
		{"all forgotten", func(ctx context.Context, s *Store, _ []string) error { return s.DeleteAll(ctx) }, nil, 0, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			dir := t.TempDir()
			db := openDB(t, dir)
			open := func(model string) (*Store, *fakeEmbedder) {
				t.Helper()
				f := &fakeEmbedder{dim: 32}
				s, err := OpenInDataDir(ctx, db, dir, model, "bge-m3", f, nil)
				if err != nil {
					t.Fatal(err)
				}
				return s, f
			}
			s, _ := open("bge-m3")
			var ids []string
			for _, text := range []string{"사용자는 커피를 좋아한다", "예산은 1억원이다", "Uses Windows and a Mac"} {
				m, _, err := s.Add(ctx, text, KindFact, ByHand())
				if err != nil {
					t.Fatal(err)
				}
				ids = append(ids, m.ID)
			}

			tried, f := open("nomic-embed-text")
			if len(f.calls) == 0 {
				t.Fatal("the tried model embedded nothing")
			}
			if err := tt.change(ctx, tried, ids); err != nil {
				t.Fatal(err)
			}
			// What the run rewords or forgets is gone from the saved
			// model's vectors at once, not at its next run: a forgotten
			// text must not stay in the folder.
			kept := 0
			if tried.vec.Load().kept != nil {
				kept = tried.vec.Load().kept.Count()
			}
			if kept != tt.kept {
				t.Errorf("the saved model's collection holds %d memories in the tried run, want %d", kept, tt.kept)
			}
			if n := collections(t, dir); n != tt.during {
				t.Errorf("%d collections in the tried run, want %d", n, tt.during)
			}

			back, f := open("bge-m3")
			var embedded []string
			for _, c := range f.calls {
				embedded = append(embedded, c...)
			}
			slices.Sort(embedded)
			if diff := cmp.Diff(tt.embeds, embedded); diff != "" {
				t.Errorf("embedded by the next run with the saved model (-want +got):\n%s", diff)
			}
			if n := back.vec.Load().count(); n != tt.vectors {
				t.Errorf("%d memories with a vector of the saved model, want %d", n, tt.vectors)
			}
			if n := collections(t, dir); n != 1 {
				t.Errorf("%d collections after the run with the saved model, want 1", n)
			}
		})
	}
}

// openDB opens the database of the data folder dir, closed when the test
// ends.
func openDB(t testing.TB, dir string) *gorm.DB {
	t.Helper()
	db, err := store.OpenDB(filepath.Join(dir, "wayfinder.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if sqlDB, err := db.DB(); err == nil {
			sqlDB.Close()
		}
	})
	return db
}

// collections counts the chromem collections (a folder each) of the data
// folder dir.
func collections(t *testing.T, dir string) int {
	t.Helper()
	db, err := openChromem(filepath.Join(dir, "memory"), slog.Default())
	if err != nil {
		t.Fatal(err)
	}
	return len(db.ListCollections())
}

// TestTriedModelThatCannotEmbedDropsOldWording: a model tried for one run
// is the one most likely not to embed (not pulled, Ollama down). A memory
// reworded then must still lose the saved model's vector of its old
// wording, on disk, though the tried model made no vector of the new one;
// a memory put again as it was keeps it.
func TestTriedModelThatCannotEmbedDropsOldWording(t *testing.T) {
	tests := []struct {
		name string
		text string // what the tried run puts for the memory
		kept int    // saved model's vectors left, read again from disk
	}{
		{"reworded", "사용자는 녹차를 좋아한다", 0},
		{"unchanged", "사용자는 커피를 좋아한다", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			dir := filepath.Join(t.TempDir(), "memory")
			saved, err := newVectors(dir, "bge-m3", "", &fakeEmbedder{dim: 32}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := saved.put(ctx, []vecDoc{{ID: "m1", Text: "사용자는 커피를 좋아한다"}}); err != nil {
				t.Fatal(err)
			}
			failing := &fakeEmbedder{dim: 32}
			failing.setFailOn("사용자")
			tried, err := newVectors(dir, "nomic-embed-text", "bge-m3", failing, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := tried.put(ctx, []vecDoc{{ID: "m1", Text: tt.text}}); err == nil {
				t.Fatal("put with a model that cannot embed succeeded")
			}
			again, err := openChromem(dir, slog.Default())
			if err != nil {
				t.Fatal(err)
			}
			kept := again.GetCollection(collectionPrefix+"bge-m3", refuseEmbedding)
			if kept == nil {
				t.Fatal("the saved model's collection is gone")
			}
			if n := kept.Count(); n != tt.kept {
				t.Errorf("the saved model's collection holds %d memories on disk, want %d", n, tt.kept)
			}
		})
	}
}

// Ollama resolves "bge-m3" and "bge-m3:latest" to one model: a run whose
// model, or saved model, is another spelling of the one the memories were
// embedded with (typed so in Settings or with --embed-model) keeps their
// vectors, embeds nothing and is no tried run; another model is.
func TestModelSpellingsKeepVectors(t *testing.T) {
	tests := []struct {
		name         string
		model, saved string // the next run's (OpenInDataDir)
		use          string // then UseEmbedModel with this ("" none)
		embeds       int    // memories embedded again
		collections  int
	}{
		{"same names", "bge-m3", "bge-m3", "", 0, 1},
		{"run with :latest", "bge-m3:latest", "bge-m3", "", 0, 1},
		{"saved with :latest", "BGE-M3", "bge-m3:latest", "", 0, 1},
		{"both with :latest", "bge-m3:latest", "bge-m3:latest", "", 0, 1},
		{"Settings saved with :latest", "bge-m3", "bge-m3", "bge-m3:latest", 0, 1},
		{"another model tried", "nomic-embed-text", "bge-m3:latest", "", 3, 2},
		{"another model saved", "bge-m3", "bge-m3", "nomic-embed-text", 3, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			dir := t.TempDir()
			db := openDB(t, dir)
			first, err := OpenInDataDir(ctx, db, dir, "bge-m3", "bge-m3", &fakeEmbedder{dim: 32}, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, text := range []string{"사용자는 커피를 좋아한다", "예산은 1억원이다", "Uses Windows and a Mac"} {
				if _, _, err := first.Add(ctx, text, KindFact, ByHand()); err != nil {
					t.Fatal(err)
				}
			}

			f := &fakeEmbedder{dim: 32}
			next, err := OpenInDataDir(ctx, db, dir, tt.model, tt.saved, f, nil)
			if err != nil {
				t.Fatal(err)
			}
			if tt.use != "" {
				if err := next.UseEmbedModel(ctx, tt.use); err != nil {
					t.Fatal(err)
				}
			}
			embedded := 0
			for _, c := range f.calls {
				embedded += len(c)
			}
			if embedded != tt.embeds {
				t.Errorf("%d memories embedded again (%v), want %d", embedded, f.calls, tt.embeds)
			}
			if n := next.vec.Load().count(); n != 3 {
				t.Errorf("%d memories with a vector, want 3", n)
			}
			if n := collections(t, dir); n != tt.collections {
				t.Errorf("%d collections, want %d", n, tt.collections)
			}
		})
	}
}

// What a tried run forgets or rewords leaves the saved model's collection
// with a context already cancelled too (Stop pressed, the app shutting
// down): chromem-go v0.7.0 ignores the context of Delete and GetByID, so
// the chunk mirror's WithoutCancel (vector.Mirror) is not needed here.
// This fails first if an upgrade makes them honour it (a check of ctx
// before each kept Delete fails both cases). Were a change lost all the
// same, the next run with the saved model would not trust it as chunks
// would: Open's sync deletes the vectors of memories gone and embeds
// again those made from other text.
func TestTriedRunForgetsPastCancel(t *testing.T) {
	tests := []struct {
		name   string
		change func(ctx context.Context, v *Vectors) error
	}{
		{"forgotten", func(ctx context.Context, v *Vectors) error { return v.remove(ctx, "m1") }},
		{"reworded", func(ctx context.Context, v *Vectors) error {
			return v.put(ctx, []vecDoc{{ID: "m1", Text: "사용자는 녹차를 좋아한다"}})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "memory")
			saved, err := newVectors(dir, "bge-m3", "", &fakeEmbedder{dim: 32}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := saved.put(t.Context(), []vecDoc{{ID: "m1", Text: "사용자는 커피를 좋아한다"}}); err != nil {
				t.Fatal(err)
			}
			tried, err := newVectors(dir, "nomic-embed-text", "bge-m3", &fakeEmbedder{dim: 32}, nil)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(t.Context())
			cancel()
			_ = tt.change(ctx, tried) // the tried model's own part may fail
			again, err := openChromem(dir, slog.Default())
			if err != nil {
				t.Fatal(err)
			}
			if n := again.GetCollection(collectionPrefix+"bge-m3", refuseEmbedding).Count(); n != 0 {
				t.Errorf("the saved model's collection keeps %d vectors of the old text on disk", n)
			}
		})
	}
}

// Settings' "None (keyword search only)" saves no embedding model: the next
// start opens the memories without vectors and finds them by their words,
// where it failed ("open memory vectors: no embedding model") and
// Wayfinder did not start at all. Memories embedded before stay searchable.
func TestOpenWithoutEmbedModel(t *testing.T) {
	tests := []struct {
		name         string
		model, saved string
		before       bool // a run with bge-m3 added the memories (else this one does)
	}{
		{"none saved, memories embedded before", "", "", true},
		{"none saved, a first run", "", "", false},
		{"spaces only", "  ", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			dir := t.TempDir()
			db := openDB(t, dir)
			texts := []string{"사용자는 커피를 좋아한다", "Uses Windows and a Mac"}
			add := func(s *Store) {
				for _, text := range texts {
					if _, _, err := s.Add(ctx, text, KindFact, ByHand()); err != nil {
						t.Fatal(err)
					}
				}
			}
			if tt.before {
				first, err := OpenInDataDir(ctx, db, dir, "bge-m3", "bge-m3", &fakeEmbedder{dim: 32}, nil)
				if err != nil {
					t.Fatal(err)
				}
				add(first)
			}
			f := &fakeEmbedder{dim: 32}
			s, err := OpenInDataDir(ctx, db, dir, tt.model, tt.saved, f, nil)
			if err != nil {
				t.Fatalf("open with no embedding model: %v", err)
			}
			if !tt.before {
				add(s)
			}
			hits, err := s.Search(ctx, "커피", 1)
			if err != nil || len(hits) != 1 || hits[0].Text != texts[0] {
				t.Errorf("search by words: %v, %v", hits, err)
			}
			if len(f.calls) != 0 {
				t.Errorf("embedded %v with no embedding model", f.calls)
			}
		})
	}
}
