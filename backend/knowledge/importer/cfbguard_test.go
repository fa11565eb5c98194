package importer

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer/hwptest"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer/internal/hostile"
)

// TestCompoundDirectoryIsBounded: an HWP file whose compound-file
// directory lists more entries than maxCompoundEntries fails on the limit
// before mscfb reads them all into memory (a 129 MB file of a million
// peaked at 727 MiB, now 46 MiB); one of pictures up to the limit is
// read; a directory chain that loops is still damaged, not past a limit.
func TestCompoundDirectoryIsBounded(t *testing.T) {
	file := func(pictures int) []byte {
		streams := []hwptest.Stream{{Path: "FileHeader", Data: hwptest.FileHeader(0)},
			{Path: "BodyText/Section0", Data: hwptest.Para(0, 0, 0, u16("본문"))}}
		for i := range pictures {
			streams = append(streams, hwptest.Stream{Path: fmt.Sprintf("BinData/BIN%04X.png", i+1)})
		}
		return hwptest.CFB(streams)
	}
	var loop strings.Builder
	for _, c := range hostile.Classes() {
		if c.File == "dirloop.hwp" {
			if err := c.Write(&loop, 1); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The first sector of the directory chained to itself.
	selfDir := file(10)
	dir := binary.LittleEndian.Uint32(selfDir[48:])
	fat0 := binary.LittleEndian.Uint32(selfDir[76:])
	binary.LittleEndian.PutUint32(selfDir[(int(fat0)+1)*512+int(dir)*4:], dir)
	for _, tc := range []struct {
		name string
		data []byte
		want string // "": imported
	}{
		{"a hundred pictures", file(100), ""},
		{"pictures up to the limit", file(maxCompoundEntries - 8), ""},
		{"past the limit", file(maxCompoundEntries), "limit"},
		{"a directory chain that loops", []byte(loop.String()), "damaged"},
		{"a directory sector chained to itself", selfDir, "damaged"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			docs, err := Importer{}.Import(context.Background(), "그림.hwp", tc.data)
			var limit *OfficeLimitError
			switch {
			case tc.want == "" && (err != nil || !strings.Contains(docs[0].Parts[0].Text, "본문")):
				t.Fatalf("err %v, want the text read", err)
			case tc.want == "limit" && !errors.As(err, &limit):
				t.Fatalf("err %v, want the limit", err)
			case tc.want == "damaged" && !errors.Is(err, ErrOfficeDamaged):
				t.Fatalf("err %v, want damaged", err)
			}
		})
	}
}
