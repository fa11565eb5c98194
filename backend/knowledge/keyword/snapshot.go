package keyword

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/wayfinder-app/wayfinder/backend/atomicfile"
)

// ErrBadSnapshot means a snapshot file is damaged or from another format
// version; the caller rebuilds the index from its database.
var ErrBadSnapshot = errors.New("keyword snapshot unusable")

const (
	snapshotMagic = "WFKW"
	// snapshotVersion changes with the format and with the terms the
	// analyzer makes, so a snapshot of older terms is rebuilt.
	// 2: one-syllable Korean stems ("책을" → "책").
	// 3: Korean words of three syllables or more give bigrams only.
	// 4: other spellings of loan words mapped to one (spelling.go).
	// 5: text brought to NFKC first (decomposed Hangul, full-width, ﬁ).
	// 6: bigrams across the spaces between Hangul words (spacing.go).
	// 7: and across a line break between them.
	// 8: a word spaced out letter by letter gives its own bigrams.
	snapshotVersion = 8
	maxStringLen    = 1 << 20
)

// Save writes the index to path atomically (a temporary file renamed over
// the old one), so a crash mid-save leaves the previous snapshot intact.
// stamp is stored verbatim; the caller uses it to tell whether the snapshot
// matches its database (e.g. a change counter).
func (ix *Index) Save(path, stamp string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("save keyword index: %w", err)
	}
	err := atomicfile.WriteWith(path, 0o600, func(w io.Writer) error { return ix.write(w, stamp) })
	if err != nil {
		return fmt.Errorf("save keyword index %q: %w", path, err)
	}
	return nil
}

type snapWriter struct {
	w   *bufio.Writer
	buf [binary.MaxVarintLen64]byte
}

func (s *snapWriter) uvarint(v uint64) {
	n := binary.PutUvarint(s.buf[:], v)
	s.w.Write(s.buf[:n])
}

func (s *snapWriter) str(v string) {
	s.uvarint(uint64(len(v)))
	s.w.WriteString(v)
}

func (ix *Index) write(f io.Writer, stamp string) error {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	crc := crc32.NewIEEE()
	bw := bufio.NewWriterSize(io.MultiWriter(f, crc), 1<<16)
	s := &snapWriter{w: bw}
	bw.WriteString(snapshotMagic)
	s.uvarint(snapshotVersion)
	var flags uint64
	if ix.analyzer.Stem {
		flags |= 1
	}
	if ix.analyzer.Stopwords {
		flags |= 2
	}
	s.uvarint(flags)
	s.uvarint(math.Float64bits(ix.params.K1))
	s.uvarint(math.Float64bits(ix.params.B))
	s.str(stamp)
	// Deleted documents are left out and the rest renumbered.
	remap := make([]uint32, len(ix.docs))
	s.uvarint(uint64(ix.live))
	next := uint32(0)
	for i, d := range ix.docs {
		if d.deleted {
			remap[i] = math.MaxUint32
			continue
		}
		remap[i] = next
		next++
		s.str(d.id)
		s.uvarint(uint64(d.length))
	}
	terms := make([]string, 0, len(ix.postings))
	for t := range ix.postings {
		terms = append(terms, t)
	}
	slices.Sort(terms)
	s.uvarint(uint64(len(terms)))
	for _, t := range terms {
		pl := ix.postings[t]
		if ix.deleted > 0 {
			live := pl.remapped(remap, math.MaxUint32)
			pl = &live
		}
		s.str(t)
		s.uvarint(uint64(pl.n))
		s.w.Write(pl.b) // the same encoding: gaps in ascending doc order, tf
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	var sum [4]byte
	binary.LittleEndian.PutUint32(sum[:], crc.Sum32())
	_, err := f.Write(sum[:])
	return err
}

// Load reads a snapshot written by Save and returns the index and its
// stamp. The posting lists stay in the bytes read (see plist).
func Load(path string) (*Index, string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", fmt.Errorf("load keyword index: %w", err)
	}
	ix, stamp, err := decode(data)
	if err != nil {
		return nil, "", fmt.Errorf("load keyword index %q: %w: %w", path, ErrBadSnapshot, err)
	}
	return ix, stamp, nil
}

type snapReader struct {
	b   []byte
	err error
}

func (r *snapReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = io.ErrUnexpectedEOF
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *snapReader) str() string {
	n := r.uvarint()
	if r.err != nil {
		return ""
	}
	if n > maxStringLen || n > uint64(len(r.b)) {
		r.err = io.ErrUnexpectedEOF
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

func decode(data []byte) (*Index, string, error) {
	if len(data) < len(snapshotMagic)+4 || string(data[:len(snapshotMagic)]) != snapshotMagic {
		return nil, "", errors.New("not a keyword snapshot")
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return nil, "", errors.New("checksum mismatch")
	}
	r := &snapReader{b: body[len(snapshotMagic):]}
	if v := r.uvarint(); v != snapshotVersion {
		return nil, "", fmt.Errorf("format version %d, want %d", v, snapshotVersion)
	}
	flags := r.uvarint()
	a := Analyzer{Stem: flags&1 != 0, Stopwords: flags&2 != 0}
	p := Params{K1: math.Float64frombits(r.uvarint()), B: math.Float64frombits(r.uvarint())}
	stamp := r.str()
	ix := New(a, p)
	ndocs := r.uvarint()
	if r.err != nil || ndocs > uint64(len(r.b)) {
		return nil, "", errors.New("truncated")
	}
	ix.byID = make(map[string]uint32, ndocs)
	ix.docs = make([]docInfo, 0, ndocs)
	ix.lens = make([]uint32, 0, ndocs)
	for i := uint64(0); i < ndocs && r.err == nil; i++ {
		ix.appendDoc(docInfo{id: r.str(), length: uint32(min(r.uvarint(), deletedLen-1))})
	}
	nterms := r.uvarint()
	if nterms > uint64(len(r.b)) {
		return nil, "", errors.New("term count larger than the file")
	}
	ix.postings = make(map[string]*plist, nterms)
	lists := make([]plist, nterms) // one allocation for all the list headers
	for i := uint64(0); i < nterms && r.err == nil; i++ {
		t := r.str()
		n := r.uvarint()
		if n > ndocs {
			return nil, "", errors.New("posting list longer than the document count")
		}
		start := r.b
		doc := uint64(0)
		for j := uint64(0); j < n && r.err == nil; j++ {
			gap := r.uvarint()
			if j > 0 && gap == 0 {
				return nil, "", errors.New("posting list out of order")
			}
			doc += gap
			if doc >= ndocs {
				return nil, "", errors.New("posting for an unknown document")
			}
			if tf := r.uvarint(); tf > math.MaxUint32 {
				return nil, "", errors.New("term frequency out of range")
			}
		}
		used := len(start) - len(r.b)
		// The full slice expression makes a later add copy the list
		// instead of writing over the next one.
		lists[i] = plist{b: start[:used:used], n: uint32(n), last: uint32(doc)}
		ix.postings[t] = &lists[i]
		ix.vocab++
		ix.hangul += hangulTerm(t)
	}
	if r.err != nil {
		return nil, "", r.err
	}
	if len(r.b) != 0 || len(ix.byID) != len(ix.docs) {
		return nil, "", errors.New("trailing data or duplicate ids")
	}
	return ix, stamp, nil
}
