package app

import (
	"slices"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// kb import says how far a large file's words are indexed after its
// chunks are stored (seconds of CPU at tens of megabytes, which said
// nothing before), at the start and at each quarter, in the command's
// language; a file of one page of chunks says nothing, nor does the end
// (the file's own line follows).
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
			"big.txt indexing words: 0 of 3500 chunks", "big.txt indexing words: 1000 of 3500 chunks",
			"big.txt indexing words: 2000 of 3500 chunks", "big.txt indexing words: 3000 of 3500 chunks",
			"next.txt indexing words: 0 of 1001 chunks", "next.txt indexing words: 1000 of 1001 chunks",
		}},
		{langIndex("ko"), []string{
			"big.txt 단어 색인 중: 청크 3500개 중 0개", "big.txt 단어 색인 중: 청크 3500개 중 1000개",
			"big.txt 단어 색인 중: 청크 3500개 중 2000개", "big.txt 단어 색인 중: 청크 3500개 중 3000개",
			"next.txt 단어 색인 중: 청크 1001개 중 0개", "next.txt 단어 색인 중: 청크 1001개 중 1000개",
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
