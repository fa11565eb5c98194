package pdftext

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"hash/adler32"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/knowledgetest"
)

// bombPDF is a one-page PDF whose content stream inflates to size bytes
// (a multiple of 1 MiB) of spaces: at 1 GiB the file is about 1 MB.
//
// Compressing a gigabyte takes seconds (minutes under -race), so the
// stream is assembled instead: once the compressor's window holds only
// spaces, every further MiB flushes to the same bytes, which are repeated;
// an empty final block and the Adler-32 of the whole end the zlib stream.
func bombPDF(tb testing.TB, size int64) []byte {
	tb.Helper()
	const chunk = 1 << 20
	var buf bytes.Buffer
	fw, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		tb.Fatal(err)
	}
	spaces := bytes.Repeat([]byte{' '}, chunk)
	var first, steady []byte
	for i := 0; i < 3; i++ {
		mark := buf.Len()
		fw.Write(spaces)
		fw.Flush()
		piece := bytes.Clone(buf.Bytes()[mark:])
		switch i {
		case 0:
			first = piece
		case 1:
			steady = piece
		case 2:
			if !bytes.Equal(piece, steady) {
				tb.Fatal("compressor output does not settle: cannot assemble the bomb")
			}
		}
	}
	z := bytes.NewBuffer([]byte{0x78, 0xda}) // zlib header, best compression
	z.Write(first)
	for n := int64(chunk); n < size; n += chunk {
		z.Write(steady)
	}
	z.Write([]byte{0x03, 0x00}) // final, empty, fixed-Huffman block
	one := adler32.Checksum(spaces)
	sum := one
	for n := int64(chunk); n < size; n += chunk {
		sum = adler32Combine(sum, one, chunk)
	}
	z.Write([]byte{byte(sum >> 24), byte(sum >> 16), byte(sum >> 8), byte(sum)})
	return flatePagePDF(z.Bytes())
}

// flatePagePDF is a one-page PDF with the given zlib stream as its content.
func flatePagePDF(z []byte) []byte {
	return buildPDF([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
		fmt.Sprintf("<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream", len(z), z),
	}, "")
}

// adler32Combine is the Adler-32 of two strings from theirs and the second
// one's length (zlib's adler32_combine).
func adler32Combine(a1, a2 uint32, len2 int64) uint32 {
	const base = 65521
	rem := uint32(len2 % base)
	sum1 := a1 & 0xffff
	sum2 := (rem * sum1) % base
	sum1 += (a2 & 0xffff) + base - 1
	sum2 += (a1 >> 16) + (a2 >> 16) + base - rem
	sum1 %= base
	sum2 %= base
	return sum2<<16 | sum1
}

// slowPDF is a one-page PDF whose content stream holds n path operations:
// small on disk, long for PDFium to parse.
func slowPDF(tb testing.TB, n int) []byte {
	tb.Helper()
	var z bytes.Buffer
	w, err := zlib.NewWriterLevel(&z, zlib.BestSpeed)
	if err != nil {
		tb.Fatal(err)
	}
	block := bytes.Repeat([]byte("1 2 m 3 4 l 5 6 7 8 9 10 c h S\n"), 10_000)
	for i := 0; i < n; i += 10_000 {
		w.Write(block)
	}
	w.Close()
	return flatePagePDF(z.Bytes())
}

// oneLine fails the test unless err is a single line that says nothing of
// WebAssembly: it is what the person reads.
func oneLine(t *testing.T, err error) {
	t.Helper()
	if msg := err.Error(); strings.Contains(msg, "\n") || strings.Contains(strings.ToLower(msg), "wasm") {
		t.Errorf("error is not one plain line: %q", msg)
	}
}

// bombExtractor has the default memory budget and time enough for the
// memory limit, not the clock of a loaded machine, to stop the bomb.
func bombExtractor(tb testing.TB) *Extractor {
	tb.Helper()
	cache := filepath.Join(os.TempDir(), "wayfinder-pdftext-test-cache")
	e, err := New(context.Background(), cache, WithLimits(Limits{PageTime: 10 * time.Minute}))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = e.Close(context.Background()) })
	return e
}

// childEnv makes the test binary, run again, act as the child of
// TestInflateBombMemory: it reads the PDF named by the variable and prints
// its memory figures.
const childEnv = "WAYFINDER_PDFTEXT_MEMORY_CHILD"

// TestInflateBombMemory reads the 1 GiB bomb in a child process and checks
// what the process's memory did: the peak (VmHWM) stays within 512 MB of
// the idle process, and the memory is given back afterwards. The child
// also checks the error (one line, ErrTooLarge) and that the next file
// reads normally.
func TestInflateBombMemory(t *testing.T) {
	if os.Getenv(childEnv) != "" {
		memoryChild(t, os.Getenv(childEnv))
		return
	}
	idle, peak, after, msg := inChild(t, "TestInflateBombMemory", bombPDF(t, 1<<30))
	if peak-idle > 512<<10 {
		t.Errorf("peak is %d MB above idle, want at most 512 MB", (peak-idle)>>10)
	}
	if after-idle > 64<<10 {
		t.Errorf("after the file the process holds %d MB more than idle: memory not given back", (after-idle)>>10)
	}
	if want := "this PDF expands to more than 384 MB in memory; it looks damaged or hostile"; msg != want {
		t.Errorf("child's error %q, want %q", msg, want)
	}
}

// inChild writes data to a file, reads it in a child process running the
// test named (which calls memoryChild or layoutChild) and returns the
// child's memory figures in kB (idle, peak, after the file) and its error.
func inChild(t *testing.T, test string, data []byte) (idle, peak, after int64, msg string) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/self/status")
	}
	path := filepath.Join(t.TempDir(), "child.pdf")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.v")
	cmd.Env = append(os.Environ(), childEnv+"="+path)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	got := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if _, rest, ok := strings.Cut(sc.Text(), "MEMORY "); ok {
			for _, kv := range strings.Fields(rest) {
				k, v, _ := strings.Cut(kv, "=")
				got[k] = v
			}
		}
		if _, msg, ok := strings.Cut(sc.Text(), "ERROR "); ok {
			got["error"] = msg
		}
	}
	kb := func(k string) int64 {
		v, err := strconv.ParseInt(got[k], 10, 64)
		if err != nil {
			t.Fatalf("no %s in the child's output:\n%s", k, out)
		}
		return v
	}
	idle, peak, after = kb("idle_kb"), kb("peak_kb"), kb("after_kb")
	t.Logf("idle %d MB, peak %d MB (+%d MB), after %d MB (+%d MB); error: %s",
		idle>>10, peak>>10, (peak-idle)>>10, after>>10, (after-idle)>>10, got["error"])
	return idle, peak, after, got["error"]
}

// childFigures reads the file at path with e in the child process, after
// a warm-up file, and prints the memory figures and the error inChild
// reads.
func childFigures(t *testing.T, e *Extractor, path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Warm up: the compiled module is loaded and one file read, so that
	// "idle" is the process ready to import.
	if _, err := e.Extract(context.Background(), textPDF("warm up")); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	idle := knowledgetest.StatusKB(t, "VmRSS")
	// Writing 5 to clear_refs resets VmHWM to the current RSS.
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		t.Fatalf("reset peak RSS: %v", err)
	}
	_, xerr := e.Extract(context.Background(), data)
	peak := knowledgetest.StatusKB(t, "VmHWM")
	runtime.GC()
	time.Sleep(100 * time.Millisecond)
	after := knowledgetest.StatusKB(t, "VmRSS")
	fmt.Printf("MEMORY idle_kb=%d peak_kb=%d after_kb=%d\n", idle, peak, after)
	fmt.Printf("ERROR %v\n", xerr)
	return xerr
}

func memoryChild(t *testing.T, path string) {
	e := bombExtractor(t)
	xerr := childFigures(t, e, path)
	if !errors.Is(xerr, ErrTooLarge) {
		t.Errorf("Extract = %v, want ErrTooLarge", xerr)
	} else {
		oneLine(t, xerr)
	}
	// The next file is read as if nothing had happened.
	if pages, err := e.Extract(context.Background(), textPDF("after the bomb")); err != nil || strings.TrimSpace(pages[0].Text) != "after the bomb" {
		t.Errorf("after the bomb: %+v, %v", pages, err)
	}
}

func TestSlowPage(t *testing.T) {
	cache := filepath.Join(os.TempDir(), "wayfinder-pdftext-test-cache")
	e, err := New(context.Background(), cache, WithLimits(Limits{PageTime: 50 * time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(context.Background())
	data := slowPDF(t, 1_000_000)
	start := time.Now()
	_, err = e.Extract(context.Background(), data)
	if !errors.Is(err, ErrTooSlow) {
		t.Fatalf("Extract = %v, want ErrTooSlow", err)
	}
	oneLine(t, err)
	if want := "page 1 of this PDF takes more than 50ms to read; it looks damaged or hostile"; err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("stopping the page took %v", d)
	}
	// The same extractor reads the next file. A loaded machine can stall
	// even a one-line page past 50 ms, so only a different failure, or
	// running out of tries, means the extractor broke.
	for try := 1; ; try++ {
		_, err := e.Extract(context.Background(), textPDF("next file"))
		if err == nil {
			break
		}
		if !errors.Is(err, ErrTooSlow) || try == 5 {
			t.Fatalf("next file (try %d): %v", try, err)
		}
	}
}

func TestLimitsOnContent(t *testing.T) {
	cache := filepath.Join(os.TempDir(), "wayfinder-pdftext-test-cache")
	e, err := New(context.Background(), cache, WithLimits(Limits{Memory: 64 << 20, PageChars: 5}))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(context.Background())
	tests := []struct {
		name  string
		data  []byte
		want  string
		parts LimitError // what a caller translates
	}{
		{"page with too many characters", textPDF("more than five"), "page 1 of this PDF has more than 5 characters; it looks damaged or hostile",
			LimitError{Limit: LimitPageChars, Page: 1, Max: "5"}},
		{"stream inflating past a small budget", bombPDF(t, 128<<20), "this PDF expands to more than 64 MB in memory; it looks damaged or hostile",
			LimitError{Limit: LimitMemory, Max: "64 MB"}},
	}
	small, err := New(context.Background(), cache, WithLimits(Limits{Memory: 64 << 20, TextBytes: 8}))
	if err != nil {
		t.Fatal(err)
	}
	defer small.Close(context.Background())
	_, err = small.Extract(context.Background(), textPDF("more than eight bytes"))
	var le *LimitError
	if !errors.As(err, &le) || !errors.Is(err, ErrTooLarge) || le.Limit != LimitTextBytes || err.Error() != "this PDF holds more than 8 bytes of text; it looks damaged or hostile" {
		t.Errorf("a PDF with more text than allowed: %v", err)
	}
	if d := DefaultLimits; d.Memory+uint64(d.TextBytes) > 480<<20 {
		t.Errorf("PDFium's memory and the text of one file may reach %d MB; a file may cost 512 MB in all", (d.Memory+uint64(d.TextBytes))>>20)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.Extract(context.Background(), tt.data)
			if !errors.Is(err, ErrTooLarge) || err.Error() != tt.want {
				t.Fatalf("Extract = %v, want ErrTooLarge: %q", err, tt.want)
			}
			var le *LimitError
			if !errors.As(err, &le) || le.Limit != tt.parts.Limit || le.Page != tt.parts.Page || le.Max != tt.parts.Max {
				t.Errorf("limit error %+v, want limit %s, page %d, max %s", le, tt.parts.Limit, tt.parts.Page, tt.parts.Max)
			}
		})
	}
}

// TestLibraryFiles reads the broken files of the shared test library: each
// gives its own error, in one line.
func TestLibraryFiles(t *testing.T) {
	e := newTestExtractor(t)
	for name, want := range map[string]error{
		"corrupt.pdf":   ErrCorrupt,
		"encrypted.pdf": ErrEncrypted,
		"blank.pdf":     ErrNoText,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := e.ExtractFile(context.Background(), filepath.Join("..", "testdata", "library", name))
			if !errors.Is(err, want) {
				t.Fatalf("ExtractFile = %v, want %v", err, want)
			}
			oneLine(t, err)
		})
	}
}

// TestBrokenStructure: files whose structure is broken or empty fail with
// the error that tells the person what is wrong, or are read as far as
// they can be.
func TestBrokenStructure(t *testing.T) {
	e := newTestExtractor(t)
	page := "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 3 0 R >> >> >>"
	font := "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
	whole := buildPDF([]string{"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [5 0 R] /Count 1 >>", font,
		pdfStream("BT /F1 12 Tf 72 700 Td (whole) Tj ET"), page}, "")
	for _, tt := range []struct {
		name string
		data []byte
		want error  // nil: read
		text string // what the first page reads, when read
	}{
		{"a page tree without pages", buildPDF([]string{"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [] /Count 0 >>"}, ""), ErrCorrupt, ""},
		{"a catalog without a page tree", buildPDF([]string{"<< /Type /Catalog >>"}, ""), ErrCorrupt, ""},
		{"a page tree whose /Count says 10^8 over one page", buildPDF([]string{"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [5 0 R] /Count 100000000 >>", font, pdfStream("BT /F1 12 Tf 72 700 Td (one page) Tj ET"), page}, ""), nil, "one page"},
		{"cut short before its xref", whole[:bytes.LastIndex(whole, []byte("xref"))], nil, "whole"},
		{"a header, then junk", append([]byte("%PDF-1.7\n"), bytes.Repeat([]byte{0x9c, 0x01, 'x', 0xff}, 4096)...), ErrCorrupt, ""},
		{"a page without contents", buildPDF([]string{"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"}, ""), ErrNoText, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			pages, err := e.Extract(context.Background(), tt.data)
			if tt.want == nil {
				if err != nil || len(pages) == 0 || strings.TrimSpace(pages[0].Text) != tt.text {
					t.Fatalf("Extract = %+v, %v; want %q", pages, err, tt.text)
				}
				return
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("Extract = %+v, %v; want %v", pages, err, tt.want)
			}
			oneLine(t, err)
		})
	}
}

// FuzzExtract feeds arbitrary bytes to PDFium through the extractor: it
// must not panic, and any error must be one of the package's, in one line.
func FuzzExtract(f *testing.F) {
	for _, seed := range [][]byte{textPDF("seed"), blankPDF(), encryptedPDF("pw"), textPDF("x")[:90], []byte("%PDF-1.7\n1 0 obj << >> endobj")} {
		f.Add(seed)
	}
	e := newTestExtractor(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := e.Extract(context.Background(), data)
		if err == nil {
			return
		}
		if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrEncrypted) && !errors.Is(err, ErrNoText) &&
			!errors.Is(err, ErrTooLarge) && !errors.Is(err, ErrTooSlow) {
			t.Fatalf("unexpected error kind: %v", err)
		}
		oneLine(t, err)
	})
}

// TestLargeFileSmallMemory reads, from disk, a 100 MB PDF (a stream nobody
// refers to fills it) with a 64 MB memory budget: PDFium reads the file
// through the host as it needs it, so the file's size does not count
// against the budget.
func TestLargeFileSmallMemory(t *testing.T) {
	cache := filepath.Join(os.TempDir(), "wayfinder-pdftext-test-cache")
	e, err := New(context.Background(), cache, WithLimits(Limits{Memory: 64 << 20}))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(context.Background())
	stream := "1 0 0 1 0 0 cm\n" + strings.Repeat("% filler line nobody reads\n", 100<<20/27)
	data := buildPDF([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		pdfStream("BT /F1 24 Tf 72 700 Td (large but light) Tj ET"),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
		pdfStream(stream),
	}, "")
	path := filepath.Join(t.TempDir(), "large.pdf")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pages, err := e.ExtractReader(context.Background(), f, int64(len(data)))
	if err != nil || strings.TrimSpace(pages[0].Text) != "large but light" {
		t.Fatalf("ExtractReader: %+v, %v", pages, err)
	}
}

// failingReader fails every read past the header, like a file on a disk
// that goes away.
type failingReader struct{ head []byte }

func (r failingReader) ReadAt(p []byte, off int64) (int, error) {
	if off == 0 && len(p) <= len(r.head) {
		return copy(p, r.head), nil
	}
	return 0, errors.New("device went away")
}

func TestReadErrorIsNotCorrupt(t *testing.T) {
	e := newTestExtractor(t)
	data := textPDF("x")
	_, err := e.ExtractReader(context.Background(), failingReader{head: data[:min(len(data), 1024)]}, int64(len(data)))
	if err == nil || errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "device went away") {
		t.Fatalf("ExtractReader = %v, want the read error", err)
	}
}

// gatedReader serves a PDF and, at its first read past the header check
// (PDFium reading the document, inside an extraction's slot), says so on
// entered and waits for release.
type gatedReader struct {
	data     []byte
	reads    atomic.Int32
	entered  chan struct{}
	release  chan struct{}
	announce sync.Once
}

func newGatedReader(data []byte) *gatedReader {
	return &gatedReader{data: data, entered: make(chan struct{}), release: make(chan struct{})}
}

func (r *gatedReader) ReadAt(p []byte, off int64) (int, error) {
	if r.reads.Add(1) > 1 {
		r.announce.Do(func() { close(r.entered) })
		<-r.release
	}
	return bytes.NewReader(r.data).ReadAt(p, off)
}

// TestOneExtractionAtATime: each extraction may use Limits.Memory (384 MB),
// so two at once would break the 512 MB budget of an import; the second
// waits until the first is done.
func TestOneExtractionAtATime(t *testing.T) {
	e := newTestExtractor(t)
	first, second := newGatedReader(textPDF("first")), newGatedReader(textPDF("second"))
	close(second.release)
	type result struct {
		pages []Page
		err   error
	}
	run := func(r *gatedReader) <-chan result {
		out := make(chan result, 1)
		go func() {
			pages, err := e.ExtractReader(context.Background(), r, int64(len(r.data)))
			out <- result{pages, err}
		}()
		return out
	}
	wait := func(c <-chan struct{}, what string) {
		t.Helper()
		select {
		case <-c:
		case <-time.After(2 * time.Minute):
			t.Fatalf("%s never happened", what)
		}
	}
	done1 := run(first)
	wait(first.entered, "the first extraction reading")
	if len(e.slots) != cap(e.slots) {
		t.Fatalf("with one extraction running, %d of %d slots are taken: another could start", len(e.slots), cap(e.slots))
	}
	done2 := run(second)
	select {
	case <-second.entered:
		t.Fatal("a second extraction read its file while the first was running")
	case <-time.After(time.Second): // only ever hides a failure on a slow machine, never makes one
	}
	close(first.release)
	wait(second.entered, "the second extraction reading after the first")
	for i, c := range []<-chan result{done1, done2} {
		r := <-c
		if r.err != nil || len(r.pages) != 1 || strings.TrimSpace(r.pages[0].Text) != []string{"first", "second"}[i] {
			t.Errorf("extraction %d: %+v, %v", i+1, r.pages, r.err)
		}
	}
}
