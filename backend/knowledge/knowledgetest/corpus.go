// Package knowledgetest makes test data for the knowledge base: a seeded
// synthetic corpus the benchmarks share, so their figures stay comparable.
package knowledgetest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
)

// Corpus returns n texts of the given number of words (English-like and
// Korean with a particle, Zipf-distributed, always the same for the same
// arguments) and q two-word queries drawn from the same vocabulary.
func Corpus(n, words, q int) (texts, queries []string) {
	rng := rand.New(rand.NewPCG(3, 4))
	vocab := make([]string, 30000)
	for i := range vocab {
		if i%3 == 0 {
			vocab[i] = string([]rune{rune(0xAC00 + rng.IntN(2000)), rune(0xAC00 + rng.IntN(2000))}) + "를"
		} else {
			vocab[i] = fmt.Sprintf("word%x", i)
		}
	}
	zipf := rand.NewZipf(rng, 1.1, 1, uint64(len(vocab)-1))
	texts = make([]string, n)
	var sb strings.Builder
	for i := range texts {
		sb.Reset()
		for range words {
			sb.WriteString(vocab[zipf.Uint64()])
			sb.WriteByte(' ')
		}
		texts[i] = sb.String()
	}
	queries = make([]string, q)
	for i := range queries {
		queries[i] = vocab[zipf.Uint64()] + " " + vocab[rng.IntN(3000)]
	}
	return texts, queries
}

// WriteCorpus writes n JSON Lines records of the Corpus, ≈80 words each,
// to path and returns q queries.
func WriteCorpus(path string, n, q int) ([]string, error) {
	texts, queries := Corpus(n, 80, q)
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for i, text := range texts {
		title, _, _ := strings.Cut(text, " ")
		if err := enc.Encode(map[string]string{"_id": fmt.Sprint(i), "title": title, "text": text}); err != nil {
			return nil, fmt.Errorf("write corpus %s: %w", path, err)
		}
	}
	if err := w.Flush(); err != nil {
		return nil, fmt.Errorf("write corpus %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("write corpus %s: %w", path, err)
	}
	return queries, nil
}
