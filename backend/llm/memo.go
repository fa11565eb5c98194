package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	wf "github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/atomicfile"
)

// ContextMemo keeps the context length /api/show reported of each model
// beyond one Client: the app starts a new Client at every start and every
// change of the settings, and one whose host does not answer yet (Ollama
// still starting) would otherwise fit prompts to DefaultNumCtx. With the
// model's own context (WithNumCtx(0)) that is a fraction of its real one,
// and the turn's first step folds into a summary, for good, conversation
// messages that fit the real context verbatim. A fresh /api/show always
// wins over the memo and updates it.
type ContextMemo interface {
	// Recall is the context length last noted for model; 0 when none was.
	Recall(model string) int
	// Note keeps n (> 0) as model's context length.
	Note(model string, n int)
}

// WithContextMemo has the client note each model's context length from
// /api/show in m, and recall it while no host can be asked.
func WithContextMemo(m ContextMemo) Option { return func(c *config) { c.memo = m } }

// ContextFileName is ContextFile's file in the data folder.
const ContextFileName = "model-context.json"

const (
	// maxContextFile bounds what is read: the file holds a line a model.
	maxContextFile = 1 << 20
	// maxContextModels bounds the models kept; more are not noted.
	maxContextModels = 1000
)

// ContextFile is a ContextMemo kept in a small JSON file
// ({"qwen3:4b": 40960}). It is a cache: a file that cannot be read counts
// as empty (the next /api/show fills it again), and a write that fails is
// logged, not returned, since the call it came from did not fail.
type ContextFile struct {
	path string
	log  *slog.Logger

	mu      sync.Mutex
	lengths map[string]int
	closed  bool // Close: noted in memory only
}

// OpenContextFile reads the memo at path (none yet is an empty one).
func OpenContextFile(path string, log *slog.Logger) *ContextFile {
	if log == nil {
		log = slog.Default()
	}
	f := &ContextFile{path: path, log: log, lengths: map[string]int{}}
	lengths, err := readContextFile(path)
	if err != nil {
		log.Warn("read the models' context lengths; they are asked of Ollama again", "path", path, "err", err)
		return f
	}
	for m, n := range lengths {
		if n > 0 && len(f.lengths) < maxContextModels {
			f.lengths[wf.ModelKey(m)] = n
		}
	}
	return f
}

func readContextFile(path string) (map[string]int, error) {
	file, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer file.Close()
	data, err := io.ReadAll(io.LimitReader(file, maxContextFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxContextFile {
		return nil, fmt.Errorf("larger than %d bytes", maxContextFile)
	}
	var lengths map[string]int
	if err := json.Unmarshal(data, &lengths); err != nil {
		return nil, fmt.Errorf("parse %s: %w", filepath.Base(path), err)
	}
	return lengths, nil
}

// Recall implements ContextMemo.
func (f *ContextFile) Recall(model string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.lengths[wf.ModelKey(model)]
}

// Note implements ContextMemo; the file is written only when n is new.
func (f *ContextFile) Note(model string, n int) {
	key := wf.ModelKey(model)
	f.mu.Lock()
	defer f.mu.Unlock()
	old, known := f.lengths[key]
	if n <= 0 || old == n || (!known && len(f.lengths) >= maxContextModels) {
		return
	}
	f.lengths[key] = n
	if f.closed {
		return
	}
	if err := f.write(); err != nil {
		f.log.Warn("keep the model's context length", "model", model, "path", f.path, "err", err)
	}
}

// Close waits for a write under way and has later notes kept in memory
// only: the app closing its data folder (and unlocking it for another
// process) must not have a model call still running write in it after.
func (f *ContextFile) Close() {
	f.mu.Lock()
	f.closed = true
	f.mu.Unlock()
}

// write replaces the file whole (a temporary file renamed over it), so a
// crash leaves the old memo or the new one.
func (f *ContextFile) write() error {
	data, err := json.MarshalIndent(f.lengths, "", " ")
	if err != nil {
		return err
	}
	return atomicfile.Write(f.path, append(data, '\n'), 0o600)
}
