package knowledgetest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
)

// englishStems and englishEnds make the words of LargeEnglish: stems with
// the endings the Porter stemmer cuts ("connections", "relational"), so
// that a benchmark stems as much as real prose makes it.
var (
	englishStems = strings.Fields(`the of and to in is was for that with as on by at from this be are
		which it or an have has not but all were can been their they more one other also than into only
		its new two time first may after these such most about between used some over would during
		connect relate generate operate develop measure report observe analyse control cell protein
		gene patient treatment effect study result method model system process data function level
		increase reduce express regulate activate form structure response condition factor rate risk
		group sample test evidence network memory search library document reader index chunk page
		heading paragraph sentence question answer person computer window import export engine`)
	englishEnds = []string{"", "", "", "", "s", "ed", "ing", "ion", "ions", "ional", "er", "ers",
		"ly", "ness", "ment", "ments", "ive", "ity", "ate", "ation", "ations", "al", "ic", "ism"}
)

// LargeEnglish returns about n bytes of English-like prose, always the
// same for the same n: Zipf-drawn words with endings, sentences of 6–24
// words, paragraphs of 2–8 sentences apart by blank lines.
func LargeEnglish(n int) string {
	rng := rand.New(rand.NewPCG(5, 6))
	zipf := rand.NewZipf(rng, 1.2, 2, uint64(len(englishStems)-1))
	var sb strings.Builder
	sb.Grow(n + 1024)
	for sb.Len() < n {
		for s := 2 + rng.IntN(7); s > 0; s-- {
			for w := 6 + rng.IntN(19); w > 0; w-- {
				word := englishStems[zipf.Uint64()]
				if len(word) > 3 {
					word += englishEnds[rng.IntN(len(englishEnds))]
				}
				sb.WriteString(word)
				if w > 1 {
					sb.WriteByte(' ')
				}
			}
			sb.WriteString(". ")
		}
		sb.WriteString("\n\n")
	}
	return sb.String()
}

// LargeKorean returns about n bytes of Korean prose, always the same for
// the same n: the paragraphs of the Korean question set's corpus (path,
// testdata/ko/corpus.jsonl: real Korean text with its titles, numbers and
// Latin words) in a seeded random order, apart by blank lines.
func LargeKorean(path string, n int) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var paras []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r struct{ Text string }
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return "", fmt.Errorf("read %s: %w", path, err)
		}
		if r.Text != "" {
			paras = append(paras, r.Text)
		}
	}
	if err := sc.Err(); err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	if len(paras) == 0 {
		return "", fmt.Errorf("read %s: no paragraphs", path)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	var sb strings.Builder
	sb.Grow(n + 4096)
	for sb.Len() < n {
		sb.WriteString(paras[rng.IntN(len(paras))])
		sb.WriteString("\n\n")
	}
	return sb.String(), nil
}
