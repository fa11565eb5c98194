package importer

import (
	"encoding/binary"
	"io"
)

// maxCompoundEntries bounds the entries of an HWP file's compound-file
// directory, as maxOfficeEntries bounds a ZIP archive's parts: mscfb reads
// every entry into memory, and walks the tree of them by recursion, before
// a stream can be opened, about 680 bytes of memory for each 128 bytes of
// the file, so a 129 MB file of a million empty entries peaked at 727 MiB
// (+683 MB, past the 512 MB a file may cost) only to be found damaged.
// An HWP file holds tens of entries, a picture each besides its streams.
const maxCompoundEntries = maxOfficeEntries

// checkCompoundDirectory counts the directory's sectors along their chain
// in the FAT, as mscfb will read them, and fails past maxCompoundEntries
// entries. What mscfb refuses anyway (a header it does not read, a chain
// that leaves the file or loops) is left to it to say: damaged.
func checkCompoundDirectory(ra io.ReaderAt, size int64) error {
	le := binary.LittleEndian
	var h [512]byte
	if _, err := ra.ReadAt(h[:], 0); err != nil {
		return nil
	}
	shift := le.Uint16(h[30:])
	if shift != 9 && shift != 12 {
		return nil
	}
	secSize := int64(1) << shift
	sectors := size / secSize // at most, in the file
	perFAT := uint32(secSize / 4)
	numFAT, firstDir := le.Uint32(h[44:]), le.Uint32(h[48:])
	nextDIFAT, numDIFAT := le.Uint32(h[68:]), le.Uint32(h[72:])
	if int64(numFAT) > sectors {
		return nil
	}
	// The FAT's sectors: 109 in the header, the rest on the DIFAT's chain.
	fat := make([]uint32, 0, numFAT)
	for i := 0; i < 109 && uint32(len(fat)) < numFAT; i++ {
		fat = append(fat, le.Uint32(h[76+4*i:]))
	}
	buf := make([]byte, secSize)
	for k := uint32(0); k < numDIFAT && uint32(len(fat)) < numFAT && nextDIFAT < 0xFFFFFFFA; k++ {
		if int64(nextDIFAT) >= sectors {
			return nil
		}
		if _, err := ra.ReadAt(buf, (int64(nextDIFAT)+1)*secSize); err != nil {
			return nil
		}
		for i := uint32(0); i < perFAT-1 && uint32(len(fat)) < numFAT; i++ {
			fat = append(fat, le.Uint32(buf[4*i:]))
		}
		nextDIFAT = le.Uint32(buf[secSize-4:])
	}
	// The directory's chain, each sector secSize/128 entries.
	most := maxCompoundEntries / (secSize / 128)
	seen := map[uint32]bool{}
	var next [4]byte
	for s := firstDir; s < 0xFFFFFFFA; {
		if seen[s] {
			return nil // a loop: mscfb says damaged
		}
		seen[s] = true
		if int64(len(seen)) > most {
			return &OfficeLimitError{What: "number of parts"}
		}
		i := s / perFAT
		if int(i) >= len(fat) || int64(fat[i]) >= sectors {
			return nil
		}
		if _, err := ra.ReadAt(next[:], (int64(fat[i])+1)*secSize+int64(s%perFAT)*4); err != nil {
			return nil
		}
		s = le.Uint32(next[:])
	}
	return nil
}
