package importer

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// TestRecordDoesNotCopyItsKeys: a record without a text key is written
// from its other keys in place, not from a copy of them in a new map,
// which doubled what a record of many keys (a dictionary saved as one
// object) costs parsed, past what parsedSize charges it: 1.7 million keys,
// 30 MB, peaked at 527 MiB through kb extract, 459 MiB without the copy.
// What record allocates is held to the text it writes and the sorted
// keys, which the copy's map passes.
func TestRecordDoesNotCopyItsKeys(t *testing.T) {
	for _, tc := range []struct {
		name string
		keys int
		with string // the keys besides the many: an id and a title, or none
	}{
		{"many keys", 200_000, ""},
		{"many keys, an id and a title", 200_000, `"_id":"d1","title":"사전",`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			b.WriteString("{" + tc.with)
			for i := range tc.keys {
				if i > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, `"단어%d":"뜻 %d"`, i, i)
			}
			b.WriteString("}")
			var v any
			d := json.NewDecoder(strings.NewReader(b.String()))
			d.UseNumber()
			if err := d.Decode(&v); err != nil {
				t.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			doc, ok, err := record("dict.json", v, 0)
			runtime.ReadMemStats(&after)
			if err != nil || !ok {
				t.Fatal(ok, err)
			}
			text := doc.Parts[0].Text
			if !strings.Contains(text, "단어199999: 뜻 199999\n") || strings.Contains(text, "_id") || strings.Contains(text, "title:") {
				t.Fatalf("text %.200q…", text)
			}
			// the text's builder (grown a quarter at a time: about five
			// times its length allocated in all, 29.7 MB here), the sorted
			// keys; the copy added 21 MB (50.7 MB)
			allocated := after.TotalAlloc - before.TotalAlloc
			bound := uint64(6*len(text) + 40*tc.keys)
			t.Logf("%d keys: %d bytes of text, %d allocated, bound %d", tc.keys, len(text), allocated, bound)
			if allocated > bound {
				t.Fatalf("record allocated %d bytes for %d bytes of text, want at most %d", allocated, len(text), bound)
			}
		})
	}
}
