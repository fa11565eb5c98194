package knowledge

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/chunk"
)

// A cited passage whose document was imported again is found by its text,
// wherever it is now: after sections or paragraphs were added before it,
// with some of its words changed, or not at all (then the same place, and
// FoundGone says so) — in English and in Korean, and from a snippet cut
// short with "…" as a citation keeps it.
func TestPassageNowFindsTheCitedText(t *testing.T) {
	type lang struct {
		name, file                          string
		clause                              func(n int) string
		needle, changed, inserted, sentence string
	}
	for _, l := range []lang{{
		name: "en", file: "harbour.md",
		clause:   func(n int) string { return fmt.Sprintf("Clause %d: ropes are coiled and lamps trimmed.", n) },
		needle:   "The harbour master rings the copper bell at seven every morning before the ferries leave.",
		changed:  "The harbour master rings the brass bell at eight every morning before the ferries leave.",
		sentence: "An added note on the gangway: it is hosed down after the fish market closes.",
	}, {
		name: "ko", file: "항구.md",
		clause: func(n int) string {
			return fmt.Sprintf("제%d조: 밧줄은 감아 두고 등불은 손질합니다.", n)
		},
		needle:   "항만장은 매일 아침 여객선이 떠나기 전 일곱 시에 구리 종을 울립니다.",
		changed:  "항만장은 매일 아침 여객선이 떠나기 전 여덟 시에 놋쇠 종을 울립니다.",
		sentence: "덧붙인 메모: 어시장이 닫으면 건널판을 물로 씻어 냅니다.",
	}} {
		t.Run(l.name, func(t *testing.T) {
			e := newPlainEnv(t)
			b := e.openWith(Options{Sink: e.sink, UploadDir: filepath.Join(e.dir, "uploads"), Chunk: chunk.Options{Size: 200, Overlap: 40}})
			ctx := context.Background()
			// doc is 40 sections, the needle in section 30 after its
			// clause; added sections come before section 30, added
			// paragraphs in it before its clause (before) or between its
			// clause and the needle (inside).
			doc := func(sectionsBefore, before, inside int, needle string) string {
				var s strings.Builder
				s.WriteString("# Harbour\n\n")
				for i := range sectionsBefore {
					fmt.Fprintf(&s, "## Added %d\n\n%s\n\n", i, l.clause(100+i))
				}
				for n := 1; n <= 40; n++ {
					fmt.Fprintf(&s, "## Section %d\n\n", n)
					if n == 30 {
						s.WriteString(strings.Repeat(l.sentence+"\n\n", before))
					}
					s.WriteString(l.clause(n) + "\n\n")
					if n == 30 {
						s.WriteString(strings.Repeat(l.sentence+"\n\n", inside))
						if needle != "" {
							s.WriteString(needle + "\n\n")
						}
					}
				}
				return s.String()
			}
			up := func(text string) { t.Helper(); uploadAs(t, b, l.file, text) }
			up(doc(0, 0, 0, l.needle))
			cited, source, was := citeTop(t, b, l.needle)
			if !strings.Contains(was.Chunk.Text, l.needle) {
				t.Fatalf("the cited chunk %+v", was.Chunk)
			}
			snippet := strings.TrimSpace(was.Chunk.Text) // as a citation keeps it (tools/retrieve.go)
			cut := string([]rune(snippet)[:len([]rune(snippet))-12]) + "…"

			for _, c := range []struct {
				name    string
				doc     string
				cited   string
				found   Found
				holds   string // the text the chunk opened must hold
				samePos bool   // the chunk opened is at the cited number
			}{
				{"sections added before it", doc(5, 0, 0, l.needle), snippet, FoundText, l.needle, false},
				{"sections added before it, a snippet cut short", doc(5, 0, 0, l.needle), cut, FoundText, l.needle, false},
				// The section is cut at other places: the passage is whole
				// in a chunk that holds more (TestAcross: or in two).
				{"paragraphs added before it in its section", doc(0, 8, 0, l.needle), snippet, FoundText, l.clause(30), false},
				{"paragraphs added inside it", doc(0, 0, 8, l.needle), snippet, FoundSimilar, l.needle, false},
				{"sections added and its words changed", doc(5, 0, 0, l.changed), snippet, FoundSimilar, l.changed, false},
				{"its words changed, the cited text spaced otherwise", doc(0, 0, 0, l.changed), strings.ReplaceAll(snippet, " ", "\n  "), FoundSimilar, l.changed, true},
				{"no longer in the document", doc(0, 0, 0, ""), snippet, FoundGone, l.clause(30), true},
				{"no cited text: the same place", doc(5, 0, 0, l.needle), "", FoundGone, "", true},
			} {
				up(c.doc)
				p, err := b.PassageNow(ctx, "", cited, source, c.cited)
				if err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				if p.Found != c.found || !strings.Contains(p.Chunk.Text, c.holds) || (p.Chunk.Seq == was.Chunk.Seq) != c.samePos || p.Doc.ID == was.Doc.ID {
					t.Errorf("%s: found %q, chunk %d (cited %d) %q", c.name, p.Found, p.Chunk.Seq, was.Chunk.Seq, p.Chunk.Text)
				}
			}
		})
	}
}

// normCited compares a snippet cut short by its start only, and spacing
// and Unicode composition never count.
func TestNormCited(t *testing.T) {
	for _, c := range []struct {
		in, want string
		prefix   bool
	}{
		{"  a\n\n b\t c ", "a b c", false},
		{"a b…", "a b", true},
		{"a b …", "a b", true},
		{"\u1100\u1161 한", "가 한", false}, // decomposed Hangul composes
		{"", "", false},
		{strings.Repeat("x ", maxCited), strings.TrimSpace(strings.Repeat("x ", maxCited/2)), true},
	} {
		got, prefix := normCited(c.in)
		if got != c.want || prefix != c.prefix {
			t.Errorf("normCited(%.20q) = %.20q %v, want %.20q %v", c.in, got, prefix, c.want, c.prefix)
		}
	}
}

// sameText compares a chunk with the cited text as normText would have
// them both, without copying the chunk.
func TestSameText(t *testing.T) {
	for _, c := range []struct {
		text, want string
		prefix     bool
		same       bool
	}{
		{"a b c", "a b c", false, true},
		{"  a\n\n b\tc\n", "a b c", false, true},
		{"a b c d", "a b c", false, false},
		{"a b c d", "a b c", true, true},
		{"a b", "a b c", true, false},
		{"a bc", "a b c", false, false},
		{"ab c", "a b c", false, false},
		{"연차 휴가는\n15일", "연차 휴가는 15일", false, true},
		{"", "", false, true},
	} {
		if got := sameText(c.text, c.want, c.prefix); got != c.same {
			t.Errorf("sameText(%q, %q, %v) = %v", c.text, c.want, c.prefix, got)
		}
	}
}

// eachTerm gives words lower-cased and Korean as syllable pairs, so a
// word with another particle still shares most of its terms.
func TestEachTerm(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"The Harbour's bell, 7 o'clock.", []string{"the", "harbour", "s", "bell", "7", "o", "clock"}},
		{"연차 휴가는 15일", []string{"연차", "휴가", "가는", "15", "일"}},
		{"Ünïcode ÉTÉ", []string{"ünïcode", "été"}},
		{"… — !", nil},
	} {
		var got []string
		eachTerm(c.in, nil, func(term []byte) { got = append(got, string(term)) })
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("eachTerm(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// across finds a cited passage that an import cutting the document at
// other places left whole but over two chunks, and opens the chunk it
// starts in; a passage not whole there is not found.
func TestAcross(t *testing.T) {
	e := newPlainEnv(t)
	b := e.openWith(Options{Sink: e.sink})
	now := time.Now()
	if err := b.db.Create(&Document{ID: "d", Source: "/data/d.md", Title: "d", Kind: "markdown", Chunks: 4, CreatedAt: now, UpdatedAt: now}).Error; err != nil {
		t.Fatal(err)
	}
	for i, text := range []string{
		"Intro words. The harbour master rings",
		"master rings the copper bell at seven. Then", // overlaps the one before
		"항만장은 일곱 시에 구리",
		"종을 울립니다.", // no overlap: the cut's space was trimmed away
	} {
		if err := b.db.Create(&Chunk{ID: fmt.Sprintf("d:%d", i), DocID: "d", Seq: i, Text: text}).Error; err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		seq   int
		want  string
		at    int
		whole bool
	}{
		{1, "The harbour master rings the copper bell at seven.", 0, true},
		{0, "The harbour master rings the copper bell at seven.", 0, true},
		{0, "the copper bell at seven. Then", 1, true},
		{1, "The harbour master rings the brass bell at seven.", 0, false},
		{3, "항만장은 일곱 시에 구리 종을 울립니다.", 2, true},
		{2, "구리 종을", 2, true},
	} {
		at, whole, err := b.across(context.Background(), "d", c.seq, normText(c.want))
		if err != nil || whole != c.whole || (whole && at != c.at) {
			t.Errorf("across(%d, %q) = %d %v %v, want %d %v", c.seq, c.want, at, whole, err, c.at, c.whole)
		}
	}
}

// In a document of like sections a cited passage deleted is gone, though
// the section it was in holds most of its words: those words are in every
// section. With its own words changed it is the section's chunk, changed.
func TestPassageNowLikeSections(t *testing.T) {
	for _, l := range []struct {
		name, file, needle, changed string
		para                        func(n int) string
	}{{
		name: "en", file: "rules.md",
		para: func(n int) string {
			return fmt.Sprintf("Rule %d of the harbour: ropes are coiled, lamps are trimmed and the log is written before the tide turns.", n)
		},
		needle:  "The harbour master rings the copper bell at seven.",
		changed: "The harbour master rings the brass bell at eight.",
	}, {
		name: "ko", file: "규정.md",
		para: func(n int) string {
			return fmt.Sprintf("항구 규정 %d조: 밧줄은 감아 두고 등불은 손질하며 물때가 바뀌기 전에 일지를 씁니다.", n)
		},
		needle:  "항만장은 일곱 시에 구리 종을 울립니다.",
		changed: "항만장은 여덟 시에 놋쇠 종을 울립니다.",
	}} {
		t.Run(l.name, func(t *testing.T) {
			e := newPlainEnv(t)
			b := e.openWith(Options{Sink: e.sink, UploadDir: filepath.Join(e.dir, "uploads")})
			ctx := context.Background()
			doc := func(needle string) io.Reader {
				var s strings.Builder
				for n := 1; n <= 30; n++ {
					fmt.Fprintf(&s, "## Rule %d\n\n%s", n, l.para(n))
					if n == 20 && needle != "" {
						s.WriteString(" " + needle)
					}
					s.WriteString("\n\n")
				}
				return strings.NewReader(s.String())
			}
			if _, err := b.Upload(ctx, l.file, doc(l.needle), nil); err != nil {
				t.Fatal(err)
			}
			hits, err := b.Search(ctx, l.needle, SearchOptions{TopK: 1})
			if err != nil || len(hits) == 0 || !strings.Contains(hits[0].Text, l.needle) {
				t.Fatalf("hits %+v %v", hits, err)
			}
			cited := hits[0]
			for _, c := range []struct {
				name, needle string
				found        Found
			}{{"deleted", "", FoundGone}, {"changed", l.changed, FoundSimilar}} {
				if _, err := b.Upload(ctx, l.file, doc(c.needle), nil); err != nil {
					t.Fatal(err)
				}
				p, err := b.PassageNow(ctx, "", cited.ChunkID, cited.Source, cited.Text)
				if err != nil || p.Found != c.found || !strings.Contains(p.Chunk.Text, l.para(20)) {
					t.Errorf("%s: found %q %q %v", c.name, p.Found, p.Chunk.Text, err)
				}
			}
		})
	}
}

// likeness keeps the chunks holding the most cited words however many
// come before them, weighs rare words over common ones, and breaks ties
// by the nearest chunk to the cited one.
func TestLikeness(t *testing.T) {
	for _, c := range []struct {
		name   string
		chunk  func(seq int) string
		seq    int
		best   int
		shareQ string // "all", "most", "little"
	}{
		{"one holds them all, late", func(s int) string {
			return map[bool]string{true: "alpha beta gamma delta zeta", false: "alpha beta"}[s == 170]
		}, 50, 170, "all"},
		{"all alike: the nearest, its one missing word rare", func(int) string { return "alpha beta gamma" }, 50, 50, "little"},
		{"common words only", func(s int) string {
			return map[bool]string{true: "alpha beta delta", false: "alpha beta"}[s == 3]
		}, 120, 3, "most"},
	} {
		l := newLikeness("alpha beta gamma delta", c.seq)
		for s := range 200 {
			l.add(s, c.chunk(s))
		}
		best, share := l.best()
		ok := map[string]bool{"all": share == 1, "most": share >= 0.5 && share < 1, "little": share < 0.5}[c.shareQ]
		if best != c.best || !ok {
			t.Errorf("%s: best %d share %.2f, want %d %s", c.name, best, share, c.best, c.shareQ)
		}
	}
	// Words every chunk holds weigh little: holding only those is little.
	l := newLikeness("rule harbour ropes copper bell seven", 10)
	for s := range 50 {
		l.add(s, "rule harbour ropes")
	}
	if _, share := l.best(); share >= similarShare {
		t.Errorf("common words only: share %.2f", share)
	}
}
