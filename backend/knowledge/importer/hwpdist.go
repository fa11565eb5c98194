package importer

import (
	"crypto/aes"
	"crypto/cipher"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// A Hancom distribution document (배포용 문서: how Korean government and
// institution notices are often sent, read-only in Hancom's viewer)
// keeps its body in ViewText/Section0…N rather than BodyText. Each such
// stream opens with a DISTRIBUTE_DOC_DATA record of 256 bytes that hides
// the key, then holds the section's stream (deflated when the file is
// compressed) encrypted with AES-128 in ECB mode. The key is no secret:
// Hancom's published format (한글 문서 파일 형식: 배포용 문서) says how a
// reader finds it, and the readers of the format (pyhwp, hwp.js, hwp-rs)
// do as this file does. A password-protected file is another matter:
// its key is the person's password, and it stays office_encrypted.

const (
	hwpTagDistributeDocData = hwpTagBegin + 12
	hwpDistributeDocSize    = 256
)

// msvcRand is the C runtime's rand() of Microsoft Visual C, which Hancom
// drew the record's bytes with: the seed is the record's first 4 bytes.
type msvcRand uint32

func (s *msvcRand) next() uint32 {
	*s = *s*214013 + 2531011
	return uint32(*s>>16) & 0x7FFF
}

// hwpDistKey is the AES-128 key hidden in a DISTRIBUTE_DOC_DATA record's
// data (256 bytes): every byte after the seed is XORed with a stream of
// bytes, each drawn from rand() and repeated 1–16 times as the next
// rand() says; the decoded data holds, from 4 + the seed's low 4 bits, a
// hash of 80 bytes whose first 16 are the key.
func hwpDistKey(data []byte) []byte {
	r := msvcRand(binary.LittleEndian.Uint32(data))
	var stream [hwpDistributeDocSize]byte
	for i := 0; i < len(stream); {
		b := byte(r.next())
		for n := r.next()&0xF + 1; n > 0 && i < len(stream); n-- {
			stream[i] = b
			i++
		}
	}
	off := 4 + int(data[0]&0xF)
	key := make([]byte, aes.BlockSize)
	for i := range key {
		key[i] = data[off+i] ^ stream[off+i]
	}
	return key
}

// hwpDistReader decrypts a ViewText section: it reads the key record,
// then hands out the stream's AES blocks decrypted. A stream that ends
// within a block, or in its key record, is cut short; one that does not
// open with the key record is damaged.
type hwpDistReader struct {
	r     io.Reader
	block cipher.Block
	buf   []byte // decrypted bytes not handed out yet
	in    [32 << 10]byte
	err   error // after buf
}

// errCutBlock and errCutKey are a ViewText stream that ends within an
// AES block or within its key record. They are not io.ErrUnexpectedEOF,
// which a section's reader may take for the end of its padding
// (recordReader.padded).
var (
	errCutBlock = errors.New("the encrypted section is cut short within a block")
	errCutKey   = errors.New("a distribution document's key record is cut short")
)

func newHWPDistReader(r io.Reader) *hwpDistReader { return &hwpDistReader{r: r} }

func (d *hwpDistReader) Read(p []byte) (int, error) {
	if d.block == nil && d.err == nil {
		d.block, d.err = d.key()
	}
	for len(d.buf) == 0 {
		if d.err != nil {
			return 0, d.err
		}
		n, err := io.ReadFull(d.r, d.in[:])
		whole := n - n%aes.BlockSize
		for i := 0; i < whole; i += aes.BlockSize {
			d.block.Decrypt(d.in[i:i+aes.BlockSize], d.in[i:i+aes.BlockSize])
		}
		d.buf = d.in[:whole]
		switch {
		case whole < n:
			d.err = errCutBlock
		case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
			d.err = io.EOF
		case err != nil:
			d.err = err
		}
	}
	n := copy(p, d.buf)
	d.buf = d.buf[n:]
	return n, nil
}

// key reads the stream's key record.
func (d *hwpDistReader) key() (cipher.Block, error) {
	var h [4]byte
	if _, err := io.ReadFull(d.r, h[:]); err != nil {
		switch {
		case errors.Is(err, io.EOF):
			return nil, errors.New("a distribution document's section is empty, without its key record")
		case errors.Is(err, io.ErrUnexpectedEOF):
			return nil, errCutKey
		}
		return nil, err
	}
	v := binary.LittleEndian.Uint32(h[:])
	if tag, size := v&0x3FF, v>>20; tag != hwpTagDistributeDocData || size != hwpDistributeDocSize {
		return nil, fmt.Errorf("a distribution document's section does not open with its key record (a record of tag %d and %d bytes)", tag, size)
	}
	data := make([]byte, hwpDistributeDocSize)
	if _, err := io.ReadFull(d.r, data); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, errCutKey
		}
		return nil, err
	}
	return aes.NewCipher(hwpDistKey(data))
}
