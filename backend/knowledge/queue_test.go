package knowledge

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/pdftext"
)

// TestDuplicateKeepsTheQueue: an upload the library has already (its
// content, under another name) is said to be a duplicate at once, without
// joining the queue of imports: the file embedding in line keeps
// embedding in line (its embedding is not handed on to the background
// for nothing), and the duplicate does not wait for it.
func TestDuplicateKeepsTheQueue(t *testing.T) {
	e := newPlainEnv(t)
	sink := &holdSink{fakeSink: e.sink, hold: "long.md", held: make(chan struct{})}
	b := e.openWith(Options{Sink: sink, UploadDir: filepath.Join(e.dir, "uploads")})
	const known = "# Leave\n\nannual leave is fifteen days\n"
	if res, err := b.Upload(context.Background(), "leave.md", strings.NewReader(known), nil); err != nil || res.Outcome != UploadAdded {
		t.Fatalf("the first copy: %+v, %v", res, err)
	}
	var log progressLog
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	out := make(chan error, 1)
	go func() {
		_, err := b.Upload(ctx, "long.md", strings.NewReader("# Long\n\nlong file embedding in line\n"), log.add)
		out <- err
	}()
	<-sink.held // long.md embeds in line
	type upload struct {
		res UploadResult
		err error
	}
	for _, conversation := range []string{"", "conv-1"} {
		uploaded := make(chan upload, 1)
		go func() {
			res, err := b.upload(context.Background(), conversation, "leave copy.md", strings.NewReader(known), time.Time{}, log.add)
			uploaded <- upload{res, err}
		}()
		var up upload
		select {
		case up = <-uploaded:
		case <-time.After(time.Minute): // long.md's embedding never ends by itself
			t.Fatal("the duplicate waits for long.md's embedding")
		}
		if up.err != nil || up.res.Outcome != UploadDuplicate || up.res.Same.Title != "Leave" {
			t.Fatalf("upload to %q: %+v, %v; want a duplicate of Leave", conversation, up.res, up.err)
		}
	}
	if got := log.stages["leave copy.md"]; len(got) != 2 || got[0] != StageDuplicate || got[1] != StageDuplicate {
		t.Errorf("the duplicates' stages %v; want each said a duplicate at once", got)
	}
	// long.md still embeds in line: the person's stop stops it, not a
	// hand-on that happened meanwhile.
	stop()
	if err := <-out; err != nil {
		t.Fatalf("long.md: %v", err)
	}
	if err := log.last["long.md"].EmbedErr; !errors.Is(err, context.Canceled) {
		t.Errorf("long.md's embedding ended with %v; want it still in line until stopped", err)
	}
}

// gatedPDF reads each PDF once let through: it says on entered that it
// reads one, and waits for release.
type gatedPDF struct {
	entered chan struct{}
	release chan struct{}
}

func (g gatedPDF) ExtractReader(ctx context.Context, r io.ReaderAt, size int64) ([]pdftext.Page, error) {
	g.entered <- struct{}{}
	select {
	case <-g.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	// The file's bytes after its header are its page's words.
	raw := make([]byte, size)
	if _, err := r.ReadAt(raw, 0); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return []pdftext.Page{{Number: 1, Text: "a page of the report " + strings.TrimPrefix(string(raw), "%PDF-1.4")}}, nil
}

// TestWaitingNamesTheFileRead: a file waiting for its turn names the file
// the import holding the library reads, and the next one as that import
// goes on to it; not an empty name as it ends.
func TestWaitingNamesTheFileRead(t *testing.T) {
	e := newPlainEnv(t)
	pdf := gatedPDF{entered: make(chan struct{}), release: make(chan struct{})}
	b := e.openWith(Options{Sink: e.sink, PDF: pdf, UploadDir: filepath.Join(e.dir, "uploads")})
	dir := t.TempDir()
	paths := []string{writeIn(t, dir, "one.pdf", "%PDF-1.4"), writeIn(t, dir, "two.pdf", "%PDF-1.4 two")}
	ctx := context.Background()
	imported := make(chan error, 1)
	go func() {
		_, err := b.Import(ctx, paths, nil)
		imported <- err
	}()
	<-pdf.entered // one.pdf is being read
	waits := make(chan Progress, 16)
	uploaded := make(chan error, 1)
	go func() {
		_, err := b.Upload(ctx, "mine.md", strings.NewReader("# Mine\n\nmy own notes\n"), func(p Progress) {
			if p.Stage == StageWaiting {
				waits <- p
			}
		})
		uploaded <- err
	}()
	next := func() Progress {
		t.Helper()
		select {
		case p := <-waits:
			return p
		case <-time.After(time.Minute): // fail rather than hang
			t.Fatal("the waiting file said nothing")
			return Progress{}
		}
	}
	if p := next(); p.WaitingFor != "one.pdf" {
		t.Fatalf("waiting for %q; want one.pdf", p.WaitingFor)
	}
	pdf.release <- struct{}{}
	<-pdf.entered // two.pdf
	if p := next(); p.WaitingFor != "two.pdf" {
		t.Fatalf("then waiting for %q; want two.pdf", p.WaitingFor)
	}
	pdf.release <- struct{}{}
	if err := <-imported; err != nil {
		t.Fatal(err)
	}
	if err := <-uploaded; err != nil {
		t.Fatal(err)
	}
	close(waits)
	for p := range waits {
		t.Errorf("said again it waits, for %q", p.WaitingFor)
	}
}

// TestPromoteWhileANewVersionIsRead: "Add to library" on a conversation's
// file whose new version is being read waits only for that reading: it
// joins the queue, so the new version, once in, hands its embedding on to
// the background instead of embedding in line for minutes (here: for
// good) with Promote behind it; the new version is what joins the library.
func TestPromoteWhileANewVersionIsRead(t *testing.T) {
	e := newPlainEnv(t)
	pdf := gatedPDF{entered: make(chan struct{}), release: make(chan struct{})}
	sink := &laterSink{holdSink: &holdSink{fakeSink: e.sink, held: make(chan struct{})}, later: map[string]bool{}}
	b := e.openWith(Options{Sink: sink, PDF: pdf, UploadDir: filepath.Join(e.dir, "uploads")})
	ctx := context.Background()
	const conv = "conv-1"
	type upload struct {
		res UploadResult
		err error
	}
	var log progressLog
	attach := func(text string) <-chan upload {
		out := make(chan upload, 1)
		go func() {
			res, err := b.UploadToConversation(ctx, conv, "report.pdf", strings.NewReader("%PDF-1.4 "+text), time.Time{}, log.add)
			out <- upload{res, err}
		}()
		return out
	}
	first := attach("apples")
	<-pdf.entered
	pdf.release <- struct{}{}
	if up := <-first; up.err != nil || up.res.Outcome != UploadAdded {
		t.Fatalf("the first version: %+v, %v", up.res, up.err)
	}
	source := first0(t, b, conv)
	sink.hold = "report.pdf" // the new version's embedding never ends by itself
	second := attach("bananas")
	<-pdf.entered // the new version is being read
	promoted := make(chan upload, 1)
	go func() {
		moved, err := b.Promote(ctx, conv, source)
		promoted <- upload{UploadResult{Path: moved.Source}, err}
	}()
	for deadline := time.Now().Add(time.Minute); !b.embedQ.waiting(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) { // fail rather than hang
			t.Fatal("Add to library does not take its place in the queue")
		}
	}
	pdf.release <- struct{}{}
	var p upload
	select {
	case p = <-promoted:
	case <-time.After(time.Minute): // the new version's embedding never ends by itself
		t.Fatal("Add to library waits for the new version's embedding")
	}
	if want := filepath.Join(e.dir, "uploads", "report.pdf"); p.err != nil || p.res.Path != want {
		t.Fatalf("promote: %q, %v; want %q", p.res.Path, p.err, want)
	}
	up := <-second
	if up.err != nil || up.res.Outcome != UploadReplaced || !errors.Is(log.last["report.pdf"].EmbedErr, ErrEmbedHandedOn) {
		t.Fatalf("the new version: %+v, %v; want it in, its embedding handed on", up.res, up.err)
	}
	if docs, _ := b.ConversationDocuments(ctx, conv); len(docs) != 0 {
		t.Errorf("the conversation still has %+v", docs)
	}
	for q, want := range map[string]int{"bananas": 1, "apples": 0} {
		if hits, err := b.Search(ctx, q, SearchOptions{}); err != nil || len(hits) != want {
			t.Errorf("the library's search for %q: %d hits, %v; want %d", q, len(hits), err, want)
		}
	}
}

// first0 is the source of a conversation's only file.
func first0(t *testing.T, b *Base, conv string) string {
	t.Helper()
	docs, err := b.ConversationDocuments(context.Background(), conv)
	if err != nil || len(docs) != 1 {
		t.Fatalf("the conversation's files: %+v, %v", docs, err)
	}
	return docs[0].Source
}

// TestRemoveDoesNotWaitForAnEmbedding: removing a document (the Knowledge
// screen's Remove, a conversation's ✕) while another file embeds in line
// takes its turn in the queue: the embedding is handed on to the
// background, and the removal is done at once, not after it.
func TestRemoveDoesNotWaitForAnEmbedding(t *testing.T) {
	for _, by := range []string{"document", "source"} {
		t.Run(by, func(t *testing.T) {
			e := newPlainEnv(t)
			sink := &laterSink{holdSink: &holdSink{fakeSink: e.sink, held: make(chan struct{})}, later: map[string]bool{}}
			b := e.openWith(Options{Sink: sink, UploadDir: filepath.Join(e.dir, "uploads")})
			ctx := context.Background()
			old, err := b.Upload(ctx, "old.md", strings.NewReader("# Old\n\nolives\n"), nil)
			if err != nil || old.Outcome != UploadAdded {
				t.Fatalf("old.md: %+v, %v", old, err)
			}
			docs, err := b.List(ctx)
			var oldID string
			for _, d := range docs {
				if d.Source == old.Path {
					oldID = d.ID
				}
			}
			if err != nil || oldID == "" {
				t.Fatalf("old.md not listed: %+v, %v", docs, err)
			}
			sink.hold = "long.md" // its embedding never ends by itself
			var log progressLog
			out := make(chan error, 1)
			go func() {
				_, err := b.Upload(ctx, "long.md", strings.NewReader("# Long\n\nlong file embedding in line\n"), log.add)
				out <- err
			}()
			<-sink.held
			removed := make(chan error, 1)
			go func() {
				if by == "document" {
					removed <- b.Remove(ctx, oldID)
					return
				}
				_, err := b.RemoveSource(ctx, old.Path)
				removed <- err
			}()
			select {
			case err = <-removed:
			case <-time.After(time.Minute): // long.md's embedding never ends by itself
				t.Fatal("the removal waits for long.md's embedding")
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := <-out; err != nil {
				t.Fatal(err)
			}
			if err := log.last["long.md"].EmbedErr; !errors.Is(err, ErrEmbedHandedOn) {
				t.Errorf("long.md's embedding ended with %v; want it handed on", err)
			}
			if hits, _ := b.Search(ctx, "olives", SearchOptions{}); len(hits) != 0 {
				t.Errorf("old.md is still found: %d hits", len(hits))
			}
		})
	}
}
