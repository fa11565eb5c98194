package knowledge

import (
	"context"
	"maps"
	"path/filepath"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/store"
)

// A document's pages are named as a person finds them: a PowerPoint file's
// are slides, a PDF's pages. The unit goes from the import to the stored
// document, the import's progress, every search hit, its citation and the
// passage the reader opens.
func TestUnitThroughImportAndSearch(t *testing.T) {
	e := newEnv(t)
	b, _ := e.open()
	ctx := context.Background()
	tests := []struct {
		file, query string
		unit        string
		page        int
	}{
		{"importer/testdata/office/regulation.pptx", "등록금 납부", "slide", 2},
		{"testdata/library/hello.pdf", "revenue regions", "page", 1},
		{"importer/testdata/office/regulation.md", "등록금 납부", "page", 0},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.file), func(t *testing.T) {
			var done Progress
			if _, err := b.Import(ctx, []string{tt.file}, func(p Progress) {
				if p.Stage == StageDone {
					done = p
				}
			}); err != nil {
				t.Fatal(err)
			}
			if done.Unit != tt.unit {
				t.Errorf("progress unit %q, want %q (%+v)", done.Unit, tt.unit, done)
			}
			src, err := filepath.Abs(tt.file)
			if err != nil {
				t.Fatal(err)
			}
			hits, err := b.Search(ctx, tt.query, SearchOptions{Sources: []string{src}})
			if err != nil || len(hits) == 0 {
				t.Fatalf("search %q in %s: %v, %v", tt.query, src, hits, err)
			}
			h := hits[0]
			if h.Unit != tt.unit || h.Page != tt.page {
				t.Errorf("hit on %s %d, want %s %d", h.Unit, h.Page, tt.unit, tt.page)
			}
			if c := h.Citation(); c.Unit != tt.unit || c.Page != tt.page {
				t.Errorf("citation on %s %d, want %s %d", c.Unit, c.Page, tt.unit, tt.page)
			}
			p, err := b.Passage(ctx, "", h.ChunkID)
			if err != nil {
				t.Fatal(err)
			}
			if p.Doc.Unit != tt.unit {
				t.Errorf("passage's document unit %q, want %q", p.Doc.Unit, tt.unit)
			}
		})
	}
	docs, err := b.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	units := map[string]string{}
	for _, d := range docs {
		units[d.Kind] = d.Unit
	}
	if want := map[string]string{"pptx": "slide", "pdf": "page", "markdown": "page"}; !maps.Equal(units, want) {
		t.Errorf("listed units %v, want %v", units, want)
	}
}

// A database from before units were kept: its PowerPoint documents become
// slides (their kind says so), every other document keeps pages.
func TestMigrationGivesOldSlidesTheirUnit(t *testing.T) {
	e := newEnv(t)
	db, err := store.OpenDB(filepath.Join(e.dir, "wayfinder.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeDB(t, db) })
	if err := store.Migrate(t.Context(), db, MigrationSet, Migrations()[:2]); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	for _, r := range []struct{ id, kind string }{{"deck", "pptx"}, {"report", "pdf"}, {"notes", "markdown"}} {
		if err := db.Exec(`INSERT INTO kb_documents (id, record_id, source, title, kind, file_hash, file_size, pages, chunks, created_at, updated_at)
			VALUES (?, '', ?, ?, ?, '', 1, 3, 0, ?, ?)`, r.id, "/docs/"+r.id, r.id, r.kind, now, now).Error; err != nil {
			t.Fatal(err)
		}
	}
	b, err := Open(t.Context(), db, filepath.Join(e.dir, "knowledge"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	docs, err := b.List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	units := map[string]string{}
	for _, d := range docs {
		units[d.ID] = d.Unit
	}
	if want := map[string]string{"deck": "slide", "report": "page", "notes": "page"}; !maps.Equal(units, want) {
		t.Errorf("units after the migration %v, want %v", units, want)
	}
}
