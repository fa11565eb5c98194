package importer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/text/encoding/unicode"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/chunk"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/pdftext"
)

func TestParseJSON(t *testing.T) {
	tests := []struct {
		name     string
		data     string
		want     []Document
		wantErr  string
		wantLine int64
		// wantUnfinished: the error says the value beginning on wantLine
		// never ends.
		wantUnfinished bool
	}{
		{
			name: "beir jsonl",
			data: `{"_id": "4983", "title": "Microstructural development", "text": "Alterations of the architecture."}` + "\n" +
				`{"_id": "5836", "title": "", "text": "Second abstract."}` + "\n",
			want: []Document{
				{ID: "4983", Title: "Microstructural development", Source: "c.jsonl", Kind: KindJSON, Parts: []chunk.Input{{Heading: "Microstructural development", Text: "Alterations of the architecture."}}},
				{ID: "5836", Title: "5836", Source: "c.jsonl", Kind: KindJSON, Parts: []chunk.Input{{Heading: "5836", Text: "Second abstract."}}},
			},
		},
		{
			name: "array with numeric id and content",
			data: `[{"id": 7, "title": "휴가 정책", "content": "연차는 15일입니다."}, {"content": "no id"}]`,
			want: []Document{
				{ID: "7", Title: "휴가 정책", Source: "c.jsonl", Kind: KindJSON, Parts: []chunk.Input{{Heading: "휴가 정책", Text: "연차는 15일입니다."}}},
				{Title: "c #2", Source: "c.jsonl", Kind: KindJSON, Parts: []chunk.Input{{Heading: "c #2", Text: "no id"}}},
			},
		},
		{
			name: "single pretty object without text field",
			data: "{\n  \"id\": \"tool-1\",\n  \"name\": \"Runway\",\n  \"pricing\": {\"model\": \"freemium\", \"from\": 12},\n  \"tags\": [\"video\", \"image\"]\n}",
			want: []Document{
				{ID: "tool-1", Title: "tool-1", Source: "c.jsonl", Kind: KindJSON, Parts: []chunk.Input{{Heading: "tool-1", Text: "name: Runway\npricing.from: 12\npricing.model: freemium\ntags: video, image\n"}}},
			},
		},
		{
			name: "bare strings and nulls",
			data: "\"first line\"\nnull\n\"second\"\n",
			want: []Document{
				{Title: "c #1", Source: "c.jsonl", Kind: KindJSON, Parts: []chunk.Input{{Heading: "c #1", Text: "first line"}}},
				{Title: "c #2", Source: "c.jsonl", Kind: KindJSON, Parts: []chunk.Input{{Heading: "c #2", Text: "second"}}},
			},
		},
		{name: "empty array", data: "[]", wantErr: ErrEmpty.Error()},
		{name: "empty file", data: "", wantErr: ErrEmpty.Error()},
		{name: "bad third line", data: "{\"text\":\"a\"}\n{\"text\":\"b\"}\n{\"text\": oops}\n", wantErr: "json at line 3", wantLine: 3},
		{name: "cut short", data: "[\n{\"text\":\"a\"},\n{\"text\": \"b", wantErr: "json at line 3", wantLine: 3, wantUnfinished: true},
		{name: "record missing its brace swallows the next lines", data: "{\"_id\":\"a\",\"text\":\"x\"}\n{\"_id\":\"b\",\"text\":\n{\"_id\":\"c\",\"text\":\"y\"}\n\n",
			wantErr: "json at line 2: the value that begins there never ends", wantLine: 2, wantUnfinished: true},
		{name: "pretty object cut short", data: "\n{\n  \"id\": \"x\",\n  \"text\": \"abc", wantErr: "json at line 2", wantLine: 2, wantUnfinished: true},
		{name: "array never closed", data: "\n\n[\n{\"text\":\"a\"}\n", wantErr: "json at line 3", wantLine: 3, wantUnfinished: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseJSON("c.jsonl", []byte(tt.data))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				var syn *SyntaxError
				if errors.As(err, &syn) != (tt.wantLine > 0) || (syn != nil && (syn.Line != tt.wantLine || syn.Unfinished != tt.wantUnfinished)) {
					t.Fatalf("err = %#v, want a SyntaxError at line %d (unfinished %v)", err, tt.wantLine, tt.wantUnfinished)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("documents (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseMarkdown(t *testing.T) {
	tests := []struct {
		name, data, title, body string
	}{
		{"front matter", "---\ntitle: \"Leave policy\"\ntags: hr\n---\n# Other\nBody\n", "Leave policy", "# Other\nBody\n"},
		{"first heading", "intro\n```\n# not this\n```\n# 휴가 정책\n본문\n", "휴가 정책", "intro\n```\n# not this\n```\n# 휴가 정책\n본문\n"},
		{"file name", "just text", "notes", "just text"},
		{"unclosed front matter", "---\ntitle: x\nbody", "notes", "---\ntitle: x\nbody"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs, err := ParseMarkdown("dir/notes.md", []byte(tt.data))
			if err != nil {
				t.Fatal(err)
			}
			d := docs[0]
			if d.Title != tt.title || d.Parts[0].Text != tt.body || !d.Markdown || d.Kind != KindMarkdown {
				t.Errorf("got title %q body %q markdown %v kind %q", d.Title, d.Parts[0].Text, d.Markdown, d.Kind)
			}
		})
	}
	if _, err := ParseMarkdown("e.md", []byte("---\ntitle: x\n---\n  \n")); !errors.Is(err, ErrEmpty) {
		t.Errorf("front matter only: err = %v, want ErrEmpty", err)
	}
}

// TestHeadingScanPassesBlankLines: the first level-1 heading outside a
// fence is found whatever blank lines (spaces, tabs, CRLF) come before
// it, and wherever the blocks the text arrives in are split; blank lines
// are passed over in one run, and a line that only begins with spaces is
// still read.
func TestHeadingScanPassesBlankLines(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"\n\n\n# 제목\n본문", "제목"},
		{"  \t\r\n\r\n   # 들여 쓴 제목\r\n", "들여 쓴 제목"},
		{"\n\n  ```\n\n# 울타리 안\n\n```\n\n \n# 밖\n", "밖"},
		{"\n \n본문 # 아님\n\n#없음\n\t~~~\n# 안\n", ""},
		{"\n\n   \n## 둘째\n\n# 첫째", "첫째"},
		{"\n\n\n", ""},
	} {
		for cut := 0; cut <= len(tt.text); cut++ {
			for _, cut2 := range []int{cut, min(cut+1, len(tt.text)), min(cut+3, len(tt.text))} {
				var h headingScan
				h.scan(tt.text[:cut], false)
				h.scan(tt.text[cut:cut2], false)
				if got := h.scan(tt.text[cut2:], true); got != tt.want {
					t.Errorf("%q cut at %d and %d: %q, want %q", tt.text, cut, cut2, got, tt.want)
				}
			}
		}
	}
}

// FuzzHeadingScan: the title found in text fed in three blocks is the one
// a line at a time finds in it whole (check on every line, the last
// too), so that passing blank lines over in one run changes nothing.
func FuzzHeadingScan(f *testing.F) {
	for _, s := range []string{"\n\n# 제목\n", " \t\r\n  # a\r\n", "```\n\n# b\n```\n# c", "\n\n\n", "\u00a0\n# d", "#\n# \n#  e  #"} {
		f.Add(s, 1, 2)
	}
	f.Fuzz(func(t *testing.T, text string, a, b int) {
		if len(text) > 4096 {
			return // a longer line is passed over when it spans blocks
		}
		a, b = min(max(a, 0), len(text)), min(max(b, 0), len(text))
		a, b = min(a, b), max(a, b)
		var want headingScan
		for line := range strings.SplitSeq(text, "\n") {
			if want.found == "" {
				want.check(line)
			}
		}
		var h headingScan
		h.scan(text[:a], false)
		h.scan(text[a:b], false)
		if got := h.scan(text[b:], true); got != want.found {
			t.Fatalf("%q cut at %d, %d: %q, want %q", text, a, b, got, want.found)
		}
	})
}

// BenchmarkReadBlankMarkdown and BenchmarkReadBlankText read 65 MB of
// blank lines as Markdown and as plain text, run side by side: the
// Markdown reader looks for a title line by line, and took 2.8 s against
// 0.4 s before passing blank lines over in one run (`go test -bench
// ReadBlank -cpuprofile`: headingScan.scan).
func BenchmarkReadBlankMarkdown(b *testing.B) { benchmarkBlank(b, "blank.md") }
func BenchmarkReadBlankText(b *testing.B)     { benchmarkBlank(b, "blank.txt") }

func benchmarkBlank(b *testing.B, name string) {
	data := bytes.Repeat([]byte("\n"), 65<<20)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := (Importer{}).Read(context.Background(), name, bytes.NewReader(data), discard{}); !errors.Is(err, ErrEmpty) {
			b.Fatal(err)
		}
	}
}

// fakePDF stands in for PDFium so format routing is tested without wasm.
type fakePDF struct {
	pages []pdftext.Page
	err   error
}

func (f fakePDF) ExtractReader(context.Context, io.ReaderAt, int64) ([]pdftext.Page, error) {
	return f.pages, f.err
}

// readerPDF keeps what the importer gave it.
type readerPDF struct {
	r    io.ReaderAt
	size int64
}

func (f *readerPDF) ExtractReader(_ context.Context, r io.ReaderAt, size int64) ([]pdftext.Page, error) {
	f.r, f.size = r, size
	return []pdftext.Page{{Number: 1, Text: "text"}}, nil
}

// TestPDFReadInPlace: a PDF on disk goes to the extractor as the file
// itself (PDFium reads the parts it needs), not read into memory first;
// a stream that cannot be read at will is read whole, once.
func TestPDFReadInPlace(t *testing.T) {
	data := []byte("%PDF-1.4 whatever follows")
	path := filepath.Join(t.TempDir(), "a.pdf")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ex readerPDF
	var c collector
	if _, err := (Importer{PDF: &ex}).Read(context.Background(), path, f, &c); err != nil {
		t.Fatal(err)
	}
	if ex.r != f || ex.size != int64(len(data)) {
		t.Errorf("the extractor got %T of %d bytes, want the file itself (%d bytes)", ex.r, ex.size, len(data))
	}
	if _, err := (Importer{PDF: &ex}).Read(context.Background(), path, io.MultiReader(bytes.NewReader(data)), &c); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, ex.size)
	if n, _ := ex.r.ReadAt(got, 0); n != len(data) || !bytes.Equal(got, data) {
		t.Errorf("from a stream the extractor read %q, want %q", got[:n], data)
	}
}

func TestImportRoutesByExtension(t *testing.T) {
	im := Importer{PDF: fakePDF{pages: []pdftext.Page{{Number: 1, Text: "one"}, {Number: 2, Text: "two"}}}}
	ctx := context.Background()
	tests := []struct {
		path    string
		kind    Kind
		parts   int
		pages   int
		wantErr error
	}{
		{"a/Report.PDF", KindPDF, 2, 2, nil},
		{"notes.markdown", KindMarkdown, 1, 0, nil},
		{"log.txt", KindText, 1, 0, nil},
		{"data.ndjson", KindJSON, 1, 0, nil},
		{"image.png", "", 0, 0, ErrUnsupported},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			data := []byte(`{"text": "x"}`)
			docs, err := im.Import(ctx, tt.path, data)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			d := docs[0]
			if d.Kind != tt.kind || len(d.Parts) != tt.parts || d.Pages != tt.pages || d.Source != tt.path {
				t.Errorf("got %+v", d)
			}
		})
	}
}

func TestImportPDFErrorsAreWrapped(t *testing.T) {
	for _, want := range []error{pdftext.ErrEncrypted, pdftext.ErrCorrupt, pdftext.ErrNoText} {
		im := Importer{PDF: fakePDF{err: want}}
		_, err := im.Import(context.Background(), "x.pdf", nil)
		if !errors.Is(err, want) || !strings.Contains(err.Error(), `"x.pdf"`) {
			t.Errorf("err = %v, want %v naming the file", err, want)
		}
	}
	if _, err := (Importer{}).Import(context.Background(), "x.pdf", nil); !errors.Is(err, ErrUnsupported) {
		t.Errorf("no extractor: err = %v", err)
	}
}

func FuzzParseJSON(f *testing.F) {
	f.Add([]byte(`{"_id":"1","title":"t","text":"본문"}` + "\n" + `{"id":2,"content":"c"}`))
	f.Add([]byte(`[{"title":"x","nested":{"a":[1,2,{"b":true}]}}]`))
	f.Add([]byte(`"just a string"`))
	f.Add([]byte("{\"text\": \"a\"}\n{broken"))
	f.Add([]byte(strings.Repeat("[", 20_000) + strings.Repeat("]", 20_000))) // deeper than encoding/json goes
	f.Add([]byte("{\"title\":\"\u001b[31m" + strings.Repeat("제목", 400) + "\",\"text\":\"본문\"}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := ParseJSON("f.jsonl", data)
		if err != nil {
			if len(docs) != 0 {
				t.Fatalf("error %v with %d documents", err, len(docs))
			}
			return
		}
		for i, d := range docs {
			if d.Title == "" || d.Kind != KindJSON || len(d.Parts) != 1 {
				t.Fatalf("doc %d malformed: %+v", i, d)
			}
			if d.Parts[0].Heading != d.Title {
				t.Fatalf("doc %d heading %q != title %q", i, d.Parts[0].Heading, d.Title)
			}
		}
	})
}

// TestJSONStreams reads large JSON as a stream: errors name their line
// however far into the file, a record may not grow past maxRecord, and
// UTF-16 JSON from Windows tools is read.
func TestJSONStreams(t *testing.T) {
	var jsonl, array strings.Builder
	array.WriteString("[\n")
	for i := range 30000 {
		fmt.Fprintf(&jsonl, `{"_id": "r%d", "text": "레코드 %d 본문"}`+"\n", i, i)
		fmt.Fprintf(&array, `  {"id": %d, "title": "제목 %d", "text": "본문"},`+"\n", i, i)
	}
	array.WriteString(`  {"id": "last", "text": "끝"}` + "\n]\n")
	u16, err := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().String(`[{"_id": "w1", "text": "윈도우 메모장"}]`)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		data    string
		records int
		lastID  string
		wantErr string
	}{
		{"30k lines", jsonl.String(), 30000, "r29999", ""},
		{"an array of 30k records", array.String(), 30001, "last", ""},
		{"a bad line far in", jsonl.String() + "{\"text\": oops}\n", 0, "", "json at line 30001"},
		{"a bad item far into an array", strings.Replace(array.String(), `"id": 20000,`, `"id": 20000,,`, 1), 0, "", "json at line 20002"},
		// One line too large is left out (TestJSONLinesRecordTooLarge);
		// a value spanning lines cannot be skipped.
		{"a record larger than the limit", `{"text": "small"}` + "\n" + "{\"text\":\n \"" + strings.Repeat("가", maxRecord/3+10) + `"}`, 0, "", "larger than 32 MB (the record starts on line 2)"},
		{"UTF-16 with a BOM", u16, 1, "w1", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs, err := ParseJSON("big.jsonl", []byte(tt.data))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(docs) != tt.records || docs[len(docs)-1].ID != tt.lastID {
				t.Fatalf("%d records, last %+v; want %d ending with %q", len(docs), docs[len(docs)-1], tt.records, tt.lastID)
			}
		})
	}
}

// TestParsedSize: what a JSON value takes parsed is counted from its
// values, keys and objects as the decoder would make them, what is inside
// a string not counted; so 4.1 million zeros are read, 4.4 million (317
// MB) refused.
func TestParsedSize(t *testing.T) {
	zeros := func(n int) string { return "[0" + strings.Repeat(",0", n-1) + "]" }
	for _, tt := range []struct {
		name, raw string
		want      int64 // 0: past maxParsed
	}{
		{"a number", "7", perValue},
		{"an array of three", "[0,0]", 3 * perValue},
		{"an object of one key", `{"a":0}`, perObject + perKey + perValue},
		{"commas, brackets, colons and quotes in strings", `["a,[{:\"b", "c"]`, 3 * perValue},
		{"4.1 million zeros", zeros(4_100_000), (4_100_000 + 1) * perValue},
		{"4.4 million zeros", zeros(4_400_000), 0},
		{"700,000 objects", "[" + strings.Repeat(`{"a":0},`, 700_000) + "0]", 0},
	} {
		got := parsedSize([]byte(tt.raw))
		if tt.want == 0 && got <= maxParsed || tt.want != 0 && got != tt.want {
			t.Errorf("%s: %d, want %d (0: past %d)", tt.name, got, tt.want, maxParsed)
		}
	}
}

// TestFlattenBounds: a record's values are written after their path of
// keys, cut at a kilobyte; an array's plain values once under it, a line
// wrapped at the path's length at least; and a record whose text would
// pass maxText is refused (flatten says so) rather than written: a 1 MB
// record of 300 numbers under a megabyte's path wrote 300 MB and peaked
// at 2,233 MiB, and one-key objects under a long path still write the
// path for each.
func TestFlattenBounds(t *testing.T) {
	key := strings.Repeat("키", 1000) // 3,000 bytes
	text, ok := flatten("", map[string]any{key: map[string]any{"a": json.Number("1")}})
	if !ok || len(text) > 1100 || !strings.HasSuffix(text, "…: 1\n") || !utf8.ValidString(text) {
		t.Errorf("long path: %v, %d bytes (%.40q…%q)", ok, len(text), text, text[max(0, len(text)-20):])
	}
	many := make([]any, maxText/1000)
	for i := range many {
		many[i] = json.Number("7")
	}
	long := strings.Repeat("k", 2000)
	if text, ok := flatten("", map[string]any{long: many}); !ok || len(text) > 3*len(many)*2 || strings.Count(text, "\n") > len(many)*2/1000+1 {
		t.Errorf("%d values under a long path: %v, %d bytes, %d lines, want them written on lines of a kilobyte", len(many), ok, len(text), strings.Count(text, "\n"))
	}
	objs := make([]any, maxText/1000)
	for i := range objs {
		objs[i] = map[string]any{"a": json.Number("7")}
	}
	if text, ok := flatten("", map[string]any{long: objs}); ok || text != "" {
		t.Errorf("%d one-key objects under a long path: %v, %d bytes, want it refused", len(objs), ok, len(text))
	}
}

// TestFlattenArrays: an array's plain values are written once under its
// path, nested arrays' too, strings apart by commas, and lines wrapped
// each starting with the path; an object in an array ends the line.
func TestFlattenArrays(t *testing.T) {
	n := func(s string) json.Number { return json.Number(s) }
	for _, tc := range []struct {
		v    any
		want string
	}{
		{map[string]any{"c": []any{[]any{n("126.9"), n("37.5")}, []any{n("127"), n("37.6")}}}, "c: 126.9 37.5 127 37.6\n"},
		{map[string]any{"tags": []any{"a b", "c"}, "z": true}, "tags: a b, c\nz: true\n"},
		{map[string]any{"v": []any{n("1"), map[string]any{"k": "x"}, n("2"), nil}}, "v: 1\nv.k: x\nv: 2\n"},
		{[]any{n("1"), n("2")}, "1 2\n"},
		{map[string]any{"v": []any{}}, ""},
	} {
		if got, ok := flatten("", tc.v); !ok || got != tc.want {
			t.Errorf("flatten(%v) = %q, %v, want %q", tc.v, got, ok, tc.want)
		}
	}
	long := make([]any, 1000)
	for i := range long {
		long[i] = n("1.5")
	}
	text, _ := flatten("", map[string]any{"p": long})
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for _, l := range lines {
		if !strings.HasPrefix(l, "p: 1.5") || len(l) > 210 {
			t.Fatalf("line %q of %d: want each wrapped line to start with the path", l, len(lines))
		}
	}
	if len(lines) < 10 || strings.Count(text, "1.5") != 1000 {
		t.Errorf("%d lines, %d values", len(lines), strings.Count(text, "1.5"))
	}
}

// TestGeoJSONImports: a FeatureCollection of 350 polygons of 1,500 points
// (12 MB, one object) imports, its text within a tenth of its size;
// written a value a line after its path it was 45 MB and refused as a
// record "larger than 32 MB".
func TestGeoJSONImports(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`{"type":"FeatureCollection","features":[`)
	for f := range 350 {
		if f > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"type":"Feature","properties":{"name":"구역 %d"},"geometry":{"type":"Polygon","coordinates":[[`, f)
		for p := range 1500 {
			if p > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "[%.6f,%.6f]", 126.9+float64(p)/1e4, 37.5+float64(f)/1e3)
		}
		b.WriteString("]]}}")
	}
	b.WriteString("]}")
	if b.Len() < 12<<20-1<<20 {
		t.Fatalf("%d bytes, want about 12 MB", b.Len())
	}
	var got collector
	_, err := Importer{}.Read(context.Background(), "areas.geojson.json", bytes.NewReader(b.Bytes()), &got)
	if err != nil || len(got.docs) != 1 {
		t.Fatalf("err %v, %d documents", err, len(got.docs))
	}
	text := got.docs[0].Parts[0].Text
	if len(text) > b.Len()*11/10 || !strings.Contains(text, "features.geometry.coordinates: 126.900000 37.500000 126.900100 37.500000") ||
		!strings.Contains(text, "features.properties.name: 구역 349") {
		t.Errorf("%d bytes of text for %d: %.200q", len(text), b.Len(), text)
	}
}
