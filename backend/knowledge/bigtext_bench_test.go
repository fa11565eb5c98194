package knowledge

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/knowledgetest"
)

// BenchmarkImportLargeText imports one large text file, English and
// Korean, into a fresh library: reading, chunking, storing and keyword
// indexing, as `kb import` does without an embedding model. Besides the
// time it reports the CPU time (the machine is shared: wall time depends
// on the neighbours), the bytes allocated, and on Linux the peak resident
// memory above the process's before the import.
//
// WAYFINDER_BIGTEXT_MB sets the size (default 8); WAYFINDER_BIGTEXT_DIR
// keeps the files there (en.txt, ko.txt) for `kb import` to be measured
// on the same text. The README's figures come from this benchmark run in
// this tree and in the parent commit's, built side by side.
func BenchmarkImportLargeText(b *testing.B) {
	mb := 8
	if v := os.Getenv("WAYFINDER_BIGTEXT_MB"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			b.Fatalf("WAYFINDER_BIGTEXT_MB=%q: want a number of megabytes", v)
		}
		mb = n
	}
	dir := os.Getenv("WAYFINDER_BIGTEXT_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	for _, lang := range []string{"en", "ko"} {
		b.Run(lang, func(b *testing.B) {
			path := filepath.Join(dir, lang+".txt")
			writeLargeText(b, path, lang, mb<<20)
			st, err := os.Stat(path)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(st.Size())
			b.ReportAllocs()
			var cpu, peak float64
			chunks := 0
			for i := 0; b.Loop(); i++ {
				b.StopTimer()
				kb := openBench(b, filepath.Join(b.TempDir(), fmt.Sprint(i)))
				runtime.GC()
				before, resetPeak := rssKB(b)
				b.StartTimer()
				start := knowledgetest.CPUTime()
				rep, err := kb.Import(context.Background(), []string{path}, nil)
				cpu += (knowledgetest.CPUTime() - start).Seconds()
				if err != nil || len(rep.Failed) > 0 {
					b.Fatal(err, rep.Failed)
				}
				if resetPeak {
					peak = max(peak, float64(knowledgetest.StatusKB(b, "VmHWM")-before)/1024)
				}
				chunks = rep.Chunks
			}
			b.ReportMetric(cpu/float64(b.N), "cpu-s/op")
			b.ReportMetric(float64(chunks), "chunks")
			if peak > 0 {
				b.ReportMetric(peak, "peak-MB-above")
			}
		})
	}
}

// writeLargeText writes n bytes of generated English or Korean text to
// path, unless a file of that size is there already.
func writeLargeText(b *testing.B, path, lang string, n int) {
	b.Helper()
	if st, err := os.Stat(path); err == nil && st.Size() >= int64(n) && st.Size() < int64(n)+1<<20 {
		return
	}
	var text string
	if lang == "en" {
		text = knowledgetest.LargeEnglish(n)
	} else {
		var err error
		if text, err = knowledgetest.LargeKorean(filepath.Join("testdata", "ko", "corpus.jsonl"), n); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		b.Fatal(err)
	}
}

// rssKB is the process's resident memory now, and whether its peak was
// reset to it (Linux: writing 5 to clear_refs), so that VmHWM afterwards
// is the peak of what follows.
func rssKB(b *testing.B) (int64, bool) {
	if runtime.GOOS != "linux" {
		return 0, false
	}
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		return 0, false
	}
	return knowledgetest.StatusKB(b, "VmRSS"), true
}
