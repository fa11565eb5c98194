package knowledge

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// uploadEnv is a Base with an upload folder.
func uploadEnv(t *testing.T) (*env, *Base, string) {
	e := newPlainEnv(t)
	dir := filepath.Join(e.dir, "uploads")
	return e, e.openWith(Options{Sink: e.sink, UploadDir: dir}), dir
}

// files lists what the upload folder holds, relative, hidden ones and
// folders left empty too.
func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || p == dir {
			return nil
		}
		if entries, _ := os.ReadDir(p); !d.IsDir() || len(entries) == 0 {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	return out
}

func TestUploads(t *testing.T) {
	e, b, dir := uploadEnv(t)
	ctx := context.Background()
	upload := func(name, content string) (UploadResult, []Progress) {
		t.Helper()
		var ps []Progress
		res, err := b.Upload(ctx, name, strings.NewReader(content), func(p Progress) { ps = append(ps, p) })
		if err != nil {
			t.Fatalf("upload %s: %v", name, err)
		}
		return res, ps
	}
	found := func(q string) int {
		hits, err := b.Search(ctx, q, SearchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return len(hits)
	}
	steps := []struct {
		name, file, content string
		outcome             UploadOutcome
		last                Stage
		files               []string
		docs                int
		found, gone         string
	}{
		{"a new file", "travel.md", "# 출장 규정\n\n출장비는 하루 10만원까지, tangerines.\n", UploadAdded, StageDone, []string{"travel.md"}, 1, "tangerines", ""},
		{"the same content under another name", "copy.md", "# 출장 규정\n\n출장비는 하루 10만원까지, tangerines.\n", UploadDuplicate, StageDuplicate, []string{"travel.md"}, 1, "tangerines", ""},
		{"the same content again", "travel.md", "# 출장 규정\n\n출장비는 하루 10만원까지, tangerines.\n", UploadDuplicate, StageDuplicate, []string{"travel.md"}, 1, "tangerines", ""},
		{"a changed file of that name", "travel.md", "# 출장 규정\n\n숙박비는 하루 8만원까지, pomegranates.\n", UploadReplaced, StageDone, []string{"travel.md"}, 1, "pomegranates", "tangerines"},
		{"junk under that name", "travel.md", string(junk(64 << 10)), UploadFailed, StageFailed, []string{"travel.md"}, 1, "pomegranates", ""},
		{"text, then junk, under a new name", "junk.md", strings.Repeat("quinces and more quinces\n", 40000) + string(junk(1<<20)), UploadFailed, StageFailed, []string{"travel.md"}, 1, "pomegranates", "quinces"},
		{"an empty file", "empty.txt", "  \n", UploadFailed, StageFailed, []string{"travel.md"}, 1, "pomegranates", ""},
		{"an unsupported type", "photo.png", "\x89PNG", UploadFailed, StageFailed, []string{"travel.md"}, 1, "pomegranates", ""},
		{"records", "records.jsonl", `{"_id": "r1", "text": "귤은 겨울 과일"}` + "\n" + `{"_id": "r2", "text": "석류는 가을 과일"}` + "\n", UploadAdded, StageDone, []string{"records.jsonl", "travel.md"}, 3, "석류는", ""},
	}
	for _, s := range steps {
		res, ps := upload(s.file, s.content)
		last := ps[len(ps)-1]
		if res.Outcome != s.outcome || last.Stage != s.last {
			t.Fatalf("%s: outcome %q, last stage %q; want %q, %q (%+v)", s.name, res.Outcome, last.Stage, s.outcome, s.last, res)
		}
		if s.outcome == UploadDuplicate && (res.Same.Title != "출장 규정" || last.DuplicateOf != "출장 규정") {
			t.Errorf("%s: duplicate of %q / %q", s.name, res.Same.Title, last.DuplicateOf)
		}
		if s.outcome == UploadReplaced != last.Replaced {
			t.Errorf("%s: Replaced = %v", s.name, last.Replaced)
		}
		if got := files(t, dir); strings.Join(got, ",") != strings.Join(s.files, ",") { // nothing left in .incoming either
			t.Errorf("%s: the upload folder holds %v, want %v", s.name, got, s.files)
		}
		if d, _ := rows(t, b); int(d) != s.docs {
			t.Errorf("%s: %d documents, want %d", s.name, d, s.docs)
		}
		if found(s.found) == 0 || s.gone != "" && found(s.gone) != 0 {
			t.Errorf("%s: %q found %d times, %q %d times", s.name, s.found, found(s.found), s.gone, found(s.gone))
		}
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "travel.md")); !strings.Contains(string(got), "숙박비는") {
		t.Errorf("the kept copy is not the latest version: %q", got)
	}

	// Removing a record keeps the file while other records use it.
	docs, _ := b.List(ctx)
	var records []string
	for _, d := range docs {
		if d.RecordID != "" {
			records = append(records, d.ID)
		}
	}
	if err := b.Remove(ctx, records[0]); err != nil {
		t.Fatal(err)
	}
	if got := files(t, dir); len(got) != 2 {
		t.Errorf("after removing one record of two: %v", got)
	}
	if err := b.Remove(ctx, records[1]); err != nil {
		t.Fatal(err)
	}
	if got := files(t, dir); strings.Join(got, ",") != "travel.md" {
		t.Errorf("after removing both records: %v", got)
	}
	if e.sink.count() != 1 {
		t.Errorf("the sink kept %d chunks", e.sink.count())
	}
}

// TestUploadsOfEarlierVersions: copies kept as uploads/ID/NAME are
// replaced by a new upload of that name, and Open deletes what interrupted
// uploads left and copies no document uses.
func TestUploadsOfEarlierVersions(t *testing.T) {
	e, b, dir := uploadEnv(t)
	ctx := context.Background()
	legacy := filepath.Join(dir, "0190aaaa", "notes.md")
	orphan := filepath.Join(dir, "0190bbbb", "removed.md")
	incoming := filepath.Join(dir, incomingDir, "up-1", "half.md")
	for path, text := range map[string]string{legacy: "# Notes\n\nold tangerines\n", orphan: "no document", incoming: "half written"} {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := b.Import(ctx, []string{legacy}, nil); err != nil {
		t.Fatal(err)
	}

	b = e.openWith(Options{UploadDir: dir})
	if got := files(t, dir); strings.Join(got, ",") != filepath.Join("0190aaaa", "notes.md") {
		t.Fatalf("after a restart the upload folder holds %v; want only the copy in use", got)
	}
	res, err := b.Upload(ctx, "notes.md", strings.NewReader("# Notes\n\nnew pomegranates\n"), nil)
	if err != nil || res.Outcome != UploadReplaced {
		t.Fatalf("upload over an earlier version's copy: %+v, %v", res, err)
	}
	if got := files(t, dir); strings.Join(got, ",") != "notes.md" {
		t.Errorf("upload folder %v; want the new copy only", got)
	}
	if _, err := os.Stat(filepath.Dir(legacy)); !os.IsNotExist(err) {
		t.Errorf("the earlier copy's folder is still there: %v", err)
	}
	docs, _ := b.List(ctx)
	if len(docs) != 1 || docs[0].Source != filepath.Join(dir, "notes.md") {
		t.Errorf("documents %+v", docs)
	}
}

// TestUploadStopped: an upload whose context is cancelled before it
// begins ends its progress StageStopped, says so in its report and leaves
// nothing.
func TestUploadStopped(t *testing.T) {
	_, b, dir := uploadEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var last Progress
	res, err := b.Upload(ctx, "notes.md", strings.NewReader("# Notes\n\ntangerines\n"), func(p Progress) { last = p })
	if err == nil || res.Outcome != UploadStopped || last.Stage != StageStopped || len(res.Report.Stopped) != 1 {
		t.Fatalf("cancelled upload: %+v, %v, last progress %+v", res, err, last)
	}
	if got := files(t, dir); len(got) != 0 {
		t.Errorf("a stopped upload left %v", got)
	}
	if d, c := rows(t, b); d != 0 || c != 0 {
		t.Errorf("a stopped upload left %d documents, %d chunks", d, c)
	}
}

// A file that waits for another import or removal says so at once, so a
// queued upload is seen in the list instead of nothing until its turn; a
// file that does not wait never says it.
func TestQueuedFilesSayTheyWait(t *testing.T) {
	_, b, _ := uploadEnv(t)
	ctx := context.Background()
	stages := func(t *testing.T, run func(func(Progress))) <-chan []Stage {
		t.Helper()
		out := make(chan []Stage, 1)
		seen := make(chan struct{}, 1)
		go func() {
			var got []Stage
			run(func(p Progress) {
				got = append(got, p.Stage)
				if p.Stage == StageWaiting {
					seen <- struct{}{}
				}
			})
			out <- got
		}()
		select {
		case <-seen:
		case s := <-out:
			t.Fatalf("it did not wait: %v", s)
		case <-time.After(10 * time.Second): // the lock is held: it cannot finish
			t.Fatal("a queued file said nothing while it waited")
		}
		return out
	}
	for _, tt := range []struct {
		name string
		held *sync.Mutex
		run  func(func(Progress))
	}{
		{"an upload behind another upload", &b.uploads, func(p func(Progress)) { b.Upload(ctx, "a.md", strings.NewReader("# A\n\napples\n"), p) }},
		{"an upload behind an import", &b.write, func(p func(Progress)) { b.Upload(ctx, "b.md", strings.NewReader("# B\n\nbananas\n"), p) }},
		{"an import behind an upload", &b.write, func(p func(Progress)) {
			path := filepath.Join(t.TempDir(), "c.md")
			os.WriteFile(path, []byte("# C\n\ncherries\n"), 0o600)
			b.Import(ctx, []string{path}, p)
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.held.Lock()
			release := sync.OnceFunc(tt.held.Unlock)
			defer release()
			got := stages(t, tt.run)
			release()
			if s := <-got; !slices.Contains(s, StageWaiting) || s[len(s)-1] != StageDone {
				t.Errorf("stages %v, want waiting, then done last", s)
			}
		})
	}
	var got []Stage
	b.Upload(ctx, "d.md", strings.NewReader("# D\n\ndates\n"), func(p Progress) { got = append(got, p.Stage) })
	if slices.Contains(got, StageWaiting) {
		t.Errorf("an upload nothing held up says it waited: %v", got)
	}
}

// TestUploadNamesTheDiskRefuses: a browser may send any name; one the
// file system would refuse (over 255 bytes, a NUL) is made usable, and
// the upload is kept under it, instead of failing with an error of the
// disk that names a temporary folder ("open …/.incoming/up-…: file name
// too long").
func TestUploadNamesTheDiskRefuses(t *testing.T) {
	_, b, dir := uploadEnv(t)
	long := strings.Repeat("가", 100) + ".txt" // 304 bytes
	for i, tt := range []struct{ name, want string }{
		{long, strings.Repeat("가", 83) + ".txt"},
		{"a\x00b\nc.txt", "a_b_c.txt"},
	} {
		res, err := b.Upload(context.Background(), tt.name, strings.NewReader(fmt.Sprintf("본문 %d", i)), nil)
		if err != nil || res.Outcome != UploadAdded {
			t.Fatalf("%q: %v, %+v", tt.name, err, res)
		}
		if filepath.Base(res.Path) != tt.want {
			t.Errorf("%q: kept as %q, want %q", tt.name, filepath.Base(res.Path), tt.want)
		}
		if _, err := os.Stat(filepath.Join(dir, tt.want)); err != nil {
			t.Errorf("%q: %v", tt.name, err)
		}
	}
}

// An upload stopped while it waits for another import to be read stops
// waiting at once, ends with StageStopped and leaves nothing: no copy, no
// document. (The app's TestCancelImport stops an upload while it embeds;
// an upload queued behind that one does not wait long enough to be
// stopped there, since the embedding is handed on when it joins.)
func TestUploadStoppedWhileItWaits(t *testing.T) {
	_, b, dir := uploadEnv(t)
	b.write.Lock() // another import is being read
	defer b.write.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	waiting := make(chan struct{})
	type outcome struct {
		res  UploadResult
		err  error
		last Stage
	}
	done := make(chan outcome, 1)
	go func() {
		var last Stage
		res, err := b.Upload(ctx, "queued.md", strings.NewReader("# Queued\n\nplums\n"), func(p Progress) {
			if last = p.Stage; p.Stage == StageWaiting {
				close(waiting)
			}
		})
		done <- outcome{res, err, last}
	}()
	select {
	case <-waiting:
	case o := <-done:
		t.Fatalf("the upload did not wait: %+v", o)
	case <-time.After(10 * time.Second):
		t.Fatal("the upload did not say it waits")
	}
	cancel()
	var o outcome
	select {
	case o = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a stopped upload went on waiting for the import ahead of it")
	}
	if o.err == nil || o.res.Outcome != UploadStopped || o.last != StageStopped || len(o.res.Report.Stopped) != 1 || len(o.res.Report.Imported) != 0 {
		t.Fatalf("stopped while it waits: %+v, %v, last stage %v", o.res, o.err, o.last)
	}
	if got := files(t, dir); len(got) != 0 {
		t.Errorf("a stopped upload left %v", got)
	}
	if d, c := rows(t, b); d != 0 || c != 0 {
		t.Errorf("a stopped upload left %d documents, %d chunks", d, c)
	}
}
