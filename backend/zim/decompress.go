package zim

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz/lzma"
)

// Cluster compressions (the low four bits of a cluster's first byte).
const (
	compNone0 = 0
	compNone  = 1
	compZlib  = 2 // no longer written by libzim
	compBzip2 = 3 // no longer written by libzim
	compXZ    = 4
	compZstd  = 5
)

// decompressor returns the decompressed data of a cluster whose
// compressed bytes r gives, and what to call when done with it.
func decompressor(kind byte, r io.Reader) (io.Reader, func(), error) {
	nothing := func() {}
	switch kind {
	case compNone0, compNone:
		return r, nothing, nil
	case compXZ:
		xr, err := xzBlock(r)
		if err != nil {
			return nil, nothing, err
		}
		return xr, nothing, nil
	case compZstd:
		d, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
			zstd.WithDecoderMaxWindow(maxDict), zstd.WithDecoderMaxMemory(MaxDecompressed))
		if err != nil {
			return nil, nothing, fmt.Errorf("zstd: %w", err)
		}
		return d, d.Close, nil
	case compZlib, compBzip2:
		return nil, nothing, fmt.Errorf("compression %d (zlib or bzip2, from before 2012) is not supported", kind)
	}
	return nil, nothing, corrupt("unknown compression %d", kind)
}

// xzBlock reads an xz stream's header and its first block's header, checks
// that the block is plain LZMA2 with a dictionary of at most maxDict (the
// decoder allocates the dictionary the stream asks for at once), and
// returns a reader of that block's data. libzim writes each cluster as one
// stream of one block, so a blob beyond the first block is not read.
func xzBlock(r io.Reader) (io.Reader, error) {
	var sh [12]byte
	if _, err := io.ReadFull(r, sh[:]); err != nil {
		return nil, clusterErr(err)
	}
	if !bytes.Equal(sh[:6], []byte{0xfd, '7', 'z', 'X', 'Z', 0}) {
		return nil, corrupt("an xz cluster has no xz header")
	}
	if crc32.ChecksumIEEE(sh[6:8]) != binary.LittleEndian.Uint32(sh[8:]) {
		return nil, corrupt("an xz cluster's header fails its checksum")
	}
	var size [1]byte
	if _, err := io.ReadFull(r, size[:]); err != nil {
		return nil, clusterErr(err)
	}
	if size[0] == 0 {
		return bytes.NewReader(nil), nil // no block: an empty cluster
	}
	bh := make([]byte, (int(size[0])+1)*4)
	bh[0] = size[0]
	if _, err := io.ReadFull(r, bh[1:]); err != nil {
		return nil, clusterErr(err)
	}
	n := len(bh)
	if crc32.ChecksumIEEE(bh[:n-4]) != binary.LittleEndian.Uint32(bh[n-4:]) {
		return nil, corrupt("an xz block header fails its checksum")
	}
	flags := bh[1]
	if flags&0x3f != 0 { // one filter, no reserved bits
		return nil, fmt.Errorf("%w: an xz cluster uses filters other than LZMA2", ErrCorrupt)
	}
	rest := bh[2 : n-4]
	var ok bool
	for _, present := range []bool{flags&0x40 != 0, flags&0x80 != 0} { // compressed, uncompressed size
		if present {
			if _, rest, ok = uvarint(rest); !ok {
				return nil, corrupt("an xz block header is malformed")
			}
		}
	}
	id, rest, ok := uvarint(rest)
	if !ok || id != 0x21 {
		return nil, corrupt("an xz cluster uses a filter other than LZMA2")
	}
	plen, rest, ok := uvarint(rest)
	if !ok || plen != 1 || len(rest) < 1 {
		return nil, corrupt("an xz block header is malformed")
	}
	bits := rest[0] & 0x3f
	if bits > 40 {
		return nil, corrupt("an xz cluster's dictionary size is invalid")
	}
	dict := uint64(0xffffffff)
	if bits < 40 {
		dict = uint64(2|bits&1) << (bits/2 + 11)
	}
	if dict > maxDict {
		return nil, corrupt("an xz cluster asks for a %d MB dictionary (at most %d MB)", dict>>20, maxDict>>20)
	}
	lr, err := lzma.Reader2Config{DictCap: max(int(dict), lzma.MinDictCap)}.NewReader2(r)
	if err != nil {
		return nil, fmt.Errorf("%w: xz: %w", ErrCorrupt, err)
	}
	return lr, nil
}

// uvarint reads an xz multibyte integer (at most 9 bytes).
func uvarint(b []byte) (uint64, []byte, bool) {
	var v uint64
	for i := 0; i < len(b) && i < 9; i++ {
		v |= uint64(b[i]&0x7f) << (7 * i)
		if b[i]&0x80 == 0 {
			return v, b[i+1:], true
		}
	}
	return 0, nil, false
}
