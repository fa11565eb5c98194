package vector

import (
	"path/filepath"
	"testing"
)

// Ollama resolves "bge-m3" and "BGE-M3:latest" to one model: an index
// opened, or switched (SetEmbedder, Settings saved), with another spelling
// of the model whose vectors it holds keeps them all and embeds nothing
// again, where a different model makes every document pending.
func TestModelSpellingsKeepVectors(t *testing.T) {
	tests := []struct {
		name     string
		open     string // the model the index is opened with
		set      string // then SetEmbedder with this model ("" none)
		embedded int    // documents with a vector then
	}{
		{"same name", "bge-m3", "", 4},
		{"opened with :latest", "bge-m3:latest", "", 4},
		{"opened in capitals", " BGE-M3:latest", "", 4},
		{"switched to :latest", "bge-m3", "bge-m3:latest", 4},
		{"opened with :latest, switched back", "bge-m3:latest", "bge-m3", 4},
		{"another tag", "bge-m3:567m", "", 0},
		{"switched to another model", "bge-m3", "nomic-embed-text", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "chunks.vec")
			saved := openReady(t, path, "bge-m3", &fakeEmbedder{dim: 16})
			if err := saved.Add(t.Context(), corpus, nil); err != nil {
				t.Fatal(err)
			}
			saved.Close()

			// No embedder: nothing pending can be embedded meanwhile, so
			// Status says what the file's vectors count for the model.
			ix := openReady(t, path, tt.open, nil)
			if tt.set != "" {
				ix.SetEmbedder(tt.set, nil)
			}
			st := ix.Status()
			if st.Embedded != tt.embedded || st.Pending != len(corpus)-tt.embedded {
				t.Errorf("%+v: %d of %d documents keep their vector, want %d", st, st.Embedded, st.Docs, tt.embedded)
			}
			if want := tt.embedded == 0; st.Reembedding != want {
				t.Errorf("re-embedding %v, want %v", st.Reembedding, want)
			}
		})
	}
}
