package ollamatest

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/types/model"
)

// Model is an installed model of the fake.
type Model struct {
	Name          string   `json:"name"`
	Capabilities  []string `json:"capabilities"` // "completion", "tools", "embedding", "thinking", ...
	Size          int64    `json:"size,omitempty"`
	ContextLength int      `json:"context_length,omitempty"`
}

// DefaultModels is what a fresh fake has installed: a chat model with tool
// support and a multilingual embedding model, Wayfinder's defaults.
func DefaultModels() []Model {
	return []Model{
		{Name: "llama3.2:3b", Capabilities: []string{"completion", "tools"}, Size: 2019393189, ContextLength: 131072},
		{Name: "bge-m3", Capabilities: []string{"embedding"}, Size: 1157672605, ContextLength: 8192},
	}
}

// defaultContextLength is the context of a model that sets none.
const defaultContextLength = 8192

func (s *Server) model(name string) (Model, bool) {
	n := normalizeName(name)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, m := range s.cfg.models {
		if m.Name == n {
			return m, true
		}
	}
	return Model{}, false
}

// AddModel installs a model (or replaces one of the same name).
func (s *Server) AddModel(m Model) {
	m.Name = normalizeName(m.Name)
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.cfg.models {
		if s.cfg.models[i].Name == m.Name {
			s.cfg.models[i] = m
			return
		}
	}
	s.cfg.models = append(s.cfg.models, m)
}

// RemoveModel uninstalls a model, e.g. to test onboarding.
func (s *Server) RemoveModel(name string) {
	n := normalizeName(name)
	s.mu.Lock()
	defer s.mu.Unlock()
	var kept []Model
	for _, m := range s.cfg.models {
		if m.Name != n {
			kept = append(kept, m)
		}
	}
	s.cfg.models = kept
}

func digest(name string) string {
	return fmt.Sprintf("%x", sha256.Sum256([]byte(name)))
}

func family(m Model) string {
	if strings.Contains(m.Name, "bge") || hasCap(m, "embedding") {
		return "bert"
	}
	return "llama"
}

func hasCap(m Model, c string) bool {
	for _, x := range m.Capabilities {
		if x == c {
			return true
		}
	}
	return false
}

func (s *Server) handleTags(w http.ResponseWriter) {
	s.mu.Lock()
	models := append([]Model(nil), s.cfg.models...)
	s.mu.Unlock()
	resp := api.ListResponse{Models: []api.ListModelResponse{}}
	for _, m := range models {
		// Capabilities are left out on purpose: servers before v0.12 do not
		// send them here, so clients must ask /api/show.
		resp.Models = append(resp.Models, api.ListModelResponse{
			Name:       m.Name,
			Model:      m.Name,
			ModifiedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
			Size:       m.Size,
			Digest:     digest(m.Name),
			Details:    api.ModelDetails{Format: "gguf", Family: family(m), Families: []string{family(m)}, ParameterSize: "3.2B", QuantizationLevel: "Q4_K_M"},
		})
	}
	writeJSON(w, http.StatusOK, resp)
}

func (s *Server) handleShow(w http.ResponseWriter, body []byte) {
	var req api.ShowRequest
	if err := json.Unmarshal(body, &req); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid request: " + err.Error()})
		return
	}
	name := req.Model
	if name == "" {
		name = req.Name
	}
	m, ok := s.model(name)
	if !ok {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": fmt.Sprintf("model '%s' not found", name)})
		return
	}
	caps := make([]model.Capability, 0, len(m.Capabilities))
	for _, c := range m.Capabilities {
		caps = append(caps, model.Capability(c))
	}
	f := family(m)
	ctxLen := m.ContextLength
	if ctxLen == 0 {
		ctxLen = defaultContextLength
	}
	writeJSON(w, http.StatusOK, api.ShowResponse{
		Modelfile:    "FROM " + m.Name,
		Parameters:   "stop \"<|eot_id|>\"",
		Template:     "{{ .Prompt }}",
		Details:      api.ModelDetails{Format: "gguf", Family: f, Families: []string{f}, ParameterSize: "3.2B", QuantizationLevel: "Q4_K_M"},
		ModelInfo:    map[string]any{"general.architecture": f, f + ".context_length": ctxLen},
		Capabilities: caps,
		ModifiedAt:   time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
	})
}

// handleDelete removes a model as Ollama's DELETE /api/delete does: 200
// with an empty body, or 404 for a model it does not have.
func (s *Server) handleDelete(w http.ResponseWriter, body []byte) {
	var req api.DeleteRequest
	if err := json.Unmarshal(body, &req); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid request: " + err.Error()})
		return
	}
	name := req.Model
	if name == "" {
		name = req.Name
	}
	if _, ok := s.model(name); !ok {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": fmt.Sprintf("model '%s' not found", name)})
		return
	}
	s.RemoveModel(name)
	w.WriteHeader(http.StatusOK)
}

// SetPullDelay changes the pause between pull progress lines, e.g. so that
// a test has time to cancel a download.
func (s *Server) SetPullDelay(d time.Duration) {
	s.mu.Lock()
	s.cfg.pullDelay = d
	s.mu.Unlock()
}

// pullSteps is how many progress lines a simulated download has.
const pullSteps = 5

func (s *Server) handlePull(w http.ResponseWriter, r *http.Request, body []byte) {
	var req api.PullRequest
	if err := json.Unmarshal(body, &req); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid request: " + err.Error()})
		return
	}
	name := req.Model
	if name == "" {
		name = req.Name
	}
	name = normalizeName(name)
	s.mu.Lock()
	failure, fails := s.cfg.pullFailures[name]
	delay := s.cfg.pullDelay
	s.mu.Unlock()

	stream := req.Stream == nil || *req.Stream
	if !stream {
		if fails {
			writeJSON(w, http.StatusInternalServerError, map[string]string{"error": failure})
			return
		}
		s.installPulled(name)
		writeJSON(w, http.StatusOK, api.ProgressResponse{Status: "success"})
		return
	}

	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	if writeLine(w, api.ProgressResponse{Status: "pulling manifest"}) != nil {
		return
	}
	if fails {
		// The real server reports a failed pull inside the 200 stream.
		writeLine(w, map[string]string{"error": failure})
		return
	}
	const total = int64(1 << 30)
	d := "sha256:" + digest(name)
	for i := 0; i <= pullSteps; i++ {
		if !s.wait(r.Context(), delay) {
			return
		}
		p := api.ProgressResponse{Status: "pulling " + d[7:19], Digest: d, Total: total, Completed: total * int64(i) / pullSteps}
		if writeLine(w, p) != nil {
			return
		}
	}
	for _, st := range []string{"verifying sha256 digest", "writing manifest"} {
		if writeLine(w, api.ProgressResponse{Status: st}) != nil {
			return
		}
	}
	s.installPulled(name)
	writeLine(w, api.ProgressResponse{Status: "success"})
}

// installPulled adds a pulled model, guessing its capabilities from its
// name the way people name embedding models.
func (s *Server) installPulled(name string) {
	if _, ok := s.model(name); ok {
		return
	}
	caps := []string{"completion", "tools"}
	for _, hint := range []string{"embed", "bge", "minilm", "e5"} {
		if strings.Contains(name, hint) {
			caps = []string{"embedding"}
		}
	}
	s.AddModel(Model{Name: name, Capabilities: caps, Size: 1 << 30})
}
