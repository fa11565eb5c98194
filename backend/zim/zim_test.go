package zim

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func titles(es []Entry) string {
	var ts []string
	for _, e := range es {
		ts = append(ts, e.Title)
	}
	return strings.Join(ts, "|")
}

// checkWiki reads the articles make-wiki.sh puts in a file.
func checkWiki(t *testing.T, path string) {
	t.Helper()
	a, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	ctx := context.Background()
	if ns := a.ContentNamespace(); ns != 'C' {
		t.Fatalf("namespace %c, want C (zimwriterfs writes the new layout)", ns)
	}
	cases := []struct{ prefix, want string }{
		{"서", "서울"},
		{"서울", "서울"},
		{"김", "김치"},
		{"부산", "부산"},
		{"Go", "Go (programming language)"},
		{"Seo", "Seoul"}, // the redirect
		{"seoul", ""},    // titles are case-sensitive: the tool tries capitals
		{"없는", ""},
	}
	for _, c := range cases {
		es, err := a.Titles(ctx, 'C', c.prefix, 5)
		if err != nil || titles(es) != c.want {
			t.Errorf("Titles(%q) = %q, %v; want %q", c.prefix, titles(es), err, c.want)
		}
	}
	es, err := a.Titles(ctx, 'C', "Seoul", 1)
	if err != nil || len(es) != 1 || !es[0].Redirect {
		t.Fatalf("Seoul: %+v, %v", es, err)
	}
	body, truncated, err := a.Content(es[0], 1<<20)
	if err != nil || truncated || !strings.Contains(string(body), "서울특별시는 대한민국의 수도이다.") {
		t.Fatalf("Seoul's content: %q, %v, %v", body, truncated, err)
	}
	long, _ := a.Titles(ctx, 'C', "Long article", 1)
	if len(long) != 1 {
		t.Fatal("no long article")
	}
	body, truncated, err = a.Content(long[0], 1000)
	if err != nil || !truncated || len(body) != 1000 {
		t.Fatalf("long article cut at 1000 bytes: %d, %v, %v", len(body), truncated, err)
	}
	main, err := a.MainPage()
	if err != nil || main.Title != "Wayfinder test wiki" {
		t.Fatalf("main page %+v, %v", main, err)
	}
}

// TestWiki reads the checked-in file make-wiki.sh made.
func TestWiki(t *testing.T) {
	checkWiki(t, filepath.Join("testdata", "wiki.zim"))
}

// TestZimwriterfs makes the file afresh with the zim-tools this machine has
// (make deps-test installs them), so a libzim that writes differently is
// noticed.
func TestZimwriterfs(t *testing.T) {
	if _, err := exec.LookPath("zimwriterfs"); err != nil {
		t.Fatal("zimwriterfs is not installed: run make deps-test (Debian package zim-tools)")
	}
	out := filepath.Join(t.TempDir(), "fresh.zim")
	if b, err := exec.Command(filepath.Join("testdata", "make-wiki.sh"), out).CombinedOutput(); err != nil {
		t.Fatalf("make-wiki.sh: %v\n%s", err, b)
	}
	checkWiki(t, out)
}

// TestCompressions reads files of every cluster kind and both layouts.
func TestCompressions(t *testing.T) {
	for _, s := range []zimSpec{
		{minor: 1, comp: compNone}, {minor: 1, comp: compNone, extended: true},
		{minor: 1, comp: compXZ}, {minor: 1, comp: compXZ, extended: true},
		{minor: 1, comp: compZstd}, {minor: 1, comp: compZstd, extended: true},
		{minor: 0, comp: compXZ},
	} {
		ns := byte('C')
		if s.minor == 0 {
			ns = 'A'
		}
		var es []testEntry
		for _, e := range sampleEntries() {
			if e.ns == 'C' {
				e.ns = ns
			}
			es = append(es, e)
		}
		data := buildZIM(t, s, es)
		a, err := New(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatalf("%+v: %v", s, err)
		}
		if a.ContentNamespace() != ns {
			t.Fatalf("%+v: namespace %c", s, a.ContentNamespace())
		}
		got, err := a.Titles(context.Background(), ns, "", 10)
		if err != nil || titles(got) != "Go (programming language)|Main page|Seoul|서울" {
			t.Fatalf("%+v: all titles %q, %v (logo.png is not text)", s, titles(got), err)
		}
		for _, e := range got {
			body, _, err := a.Content(e, 1000)
			if err != nil || !strings.HasPrefix(string(body), "<p>") {
				t.Fatalf("%+v: %s: %q, %v", s, e.Title, body, err)
			}
		}
	}
}

// TestDamagedFiles: a file that is not a ZIM file, or one damaged
// anywhere, is an error in words, never a panic or a huge allocation.
func TestDamagedFiles(t *testing.T) {
	le := binary.LittleEndian
	good := func(s zimSpec) []byte { return buildZIM(t, s, sampleEntries()) }
	zs := zimSpec{minor: 1, comp: compZstd}
	set32 := func(b []byte, at int, v uint32) []byte { le.PutUint32(b[at:], v); return b }
	set64 := func(b []byte, at int, v uint64) []byte { le.PutUint64(b[at:], v); return b }
	clusterPos := func(b []byte) int { return int(le.Uint64(b[le.Uint64(b[48:]):])) }

	cases := []struct {
		name    string
		data    []byte
		openErr error  // from New
		readErr string // from reading every entry's content
	}{
		{name: "empty", data: nil, openErr: ErrNotZIM},
		{name: "text", data: []byte(strings.Repeat("not a zim file ", 10)), openErr: ErrNotZIM},
		{name: "cut header", data: good(zs)[:40], openErr: ErrNotZIM},
		{name: "version 4", data: func() []byte { b := good(zs); le.PutUint16(b[4:], 4); return b }(), openErr: errors.New("version 4.1 is not supported")},
		{name: "entries beyond the file", data: set32(good(zs), 24, 1<<29), openErr: ErrCorrupt},
		{name: "too many entries", data: set32(good(zs), 24, 0xffffffff), openErr: ErrCorrupt},
		{name: "title list outside", data: set64(good(zs), 40, 1<<62), openErr: ErrCorrupt},
		{name: "mime list outside", data: set64(good(zs), 56, 1<<40), openErr: ErrCorrupt},
		{name: "mime list unterminated", data: func() []byte {
			b := good(zs)[:200]
			set64(b, 32, 80)
			set64(b, 40, 80)
			set64(b, 48, 80)
			set32(b, 24, 1)
			set32(b, 28, 1)
			set64(b, 56, 100)
			for i := 100; i < 200; i++ {
				b[i] = 'x'
			}
			return b
		}(), openErr: ErrCorrupt},
		{name: "cut in the cluster", data: func() []byte { b := good(zs); return b[:clusterPos(b)+6] }(), readErr: "damaged"},
		{name: "unknown compression", data: func() []byte { b := good(zs); b[clusterPos(b)] = 9; return b }(), readErr: "unknown compression 9"},
		{name: "zlib", data: func() []byte { b := good(zs); b[clusterPos(b)] = compZlib; return b }(), readErr: "not supported"},
		{name: "garbage zstd", data: func() []byte { b := good(zs); c := clusterPos(b); copy(b[c+1:], "garbage!"); return b }(), readErr: "cannot be decompressed"},
		{name: "garbage xz", data: func() []byte {
			b := good(zimSpec{minor: 1, comp: compXZ})
			c := clusterPos(b)
			b[c+20] ^= 0xff
			b[c+21] ^= 0xff
			return b
		}(), readErr: "damaged"},
		{name: "huge blob offsets", data: func() []byte {
			b := good(zimSpec{minor: 1, comp: compNone})
			c := clusterPos(b)
			set32(b, c+1+4, 0xfffffff0)
			return b
		}(), readErr: "blob"},
		{name: "huge offset list", data: func() []byte {
			b := good(zimSpec{minor: 1, comp: compNone, extended: true})
			c := clusterPos(b)
			set64(b, c+1, 1<<60)
			return b
		}(), readErr: "offset list"},
		{name: "cluster outside", data: func() []byte { b := good(zs); set64(b, int(le.Uint64(b[48:])), 1<<50); return b }(), readErr: "outside the file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := New(bytes.NewReader(c.data), int64(len(c.data)))
			if c.openErr != nil {
				if err == nil || (!errors.Is(err, c.openErr) && !strings.Contains(err.Error(), c.openErr.Error())) {
					t.Fatalf("New: %v, want %v", err, c.openErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("New: %v", err)
			}
			var errs []string
			for i := range a.EntryCount() {
				e, err := a.EntryAt(i)
				if err == nil && e.MIME != "" {
					_, _, err = a.Content(e, 1<<20)
				}
				if err != nil {
					errs = append(errs, err.Error())
				}
			}
			if all := strings.Join(errs, "\n"); !strings.Contains(all, c.readErr) {
				t.Fatalf("errors %q, want %q", all, c.readErr)
			}
		})
	}
}

// TestRedirectLoop: redirects that go round in circles end.
func TestRedirectLoop(t *testing.T) {
	data := buildZIM(t, zimSpec{minor: 1, comp: compNone}, []testEntry{
		{ns: 'C', path: "a", redirect: "b"}, {ns: 'C', path: "b", redirect: "a"},
		{ns: 'C', path: "c", redirect: "nowhere"},
	})
	a, err := New(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	es, err := a.Titles(context.Background(), 'C', "", 5)
	if err != nil || len(es) != 3 {
		t.Fatalf("%v, %v", es, err)
	}
	if _, _, err := a.Content(es[0], 100); err == nil || !strings.Contains(err.Error(), "more than 8 redirects") {
		t.Fatalf("loop: %v", err)
	}
	if _, _, err := a.Content(es[2], 100); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("dangling: %v", err)
	}
}

// TestXZDictionaryCap: an xz cluster asking for a 1.5 GB dictionary is
// refused before anything is allocated.
func TestXZDictionaryCap(t *testing.T) {
	b := buildZIM(t, zimSpec{minor: 1, comp: compXZ}, sampleEntries())
	c := int(binary.LittleEndian.Uint64(b[binary.LittleEndian.Uint64(b[48:]):]))
	// The block header follows the 12-byte stream header: size, flags,
	// filter id 0x21, props size 1, the dictionary byte, padding, CRC32.
	bh := b[c+1+12:]
	size := (int(bh[0]) + 1) * 4
	i := bytes.Index(bh[:size], []byte{0x21, 0x01})
	if i < 0 {
		t.Fatal("no LZMA2 filter in the block header")
	}
	bh[i+2] = 39 // 3 GB
	binary.LittleEndian.PutUint32(bh[size-4:], crc32IEEE(bh[:size-4]))
	a, err := New(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	es, _ := a.Titles(context.Background(), 'C', "Go", 1)
	if _, _, err := a.Content(es[0], 100); err == nil || !strings.Contains(err.Error(), "MB dictionary") {
		t.Fatalf("%v", err)
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Open(filepath.Join(dir, "missing.zim")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing: %v", err)
	}
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "is not a file") {
		t.Fatalf("folder: %v", err)
	}
	p := filepath.Join(dir, "x.zim")
	os.WriteFile(p, []byte("<html>not a zim</html>"+strings.Repeat(" ", 100)), 0o600)
	if _, err := Open(p); !errors.Is(err, ErrNotZIM) {
		t.Fatalf("not zim: %v", err)
	}
}

// FuzzArchive: whatever the bytes, reading titles and content ends with a
// result or an error.
func FuzzArchive(f *testing.F) {
	for _, s := range []zimSpec{{minor: 1, comp: compNone}, {minor: 1, comp: compXZ}, {minor: 1, comp: compZstd, extended: true}, {minor: 0, comp: compNone}} {
		f.Add(buildZIM(f, s, sampleEntries()))
	}
	if b, err := os.ReadFile(filepath.Join("testdata", "wiki.zim")); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := New(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		// A few contents per input: each may decompress up to
		// MaxDecompressed, which is bounded but not quick.
		ctx, reads := context.Background(), 0
		read := func(e Entry) {
			if reads < 4 {
				reads++
				a.Content(e, 64<<10)
			}
		}
		for _, ns := range []byte{'A', 'C'} {
			es, _ := a.Titles(ctx, ns, "", 20)
			for _, e := range es {
				read(e)
			}
		}
		for i := range min(a.EntryCount(), 50) {
			if e, err := a.EntryAt(i); err == nil {
				read(e)
			}
		}
		a.MainPage()
	})
}

// TestBoundedMemory: a cluster that decompresses to more than it should
// (a "zip bomb" of zeros) is read as a stream: skipping 20 MB to reach a
// blob keeps little in memory, a blob is read only up to what is asked,
// and one that claims to end past MaxDecompressed is refused.
func TestBoundedMemory(t *testing.T) {
	zeros := strings.Repeat("\x00", 20<<20)
	data := buildZIM(t, zimSpec{minor: 1, comp: compZstd}, []testEntry{
		{ns: 'C', path: "a", mime: "text/html", data: zeros},
		{ns: 'C', path: "b", mime: "text/html", data: "<p>after the zeros</p>"},
	})
	if len(data) > 64<<10 {
		t.Fatalf("the bomb is %d bytes compressed", len(data))
	}
	a, err := New(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	es, err := a.Titles(context.Background(), 'C', "", 2)
	if err != nil || len(es) != 2 {
		t.Fatalf("%v, %v", es, err)
	}
	alloc := func(f func()) uint64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	var body []byte
	var truncated bool
	n := alloc(func() { body, truncated, err = a.Content(es[1], 1000) })
	if err != nil || string(body) != "<p>after the zeros</p>" || truncated {
		t.Fatalf("blob after the zeros: %q, %v, %v", body, truncated, err)
	}
	if n > 16<<20 {
		t.Fatalf("skipping 20 MB of zeros allocated %d MB", n>>20)
	}
	n = alloc(func() { body, truncated, err = a.Content(es[0], 64<<10) })
	if err != nil || len(body) != 64<<10 || !truncated || n > 16<<20 {
		t.Fatalf("a 20 MB blob read up to 64 KB: %d bytes, %v, %v, %d MB allocated", len(body), truncated, err, n>>20)
	}

	// A blob that claims to end past the cap.
	huge := buildZIM(t, zimSpec{minor: 1, comp: compNone}, []testEntry{{ns: 'C', path: "a", mime: "text/html", data: "<p>x</p>"}})
	c := int(binary.LittleEndian.Uint64(huge[binary.LittleEndian.Uint64(huge[48:]):]))
	binary.LittleEndian.PutUint32(huge[c+1+4:], MaxDecompressed+1)
	a, err = New(bytes.NewReader(huge), int64(len(huge)))
	if err != nil {
		t.Fatal(err)
	}
	es, _ = a.Titles(context.Background(), 'C', "", 1)
	if _, _, err := a.Content(es[0], 1000); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "runs from 8 to") {
		t.Fatalf("past the cap: %v", err)
	}
}
