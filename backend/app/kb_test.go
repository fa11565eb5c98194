package app

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/knowledge"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer/hwptest"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/pdftext"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// TestSearchJSONMapsBack: every hit of `kb search --json` says which
// document, record, file, page and heading it came from, so a script can
// find it in its own data, and which copies of its file it stands for (the
// records file is also kept as "records (1).jsonl": its hits are shown
// once, under the original's name, naming the copy).
func TestSearchJSONMapsBack(t *testing.T) {
	fake := ollamatest.New(t)
	base := []string{"--data-dir", t.TempDir(), "--ollama-host", fake.URL(), "--model", "llama3.2:3b", "--embed-model", "bge-m3"}
	docs := t.TempDir()
	files := map[string]string{
		"records.jsonl": `{"_id": "4983", "title": "Microstructure", "text": "Alterations of the cerebral white matter architecture."}` + "\n" +
			`{"id": 77, "text": "연차는 15일이고 병가는 10일입니다."}` + "\n" +
			`{"text": "a record without an id mentions tangerines"}` + "\n",
		"guide.md": "# Guide\n\nIntro.\n\n## Install\n\nRun the pomegranate installer.\n",
	}
	files["records (1).jsonl"] = files["records.jsonl"]
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(docs, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, out, errOut := wayfinder(t, append(base, "kb", "import", docs)...); code != 0 {
		t.Fatalf("import: %d\n%s\n%s", code, out, errOut)
	}
	_, list, _ := wayfinder(t, append(base, "kb", "list")...)
	type hit struct {
		ID       string `json:"id"`
		DocID    string `json:"doc_id"`
		RecordID string `json:"record_id"`
		File     string `json:"file"`
		Source   string `json:"source"`
		Title    string `json:"title"`
		Page     int    `json:"page"`
		Heading  string `json:"heading"`
		Text     string `json:"text"`
		Copies   []struct {
			DocID  string `json:"doc_id"`
			File   string `json:"file"`
			Source string `json:"source"`
		} `json:"copies"`
	}
	tests := []struct {
		query, record, file, heading, title, copy string
	}{
		{"cerebral white matter", "4983", "records.jsonl", "Microstructure", "Microstructure", "records (1).jsonl"},
		{"병가는", "77", "records.jsonl", "77", "77", "records (1).jsonl"},
		{"tangerines", "", "records.jsonl", "records #3", "records #3", "records (1).jsonl"},
		{"pomegranate installer", "", "guide.md", "Guide › Install", "Guide", ""},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			code, out, errOut := wayfinder(t, append(base, "kb", "search", "--json", "--top", "1", tt.query)...)
			var hits []hit
			if code != 0 || json.Unmarshal([]byte(out), &hits) != nil || len(hits) != 1 {
				t.Fatalf("search: %d\n%s\n%s", code, out, errOut)
			}
			h := hits[0]
			if h.RecordID != tt.record || h.File != tt.file || h.Heading != tt.heading || h.Title != tt.title ||
				h.Source != filepath.Join(docs, tt.file) || !strings.HasPrefix(h.ID, h.DocID+":") || !strings.Contains(list, h.DocID) {
				t.Errorf("hit %+v; want record %q, file %q, heading %q, title %q, a document kb list shows", h, tt.record, tt.file, tt.heading, tt.title)
			}
			var copies []string
			for _, c := range h.Copies {
				copies = append(copies, c.File)
				if c.Source != filepath.Join(docs, c.File) || c.DocID == h.DocID || !strings.Contains(list, c.DocID) {
					t.Errorf("copy %+v of %s: want its own document, one kb list shows, and its path", c, h.DocID)
				}
			}
			if got := strings.Join(copies, ","); got != tt.copy {
				t.Errorf("copies %q, want %q", got, tt.copy)
			}
			var raw []map[string]any
			_ = json.Unmarshal([]byte(out), &raw)
			for _, key := range []string{"id", "doc_id", "record_id", "file", "source", "title", "kind", "page", "heading", "score", "text", "copies"} {
				if _, ok := raw[0][key]; !ok {
					t.Errorf("no %q in %s", key, out)
				}
			}
			if c, ok := raw[0]["copies"].([]any); !ok || len(c) != len(h.Copies) {
				t.Errorf("copies %v: want a list, [] when none", raw[0]["copies"])
			}
		})
	}
	code, out, _ := wayfinder(t, append(base, "kb", "search", "cerebral white matter")...)
	if code != 0 || !strings.Contains(out, "Microstructure ("+filepath.Join(docs, "records.jsonl")+", id 4983)") ||
		!strings.Contains(out, "\n   also: "+filepath.Join(docs, "records (1).jsonl")+"\n") {
		t.Errorf("text output: %d\n%s", code, out)
	}
	if code, out, _ := wayfinder(t, append(base, "kb", "search", "--top", "1", "pomegranate installer")...); code != 0 || !strings.Contains(out, "guide.md") || strings.Contains(out, "also:") {
		t.Errorf("text output of a file without a copy: %d\n%s", code, out)
	}
}

// waitReport waits for the end of one import.
func waitReport(t *testing.T, l *eventLog, id string) api.ImportReport {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		l.mu.Lock()
		for _, e := range l.events {
			if r, ok := e.payload.(api.ImportReport); ok && e.name == api.EventImportDone && r.ImportID == id {
				l.mu.Unlock()
				return r
			}
		}
		l.mu.Unlock()
	}
	t.Fatalf("import %s did not end", id)
	return api.ImportReport{}
}

// TestUploadService: what the Knowledge screen sees of uploads: the same
// content twice is one document, a changed file of the same name replaces
// it, removing deletes the copy, a failed upload leaves nothing; search
// hits name the file and the record.
func TestUploadService(t *testing.T) {
	a, events := openTestApp(t, ollamatest.New(t), "llama3.2:3b")
	k := &KnowledgeService{a}
	uploads := filepath.Join(a.dataDir, "uploads")
	send := func(name, text string) api.ImportReport {
		t.Helper()
		id, err := k.Upload(name, base64.StdEncoding.EncodeToString([]byte(text)))
		if err != nil {
			t.Fatal(err)
		}
		return waitReport(t, events, id)
	}
	kept := func() []string {
		entries, _ := os.ReadDir(uploads)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return names
	}
	const v1 = `{"_id": "trip-1", "title": "출장 규정", "text": "출장비는 하루 10만원까지 지원합니다."}` + "\n"
	if r := send("rules.jsonl", v1); len(r.Imported) != 1 || len(r.Replaced)+len(r.Duplicates)+len(r.Failed) != 0 {
		t.Fatalf("first upload: %+v", r)
	}
	if r := send("again.jsonl", v1); len(r.Duplicates) != 1 || r.Duplicates[0].Error != "출장 규정" || len(r.Imported) != 0 {
		t.Fatalf("same content: %+v", r)
	}
	const v2 = `{"_id": "trip-2", "title": "출장 규정", "text": "숙박비는 하루 8만원까지 지원합니다."}` + "\n"
	if r := send("rules.jsonl", v2); len(r.Replaced) != 1 || len(r.Imported) != 1 {
		t.Fatalf("changed file: %+v", r)
	}
	if r := send("broken.md", "\x00\x01binary\xff\xfe"+strings.Repeat("\x00\xff\x13", 3000)); len(r.Failed) != 1 || !strings.Contains(r.Failed[0].Error, "binary data") {
		t.Fatalf("binary upload: %+v", r)
	}
	if got := strings.Join(kept(), ","); got != "rules.jsonl" {
		t.Fatalf("uploads folder: %s", got)
	}
	docs, err := k.Documents()
	if err != nil || len(docs) != 1 {
		t.Fatalf("documents: %+v, %v", docs, err)
	}
	hits, err := k.Search("숙박비는", 5)
	if err != nil || len(hits) != 1 || hits[0].File != "rules.jsonl" || hits[0].RecordID != "trip-2" || hits[0].DocID != docs[0].ID {
		t.Fatalf("search: %+v, %v", hits, err)
	}
	if err := k.Remove(docs[0].ID); err != nil {
		t.Fatal(err)
	}
	if got := kept(); len(got) != 0 {
		t.Fatalf("after removing the document the folder holds %v", got)
	}
}

// TestUploadFailureReasons: a PDF that cannot be read fails with a reason
// the window words in the person's language (not the Go error), in the
// file's progress and in the import's report.
func TestUploadFailureReasons(t *testing.T) {
	a, events := openTestApp(t, ollamatest.New(t), "llama3.2:3b")
	k := &KnowledgeService{a}
	encrypted, err := os.ReadFile(filepath.Join("..", "knowledge", "testdata", "library", "encrypted.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, content, code string
		line                int64 // the reason's line, when it has one
	}{
		{"locked.pdf", string(encrypted), "pdf_encrypted", 0},
		{"broken.pdf", "%PDF-1.7 not really", "pdf_damaged", 0},
		{"binary.md", "\x00\x01binary\xff\xfe" + strings.Repeat("\x00\xff\x13", 3000), "binary", 0},
		{"latin.txt", "caf\xe9 " + strings.Repeat("na\xefve r\xe9sum\xe9 \x80\x81 ", 400), "encoding", 0},
		{"empty.md", "   \n\n", "empty", 0},
		{"setup.exe", "MZ\x90\x00", "unsupported", 0},
		{"old.doc", "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "legacy_doc", 0},
		{"규정.hwp", "HWP Document File V3.00 \x1a\x01\x02\x03\x04\x05" + strings.Repeat("\x00", 100), "legacy_hwp", 0},
		{"깨진 규정.hwp", "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "office_damaged", 0},
		{"잠긴 규정.hwp", string(hwptest.File(hwptest.Password, nil, hwptest.Para(0, 0, 0, hwptest.UTF16("본문")))), "office_encrypted", 0},
		{"DRM 규정.hwp", string(hwptest.File(hwptest.DRM, nil, hwptest.Para(0, 0, 0, hwptest.UTF16("본문")))), "office_encrypted", 0},
		{"강의.ppt", "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "legacy_ppt", 0},
		{"locked.docx", "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + strings.Repeat("\x00", 600), "office_encrypted", 0},
		{"broken.hwpx", "PK not really an archive", "office_damaged", 0},
		{"broken.json", "{\n  \"a\": 1,\n  \"b\": \n}\n", "json_invalid", 4},
		{"cut.jsonl", "{\"_id\": \"a\", \"text\": \"x\"}\n{\"_id\": \"b\", \"text\": \n{\"_id\": \"c\", \"text\": \"y\"}\n", "json_unfinished", 2},
	}
	for _, tt := range tests {
		id, err := k.Upload(tt.name, base64.StdEncoding.EncodeToString([]byte(tt.content)))
		if err != nil {
			t.Fatal(err)
		}
		r := waitReport(t, events, id)
		if len(r.Failed) != 1 || r.Failed[0].Error == "" || (r.Failed[0].Reason == nil) != (tt.code == "") ||
			(tt.code != "" && r.Failed[0].Reason.Code != tt.code) {
			t.Errorf("%s: report %+v, want reason %q", tt.name, r.Failed, tt.code)
		}
		var failed *api.ImportProgress
		events.mu.Lock()
		for _, e := range events.events {
			if p, ok := e.payload.(api.ImportProgress); ok && p.ImportID == id && p.Stage == "failed" {
				failed = &p
			}
		}
		events.mu.Unlock()
		if failed == nil || (failed.Reason == nil) != (tt.code == "") || (tt.code != "" && failed.Reason.Code != tt.code) {
			t.Errorf("%s: failed progress %+v, want reason %q", tt.name, failed, tt.code)
		}
		if tt.line != 0 && (r.Failed[0].Reason.Line != tt.line || failed.Reason.Line != tt.line) {
			t.Errorf("%s: the line of the broken JSON: %+v, %+v, want %d", tt.name, r.Failed[0].Reason, failed.Reason, tt.line)
		}
		if r.Error != nil {
			t.Errorf("%s: the failed file is also the import's error %+v (said twice)", tt.name, r.Error)
		}
	}
}

// A Word document is read like any other: its text is searched, under
// its headings; HWPX and OpenDocument are read the same way (their
// reading is tested in the importer).
func TestUploadWordDocument(t *testing.T) {
	a, events := openTestApp(t, ollamatest.New(t), "llama3.2:3b")
	k := &KnowledgeService{a}
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	w, err := z.Create("word/document.xml")
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`+
		`<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>제3조(등록금)</w:t></w:r></w:p>`+
		`<w:p><w:r><w:t>등록금은 매 학기 개시 전에 납부한다.</w:t></w:r></w:p></w:body></w:document>`)
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	id, err := k.Upload("학칙.docx", base64.StdEncoding.EncodeToString(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if r := waitReport(t, events, id); len(r.Imported) != 1 || len(r.Failed) != 0 {
		t.Fatalf("report %+v", r)
	}
	hits, err := k.Search("등록금 납부", 5)
	if err != nil || len(hits) == 0 || hits[0].Heading != "제3조(등록금)" || !strings.Contains(hits[0].Text, "매 학기 개시 전에 납부한다") {
		t.Fatalf("search: %+v, %v", hits, err)
	}
}

// The window's file pickers offer every kind the importer reads, and no
// other.
func TestPickersOfferWhatIsRead(t *testing.T) {
	src, err := os.ReadFile("../../frontend/src/knowledge/formats.ts")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`DOCUMENT_EXTENSIONS = \[([^\]]*)\]`).FindSubmatch(src)
	if m == nil {
		t.Fatal("no DOCUMENT_EXTENSIONS in formats.ts")
	}
	var picked []string
	if err := json.Unmarshal([]byte("["+string(m[1])+"]"), &picked); err != nil {
		t.Fatal(err)
	}
	if want := importer.Extensions(); !slices.Equal(picked, want) {
		t.Errorf("formats.ts offers %v, the importer reads %v", picked, want)
	}
}

// TestUploadWarningReason: invalid bytes replaced in an imported file come
// with their parts (how many, on which lines) in the progress and the
// report, for the window to word.
func TestUploadWarningReason(t *testing.T) {
	a, events := openTestApp(t, ollamatest.New(t), "llama3.2:3b")
	k := &KnowledgeService{a}
	id, err := k.Upload("notes.md", base64.StdEncoding.EncodeToString([]byte("# 메모\n\n"+strings.Repeat("좋은 문장입니다.\n", 300)+"깨진 \xff 글자\n")))
	if err != nil {
		t.Fatal(err)
	}
	r := waitReport(t, events, id)
	want := api.FileReason{Code: "replaced", Count: 1, Lines: "303"}
	if len(r.Imported) != 1 || len(r.Warnings) != 1 || r.Warnings[0].Reason == nil || *r.Warnings[0].Reason != want {
		t.Fatalf("report %+v, want the warning %+v", r, want)
	}
	var done *api.ImportProgress
	events.mu.Lock()
	for _, e := range events.events {
		if p, ok := e.payload.(api.ImportProgress); ok && p.ImportID == id && p.Stage == "done" {
			done = &p
		}
	}
	events.mu.Unlock()
	if done == nil || len(done.Warnings) != 1 || len(done.WarningReasons) != 1 || done.WarningReasons[0] != want ||
		!strings.Contains(done.Warnings[0], "1 invalid character replaced") {
		t.Fatalf("progress %+v, want the warning %+v", done, want)
	}
}

// TestReasonOfLimits: each PDF limit keeps its parts through the import's
// wrapping; times go out in seconds; the other failures a window words
// keep theirs.
func TestReasonOfLimits(t *testing.T) {
	tests := []struct {
		err  error
		want api.FileReason
	}{
		{&pdftext.LimitError{Err: pdftext.ErrTooLarge, Limit: pdftext.LimitMemory, Max: "384 MB"},
			api.FileReason{Code: "pdf_limit", Limit: "memory", Max: "384 MB"}},
		{&pdftext.LimitError{Err: pdftext.ErrTooSlow, Limit: pdftext.LimitPageTime, Page: 3, Max: "30s"},
			api.FileReason{Code: "pdf_limit", Limit: "page_time", Page: 3, Max: "30"}},
		{&pdftext.LimitError{Err: pdftext.ErrTooSlow, Limit: pdftext.LimitOpenTime, Max: "1m30s"},
			api.FileReason{Code: "pdf_limit", Limit: "open_time", Max: "90"}},
		{&pdftext.LimitError{Err: pdftext.ErrTooLarge, Limit: pdftext.LimitPages, Max: "20000"},
			api.FileReason{Code: "pdf_limit", Limit: "pages", Max: "20000"}},
		{pdftext.ErrNoText, api.FileReason{Code: "pdf_no_text"}},
		{&importer.NotTextError{Binary: true, Junk: 40, Runes: 100, Line: 2}, api.FileReason{Code: "binary", Line: 2}},
		{&importer.NotTextError{Junk: 40, Runes: 1000, Line: 7}, api.FileReason{Code: "encoding", Line: 7}},
		{&importer.SyntaxError{Line: 12, Err: errors.New("invalid character '}'")}, api.FileReason{Code: "json_invalid", Line: 12}},
		{&importer.SyntaxError{Line: 2, Unfinished: true, Err: io.ErrUnexpectedEOF}, api.FileReason{Code: "json_unfinished", Line: 2}},
		{&importer.SyntaxError{Line: 3, TooDeep: true, Err: errors.New("exceeded max depth")}, api.FileReason{Code: "json_too_deep", Line: 3, Max: "10000"}},
		{&importer.RecordTooLargeError{Line: 40}, api.FileReason{Code: "json_record_too_large", Line: 40, Max: "32"}},
		{&importer.TooManyValuesError{Line: 1}, api.FileReason{Code: "json_too_many_values", Line: 1, Max: "300"}},
		{&importer.TextTooLargeError{Line: 1}, api.FileReason{Code: "json_text_too_large", Line: 1, Max: "32"}},
		{&knowledge.TooSlowError{Budget: 90 * time.Second, MB: 3}, api.FileReason{Code: "too_slow", Max: "90"}},
		{&importer.Replaced{Count: 7, Lines: []int64{3, 9}, More: true}, api.FileReason{Code: "replaced", Count: 7, Lines: "3, 9", More: true}},
		{importer.ErrUnsupported, api.FileReason{Code: "unsupported"}},
		{&importer.OfficeLimitError{What: "nesting of elements"}, api.FileReason{Code: "office_limit", Max: "64"}},
		{&importer.LegacyError{Ext: ".hwp"}, api.FileReason{Code: "legacy_hwp"}},
		{&importer.HTMLLimitError{}, api.FileReason{Code: "html_limit", Max: "16"}},
		{knowledge.ErrNotRegular, api.FileReason{Code: "not_regular"}},
		{knowledge.ErrChanged, api.FileReason{Code: "changed"}},
		{&knowledge.TooManyChunksError{Max: 500000}, api.FileReason{Code: "too_many_chunks", Max: "500000"}},
		{&knowledge.TooManyTermsError{Max: 2000000}, api.FileReason{Code: "too_many_words", Max: "2000000"}},
		{&fs.PathError{Op: "stat", Path: "/x/y.pdf", Err: syscall.ENOENT}, api.FileReason{Code: "not_found"}},
		{&fs.PathError{Op: "stat", Path: "/x/y.pdf", Err: syscall.ELOOP}, api.FileReason{Code: "unreadable"}},
		{&fs.PathError{Op: "open", Path: "/x/y.pdf", Err: syscall.EACCES}, api.FileReason{Code: "unreadable"}},
		{&fs.PathError{Op: "open", Path: "/x/y.pdf", Err: syscall.ENAMETOOLONG}, api.FileReason{Code: "path_too_long"}},
		{&knowledge.TooLargeError{MB: 600, Max: 512}, api.FileReason{Code: "too_large", Max: "512"}},
		{importer.ErrEmpty, api.FileReason{Code: "empty"}},
		{&knowledge.LinkError{Target: "/home/you/.ssh/id_ed25519", Why: knowledge.LinkOutside}, api.FileReason{Code: "link_outside", Target: "/home/you/.ssh/id_ed25519"}},
		{&knowledge.LinkError{Target: "/x/a.md", Why: knowledge.LinkInside}, api.FileReason{Code: "link_inside", Target: "/x/a.md"}},
		{&knowledge.LinkError{Target: "/x/.env", Why: knowledge.LinkHidden}, api.FileReason{Code: "link_hidden", Target: "/x/.env"}},
		{&knowledge.LinkError{Why: knowledge.LinkLoop}, api.FileReason{Code: "link_loop"}},
		{&knowledge.LinkError{Target: "gone.md", Why: knowledge.LinkBroken}, api.FileReason{Code: "link_broken", Target: "gone.md"}},
	}
	for _, tt := range tests {
		err := fmt.Errorf("import %q: %w", "/x/y.pdf", tt.err)
		if got := reasonOf(err); got == nil || *got != tt.want {
			t.Errorf("reasonOf(%v) = %+v, want %+v", err, got, tt.want)
		}
	}
	if got := reasonOf(errors.New("disk full")); got != nil {
		t.Errorf("reasonOf(an unknown error) = %+v, want nil", got)
	}
}

// A hit of the Knowledge screen's search opens with its chunk and the text
// around it, what the chunks repeat of each other shown once.
func TestKnowledgePassage(t *testing.T) {
	a, events := openTestApp(t, ollamatest.New(t), "llama3.2:3b")
	k := &KnowledgeService{a}
	var text strings.Builder
	text.WriteString("# Handbook\n\n")
	for i := 1; i <= 200; i++ {
		fmt.Fprintf(&text, "Rule %d says something ordinary about the office. ", i)
		if i == 100 {
			text.WriteString("Annual leave is fifteen days. ")
		}
	}
	id, err := k.Upload("handbook.md", base64.StdEncoding.EncodeToString([]byte(text.String())))
	if err != nil {
		t.Fatal(err)
	}
	if r := waitReport(t, events, id); len(r.Imported) != 1 {
		t.Fatalf("report %+v", r)
	}
	hits, err := k.Search("annual leave fifteen", 1)
	if err != nil || len(hits) != 1 {
		t.Fatalf("hits %+v %v", hits, err)
	}
	p, err := k.Passage("", hits[0].ID, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if p.Text != hits[0].Text || p.File != "handbook.md" || p.Before == "" || p.After == "" {
		t.Fatalf("passage %+v", p)
	}
	whole := p.Before + p.Text + p.After
	if !strings.Contains(text.String(), whole) {
		t.Fatalf("before, the chunk and after are not the document's text in a row:\n%q", whole)
	}
	if _, err := k.Passage("", "nope:1", "", ""); err == nil {
		t.Fatal("an unknown passage opened")
	}

	// The reader pages through the whole document from the hit's place.
	if p.Chunks < 3 || p.Seq <= 0 || p.Seq >= p.Chunks {
		t.Fatalf("the hit's place: chunk %d of %d", p.Seq, p.Chunks)
	}
	s, err := k.Span("", p.DocID, p.Seq-1, 3)
	if err != nil {
		t.Fatal(err)
	}
	if s.DocID != p.DocID || s.From != p.Seq-1 || s.Total != p.Chunks || len(s.Parts) != 3 || s.Parts[1].Seq != p.Seq {
		t.Fatalf("span %+v", s)
	}
	if got := s.Parts[0].Text + s.Parts[1].Text + s.Parts[2].Text; !strings.Contains(text.String(), got) || !strings.Contains(got, "Annual leave is fifteen days.") {
		t.Fatalf("the span is not the document's text in a row:\n%q", got)
	}
	var all strings.Builder
	for from := 0; from < s.Total; from += knowledge.MaxSpan {
		page, err := k.Span("", p.DocID, from, knowledge.MaxSpan)
		if err != nil {
			t.Fatal(err)
		}
		for _, part := range page.Parts {
			all.WriteString(part.Text)
		}
	}
	if !strings.HasSuffix(all.String(), "Rule 200 says something ordinary about the office.") || strings.Count(all.String(), "Rule 150 says") != 1 {
		t.Fatalf("the whole document, page by page:\n%q", all.String())
	}
	if _, err := k.Span("", "nope", 0, 5); err == nil {
		t.Fatal("an unknown document opened")
	} else if info := describe(err); info.Code != api.ErrDocumentNotFound {
		t.Fatalf("an unknown document: %+v", info)
	}
}

// A cited passage whose document was imported again with sections added
// before it opens where its text is now, and says how it was found; one
// whose text is gone opens at its place, saying so.
func TestKnowledgePassageCitedAfterImportAgain(t *testing.T) {
	a, events := openTestApp(t, ollamatest.New(t), "llama3.2:3b")
	k := &KnowledgeService{a}
	doc := func(added int, leave string) string {
		var s strings.Builder
		s.WriteString("# Handbook\n\n")
		for i := range added {
			fmt.Fprintf(&s, "## Added %d\n\nA new rule %d about parking.\n\n", i, i)
		}
		for i := 1; i <= 30; i++ {
			fmt.Fprintf(&s, "## Rule %d\n\nRule %d says something ordinary about the office.\n\n", i, i)
			if i == 20 {
				s.WriteString(leave + "\n\n")
			}
		}
		return s.String()
	}
	upload := func(text string) {
		t.Helper()
		id, err := k.Upload("handbook.md", base64.StdEncoding.EncodeToString([]byte(text)))
		if err != nil {
			t.Fatal(err)
		}
		if r := waitReport(t, events, id); len(r.Imported) != 1 {
			t.Fatalf("report %+v", r)
		}
	}
	const leave = "Annual leave is fifteen days, taken in blocks of at least two days with a week's notice to the team lead."
	upload(doc(0, leave))
	hits, err := k.Search("annual leave fifteen days", 1)
	if err != nil || len(hits) != 1 || !strings.Contains(hits[0].Text, leave) {
		t.Fatalf("hits %+v %v", hits, err)
	}
	cited := hits[0]
	upload(doc(4, leave))
	p, err := k.Passage("", cited.ID, cited.Source, cited.Text)
	if err != nil || p.Found != "text" || !strings.Contains(p.Text, leave) || p.ChunkID == cited.ID {
		t.Fatalf("found again after sections added before it: %+v %v", p, err)
	}
	upload(doc(4, "Parental leave is set by law."))
	p, err = k.Passage("", cited.ID, cited.Source, cited.Text)
	if err != nil || p.Found != "gone" || strings.Contains(p.Text, "Annual leave") {
		t.Fatalf("no longer in the document: %+v %v", p, err)
	}
}
