package keyword

import "encoding/binary"

// plist is one term's posting list, compressed: (gap to the previous
// document, term frequency) pairs as uvarints, documents ascending. It is
// the snapshot's own encoding, so a loaded index points into the file's
// bytes instead of copying them. At 100k chunks the lists take about 20 MB
// this way where a []struct{doc, tf uint32} took 74 MB, which is most of
// what a keyword search process holds.
type plist struct {
	b    []byte
	n    uint32 // postings
	last uint32 // document of the last posting
}

// add appends a posting; doc is larger than every document in the list.
func (p *plist) add(doc, tf uint32) {
	gap := doc
	if p.n > 0 {
		gap = doc - p.last
	}
	p.b = binary.AppendUvarint(p.b, uint64(gap))
	p.b = binary.AppendUvarint(p.b, uint64(tf))
	p.last = doc
	p.n++
}

// cursor reads a list's postings in order (Search decodes them inline).
type cursor struct {
	b   []byte
	doc uint32
	i   int
}

func (p *plist) cursor() cursor { return cursor{b: p.b} }

// next returns the next posting; ok is false at the end.
func (c *cursor) next() (doc, tf uint32, ok bool) {
	if c.i >= len(c.b) {
		return 0, 0, false
	}
	var gap uint32
	gap, c.i = uvarint(c.b, c.i)
	c.doc += gap
	tf, c.i = uvarint(c.b, c.i)
	return c.doc, tf, true
}

// uvarint reads the value at b[i]: one byte for most gaps and frequencies.
// Lists are checked when built or loaded, so damage is not looked for.
func uvarint(b []byte, i int) (uint32, int) {
	if c := b[i]; c < 0x80 {
		return uint32(c), i + 1
	}
	return uvarintSlow(b, i)
}

func uvarintSlow(b []byte, i int) (uint32, int) {
	v, n := binary.Uvarint(b[i:])
	return uint32(v), i + n
}

// remapped is the list with documents renumbered by remap; documents that
// map to deleted are left out.
func (p *plist) remapped(remap []uint32, deleted uint32) plist {
	var out plist
	for c := p.cursor(); ; {
		doc, tf, ok := c.next()
		if !ok {
			return out
		}
		if n := remap[doc]; n != deleted {
			out.add(n, tf)
		}
	}
}
