// Package hwptest writes small HWP 5.0 files for the tests of the
// importer and of the library's memory: an OLE compound file holding a
// FileHeader, DocInfo and BodyText sections of records, or a distribution
// document's (배포용 문서) ViewText sections, encrypted as Hancom does.
//
// It holds its own writer of compound files because the Go ecosystem has
// none that is kept up (mscfb, which Wayfinder reads them with, only
// reads; the writers found are abandoned forks), and the tests need files
// no program on this machine writes: a compound file of version 3 with
// 512-byte sectors, streams under 4,096 bytes in the mini stream, one
// level of storages, a FAT of at most 109 sectors (files up to about
// 7 MB). It is for tests only and trusts what it is given.
package hwptest

import (
	"bytes"
	"compress/flate"
	"crypto/aes"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"strings"
	"unicode/utf16"
)

// Stream is one stream of a compound file: its path ("FileHeader",
// "BodyText/Section0") and its bytes.
type Stream struct {
	Path string
	Data []byte
}

const (
	sector     = 512
	miniSector = 64
	miniCutoff = 4096
	endOfChain = 0xFFFFFFFE
	freeSect   = 0xFFFFFFFF
	fatSect    = 0xFFFFFFFD
	noStream   = 0xFFFFFFFF
)

type entry struct {
	name         string
	kind         byte // 1 storage, 2 stream, 5 root
	child, right uint32
	start        uint32
	size         uint64
	data         []byte
	parent       int
}

// CFB is a compound file holding streams, each under the root or one
// storage, in the order given.
func CFB(streams []Stream) []byte {
	entries := []*entry{{name: "Root Entry", kind: 5, child: noStream, right: noStream, parent: -1}}
	storages := map[string]int{}
	lastChild := map[int]int{} // of each storage
	add := func(e *entry, parent int) int {
		i := len(entries)
		entries = append(entries, e)
		e.child, e.right, e.parent = noStream, noStream, parent
		// the last child of the parent links to it as its right sibling
		last, ok := lastChild[parent]
		lastChild[parent] = i
		if !ok {
			entries[parent].child = uint32(i)
		} else {
			entries[last].right = uint32(i)
		}
		return i
	}
	for _, s := range streams {
		parent := 0
		name := s.Path
		if dir, base, ok := strings.Cut(s.Path, "/"); ok {
			p, seen := storages[dir]
			if !seen {
				p = add(&entry{name: dir, kind: 1}, 0)
				storages[dir] = p
			}
			parent, name = p, base
		}
		add(&entry{name: name, kind: 2, data: s.Data, size: uint64(len(s.Data))}, parent)
	}

	var (
		fat     []uint32
		body    bytes.Buffer // the sectors after the header, in order
		mini    bytes.Buffer // the mini stream
		miniFAT []uint32
	)
	chain := func(data []byte) uint32 { // regular sectors
		if len(data) == 0 {
			return endOfChain
		}
		start := uint32(len(fat))
		n := (len(data) + sector - 1) / sector
		for k := range n {
			next := uint32(len(fat) + 1)
			if k == n-1 {
				next = endOfChain
			}
			fat = append(fat, next)
		}
		body.Write(data)
		body.Write(make([]byte, n*sector-len(data)))
		return start
	}
	for _, e := range entries[1:] {
		if e.kind != 2 {
			e.start = endOfChain
			continue
		}
		if len(e.data) >= miniCutoff {
			e.start = chain(e.data)
			continue
		}
		if len(e.data) == 0 {
			e.start = endOfChain
			continue
		}
		e.start = uint32(len(miniFAT))
		n := (len(e.data) + miniSector - 1) / miniSector
		for k := range n {
			next := uint32(len(miniFAT) + 1)
			if k == n-1 {
				next = endOfChain
			}
			miniFAT = append(miniFAT, next)
		}
		mini.Write(e.data)
		mini.Write(make([]byte, n*miniSector-len(e.data)))
	}
	root := entries[0]
	root.start, root.size = chain(mini.Bytes()), uint64(mini.Len())
	miniFATStart, miniFATSectors := uint32(endOfChain), 0
	if len(miniFAT) > 0 {
		for len(miniFAT)%(sector/4) != 0 {
			miniFAT = append(miniFAT, freeSect)
		}
		miniFATStart = chain(u32s(miniFAT))
		miniFATSectors = len(miniFAT) / (sector / 4)
	}
	var dir bytes.Buffer
	for _, e := range entries {
		dir.Write(e.bytes())
	}
	for dir.Len()%sector != 0 {
		dir.Write((&entry{child: noStream, right: noStream}).bytes())
	}
	dirStart := chain(dir.Bytes())

	// The FAT covers every sector, its own included.
	fatSectors := 0
	for (len(fat)+fatSectors+sector/4-1)/(sector/4) > fatSectors {
		fatSectors++
	}
	if fatSectors > 109 {
		panic("hwptest: file too large for a FAT without DIFAT sectors")
	}
	first := uint32(len(fat))
	for range fatSectors {
		fat = append(fat, fatSect)
	}
	for len(fat)%(sector/4) != 0 {
		fat = append(fat, freeSect)
	}
	body.Write(u32s(fat))

	h := make([]byte, sector)
	copy(h, []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1})
	le := binary.LittleEndian
	le.PutUint16(h[24:], 0x3E)
	le.PutUint16(h[26:], 3)
	le.PutUint16(h[28:], 0xFFFE)
	le.PutUint16(h[30:], 9)
	le.PutUint16(h[32:], 6)
	le.PutUint32(h[44:], uint32(fatSectors))
	le.PutUint32(h[48:], dirStart)
	le.PutUint32(h[56:], miniCutoff)
	le.PutUint32(h[60:], miniFATStart)
	le.PutUint32(h[64:], uint32(miniFATSectors))
	le.PutUint32(h[68:], endOfChain)
	for k := range 109 {
		v := uint32(freeSect)
		if k < fatSectors {
			v = first + uint32(k)
		}
		le.PutUint32(h[76+4*k:], v)
	}
	return append(h, body.Bytes()...)
}

func (e *entry) bytes() []byte {
	b := make([]byte, 128)
	le := binary.LittleEndian
	if e.name != "" {
		u := utf16.Encode([]rune(e.name))
		for k, c := range u {
			le.PutUint16(b[2*k:], c)
		}
		le.PutUint16(b[64:], uint16(2*len(u)+2))
	}
	b[66], b[67] = e.kind, 1
	le.PutUint32(b[68:], noStream)
	le.PutUint32(b[72:], e.right)
	le.PutUint32(b[76:], e.child)
	le.PutUint32(b[116:], e.start)
	le.PutUint64(b[120:], e.size)
	return b
}

func u32s(v []uint32) []byte {
	b := make([]byte, 4*len(v))
	for k, x := range v {
		binary.LittleEndian.PutUint32(b[4*k:], x)
	}
	return b
}

// FileHeader property flags.
const (
	Compressed   = 1 << 0
	Password     = 1 << 1
	Distribution = 1 << 2
	DRM          = 1 << 4
)

// FileHeader is the FileHeader stream of version 5.0.3.0 with flags.
func FileHeader(flags uint32) []byte {
	b := make([]byte, 256)
	copy(b, "HWP Document File")
	binary.LittleEndian.PutUint32(b[32:], 0x05000300)
	binary.LittleEndian.PutUint32(b[36:], flags)
	return b
}

// Record tags.
const (
	TagDistributeDocData = 0x10 + 12
	TagNumbering         = 0x10 + 7
	TagParaShape         = 0x10 + 9
	TagStyle             = 0x10 + 10
	TagParaHeader        = 0x10 + 50
	TagParaText          = 0x10 + 51
	TagCharShape         = 0x10 + 52
	TagCtrlHeader        = 0x10 + 55
	TagListHeader        = 0x10 + 56
	TagTable             = 0x10 + 61
	TagNoteShape         = 0x10 + 58
)

// Record is one record: its header (a 32-bit size after it when the size
// does not fit in 12 bits) and data.
func Record(tag, level int, data []byte) []byte {
	size := len(data)
	var b []byte
	if size >= 0xFFF {
		b = binary.LittleEndian.AppendUint32(b, uint32(tag|level<<10|0xFFF<<20))
		b = binary.LittleEndian.AppendUint32(b, uint32(size))
	} else {
		b = binary.LittleEndian.AppendUint32(b, uint32(tag|level<<10|size<<20))
	}
	return append(b, data...)
}

// UTF16 is s as UTF-16LE.
func UTF16(s string) []byte {
	var b []byte
	for _, c := range utf16.Encode([]rune(s)) {
		b = binary.LittleEndian.AppendUint16(b, c)
	}
	return b
}

// Control is an inline or extended control's eight codes: code, the
// control's id (4 bytes), 8 bytes of parameters, code.
func Control(code uint16, id string) []byte {
	b := binary.LittleEndian.AppendUint16(nil, code)
	b = append(b, []byte((id + "    ")[:4])...)
	b = append(b, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF, 0x11, 0x22) // parameters that are not text
	return binary.LittleEndian.AppendUint16(b, code)
}

// Para is a paragraph at level of style and paragraph shape whose text
// record holds text (UTF-16LE with controls, see UTF16 and Control) and
// the paragraph's end.
func Para(level, style, shape int, text ...[]byte) []byte {
	h := make([]byte, 22)
	binary.LittleEndian.PutUint16(h[8:], uint16(shape))
	h[10] = byte(style)
	t := bytes.Join(text, nil)
	t = binary.LittleEndian.AppendUint16(t, 13)
	binary.LittleEndian.PutUint32(h, uint32(len(t)/2))
	out := Record(TagParaHeader, level, h)
	out = append(out, Record(TagParaText, level+1, t)...)
	return append(out, Record(TagCharShape, level+1, make([]byte, 8))...)
}

// Table is a paragraph at level holding caption text and a table of
// rows, each cell a list of paragraphs (one per string).
func Table(level int, caption string, rows [][][]string) []byte {
	cells := make([][][]byte, len(rows))
	for r, row := range rows {
		for _, cell := range row {
			var b []byte
			for _, p := range cell {
				b = append(b, Para(level+2, 0, 0, UTF16(p))...)
			}
			cells[r] = append(cells[r], b)
		}
	}
	return TableOf(level, caption, cells)
}

// TableOf is Table with each cell's records given (paragraphs at level+2,
// a table inside it at level+2 too).
func TableOf(level int, caption string, rows [][][]byte) []byte {
	out := Para(level, 0, 0, UTF16(caption), Control(11, " lbt"))
	ctrl := binary.LittleEndian.AppendUint32(nil, uint32('t')<<24|uint32('b')<<16|uint32('l')<<8|uint32(' '))
	out = append(out, Record(TagCtrlHeader, level+1, append(ctrl, make([]byte, 40)...))...)
	t := binary.LittleEndian.AppendUint32(nil, 0)
	t = binary.LittleEndian.AppendUint16(t, uint16(len(rows)))
	t = binary.LittleEndian.AppendUint16(t, uint16(len(rows[0])))
	out = append(out, Record(TagTable, level+2, append(t, make([]byte, 20)...))...)
	for r, row := range rows {
		for c, cell := range row {
			lh := binary.LittleEndian.AppendUint16(nil, 1)
			lh = append(lh, 0, 0, 0, 0, 0, 0)
			lh = binary.LittleEndian.AppendUint16(lh, uint16(c))
			lh = binary.LittleEndian.AppendUint16(lh, uint16(r))
			lh = append(lh, 1, 0, 1, 0)
			out = append(out, Record(TagListHeader, level+2, append(lh, make([]byte, 20)...))...)
			out = append(out, cell...)
		}
	}
	return out
}

// Style is a DocInfo style record named name (and English name eng).
func Style(name, eng string) []byte {
	var b []byte
	for _, n := range []string{name, eng} {
		u := UTF16(n)
		b = binary.LittleEndian.AppendUint16(b, uint16(len(u)/2))
		b = append(b, u...)
	}
	b = append(b, 0, 0, 0x12, 0x04, 0, 0, 0, 0)
	return Record(TagStyle, 1, b)
}

// ParaShape is a DocInfo paragraph shape record: an outline paragraph
// (개요 문단) of level (1–7) when level > 0.
func ParaShape(level int) []byte {
	var p uint32
	if level > 0 {
		p = 1<<23 | uint32(level-1)<<25
	}
	b := binary.LittleEndian.AppendUint32(nil, p)
	return Record(TagParaShape, 1, append(b, make([]byte, 50)...))
}

// Paragraph heads of ParaShapeHead.
const (
	HeadNone = iota
	HeadOutline
	HeadNumber
	HeadBullet
)

// ParaShapeHead is a DocInfo paragraph shape record whose paragraphs'
// head is kind (HeadOutline: 개요 번호, HeadNumber: 문단 번호) at level
// (0–6) of numbering (from 1).
func ParaShapeHead(kind, numbering, level int) []byte {
	b := binary.LittleEndian.AppendUint32(nil, uint32(kind)<<23|uint32(level)<<25)
	b = append(b, make([]byte, 26)...) // margins, spacing, the tab definition
	b = binary.LittleEndian.AppendUint16(b, uint16(numbering))
	return Record(TagParaShape, 1, append(b, make([]byte, 22)...))
}

// Level is one level of a numbering: its number shape (HWP's code: 0
// digits, 1 circled digits, 8 가나다 …), its text ("^1.") and start.
type Level struct {
	Shape int
	Text  string
	Start uint32
}

// NumberingData is the data of a NUMBERING record of levels: seven, or
// ten (한글 2010's) when more than seven are given, each level's start
// after the first seven and after the last three.
func NumberingData(levels ...Level) []byte {
	all := make([]Level, 7)
	if len(levels) > 7 {
		all = make([]Level, 10)
	}
	copy(all, levels)
	head := func(b []byte, l Level) []byte {
		b = binary.LittleEndian.AppendUint32(b, uint32(l.Shape)<<5)
		b = append(b, 0, 0, 50, 0, 0xFF, 0xFF, 0xFF, 0xFF) // width, distance, no character shape
		u := UTF16(l.Text)
		b = binary.LittleEndian.AppendUint16(b, uint16(len(u)/2))
		return append(b, u...)
	}
	var b []byte
	for _, l := range all[:7] {
		b = head(b, l)
	}
	b = binary.LittleEndian.AppendUint16(b, 1)
	for _, l := range all[:7] {
		b = binary.LittleEndian.AppendUint32(b, l.Start)
	}
	if len(all) > 7 {
		for _, l := range all[7:] {
			b = head(b, l)
		}
		for _, l := range all[7:] {
			b = binary.LittleEndian.AppendUint32(b, l.Start)
		}
	}
	return b
}

// Numbering is a DocInfo NUMBERING record (NumberingData).
func Numbering(levels ...Level) []byte { return Record(TagNumbering, 1, NumberingData(levels...)) }

// NoteShape is how a section numbers its footnotes or endnotes: the
// number shape (as Level's; 0x80 four symbols, 0x81 User), the start, and
// Restart (each section from the start) or PerPage.
type NoteShape struct {
	Shape         int
	User          rune
	Start         uint16
	Restart, Page bool
}

// SectionDef is the records of a section's definition (the "secd"
// control of the section's first paragraph, at level+1): its outline's
// numbering (from 1) and its footnotes' and endnotes' shapes.
func SectionDef(level, outline int, foot, end NoteShape) []byte {
	b := []byte("dces")
	b = append(b, make([]byte, 14)...) // properties, the columns' gap, lines, the tab stop
	b = binary.LittleEndian.AppendUint16(b, uint16(outline))
	b = append(b, make([]byte, 10)...) // the page, picture, table, equation starts; the language
	out := Record(TagCtrlHeader, level+1, b)
	for _, n := range []NoteShape{foot, end} {
		p := uint32(n.Shape)
		switch {
		case n.Restart:
			p |= 1 << 10
		case n.Page:
			p |= 2 << 10
		}
		d := binary.LittleEndian.AppendUint32(nil, p)
		d = binary.LittleEndian.AppendUint16(d, uint16(n.User))
		d = append(d, 0, 0, ')', 0) // nothing before the number, ")" after
		d = binary.LittleEndian.AppendUint16(d, n.Start)
		out = append(out, Record(TagNoteShape, level+2, append(d, make([]byte, 16)...))...)
	}
	return out
}

// Note is the records of a footnote (an endnote when end is set) of the
// paragraph at level: the control (at level+1) and its paragraphs, the
// first opening with the note's number (an automatic number control).
// Its mark in the paragraph's text is Control(17, "  nf") ("  ne").
func Note(level int, end bool, paras ...string) []byte {
	id := "  nf"
	if end {
		id = "  ne"
	}
	h := append([]byte(id), 1, 0, 0, 0, 0, 0, ')', 0, 0, 0, 0, 0, 7, 0, 0, 0)
	out := Record(TagCtrlHeader, level+1, h)
	lh := binary.LittleEndian.AppendUint32(nil, uint32(len(paras)))
	out = append(out, Record(TagListHeader, level+2, append(lh, make([]byte, 8)...))...)
	for i, p := range paras {
		var num []byte
		if i == 0 {
			num = Control(18, "onta")
		}
		out = append(out, Para(level+2, 0, 0, num, UTF16(p))...)
	}
	return out
}

// NewNumber is the control (at level+1 of its paragraph, whose text
// holds Control(21, "onwn")) that numbers the next of kind (0 pages, 1
// footnotes, 2 endnotes) num.
func NewNumber(level, kind int, num uint16) []byte {
	b := binary.LittleEndian.AppendUint32([]byte("onwn"), uint32(kind))
	return Record(TagCtrlHeader, level+1, binary.LittleEndian.AppendUint16(b, num))
}

// Deflate is data compressed as HWP compresses its streams: raw deflate.
func Deflate(data []byte) []byte {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	w.Write(data)
	w.Close()
	return b.Bytes()
}

// File is an HWP file of flags whose DocInfo holds docInfo's records and
// whose sections hold the records given, compressed when flags say so;
// with Distribution, the sections are ViewText's, encrypted (Distribute)
// each with a seed of its own.
func File(flags uint32, docInfo []byte, sections ...[]byte) []byte {
	pack := func(b []byte) []byte {
		if flags&Compressed != 0 {
			return Deflate(b)
		}
		return b
	}
	storage := "BodyText/Section"
	if flags&Distribution != 0 {
		// DocInfo holds the key record too (not read: each section
		// holds its own).
		docInfo = append(DistributeDocData(0x5EED0000, "DocInfo"), docInfo...)
		storage = "ViewText/Section"
	}
	streams := []Stream{{"FileHeader", FileHeader(flags)}, {"DocInfo", pack(docInfo)}}
	// Sections are listed last first: reading order is their number's.
	for i := len(sections) - 1; i >= 0; i-- {
		data := pack(sections[i])
		if flags&Distribution != 0 {
			data = Distribute(0x9E3779B9*uint32(i+1), data)
		}
		streams = append(streams, Stream{storage + itoa(i), data})
	}
	return CFB(streams)
}

// Distribute is a section's stream (deflated or not) as a distribution
// document (배포용 문서) keeps it in ViewText: a DISTRIBUTE_DOC_DATA
// record hiding the AES-128 key, drawn from seed, then the stream
// encrypted with it in ECB mode, padded with zeros to whole blocks.
func Distribute(seed uint32, stream []byte) []byte {
	out := DistributeDocData(seed, string(stream))
	block, err := aes.NewCipher(DistKey(out[4:]))
	if err != nil {
		panic(err)
	}
	data := append([]byte(nil), stream...)
	data = append(data, make([]byte, (aes.BlockSize-len(data)%aes.BlockSize)%aes.BlockSize)...)
	for i := 0; i < len(data); i += aes.BlockSize {
		block.Encrypt(data[i:i+aes.BlockSize], data[i:i+aes.BlockSize])
	}
	return append(out, data...)
}

// DistributeDocData is a DISTRIBUTE_DOC_DATA record as Hancom writes it:
// 256 bytes, the seed first, then bytes of rand() (MSVC's) among which,
// from 4 + the seed's low 4 bits, the SHA-1 of what is protected (here
// of hashed) as 40 hexadecimal digits in UTF-16LE (80 bytes); every byte
// after the seed XORed with KeyStream(seed).
func DistributeDocData(seed uint32, hashed string) []byte {
	data := make([]byte, 256)
	binary.LittleEndian.PutUint32(data, seed)
	r := seed ^ 0xA5A5A5A5
	for i := 4; i < len(data); i++ {
		r = r*1103515245 + 12345
		data[i] = byte(r >> 16)
	}
	sum := sha1.Sum([]byte(hashed))
	off := 4 + int(seed&0xF)
	copy(data[off:], UTF16(hex.EncodeToString(sum[:])))
	stream := KeyStream(seed)
	for i := 4; i < len(data); i++ {
		data[i] ^= stream[i]
	}
	return Record(TagDistributeDocData, 0, data)
}

// KeyStream is the 256 bytes a DISTRIBUTE_DOC_DATA record of seed is
// XORed with: MSVC's rand() seeded with seed (seed = seed*214013 +
// 2531011, the value bits 16–30), each byte (a value's low 8 bits)
// repeated as many times as the next value's low 4 bits plus 1.
func KeyStream(seed uint32) []byte {
	rand := func() uint32 {
		seed = seed*214013 + 2531011
		return seed >> 16 & 0x7FFF
	}
	out := make([]byte, 0, 256)
	for len(out) < 256 {
		b := byte(rand())
		for n := rand()&0xF + 1; n > 0 && len(out) < 256; n-- {
			out = append(out, b)
		}
	}
	return out
}

// DistKey is the AES-128 key of a DISTRIBUTE_DOC_DATA record's data: the
// first 16 bytes of its hash, decoded.
func DistKey(data []byte) []byte {
	seed := binary.LittleEndian.Uint32(data)
	off := 4 + int(seed&0xF)
	stream := KeyStream(seed)
	key := make([]byte, 16)
	for i := range key {
		key[i] = data[off+i] ^ stream[off+i]
	}
	return key
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}
