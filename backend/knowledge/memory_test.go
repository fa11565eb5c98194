package knowledge

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/flate"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer/hwptest"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/knowledgetest"
)

// memoryChildEnv makes the test binary, run again, act as the child of
// TestLargeTextMemory, TestOfficeBombMemory or TestHWPBombMemory: it imports the file named
// by the variable.
const memoryChildEnv = "WAYFINDER_KNOWLEDGE_MEMORY_CHILD"

// TestLargeTextMemory imports a large text file in a child process, as
// the app imports it, and checks what the process's memory did: the peak
// stays within the 512 MB budget of one file above the idle process, and
// afterwards the process holds little more than the keyword index of the
// new chunks (the reading buffers and batches were given back).
func TestLargeTextMemory(t *testing.T) {
	if asChild(t, func(rep Report) bool { return len(rep.Imported) == 1 }) {
		return
	}
	const mb = 32
	path := filepath.Join(t.TempDir(), "large.txt")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i, n := 0, 0; n < mb<<20; i++ {
		k, _ := fmt.Fprintf(w, "문단 %d: 한국어 문서를 읽습니다. Wayfinder reads paragraph %d of a very large text file in blocks, word%d and 낱말%d.\n\n", i, i, i%50000, i%30000)
		n += k
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	idle, peak, after, chunks := memoryOf(t, "TestLargeTextMemory", path)
	if chunks == 0 {
		t.Fatal("the child imported nothing")
	}
	t.Logf("%d MB file, %d chunks: idle %d MB, peak %d MB (+%d MB), after %d MB (+%d MB)",
		mb, chunks, idle>>10, peak>>10, (peak-idle)>>10, after>>10, (after-idle)>>10)
	if peak-idle > 512<<10 {
		t.Errorf("peak is %d MB above idle, want at most 512 MB", (peak-idle)>>10)
	}
	if after-idle > 80<<10 {
		t.Errorf("after the file the process holds %d MB more than idle: memory not given back", (after-idle)>>10)
	}
}

// memoryOf runs test again in a child process that imports path, and
// returns what the child's memory did (kB) and the chunks it imported.
func memoryOf(t *testing.T, test, path string) (idle, peak, after, chunks int64) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.v")
	cmd.Env = append(os.Environ(), memoryChildEnv+"="+path)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	got := map[string]int64{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if _, rest, ok := strings.Cut(sc.Text(), "MEMORY "); ok {
			for _, kv := range strings.Fields(rest) {
				k, v, _ := strings.Cut(kv, "=")
				got[k], _ = strconv.ParseInt(v, 10, 64)
			}
		}
	}
	if got["idle_kb"] == 0 || got["peak_kb"] == 0 || got["after_kb"] == 0 {
		t.Fatalf("no figures in the child's output:\n%s", out)
	}
	return got["idle_kb"], got["peak_kb"], got["after_kb"], got["chunks"]
}

// TestOfficeBombMemory imports, in a child process, a 1 MB Word file
// whose text unpacks to 1 GiB (one paragraph of one character).
func TestOfficeBombMemory(t *testing.T) {
	bombMemory(t, func(dir string) string {
		path := filepath.Join(dir, "bomb.docx")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		z := zip.NewWriter(f)
		w, err := z.Create("word/document.xml")
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>`)
		block := bytes.Repeat([]byte("가"), 1<<20)
		for range 342 { // 1 GiB
			w.Write(block)
		}
		io.WriteString(w, `</w:t></w:r></w:p></w:body></w:document>`)
		if err := z.Close(); err != nil {
			t.Fatal(err)
		}
		return path
	})
}

// TestWordNotesBombMemory imports, in a child process, a Word file
// whose footnotes.xml unpacks to 1 GiB: notes of 1 MB, each cut to what
// one note holds, read before the body until the file's XML budget is
// spent.
func TestWordNotesBombMemory(t *testing.T) {
	bombMemory(t, func(dir string) string {
		path := filepath.Join(dir, "notes-bomb.docx")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		const ns = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`
		z := zip.NewWriter(f)
		w, err := z.Create("word/document.xml")
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, `<w:document `+ns+`><w:body><w:p><w:r><w:t>본문</w:t><w:footnoteReference w:id="1"/></w:r></w:p></w:body></w:document>`)
		if w, err = z.Create("word/footnotes.xml"); err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, `<w:footnotes `+ns+`>`)
		block := bytes.Repeat([]byte("가"), 1<<20/3)
		for i := range 1024 { // 1 GiB
			fmt.Fprintf(w, `<w:footnote w:id="%d"><w:p><w:r><w:t>`, i+1)
			w.Write(block)
			io.WriteString(w, `</w:t></w:r></w:p></w:footnote>`)
		}
		io.WriteString(w, `</w:footnotes>`)
		if err := z.Close(); err != nil {
			t.Fatal(err)
		}
		return path
	})
}

// TestHWPBombMemory imports, in a child process, a 1 MB HWP file whose
// one section inflates to 1 GiB of paragraphs of one character.
func TestHWPBombMemory(t *testing.T) {
	bombMemory(t, func(dir string) string {
		text := hwptest.UTF16(strings.Repeat("가", 1<<19)) // 1 MB a paragraph
		para := hwptest.Para(0, 0, 0, text)
		var section bytes.Buffer
		zw, err := flate.NewWriter(&section, flate.BestCompression)
		if err != nil {
			t.Fatal(err)
		}
		for range 1024 { // 1 GiB
			zw.Write(para)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		data := hwptest.CFB([]hwptest.Stream{
			{Path: "FileHeader", Data: hwptest.FileHeader(hwptest.Compressed)},
			{Path: "BodyText/Section0", Data: section.Bytes()},
		})
		path := filepath.Join(dir, "bomb.hwp")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	})
}

// bombMemory imports the file build writes into dir, in a child process:
// it fails on its limit, its peak stays within the budget of one file
// (512 MB above idle), and the memory is given back.
func bombMemory(t *testing.T, build func(dir string) string) {
	if asChild(t, func(rep Report) bool {
		var le *importer.OfficeLimitError
		return len(rep.Failed) == 1 && errors.As(rep.Failed[0].Err, &le)
	}) {
		return
	}
	path := build(t.TempDir())
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	idle, peak, after, _ := memoryOf(t, t.Name(), path)
	t.Logf("%d KB file, 1 GiB unpacked: idle %d MB, peak %d MB (+%d MB), after %d MB (+%d MB)", st.Size()>>10, idle>>10, peak>>10, (peak-idle)>>10, after>>10, (after-idle)>>10)
	if peak-idle > 512<<10 {
		t.Errorf("peak is %d MB above idle, want at most 512 MB", (peak-idle)>>10)
	}
	if after-idle > 64<<10 {
		t.Errorf("after the file the process holds %d MB more than idle: memory not given back", (after-idle)>>10)
	}
}

// asChild is the start of a memory test: run again by memoryOf, the test
// binary is the child, which imports the file (memoryChild, ok judging its
// report) and reports true, the test being done; in the parent it skips
// where the figures cannot be read or would be the race detector's.
func asChild(t *testing.T, ok func(Report) bool) bool {
	if path := os.Getenv(memoryChildEnv); path != "" {
		memoryChild(t, path, ok)
		return true
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/self/status")
	}
	if raceDetector {
		t.Skip("the race detector's shadow memory is part of every figure; go test without -race measures it")
	}
	return false
}

// memoryChild imports path into a fresh library after a warm-up file and
// prints what the process's memory did; ok judges the import's report.
func memoryChild(t *testing.T, path string, ok func(Report) bool) {
	e := newPlainEnv(t)
	b := e.openWith(Options{Sink: e.sink})
	warm := filepath.Join(t.TempDir(), "warm.md")
	if err := os.WriteFile(warm, []byte("# warm up\n\nthe library is open and has read one file.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Import(context.Background(), []string{warm}, nil); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	idle := knowledgetest.StatusKB(t, "VmRSS")
	// Writing 5 to clear_refs resets VmHWM to the current RSS.
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		t.Fatalf("reset peak RSS: %v", err)
	}
	rep, err := b.Import(context.Background(), []string{path}, nil)
	if err != nil || !ok(rep) {
		t.Fatalf("import: %+v, %v", rep, err)
	}
	peak := knowledgetest.StatusKB(t, "VmHWM")
	runtime.GC()
	time.Sleep(100 * time.Millisecond)
	after := knowledgetest.StatusKB(t, "VmRSS")
	fmt.Printf("MEMORY idle_kb=%d peak_kb=%d after_kb=%d chunks=%d\n", idle, peak, after, rep.Chunks)
}

// TestLongRecordMemory imports, in a child process, a JSON file of one
// record whose text is one word of 31 MB (just under a record's 32 MB):
// it reaches the splitter in blocks, not whole. Handed on whole it took
// 150 s (the splitter moved the rest of its text once a chunk) and then,
// with that fixed, still peaked 620 MB above idle (the whole record held
// again as runes, four bytes each).
func TestLongRecordMemory(t *testing.T) {
	if asChild(t, func(rep Report) bool { return len(rep.Imported) == 1 }) {
		return
	}
	path := filepath.Join(t.TempDir(), "record.json")
	if err := os.WriteFile(path, []byte(`{"text":"`+strings.Repeat("a", 31<<20)+`"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	idle, peak, after, chunks := memoryOf(t, "TestLongRecordMemory", path)
	t.Logf("31 MB record, %d chunks: idle %d MB, peak %d MB (+%d MB), after %d MB (+%d MB)",
		chunks, idle>>10, peak>>10, (peak-idle)>>10, after>>10, (after-idle)>>10)
	if peak-idle > 512<<10 {
		t.Errorf("peak is %d MB above idle, want at most 512 MB", (peak-idle)>>10)
	}
	if after-idle > 80<<10 {
		t.Errorf("after the file the process holds %d MB more than idle: memory not given back", (after-idle)>>10)
	}
}
