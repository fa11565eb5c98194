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

// WriteCorpus writes n JSON Lines records of ≈80 words (English-like and
// Korean, Zipf-distributed, always the same for the same n) to path and
// returns q queries drawn from the same vocabulary.
func WriteCorpus(path string, n, q int) ([]string, error) {
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
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	var sb strings.Builder
	for i := range n {
		sb.Reset()
		for range 80 {
			sb.WriteString(vocab[zipf.Uint64()])
			sb.WriteByte(' ')
		}
		if err := enc.Encode(map[string]string{"_id": fmt.Sprint(i), "title": vocab[zipf.Uint64()], "text": sb.String()}); err != nil {
			return nil, fmt.Errorf("write corpus %s: %w", path, err)
		}
	}
	if err := w.Flush(); err != nil {
		return nil, fmt.Errorf("write corpus %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("write corpus %s: %w", path, err)
	}
	queries := make([]string, q)
	for i := range queries {
		queries[i] = vocab[zipf.Uint64()] + " " + vocab[rng.IntN(3000)]
	}
	return queries, nil
}
