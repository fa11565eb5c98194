// Package zim reads Kiwix ZIM files (https://wiki.openzim.org/wiki/ZIM_file_format),
// the offline Wikipedia the search_wikipedia tool searches: a title lookup
// through the title index and an article's content, nothing more.
//
// It is our own small reader rather than a library because a ZIM file is
// untrusted input (the person downloads it from anywhere, and a damaged
// download is common) and none of the Go readers bounds what a hostile
// file can make it do: here every offset is checked against the file's
// size before it is read, a directory entry, the MIME list and a cluster's
// offset list have caps, decompression is streamed and stops at a cap
// (xz: one LZMA2 block whose dictionary is checked before it is
// allocated; zstd: a window cap), and a damaged file is an error in words,
// never a panic (FuzzArchive).
package zim

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// Caps on what a file can make the reader do.
const (
	magic = 72173914 // "ZIM\x04" little-endian

	maxEntries   = 1 << 30 // entries and clusters in one file (English Wikipedia: ~20 million)
	maxMimeList  = 64 << 10
	maxDirent    = 4 << 10 // path + title + parameters of one entry
	maxRedirects = 8
	// MaxDecompressed bounds how far into a cluster the reader decompresses
	// to reach a blob (libzim writes clusters of about 2 MB).
	MaxDecompressed = 32 << 20
	// maxDict bounds the dictionary an xz cluster may ask for (libzim's
	// preset asks 8 MB; xz's largest preset 64 MB).
	maxDict = 64 << 20
)

// ErrNotZIM is returned for a file that is not a ZIM file at all.
var ErrNotZIM = errors.New("not a ZIM file")

// ErrCorrupt wraps every inconsistency found in a file that looked like one.
var ErrCorrupt = errors.New("the ZIM file is damaged")

func corrupt(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, a...))
}

type header struct {
	major, minor  uint16
	entryCount    uint32
	clusterCount  uint32
	pathPtrPos    uint64
	titlePtrPos   uint64
	clusterPtrPos uint64
	mimeListPos   uint64
	mainPage      uint32
	checksumPos   uint64
}

// Archive is an open ZIM file. Its methods may be called from one
// goroutine at a time.
type Archive struct {
	r     io.ReaderAt
	c     io.Closer
	size  int64
	h     header
	mimes []string
}

// Open opens the ZIM file at path.
func Open(path string) (*Archive, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is not a file: %w", path, ErrNotZIM)
	}
	a, err := New(f, st.Size())
	if err != nil {
		f.Close()
		return nil, err
	}
	a.c = f
	return a, nil
}

// New reads a ZIM file of size bytes from r.
func New(r io.ReaderAt, size int64) (*Archive, error) {
	a := &Archive{r: r, size: size}
	var b [80]byte
	if size < int64(len(b)) {
		return nil, ErrNotZIM
	}
	if _, err := r.ReadAt(b[:], 0); err != nil {
		return nil, fmt.Errorf("read the ZIM header: %w", err)
	}
	le := binary.LittleEndian
	if le.Uint32(b[0:]) != magic {
		return nil, ErrNotZIM
	}
	a.h = header{
		major: le.Uint16(b[4:]), minor: le.Uint16(b[6:]),
		entryCount: le.Uint32(b[24:]), clusterCount: le.Uint32(b[28:]),
		pathPtrPos: le.Uint64(b[32:]), titlePtrPos: le.Uint64(b[40:]),
		clusterPtrPos: le.Uint64(b[48:]), mimeListPos: le.Uint64(b[56:]),
		mainPage: le.Uint32(b[64:]), checksumPos: le.Uint64(b[72:]),
	}
	h := a.h
	if h.major != 5 && h.major != 6 {
		return nil, fmt.Errorf("ZIM version %d.%d is not supported (5 and 6 are)", h.major, h.minor)
	}
	if h.entryCount > maxEntries || h.clusterCount > maxEntries {
		return nil, corrupt("%d entries, %d clusters", h.entryCount, h.clusterCount)
	}
	for _, t := range []struct {
		name     string
		pos, len uint64
	}{
		{"path pointers", h.pathPtrPos, 8 * uint64(h.entryCount)},
		{"title pointers", h.titlePtrPos, 4 * uint64(h.entryCount)},
		{"cluster pointers", h.clusterPtrPos, 8 * uint64(h.clusterCount)},
		{"MIME list", h.mimeListPos, 1},
	} {
		if !a.within(t.pos, t.len) {
			return nil, corrupt("the %s lie outside the file", t.name)
		}
	}
	if err := a.readMimes(); err != nil {
		return nil, err
	}
	return a, nil
}

// Close closes the file Open opened.
func (a *Archive) Close() error {
	if a.c == nil {
		return nil
	}
	return a.c.Close()
}

// EntryCount is the number of entries (articles, redirects, images, metadata).
func (a *Archive) EntryCount() uint32 { return a.h.entryCount }

// within reports whether n bytes at pos lie inside the file.
func (a *Archive) within(pos, n uint64) bool {
	size := uint64(a.size)
	return pos <= size && n <= size-pos
}

// readAt reads exactly n bytes at pos, after checking they are in the file.
func (a *Archive) readAt(pos, n uint64) ([]byte, error) {
	if !a.within(pos, n) {
		return nil, corrupt("%d bytes at %d lie outside the file", n, pos)
	}
	b := make([]byte, n)
	if _, err := a.r.ReadAt(b, int64(pos)); err != nil {
		return nil, fmt.Errorf("read the ZIM file: %w", err)
	}
	return b, nil
}

func (a *Archive) readMimes() error {
	n := min(uint64(maxMimeList), uint64(a.size)-a.h.mimeListPos)
	b, err := a.readAt(a.h.mimeListPos, n)
	if err != nil {
		return err
	}
	for {
		i := bytes.IndexByte(b, 0)
		if i < 0 {
			return corrupt("the MIME list has no end")
		}
		if i == 0 {
			return nil
		}
		a.mimes = append(a.mimes, string(b[:i]))
		b = b[i+1:]
	}
}

// ContentNamespace is where the articles are: "C" in files of the new
// layout (minor version 1 and later), "A" in older ones.
func (a *Archive) ContentNamespace() byte {
	if a.h.major == 6 && a.h.minor >= 1 {
		return 'C'
	}
	return 'A'
}

// Entry is one directory entry.
type Entry struct {
	Index     uint32 // in path order
	Namespace byte
	Path      string
	Title     string // the path when the file gives no title
	MIME      string // "" for a redirect
	Redirect  bool

	target  uint32 // redirect: the entry it points to
	cluster uint32
	blob    uint32
}

// mime type markers of entries without content
const (
	mimeRedirect   = 0xffff
	mimeLinkTarget = 0xfffe
	mimeDeleted    = 0xfffd
)

// EntryAt reads the entry at index i in path order.
func (a *Archive) EntryAt(i uint32) (Entry, error) {
	if i >= a.h.entryCount {
		return Entry{}, corrupt("entry %d of %d", i, a.h.entryCount)
	}
	p, err := a.readAt(a.h.pathPtrPos+8*uint64(i), 8)
	if err != nil {
		return Entry{}, err
	}
	pos := binary.LittleEndian.Uint64(p)
	if !a.within(pos, 12) {
		return Entry{}, corrupt("entry %d lies outside the file", i)
	}
	b, err := a.readAt(pos, min(uint64(maxDirent), uint64(a.size)-pos))
	if err != nil {
		return Entry{}, err
	}
	le := binary.LittleEndian
	e := Entry{Index: i, Namespace: b[3]}
	mime := le.Uint16(b[0:])
	var rest []byte
	switch mime {
	case mimeRedirect:
		e.Redirect = true
		e.target = le.Uint32(b[8:])
		rest = b[12:]
	case mimeLinkTarget, mimeDeleted:
		rest = b[8:]
	default:
		if int(mime) >= len(a.mimes) {
			return Entry{}, corrupt("entry %d has MIME type %d of %d", i, mime, len(a.mimes))
		}
		if len(b) < 16 {
			return Entry{}, corrupt("entry %d is cut short", i)
		}
		e.MIME = a.mimes[mime]
		e.cluster, e.blob = le.Uint32(b[8:]), le.Uint32(b[12:])
		rest = b[16:]
	}
	var ok bool
	if e.Path, rest, ok = cstring(rest); !ok {
		return Entry{}, corrupt("entry %d has no end to its path", i)
	}
	if e.Title, _, ok = cstring(rest); !ok {
		return Entry{}, corrupt("entry %d has no end to its title", i)
	}
	if e.Title == "" {
		e.Title = e.Path
	}
	return e, nil
}

func cstring(b []byte) (string, []byte, bool) {
	i := bytes.IndexByte(b, 0)
	if i < 0 {
		return "", nil, false
	}
	return string(b[:i]), b[i+1:], true
}

// entryByTitle reads the i-th entry in title order.
func (a *Archive) entryByTitle(i uint32) (Entry, error) {
	p, err := a.readAt(a.h.titlePtrPos+4*uint64(i), 4)
	if err != nil {
		return Entry{}, err
	}
	return a.EntryAt(binary.LittleEndian.Uint32(p))
}

// Resolve follows redirects to the entry with content.
func (a *Archive) Resolve(e Entry) (Entry, error) {
	for range maxRedirects {
		if !e.Redirect {
			return e, nil
		}
		next, err := a.EntryAt(e.target)
		if err != nil {
			return Entry{}, err
		}
		e = next
	}
	return Entry{}, corrupt("more than %d redirects from %q", maxRedirects, e.Path)
}

// MainPage is the entry the file names as its main page.
func (a *Archive) MainPage() (Entry, error) {
	if a.h.mainPage == 0xffffffff {
		return Entry{}, errors.New("the ZIM file names no main page")
	}
	e, err := a.EntryAt(a.h.mainPage)
	if err != nil {
		return Entry{}, err
	}
	return a.Resolve(e)
}

// Titles returns up to limit entries of namespace ns whose titles start
// with prefix, in title order (byte order: case matters). The title index
// is binary-searched, so a lookup reads about log2(entries) entries.
func (a *Archive) Titles(ctx context.Context, ns byte, prefix string, limit int) ([]Entry, error) {
	less := func(e Entry) bool { // e sorts before (ns, prefix)
		if e.Namespace != ns {
			return e.Namespace < ns
		}
		return e.Title < prefix
	}
	lo, hi := uint32(0), a.h.entryCount
	for lo < hi {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		mid := lo + (hi-lo)/2
		e, err := a.entryByTitle(mid)
		if err != nil {
			return nil, err
		}
		if less(e) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	var out []Entry
	// Read on while titles match; entries without text (images, scripts)
	// are passed over, but only a bounded number of them.
	for i, skipped := lo, 0; i < a.h.entryCount && len(out) < limit && skipped < 10*limit+100; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		e, err := a.entryByTitle(i)
		if err != nil {
			return nil, err
		}
		if e.Namespace != ns || !strings.HasPrefix(e.Title, prefix) {
			break
		}
		if e.Redirect || IsText(e.MIME) {
			out = append(out, e)
		} else {
			skipped++
		}
	}
	return out, nil
}

// IsText reports whether an entry of this MIME type is a page to read.
func IsText(mime string) bool {
	mime, _, _ = strings.Cut(mime, ";")
	return mime == "text/html" || mime == "text/plain"
}

// Content returns the content of e (after its redirects), at most max
// bytes of it; truncated says whether there was more.
func (a *Archive) Content(e Entry, max int) (data []byte, truncated bool, err error) {
	e, err = a.Resolve(e)
	if err != nil {
		return nil, false, err
	}
	if e.MIME == "" {
		return nil, false, fmt.Errorf("entry %q has no content", e.Path)
	}
	if e.cluster >= a.h.clusterCount {
		return nil, false, corrupt("entry %q is in cluster %d of %d", e.Path, e.cluster, a.h.clusterCount)
	}
	p, err := a.readAt(a.h.clusterPtrPos+8*uint64(e.cluster), 8)
	if err != nil {
		return nil, false, err
	}
	pos := binary.LittleEndian.Uint64(p)
	if !a.within(pos, 1) {
		return nil, false, corrupt("cluster %d lies outside the file", e.cluster)
	}
	info, err := a.readAt(pos, 1)
	if err != nil {
		return nil, false, err
	}
	body := io.NewSectionReader(a.r, int64(pos)+1, a.size-int64(pos)-1)
	r, closeFn, err := decompressor(info[0]&0x0f, body)
	if err != nil {
		return nil, false, fmt.Errorf("cluster %d: %w", e.cluster, err)
	}
	defer closeFn()
	return readBlob(r, info[0]&0x10 != 0, e.blob, max)
}

// readBlob reads blob n of a cluster's (decompressed) data: a list of
// offsets (the first one is the list's own length) followed by the blobs.
// It reads no further than the blob's end and never past MaxDecompressed.
func readBlob(r io.Reader, extended bool, n uint32, max int) ([]byte, bool, error) {
	w := uint64(4)
	if extended {
		w = 8
	}
	off := func(b []byte) uint64 {
		if extended {
			return binary.LittleEndian.Uint64(b)
		}
		return uint64(binary.LittleEndian.Uint32(b))
	}
	first := make([]byte, w)
	if _, err := io.ReadFull(r, first); err != nil {
		return nil, false, clusterErr(err)
	}
	listLen := off(first)
	if listLen%w != 0 || listLen < 2*w || listLen > MaxDecompressed {
		return nil, false, corrupt("a cluster's offset list is %d bytes long", listLen)
	}
	if uint64(n)+2 > listLen/w {
		return nil, false, corrupt("blob %d of %d", n, listLen/w-1)
	}
	// The offsets up to the blob's end.
	rest := make([]byte, (uint64(n)+1)*w)
	if _, err := io.ReadFull(r, rest); err != nil {
		return nil, false, clusterErr(err)
	}
	offs := append(first, rest...)
	start, end := off(offs[uint64(n)*w:]), off(offs[uint64(n+1)*w:])
	read := (uint64(n) + 2) * w
	if start < listLen || end < start || end > MaxDecompressed {
		return nil, false, corrupt("blob %d runs from %d to %d", n, start, end)
	}
	if _, err := io.CopyN(io.Discard, r, int64(start-read)); err != nil {
		return nil, false, clusterErr(err)
	}
	size := end - start
	truncated := size > uint64(max)
	size = min(size, uint64(max))
	b := make([]byte, size)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, false, clusterErr(err)
	}
	return b, truncated, nil
}

func clusterErr(err error) error {
	switch {
	case errors.Is(err, ErrCorrupt):
		return err
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return corrupt("a cluster ends too soon")
	}
	return fmt.Errorf("%w: a cluster cannot be decompressed: %w", ErrCorrupt, err)
}
