package importer

import (
	"bytes"
	"context"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer/internal/hostile"
)

// TestXMLGuard: the guard under the readers' decoder passes what XML
// allows (quotes and '>' inside comments, CDATA, instructions, a
// DOCTYPE's internal subset and attribute values, however the reads cut
// them) and fails a tag longer than maxTag on the limit, and a control
// character as damage, at its byte.
func TestXMLGuard(t *testing.T) {
	long := strings.Repeat(` a=""`, maxTag/5+1)
	for _, tt := range []struct {
		name, doc string
		limit     bool
		damaged   bool
	}{
		{"plain", `<?xml version="1.0" encoding="UTF-8"?><a x="1" y='>'><b>글</b></a>`, false, false},
		{"a comment's quote and >", `<a><!-- he said "hi > there' --><b c="d">글</b></a>`, false, false},
		{"CDATA's quote and >", `<a><![CDATA[ "quoted" > ' ]]><b c="d">글</b></a>`, false, false},
		{"an instruction's quote", `<?pi say "x > y ?><a b="c">글</a>`, false, false},
		{"a DOCTYPE's subset", `<!DOCTYPE a [<!ELEMENT a (#PCDATA)><!ATTLIST a b CDATA "x>y">]><a b="c">글</a>`, false, false},
		{"a long value, under the limit", `<a b="` + strings.Repeat("값", maxTag/4) + `">글</a>`, false, false},
		{"a long comment", `<a><!--` + strings.Repeat(`"`, 2*maxTag) + `--><b c="d">글</b></a>`, false, false},
		{"a tag of many attributes", `<a` + long + `>글</a>`, true, false},
		{"an end tag too long", `<a></a` + strings.Repeat(" ", maxTag) + `>`, true, false},
		{"NUL in text", "<a>글\x00</a>", false, true},
		{"a vertical tab in a value", "<a b=\"\x0b\"/>", false, true},
		// Elements nested maxNest deep are read, one more is past the
		// limit; empty elements and end tags close what they open.
		{"nested to the limit", strings.Repeat("<a>", maxNest-1) + strings.Repeat(`<b x="/"/><c/>`, 10) + "<d>글</d>" + strings.Repeat("</a>", maxNest-1), false, false},
		// Namespace declarations, however written, are counted to the
		// limit; attributes and values that only look like them are not.
		{"declarations to the limit", "<a" + strings.Repeat(` xmlns:p="u"`, maxDecls/4) + ">" + strings.Repeat(`<b xmlns="u" xmlns:q = 'u'/><c xmlnsx="u" d="xmlns:" e='xmlns='/>`, maxDecls/4) + strings.Repeat(`<f`+"\n\t"+`xmlns:r="u"></f>`, maxDecls/4) + "</a>", false, false},
		{"declarations past the limit", "<a" + strings.Repeat(` xmlns:p="u"`, maxDecls/4) + ">" + strings.Repeat(`<b xmlns="u" xmlns:q = 'u'/>`, 3*maxDecls/8+1) + "</a>", true, false},
		{"nested past the limit", strings.Repeat("<a>", maxNest) + "<b>글</b>" + strings.Repeat("</a>", maxNest), true, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, chunk := range []int{1, 3, 4096} { // reads cut anywhere
				if chunk < 4096 && len(tt.doc) > 1<<20 {
					continue // seconds for a megabyte a byte at a time
				}
				d := newDecoder(&chunked{r: strings.NewReader(tt.doc), n: chunk})
				var err error
				for err == nil {
					_, err = d.Token()
				}
				var le *OfficeLimitError
				switch {
				case tt.limit && !errors.As(err, &le):
					t.Fatalf("reads of %d: err %v, want the limit", chunk, err)
				case tt.damaged && (errors.Is(err, io.EOF) || errors.As(err, &le)):
					t.Fatalf("reads of %d: err %v, want a syntax error", chunk, err)
				case !tt.limit && !tt.damaged && !errors.Is(err, io.EOF):
					t.Fatalf("reads of %d: err %v, want the document read", chunk, err)
				}
			}
		})
	}
}

// chunked reads n bytes at a time.
type chunked struct {
	r io.Reader
	n int
}

func (c *chunked) Read(p []byte) (int, error) { return c.r.Read(p[:min(len(p), c.n)]) }

// TestManyAttributesAreLimited: a Word file whose one element has ten
// million attributes, or namespace declarations (92 KB, 275 KB), fails
// on the limit within a few megabytes; before, the decoder built them
// whole, 1.8 GB and 20 s, 1.5 GB and 9 s.
func TestManyAttributesAreLimited(t *testing.T) {
	for _, c := range hostile.Classes() {
		if c.File != "attrs.docx" && c.File != "xmlns.docx" {
			continue
		}
		var b bytes.Buffer
		if err := c.Write(&b, c.Full); err != nil {
			t.Fatal(err)
		}
		alloc := allocated(func() {
			_, err := Importer{}.Import(context.Background(), c.File, b.Bytes())
			if le := (*OfficeLimitError)(nil); !errors.As(err, &le) {
				t.Errorf("%s: err %v, want the limit", c.File, err)
			}
		})
		if alloc > 64<<20 {
			t.Errorf("%s: %d MB allocated, want the tag refused before its attributes are built", c.File, alloc>>20)
		}
	}
}

// allocated is how many bytes fn allocates.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
