package knowledge

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/chunk"
)

// A citation opened again costs nothing: the cited text found word for
// word in the document imported since, or the passage most like a changed
// one, is found through the keyword index, without reading the document;
// only a passage the index cannot tell (its words in too many chunks) is
// looked for by reading it once (TestLikeByIndexAsTheScan); the answer is remembered for the next
// click, for that document, until it is removed — in English and in Korean.
func TestPassageNowReadsTheDocumentOnlyWhenItMust(t *testing.T) {
	for _, l := range []struct {
		name, file, needle, changed string
		clause                      func(n int) string
	}{
		{"en", "harbour.md", "The harbour master rings the copper bell at seven every morning.", "The harbour master rings the brass bell at eight every morning.",
			func(n int) string { return fmt.Sprintf("Clause %d: ropes are coiled and lamps trimmed.", n) }},
		{"ko", "항구.md", "항만장은 매일 아침 일곱 시에 구리 종을 울립니다.", "항만장은 매일 아침 여덟 시에 놋쇠 종을 울립니다.",
			func(n int) string {
				return fmt.Sprintf("제%d조: 밧줄은 감아 두고 등불은 손질합니다.", n)
			}},
	} {
		t.Run(l.name, func(t *testing.T) {
			e := newPlainEnv(t)
			b := e.openWith(Options{Sink: e.sink, UploadDir: filepath.Join(e.dir, "uploads"), Chunk: chunk.Options{Size: 200, Overlap: 40}})
			ctx := context.Background()
			doc := func(added int, needle string) string {
				var s strings.Builder
				for n := 1; n <= added; n++ {
					fmt.Fprintf(&s, "## Added %d\n\n%s\n\n", n, l.clause(100+n))
				}
				for n := 1; n <= 40; n++ {
					fmt.Fprintf(&s, "## Section %d\n\n%s\n\n", n, l.clause(n))
					if n == 30 {
						s.WriteString(needle + "\n\n")
					}
				}
				return s.String()
			}
			up := func(text string) { t.Helper(); uploadAs(t, b, l.file, text) }
			up(doc(0, l.needle))
			cited, source, was := citeTop(t, b, l.needle)
			snippet := strings.TrimSpace(was.Chunk.Text)
			cut := string([]rune(snippet)[:len([]rune(snippet))-9]) + "…"
			open := func(chunkID, text string, found Found, reads int64) Passage {
				t.Helper()
				p, err := b.PassageNow(ctx, "", chunkID, source, text)
				if err != nil || p.Found != found {
					t.Fatalf("found %q, %v; want %q", p.Found, err, found)
				}
				if got := b.scans.Load(); got != reads {
					t.Fatalf("the document was read whole %d times, want %d", got, reads)
				}
				return p
			}

			// Sections added before it: the passage as cited, found without reading the document.
			up(doc(6, l.needle))
			p := open(cited, snippet, FoundText, 0)
			if !strings.Contains(p.Chunk.Text, l.needle) || p.Chunk.Seq <= was.Chunk.Seq {
				t.Errorf("the cited passage where it is now: chunk %d (cited %d) %q", p.Chunk.Seq, was.Chunk.Seq, p.Chunk.Text)
			}
			open(cited, cut, FoundText, 0)
			// Its words changed: the closest passage is weighed through the index too, the document not read;
			// the next click is remembered.
			up(doc(6, l.changed))
			kept := b.found.len()
			p = open(cited, snippet, FoundSimilar, 0)
			if !strings.Contains(p.Chunk.Text, l.changed) {
				t.Errorf("the closest passage: chunk %d %q", p.Chunk.Seq, p.Chunk.Text)
			}
			open(cited, snippet, FoundSimilar, 0)
			if got := b.found.len(); got != kept+1 {
				t.Errorf("%d answers remembered after two clicks on one citation, want %d", got, kept+1)
			}
			// Another cited place in the same document is an answer of its own.
			open(fmt.Sprintf("%s:%d", was.Doc.ID, was.Chunk.Seq+1), snippet, FoundSimilar, 0)
			if got := b.found.len(); got != kept+2 {
				t.Errorf("%d answers remembered after another place was cited, want %d", got, kept+2)
			}
			// Removed, its answers go with it.
			now := p.Doc.ID
			docs, err := b.List(ctx)
			if err != nil {
				t.Fatal(err)
			}
			before := b.found.len()
			for _, d := range docs {
				if d.Source == source {
					now = d.ID
					if err := b.Remove(ctx, d.ID); err != nil {
						t.Fatal(err)
					}
				}
			}
			if after := b.found.len(); before == 0 || after != 0 {
				t.Errorf("answers kept of document %s: %d before its removal, %d after", now, before, after)
			}
		})
	}
}

// exactByIndex opens the chunk the scan opens, among several holding the
// cited text: the nearest to the cited number, the earlier at a tie; it
// leaves to the scan a text whose every word is in too many chunks.
func TestExactByIndexAsTheScan(t *testing.T) {
	e := newPlainEnv(t)
	b := e.openWith(Options{Sink: e.sink, UploadDir: filepath.Join(e.dir, "uploads"), Chunk: chunk.Options{Size: 200, Overlap: 0}})
	ctx := context.Background()
	// Sections 1..60, each its own chunk; the notice repeated in 10, 20, 30, 40, 50.
	notice := "Notice: the lighthouse lamp is lit at dusk and put out at dawn."
	var s strings.Builder
	for n := 1; n <= 60; n++ {
		fmt.Fprintf(&s, "## Section %d\n\n", n)
		if n%10 == 0 {
			s.WriteString(notice + "\n\n")
		} else {
			fmt.Fprintf(&s, "Rule %d: the quay is swept and the nets are mended.\n\n", n)
		}
	}
	// A second document: the same sentence in every chunk, more chunks than maxHolding.
	var same strings.Builder
	for n := 1; n <= maxHolding+20; n++ {
		fmt.Fprintf(&same, "## Part %d\n\nThe tide comes in and the tide goes out.\n\n", n)
	}
	docs := make([]Document, 2)
	for i, f := range []struct{ name, text string }{{"notices.md", s.String()}, {"tides.md", same.String()}} {
		if _, err := b.Upload(ctx, f.name, strings.NewReader(f.text), nil); err != nil {
			t.Fatal(err)
		}
		all, err := b.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range all {
			if filepath.Base(d.Source) == f.name {
				docs[i] = d
			}
		}
	}
	chunks, err := b.Chunks(ctx, docs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	var at []int
	for _, c := range chunks {
		if strings.Contains(c.Text, "Notice") {
			at = append(at, c.Seq)
		}
	}
	if len(at) != 6 {
		t.Fatalf("the notice in chunks %v", at)
	}
	for _, c := range []struct {
		name   string
		doc    Document
		seq    int
		cited  string
		prefix bool
		want   int // the chunk exactByIndex opens, -1: left to the scan
	}{
		{"nearest after", docs[0], at[1] - 2, notice, false, at[1]},
		{"nearest before", docs[0], at[2] + 3, notice, false, at[2]},
		{"a tie: the earlier", docs[0], (at[1] + at[2]) / 2, notice, false, at[1]},
		{"the cited chunk itself", docs[0], at[3], notice, false, at[3]},
		{"before the first", docs[0], 0, notice, false, at[0]},
		{"past the last", docs[0], 300, notice, false, at[5]},
		{"a snippet cut short", docs[0], at[4] - 1, "Notice: the lighthouse lamp is lit at du", true, at[4]},
		{"spaced otherwise", docs[0], at[4] + 1, strings.ReplaceAll(notice, " ", " \n "), false, at[4]},
		{"not there word for word", docs[0], at[2], "Notice: the lighthouse lamp is lit at noon.", false, -1},
		{"every word in too many chunks", docs[1], 100, "The tide comes in and the tide goes out.", false, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			want, prefix := normCited(c.cited)
			if c.prefix {
				want, prefix = normCited(c.cited + "…")
			}
			got, _, err := b.exactByIndex(ctx, c.doc.ID, c.seq, want, prefix)
			if err != nil {
				t.Fatal(err)
			}
			scanned, found, err := b.scan(ctx, c.doc, c.seq, want, prefix)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want || (c.want >= 0 && (scanned != got || found != FoundText)) {
				t.Errorf("exactByIndex %d, want %d; the scan %d %q", got, c.want, scanned, found)
			}
		})
	}
}

// likeByIndex answers as the scan does, without reading the document:
// for a passage with some words changed (FoundSimilar), one deleted from
// a document of like sections (FoundGone), one whose words came apart
// over two chunks (FoundText), a snippet cut short, in English and in
// Korean; and it leaves to the scan what it cannot say.
func TestLikeByIndexAsTheScan(t *testing.T) {
	e := newPlainEnv(t)
	b := e.openWith(Options{Sink: e.sink, UploadDir: filepath.Join(e.dir, "uploads"), Chunk: chunk.Options{Size: 200, Overlap: 0}})
	ctx := context.Background()
	var s strings.Builder
	for n := 1; n <= 40; n++ {
		fmt.Fprintf(&s, "## Section %d\n\n", n)
		switch n {
		case 12:
			s.WriteString("The harbour master rings the brass bell at eight every morning.\n\n")
		case 25:
			s.WriteString("항만장은 매일 아침 여덟 시에 놋쇠 종을 울립니다.\n\n")
		case 33: // long enough to be cut in two chunks
			s.WriteString("The pilot boat waits at the breakwater until the fog lifts and the harbour light is seen from the quay, then it goes out to the ships at anchor. The keeper writes the hour in the night log and rings the bell twice.\n\n")
		default:
			fmt.Fprintf(&s, "Rule %d of the harbour: ropes are coiled, lamps are trimmed and the log is written before the tide turns.\n\n", n)
		}
	}
	if _, err := b.Upload(ctx, "harbour.md", strings.NewReader(s.String()), nil); err != nil {
		t.Fatal(err)
	}
	docs, err := b.List(ctx)
	if err != nil || len(docs) != 1 {
		t.Fatalf("documents %v %v", docs, err)
	}
	doc := docs[0]
	for _, c := range []struct {
		name, cited string
		seq         int
		found       Found
	}{
		{"some words changed", "The harbour master rings the copper bell at seven every morning.", 3, FoundSimilar},
		{"some words changed, in Korean", "항만장은 매일 아침 일곱 시에 구리 종을 울립니다.", 30, FoundSimilar},
		{"gone from like sections", "Rule 99 of the harbour: the copper kettle is descaled every Thursday.", 20, FoundGone},
		{"gone, in Korean", "조리실 주전자는 매주 목요일에 석회를 닦아 냅니다.", 20, FoundGone},
		{"words no chunk holds", "Nothing of this is anywhere.", 5, FoundGone},
		{"a snippet cut short, changed", "The harbour master rings the copper bell at sev…", 3, FoundSimilar},
		{"over two chunks", "the harbour light is seen from the quay, then it goes out to the ships at anchor. The keeper writes the hour", 10, FoundText},
	} {
		t.Run(c.name, func(t *testing.T) {
			want, prefix := normCited(c.cited)
			at, found, done, err := b.likeByIndex(ctx, doc, c.seq, want, prefix, maxLikeHolders)
			if err != nil || !done {
				t.Fatalf("done %v, %v", done, err)
			}
			scanned, scanFound, err := b.scan(ctx, doc, c.seq, want, prefix)
			if err != nil {
				t.Fatal(err)
			}
			if found != c.found || at != scanned || found != scanFound {
				t.Errorf("likeByIndex %d %q, want %q; the scan %d %q", at, found, c.found, scanned, scanFound)
			}
		})
	}
	// More chunks to weigh than the limit, or no terms: the scan's.
	want, prefix := normCited("Rule 7 of the harbour: ropes are coiled.")
	if _, _, done, err := b.likeByIndex(ctx, doc, 7, want, prefix, 3); done || err != nil {
		t.Errorf("past the limit: done %v, %v", done, err)
	}
	if _, _, done, err := b.likeByIndex(ctx, doc, 7, "— —", false, maxLikeHolders); done || err != nil {
		t.Errorf("no terms: done %v, %v", done, err)
	}
}
