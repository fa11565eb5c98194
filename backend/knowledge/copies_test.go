package knowledge

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCopiesAreOneHit: a file imported from a folder under two names with
// the same bytes ("report.txt" and "report (1).txt") gives its passages
// once, whichever name ranks first; the other copy still answers once the
// first is removed, and both answer once one of them changes.
func TestCopiesAreOneHit(t *testing.T) {
	ctx := context.Background()
	b := openSmallChunks(t, 120)
	var sb strings.Builder
	for _, team := range []string{"재무팀", "인사팀", "영업팀", "기획팀", "총무팀", "연구팀", "법무팀", "홍보팀"} {
		sb.WriteString("분기 예산 집행 보고서는 " + team + "이 매월 검토한다. ")
	}
	report := sb.String()
	dir := writeFiles(t, map[string]string{
		"report.txt":     report,
		"report (1).txt": report,
		"memo.txt":       "예산 집행 보고서 검토 회의는 목요일에 열린다.",
	})
	if _, err := b.Import(ctx, []string{dir}, nil); err != nil {
		t.Fatal(err)
	}
	search := func(perDoc int) []Hit {
		t.Helper()
		hits, err := b.Search(ctx, "예산 집행 보고서 검토", SearchOptions{TopK: 10, PerDoc: perDoc})
		if err != nil {
			t.Fatal(err)
		}
		return hits
	}
	reports := func(hits []Hit) (names []string) {
		for _, h := range hits {
			if n := filepath.Base(h.Source); strings.HasPrefix(n, "report") {
				names = append(names, n)
			}
		}
		slices.Sort(names)
		return slices.Compact(names)
	}

	hits := search(0)
	if got := reports(hits); len(got) != 1 || got[0] != "report.txt" {
		t.Fatalf("two copies: reports %v in %v, want report.txt, the name the copy was made from", got, hitSources(hits))
	}
	for _, h := range hits {
		want := ""
		if filepath.Base(h.Source) == "report.txt" {
			want = filepath.Join(dir, "report (1).txt")
		}
		var got string
		for _, c := range h.Copies {
			if c.DocID == h.DocID || c.DocID == "" {
				t.Errorf("%s names itself or no document as its copy: %+v", filepath.Base(h.Source), c)
			}
			got += c.Source
		}
		if got != want {
			t.Errorf("two copies: %s names copies %+v, want %q", filepath.Base(h.Source), h.Copies, want)
		}
	}
	if !slices.Contains(hitSources(hits), "memo.txt") {
		t.Errorf("two copies: %v, want the memo after the report", hitSources(hits))
	}
	every := search(-1) // every passage, each once
	texts := map[string]bool{}
	for _, h := range every {
		if texts[h.Text] {
			t.Errorf("no limit per document: the passage %q twice in %v", h.Text, hitSources(every))
		}
		texts[h.Text] = true
	}
	if got := reports(every); len(got) != 1 {
		t.Errorf("no limit per document: reports %v, want passages of one copy", got)
	}
	two := search(2)
	if n := len(two) - 1; n != 2 || len(reports(two)) != 1 {
		t.Errorf("two per document: %v, want two passages of one copy and the memo", hitSources(two))
	}

	// The copy shown goes away: the other is found.
	shown := hits[0].Source
	if _, err := b.RemoveSource(ctx, shown); err != nil {
		t.Fatal(err)
	}
	if got := reports(search(0)); len(got) != 1 || got[0] == filepath.Base(shown) {
		t.Fatalf("after removing %s: reports %v, want the other copy", filepath.Base(shown), got)
	}

	// Imported again, then one changed: two files, two hits.
	if _, err := b.Import(ctx, []string{dir}, nil); err != nil {
		t.Fatal(err)
	}
	if got := reports(search(0)); len(got) != 1 {
		t.Fatalf("imported again: reports %v, want one", got)
	}
	writeIn(t, dir, "report (1).txt", report+"\n\n수정: 예산 집행 보고서 검토 일정이 바뀌었다.")
	if _, err := b.Import(ctx, []string{dir}, nil); err != nil {
		t.Fatal(err)
	}
	if got := reports(search(0)); len(got) != 2 {
		t.Errorf("one copy changed: reports %v, want both", got)
	}
}

// TestCopiesOfRecords: the records of two copies of a JSON Lines file are
// paired by their ids, and records without an id by their title (an
// untitled one's place: "notes #2" and "notes copy #2") and text; each hit
// names the record's copy. Records of one file are never taken for copies
// of each other, not even with the same title or text, and where a file
// repeats a record (its id, or its title and text, twice) its copies are
// not told apart and all are shown.
func TestCopiesOfRecords(t *testing.T) {
	tests := []struct {
		name   string
		lines  string
		want   int // hits for the query
		copied int // of them, those naming a copy
	}{
		{"records with ids: one hit each", `{"id":"a","text":"휴가 신청 절차"}` + "\n" + `{"id":"b","text":"휴가 신청 양식"}` + "\n", 2, 2},
		{"same title, no id: by the text", `{"title":"메모","text":"휴가 신청 절차"}` + "\n" + `{"title":"메모","text":"휴가 신청 양식"}` + "\n", 2, 2},
		{"no title, no id: by the place", `{"text":"휴가 신청 절차"}` + "\n" + `{"text":"휴가 신청 절차"}` + "\n" + `{"body":"휴가 신청 양식"}` + "\n", 3, 3},
		{"same title and text, no id, twice in the file: all", `{"title":"메모","text":"휴가 신청 절차"}` + "\n" + `{"title":"메모","text":"휴가 신청 절차"}` + "\n", 4, 0},
		{"one id twice in the file: all", `{"id":"a","text":"휴가 신청 절차"}` + "\n" + `{"id":"a","text":"휴가 신청 양식"}` + "\n", 4, 0},
		{"no id, longer than maxRecordChunks: not compared", `{"title":"메모","text":"` + strings.Repeat("휴가 신청 절차를 안내합니다. ", 700) + `"}` + "\n", 2, 0},
		{"same title and text, two ids: both", `{"id":"a","title":"메모","text":"휴가 신청 절차"}` + "\n" + `{"id":"b","title":"메모","text":"휴가 신청 절차"}` + "\n", 2, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			b := openSmallChunks(t, 120)
			dir := writeFiles(t, map[string]string{"notes.jsonl": tt.lines, "notes copy.jsonl": tt.lines})
			if _, err := b.Import(ctx, []string{dir}, nil); err != nil {
				t.Fatal(err)
			}
			hits, err := b.Search(ctx, "휴가 신청", SearchOptions{TopK: 10})
			if err != nil {
				t.Fatal(err)
			}
			copied := 0
			for _, h := range hits {
				if len(h.Copies) == 0 {
					continue
				}
				copied++
				if shown, other := filepath.Base(h.Source), filepath.Base(h.Copies[0].Source); len(h.Copies) != 1 || shown != "notes.jsonl" || other != "notes copy.jsonl" {
					t.Errorf("%s %q: copies %+v, want notes.jsonl naming notes copy.jsonl", shown, h.Title, h.Copies)
				}
			}
			if len(hits) != tt.want || copied != tt.copied {
				t.Errorf("%d hits, %d naming a copy; want %d, %d:", len(hits), copied, tt.want, tt.copied)
				for _, h := range hits {
					t.Logf("  %s %s %q %q %v", filepath.Base(h.Source), h.RecordID, h.Title, h.Text, h.Copies)
				}
			}
		})
	}
}

// TestLimitPerDocShowsTheOriginal: of copies, a hit shows the one
// copiesOf picks (the shortest name, then the first added) where its same
// chunk is a candidate too, whichever copy ranked first; else the copy
// that ranked.
func TestLimitPerDocShowsTheOriginal(t *testing.T) {
	copies := copySet{
		key:     map[string]string{"orig": "K", "copy1": "K", "copy2": "K"},
		shown:   map[string]string{"K": "orig"},
		members: map[string][]string{"K": {"orig", "copy1", "copy2"}},
	}
	tests := []struct {
		name   string
		ranked []string
		perDoc int
		want   []string // each match, and after "+" the copies it names
	}{
		{"the copy ranked first", []string{"copy1:0", "orig:0", "memo:0"}, 1, []string{"orig:0+copy1,copy2", "memo:0"}},
		{"two passages of the copies", []string{"copy2:1", "copy1:0", "orig:1", "orig:0"}, 2, []string{"orig:1+copy1,copy2", "orig:0+copy1,copy2"}},
		{"the original's chunk not a candidate", []string{"copy1:3", "memo:0"}, 1, []string{"copy1:3+orig,copy2", "memo:0"}},
		{"no copies", []string{"memo:0", "memo:1", "note:0"}, 1, []string{"memo:0", "note:0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms := make([]match, len(tt.ranked))
			for i, id := range tt.ranked {
				ms[i] = match{Ranked: Ranked{ID: id, Score: float64(len(tt.ranked) - i)}}
			}
			var got []string
			for _, m := range limitPerDoc(ms, 10, tt.perDoc, copies) {
				if len(m.copies) > 0 {
					m.ID += "+" + strings.Join(m.copies, ",")
				}
				got = append(got, m.ID)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
