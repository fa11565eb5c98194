package app

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// Once Close returns, nothing changes in the data folder and no window is
// told anything: what the app started on its own (the status check a
// saved setting or a deleted model starts, a download) has ended or is
// waited for. A Settings save once left its status check running after
// Close; its /api/show wrote the models' context lengths
// (model-context.json, by way of a temporary file) into a folder already
// unlocked, or being removed (t.TempDir's clean-up failed "directory not
// empty" 5 times in 80), and its event went to a closed window. The
// setting saved just before Close is there when the folder opens again.
func TestNothingHappensAfterClose(t *testing.T) {
	for _, tc := range []struct {
		name string
		do   func(t *testing.T, s *SettingsService)
	}{
		{"a saved setting", func(t *testing.T, s *SettingsService) {
			cfg, _ := s.Get()
			cfg.Language = "ko"
			if _, err := s.Save(cfg); err != nil {
				t.Fatal(err)
			}
		}},
		{"a download", func(t *testing.T, s *SettingsService) {
			if err := s.Pull("qwen3:4b"); err != nil {
				t.Fatal(err)
			}
		}},
		{"a deleted model", func(t *testing.T, s *SettingsService) {
			if err := s.DeleteModel("bge-m3"); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Each answer of Ollama takes a while: the check is under way
			// when Close begins.
			const latency = 150 * time.Millisecond
			fake := ollamatest.New(t, ollamatest.WithLatency(latency), ollamatest.WithPullDelay(latency))
			g := globals{dataDir: t.TempDir(), ollamaHost: fake.URL(), model: "llama3.2:3b", embedModel: "bge-m3"}
			a, err := openApp(context.Background(), g, "serve", newLogger(io.Discard, false))
			if err != nil {
				t.Fatal(err)
			}
			events := &eventLog{}
			a.AttachEvents(events)
			tc.do(t, &SettingsService{a})
			a.Close()
			told, files := len(events.since(0)), folderState(t, g.dataDir)
			time.Sleep(10 * latency) // the check's calls, and more
			if now := folderState(t, g.dataDir); now != files {
				t.Errorf("the data folder changed after Close:\n%s\nthen\n%s", files, now)
			}
			if late := events.since(told); len(late) > 0 {
				t.Errorf("told after Close: %v", late)
			}

			again, _ := openServeApp(t, g)
			if tc.name == "a saved setting" && again.settings.Current().Language != "ko" {
				t.Errorf("opened again: Language %q, want the saved ko", again.settings.Current().Language)
			}
		})
	}
}

// since names the events after the first n.
func (l *eventLog) since(n int) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var names []string
	for _, e := range l.events[n:] {
		names = append(names, e.name)
	}
	return names
}

// folderState is each file under dir with its size and time, one a line.
func folderState(t *testing.T, dir string) string {
	t.Helper()
	var out string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out += fmt.Sprintf("%s %d %s\n", rel, info.Size(), info.ModTime().Format(time.RFC3339Nano))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
