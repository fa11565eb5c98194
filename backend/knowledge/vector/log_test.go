package vector

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestRecordRoundTrip(t *testing.T) {
	recs := []record{
		{op: opPut, id: "a", model: "bge-m3", text: "연차 휴가는 15일", meta: map[string]string{"source": "규정.pdf", "page": "3"}, vec: []float32{0.6, -0.8}},
		{op: opPut, id: "pending", text: "no vector yet"},
		{op: opDelete, id: "a"},
		{op: opPut, id: "", text: ""},
	}
	var d decoder
	for _, want := range recs {
		b := want.encode(nil)
		got, err := d.record(b[8:])
		if err != nil {
			t.Fatalf("decode %+v: %v", want, err)
		}
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(record{})); diff != "" {
			t.Errorf("round trip (-want +got):\n%s", diff)
		}
	}
}

func TestReadLogStopsAtCorruption(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v")
	var b []byte
	b = append(b, fileMagic...)
	b = (&record{op: opPut, id: "one", model: "m", vec: []float32{1}}).encode(b)
	good := len(b)
	b = (&record{op: opPut, id: "two", model: "m", vec: []float32{1}}).encode(b)
	b[len(b)-1] ^= 0xff // flip a bit in the second record's vector
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	var ids []string
	off, n, err := readLog(path, func(r record) { ids = append(ids, r.id) })
	if err != nil || n != 1 || off != int64(good) || !cmp.Equal(ids, []string{"one"}) {
		t.Fatalf("readLog = off %d n %d ids %v err %v; want off %d, [one]", off, n, ids, err, good)
	}
}

// FuzzDecodeRecord: no payload may panic the decoder or make it allocate
// beyond the payload's size.
func FuzzDecodeRecord(f *testing.F) {
	f.Add((&record{op: opPut, id: "a", model: "m", text: "텍스트", meta: map[string]string{"k": "v"}, vec: []float32{1, 0}}).encode(nil)[8:])
	f.Add((&record{op: opDelete, id: "x"}).encode(nil)[8:])
	f.Add([]byte{opPut, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, payload []byte) {
		var d decoder
		r, err := d.record(payload)
		if err != nil {
			return
		}
		if len(r.vec)*4 > len(payload) || len(r.id) > len(payload) {
			t.Fatalf("decoded more than the payload holds: %+v", r)
		}
		// What decodes must survive a round trip unchanged.
		r.vec = append([]float32(nil), r.vec...) // the decoder reuses its buffer
		again, err := d.record(r.encode(nil)[8:])
		if err != nil {
			t.Fatalf("re-decode: %v", err)
		}
		if !cmp.Equal(r, again, cmp.AllowUnexported(record{}), cmpopts.EquateNaNs()) {
			t.Fatalf("round trip changed the record:\n%+v\n%+v", r, again)
		}
	})
}
