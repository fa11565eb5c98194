package knowledge

import "testing"

func TestDocSet(t *testing.T) {
	s := newDocSet()
	docs := []struct{ id, source, kind string }{
		{"0190f0e6-4b1c-7d2a-9e1f-3c5d7a9b1e2f", "/a/notes.md", "markdown"},
		{"0190f0e6-4b1c-7d2a-9e1f-3c5d7a9b1e30", "/a/notes.md", "markdown"},
		{"0190f0e6-4b1c-7d2a-9e1f-3c5d7a9b1e31", CatalogSource, KindCatalog},
		{"legacy-id", "/b/r.jsonl", "json"},
		{"0190F0E6-4B1C-7D2A-9E1F-3C5D7A9B1E2F", "/c/upper.txt", "text"}, // not canonical: a different id
	}
	for _, d := range docs {
		s.add(d.id, d.source, d.kind)
	}
	for _, d := range docs {
		source, kind, ok := s.get(d.id)
		if !ok || source != d.source || kind != d.kind {
			t.Errorf("get(%q) = %q, %q, %v", d.id, source, kind, ok)
		}
		if s.isCatalog(d.id) != (d.kind == KindCatalog) {
			t.Errorf("isCatalog(%q) = %v", d.id, s.isCatalog(d.id))
		}
	}
	if len(s.groups) != 4 {
		t.Errorf("%d groups, want 4 (documents of one file share theirs)", len(s.groups))
	}
	s.remove([]string{docs[0].id, docs[2].id, "legacy-id", "never-added"})
	for i, d := range docs {
		_, _, ok := s.get(d.id)
		if want := i == 1 || i == 4; ok != want {
			t.Errorf("after remove, get(%q) found = %v", d.id, ok)
		}
	}
	if s.isCatalog(docs[2].id) {
		t.Error("a removed catalog document is still in the catalog set")
	}
	if got := docOf(docs[1].id + ":12"); got != docs[1].id {
		t.Errorf("docOf = %q", got)
	}
	if got := docOf("legacy-id:3"); got != "legacy-id" {
		t.Errorf("docOf of a legacy id = %q", got)
	}
}
