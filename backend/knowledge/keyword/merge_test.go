package keyword

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMergeIsAddInOrder: a batch merged into an index leaves it as the
// same documents added to it one by one would, byte for byte in its
// snapshot and hit for hit in its searches: into an empty index, one with
// documents, one with deleted documents not yet compacted, one a merge
// compacts, a batch with a document removed, and one that replaces a
// document of the index. The index is searched before the merge too, so
// that the loan-word table it built then must see the batch's new terms.
func TestMergeIsAddInOrder(t *testing.T) {
	type op struct {
		id, text string // text "" removes id
	}
	texts := []string{
		"홈 디렉터리에 설정 파일이 있습니다", "The computer reads the directory", "오류 메시지를 확인하세요",
		"protein expression regulates the cell", "컴퓨터 설정 방법과 문서", "connections relational database",
	}
	many := func(prefix string, n int) []op {
		var out []op
		for i := range n {
			out = append(out, op{fmt.Sprintf("%s%04d", prefix, i), fmt.Sprintf("%s word%d common %d", texts[i%len(texts)], i%37, i)})
		}
		return out
	}
	removeAll := func(ops []op) []op {
		var out []op
		for _, o := range ops {
			out = append(out, op{id: o.id})
		}
		return out
	}
	replace := func(ops []op) []op {
		var out []op
		for _, o := range ops {
			out = append(out, op{o.id, "replaced " + o.text})
		}
		return out
	}
	cases := []struct {
		name          string
		before, batch []op
	}{
		{"into an empty index", nil, many("b", 50)},
		{"after documents", many("a", 40), many("b", 50)},
		{"after deleted documents", append(many("a", 40), op{id: "a0003"}, op{id: "a0017"}), many("b", 50)},
		{"a merge that compacts", append(many("a", 3000), removeAll(many("a", 1000))...), append(many("b", 20), replace(many("a", 1100)[1000:])...)},
		{"a batch with a removal", many("a", 10), append(many("b", 30), op{id: "b0004"})},
		{"a batch that replaces", many("a", 10), append(many("b", 5), op{"a0002", "새로운 글 replaces the old text"})},
		{"an empty batch", many("a", 10), nil},
		{"new Latin words for a loan word", []op{{"k", "오류 메시지를 확인하세요"}, {"e", "the printer is out of paper"}}, []op{{"b", "The computer reads the directory"}}},
	}
	queries := []string{"컴퓨터", "디렉토리", "computer directory", "word5 common", "메세지가", "relational", "새로운"}
	apply := func(ix *Index, ops []op) {
		for _, o := range ops {
			if o.text == "" {
				ix.Remove(o.id)
			} else {
				ix.Add(o.id, o.text)
			}
		}
	}
	snapshot := func(ix *Index) []byte {
		p := filepath.Join(t.TempDir(), "snap")
		if err := ix.Save(p, "merge"); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := New(DefaultAnalyzer(), DefaultParams())
			apply(want, c.before)
			apply(want, c.batch)

			got := New(DefaultAnalyzer(), DefaultParams())
			apply(got, c.before)
			for _, q := range queries {
				got.Search(q, 5, nil) // builds the loan table of the terms before the merge
			}
			batch := got.NewBatch()
			// A removal of a document the index holds is no part of a
			// batch: it is applied to the index, as the import's swap does.
			for _, o := range c.batch {
				if _, ok := got.byID[o.id]; ok && o.text == "" {
					got.Remove(o.id)
				} else if o.text == "" {
					batch.Remove(o.id)
				} else {
					batch.Add(o.id, o.text)
				}
			}
			got.Merge(batch)
			// The merged documents are ix's own: removed by their ids.
			for _, o := range c.batch[:min(1, len(c.batch))] {
				got.Remove(o.id)
				want.Remove(o.id)
			}

			if got.Len() != want.Len() {
				t.Fatalf("Len = %d, want %d", got.Len(), want.Len())
			}
			for _, q := range queries {
				if g, w := got.Search(q, 10, nil), want.Search(q, 10, nil); !cmp.Equal(g, w) {
					t.Errorf("Search(%q) = %v, want %v", q, g, w)
				}
			}
			if g, w := snapshot(got), snapshot(want); !bytes.Equal(g, w) {
				t.Errorf("snapshot differs: %d bytes, want %d", len(g), len(w))
			}
			if batch.Len() != 0 || len(batch.postings) != 0 {
				t.Errorf("batch still holds %d documents, %d terms", batch.Len(), len(batch.postings))
			}
		})
	}
}
