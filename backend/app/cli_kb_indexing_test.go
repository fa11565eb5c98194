package app

import (
	"slices"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// kb import says how far a large file's words are indexed after its
// chunks are stored (seconds of CPU at tens of megabytes, which said
// nothing before), at the start and at each quarter, in the command's
// language, its numbers grouped by thousands as the window writes them
// ("0 of 3,500 chunks"); a file of one page of chunks says nothing, nor
// does the end (the file's own line follows).
func TestKBImportSaysIndexing(t *testing.T) {
	ev := func(file string, indexed, chunks int) api.ImportProgress {
		return api.ImportProgress{File: file, Stage: "indexing", Indexed: indexed, Chunks: chunks}
	}
	events := []api.ImportProgress{
		ev("small.md", 0, 900), ev("small.md", 900, 900),
		ev("big.txt", 0, 3500), ev("big.txt", 500, 3500), ev("big.txt", 1000, 3500), ev("big.txt", 1500, 3500), ev("big.txt", 2000, 3500), ev("big.txt", 3000, 3500), ev("big.txt", 3500, 3500),
		ev("next.txt", 0, 1001), ev("next.txt", 1000, 1001), ev("next.txt", 1001, 1001),
	}
	for _, tc := range []struct {
		lang int
		want []string
	}{
		{langIndex("en"), []string{
			"big.txt indexing words: 0 of 3,500 chunks", "big.txt indexing words: 1,000 of 3,500 chunks",
			"big.txt indexing words: 2,000 of 3,500 chunks", "big.txt indexing words: 3,000 of 3,500 chunks",
			"next.txt indexing words: 0 of 1,001 chunks", "next.txt indexing words: 1,000 of 1,001 chunks",
		}},
		{langIndex("ko"), []string{
			"big.txt 단어 색인 중: 청크 3,500개 중 0개", "big.txt 단어 색인 중: 청크 3,500개 중 1,000개",
			"big.txt 단어 색인 중: 청크 3,500개 중 2,000개", "big.txt 단어 색인 중: 청크 3,500개 중 3,000개",
			"next.txt 단어 색인 중: 청크 1,001개 중 0개", "next.txt 단어 색인 중: 청크 1,001개 중 1,000개",
		}},
	} {
		var n indexNotes
		var got []string
		for _, p := range events {
			if l := n.line(p, tc.lang); l != "" {
				got = append(got, p.File+" "+l)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("lang %d: said\n%q\nwant\n%q", tc.lang, got, tc.want)
		}
	}
}

// A count is written with its thousands set apart, "34,796", in English
// and Korean, as the window writes it.
func TestCountsGroupThousands(t *testing.T) {
	for _, tt := range []struct {
		n      int
		en, ko string
	}{
		{0, "0 chunks", "청크 0개"},
		{1, "1 chunk", "청크 1개"},
		{999, "999 chunks", "청크 999개"},
		{1000, "1,000 chunks", "청크 1,000개"},
		{34796, "34,796 chunks", "청크 34,796개"},
		{1234567, "1,234,567 chunks", "청크 1,234,567개"},
		{-1234, "-1,234 chunks", "청크 -1,234개"},
	} {
		if en, ko := counted(tt.n, langIndex("en"), "chunk"), counted(tt.n, langIndex("ko"), "chunk"); en != tt.en || ko != tt.ko {
			t.Errorf("%d: %q, %q; want %q, %q", tt.n, en, ko, tt.en, tt.ko)
		}
	}
}
