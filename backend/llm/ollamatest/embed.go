package ollamatest

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"net/http"
	"strings"
	"unicode"

	"github.com/ollama/ollama/api"
)

// handleEmbed answers /api/embed. An input longer than the model's
// context (ContextLength, counted by the fake's tokenizer) is refused with
// 400 when the request says "truncate": false, as the real server does;
// otherwise it is embedded as it is (the real one cuts it first), or with
// WithEmbedOverflowHang never answered, as Ollama 0.24 did.
func (s *Server) handleEmbed(w http.ResponseWriter, r *http.Request, body []byte) {
	var req api.EmbedRequest
	if err := json.Unmarshal(body, &req); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid request: " + err.Error()})
		return
	}
	m, ok := s.model(req.Model)
	if !ok {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": fmt.Sprintf("model '%s' not found", req.Model)})
		return
	}
	var inputs []string
	switch in := req.Input.(type) {
	case string:
		inputs = []string{in}
	case []any:
		for _, v := range in {
			str, ok := v.(string)
			if !ok {
				writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid input type"})
				return
			}
			inputs = append(inputs, str)
		}
	case nil:
	default:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid input type"})
		return
	}
	s.mu.Lock()
	dim, hang := s.cfg.embedDim, s.cfg.embedOverflowHang
	s.mu.Unlock()
	ctxLen := m.ContextLength
	if ctxLen == 0 {
		ctxLen = defaultContextLength
	}
	for _, in := range inputs {
		if len(in) <= ctxLen || len(s.tok.tk.Encode(in)) <= ctxLen {
			continue
		}
		if req.Truncate != nil && !*req.Truncate {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "the input length exceeds the context length"})
			return
		}
		if hang {
			s.hang(w, r)
			return
		}
	}
	resp := api.EmbedResponse{Model: req.Model, Embeddings: [][]float32{}}
	for _, in := range inputs {
		resp.Embeddings = append(resp.Embeddings, Vector(in, dim))
		resp.PromptEvalCount += len(in)/4 + 1
	}
	writeJSON(w, http.StatusOK, resp)
}

// Vector is the fake's embedding of text: a normalised bag of hashed words
// (and of Hangul syllable bigrams, so "문서를" lands near "문서"). Texts that
// share words get similar vectors, which keeps vector-search tests
// meaningful; identical texts get identical vectors.
func Vector(text string, dim int) []float32 {
	if dim <= 0 {
		dim = 1
	}
	v := make([]float64, dim)
	for _, tok := range embedTokens(text) {
		h := fnv.New64a()
		h.Write([]byte(tok))
		sum := h.Sum64()
		sign := 1.0
		if sum&(1<<63) != 0 {
			sign = -1
		}
		v[sum%uint64(dim)] += sign
	}
	var norm float64
	for _, x := range v {
		norm += x * x
	}
	out := make([]float32, dim)
	if norm == 0 {
		out[0] = 1
		return out
	}
	norm = math.Sqrt(norm)
	for i, x := range v {
		out[i] = float32(x / norm)
	}
	return out
}

// embedTokens lower-cases text and splits it into words; words with Hangul
// also contribute their syllable bigrams.
func embedTokens(text string) []string {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	var out []string
	for _, w := range words {
		out = append(out, w)
		rs := []rune(w)
		if len(rs) > 2 && unicode.Is(unicode.Hangul, rs[0]) {
			for i := 0; i+1 < len(rs); i++ {
				out = append(out, string(rs[i:i+2]))
			}
		}
	}
	return out
}
