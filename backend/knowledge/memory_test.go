package knowledge

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/knowledgetest"
)

// memoryChildEnv makes the test binary, run again, act as the child of
// TestLargeTextMemory: it imports the file named by the variable.
const memoryChildEnv = "WAYFINDER_KNOWLEDGE_MEMORY_CHILD"

// TestLargeTextMemory imports a large text file in a child process, as
// the app imports it, and checks what the process's memory did: the peak
// stays within the 512 MB budget of one file above the idle process, and
// afterwards the process holds little more than the keyword index of the
// new chunks (the reading buffers and batches were given back).
func TestLargeTextMemory(t *testing.T) {
	if path := os.Getenv(memoryChildEnv); path != "" {
		textMemoryChild(t, path)
		return
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/self/status")
	}
	if raceDetector {
		t.Skip("the race detector's shadow memory is part of every figure; go test without -race measures it")
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
	cmd := exec.Command(os.Args[0], "-test.run=^TestLargeTextMemory$", "-test.v")
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
	idle, peak, after, chunks := got["idle_kb"], got["peak_kb"], got["after_kb"], got["chunks"]
	if idle == 0 || peak == 0 || after == 0 || chunks == 0 {
		t.Fatalf("no figures in the child's output:\n%s", out)
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

func textMemoryChild(t *testing.T, path string) {
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
	if err != nil || len(rep.Imported) != 1 {
		t.Fatalf("import: %+v, %v", rep, err)
	}
	peak := knowledgetest.StatusKB(t, "VmHWM")
	runtime.GC()
	time.Sleep(100 * time.Millisecond)
	after := knowledgetest.StatusKB(t, "VmRSS")
	fmt.Printf("MEMORY idle_kb=%d peak_kb=%d after_kb=%d chunks=%d\n", idle, peak, after, rep.Chunks)
}
