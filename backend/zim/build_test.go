package zim

import (
	"bytes"
	"crypto/md5"
	"encoding/binary"
	"hash/crc32"
	"slices"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"
)

// testEntry is one entry of a ZIM file built by buildZIM.
type testEntry struct {
	ns          byte
	path, title string
	mime        string // "" with redirect set
	redirect    string // path of the target (same namespace)
	data        string
}

// zimSpec says how buildZIM lays out a file.
type zimSpec struct {
	minor    uint16
	comp     byte
	extended bool // 64-bit blob offsets
}

// buildZIM writes a ZIM file of the given entries, all content in one
// cluster, so that tests cover what zimwriterfs does not write (xz,
// uncompressed and extended clusters, the old layout) and can damage any
// part of a valid file.
func buildZIM(t testing.TB, s zimSpec, entries []testEntry) []byte {
	t.Helper()
	es := slices.Clone(entries)
	slices.SortFunc(es, func(a, b testEntry) int {
		if a.ns != b.ns {
			return int(a.ns) - int(b.ns)
		}
		return bytes.Compare([]byte(a.path), []byte(b.path))
	})
	index := map[string]int{}
	var mimes []string
	mimeIdx := map[string]int{}
	for i, e := range es {
		index[string(e.ns)+e.path] = i
		if e.mime != "" && mimeIdx[e.mime] == 0 {
			mimes = append(mimes, e.mime)
			mimeIdx[e.mime] = len(mimes)
		}
	}
	title := func(e testEntry) string {
		if e.title != "" {
			return e.title
		}
		return e.path
	}
	byTitle := make([]int, len(es))
	for i := range byTitle {
		byTitle[i] = i
	}
	slices.SortStableFunc(byTitle, func(a, b int) int {
		if es[a].ns != es[b].ns {
			return int(es[a].ns) - int(es[b].ns)
		}
		return bytes.Compare([]byte(title(es[a])), []byte(title(es[b])))
	})

	le := binary.LittleEndian
	// The cluster: offsets, then the blobs of the content entries in order.
	var blobs [][]byte
	blobOf := map[int]int{}
	for i, e := range es {
		if e.mime != "" {
			blobOf[i] = len(blobs)
			blobs = append(blobs, []byte(e.data))
		}
	}
	w := 4
	if s.extended {
		w = 8
	}
	var raw []byte
	off := uint64((len(blobs) + 1) * w)
	put := func(v uint64) {
		if s.extended {
			raw = le.AppendUint64(raw, v)
		} else {
			raw = le.AppendUint32(raw, uint32(v))
		}
	}
	for _, b := range blobs {
		put(off)
		off += uint64(len(b))
	}
	put(off)
	for _, b := range blobs {
		raw = append(raw, b...)
	}
	cluster := []byte{s.comp}
	if s.extended {
		cluster[0] |= 0x10
	}
	cluster = append(cluster, compress(t, s.comp, raw)...)

	var mimeList []byte
	for _, m := range mimes {
		mimeList = append(append(mimeList, m...), 0)
	}
	mimeList = append(mimeList, 0)
	var dirents [][]byte
	for i, e := range es {
		var d []byte
		if e.mime == "" {
			d = le.AppendUint16(d, mimeRedirect)
		} else {
			d = le.AppendUint16(d, uint16(mimeIdx[e.mime]-1))
		}
		d = append(d, 0, e.ns)
		d = le.AppendUint32(d, 0)
		if e.mime == "" {
			target, ok := index[string(e.ns)+e.redirect]
			if !ok {
				target = 1 << 20 // a dangling redirect
			}
			d = le.AppendUint32(d, uint32(target))
		} else {
			d = le.AppendUint32(d, 0)
			d = le.AppendUint32(d, uint32(blobOf[i]))
		}
		d = append(append(d, e.path...), 0)
		d = append(append(d, e.title...), 0)
		dirents = append(dirents, d)
	}

	n := len(es)
	mimePos := uint64(80)
	pathPtrPos := mimePos + uint64(len(mimeList))
	titlePtrPos := pathPtrPos + 8*uint64(n)
	direntPos := titlePtrPos + 4*uint64(n)
	pos := direntPos
	var pathPtrs, titlePtrs []byte
	for _, d := range dirents {
		pathPtrs = le.AppendUint64(pathPtrs, pos)
		pos += uint64(len(d))
	}
	for _, i := range byTitle {
		titlePtrs = le.AppendUint32(titlePtrs, uint32(i))
	}
	clusterPtrPos := pos
	clusterPos := clusterPtrPos + 8
	checksumPos := clusterPos + uint64(len(cluster))

	var f []byte
	f = le.AppendUint32(f, magic)
	f = le.AppendUint16(f, 6)
	f = le.AppendUint16(f, s.minor)
	f = append(f, bytes.Repeat([]byte{7}, 16)...)
	f = le.AppendUint32(f, uint32(n))
	f = le.AppendUint32(f, 1)
	for _, p := range []uint64{pathPtrPos, titlePtrPos, clusterPtrPos, mimePos} {
		f = le.AppendUint64(f, p)
	}
	f = le.AppendUint32(f, 0) // main page: the first entry
	f = le.AppendUint32(f, 0xffffffff)
	f = le.AppendUint64(f, checksumPos)
	f = append(f, mimeList...)
	f = append(f, pathPtrs...)
	f = append(f, titlePtrs...)
	for _, d := range dirents {
		f = append(f, d...)
	}
	f = le.AppendUint64(f, clusterPos)
	f = append(f, cluster...)
	sum := md5.Sum(f)
	return append(f, sum[:]...)
}

func compress(t testing.TB, comp byte, raw []byte) []byte {
	t.Helper()
	switch comp {
	case compXZ:
		var b bytes.Buffer
		w, err := xz.WriterConfig{DictCap: 1 << 20}.NewWriter(&b)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(raw); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	case compZstd:
		e, err := zstd.NewWriter(nil)
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		return e.EncodeAll(raw, nil)
	}
	return raw
}

// sampleEntries are the articles of the built files.
func sampleEntries() []testEntry {
	return []testEntry{
		{ns: 'C', path: "index", title: "Main page", mime: "text/html", data: "<p>main</p>"},
		{ns: 'C', path: "서울", mime: "text/html", data: "<p>서울은 대한민국의 수도이다.</p>"},
		{ns: 'C', path: "Seoul", redirect: "서울"},
		{ns: 'C', path: "logo.png", mime: "image/png", data: "\x89PNG"},
		{ns: 'C', path: "go", title: "Go (programming language)", mime: "text/html", data: "<p>Go is a language.</p>"},
		{ns: 'M', path: "Title", mime: "text/plain", data: "Test"},
	}
}

func crc32IEEE(b []byte) uint32 { return crc32.ChecksumIEEE(b) }
