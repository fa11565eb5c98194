package security

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/backend/tools"
	"github.com/wayfinder-app/wayfinder/tests/internal/world"
)

const (
	secret = "TOP-SECRET-7781"
	notes  = "NOTES-INSIDE-4410"
)

// folders makes an added folder with a note, a secret file beside it, and
// a link inside the folder that points at the secret.
func folders(t *testing.T) (allowed, secretPath string) {
	root := t.TempDir()
	allowed = filepath.Join(root, "allowed")
	if err := os.Mkdir(allowed, 0o700); err != nil {
		t.Fatal(err)
	}
	secretPath = filepath.Join(root, "secret.txt")
	for path, text := range map[string]string{secretPath: secret, filepath.Join(allowed, "notes.txt"): notes} {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(secretPath, filepath.Join(allowed, "link.txt")); err != nil {
		t.Fatal(err)
	}
	return allowed, secretPath
}

// askReadFile runs one turn in which the model asks read_file for path and
// returns every chat request the fake saw.
func askReadFile(t *testing.T, allowed, path string) []ollama.ChatRequest {
	fake := ollamatest.New(t)
	fake.OnFunc(world.IsAnswer, func(req ollama.ChatRequest) ollamatest.Reply {
		if world.Last(req).Role == "tool" {
			return ollamatest.Reply{Text: "Here is what I found."}
		}
		return ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{{Name: "read_file", Args: map[string]any{"path": path}}}}
	})
	world.ScriptComplex(fake, world.Pace{})
	b := world.New(t, fake.URL(), world.Config{DataDir: t.TempDir(), Folders: []api.FolderGrant{{Path: allowed}}})
	msg, err := b.Chat.Ask(context.Background(), "", "Show me the file "+path, nil)
	if err != nil || msg.Status != api.StatusComplete {
		t.Fatalf("turn: %v %+v", err, msg)
	}
	b.Agent.Wait()
	return fake.ChatRequests()
}

func leaked(reqs []ollama.ChatRequest, text string) bool {
	for _, r := range reqs {
		for _, m := range r.Messages {
			if strings.Contains(m.Content, text) {
				return true
			}
		}
	}
	return false
}

// TestReadFileStaysInAddedFolders: a model that asks read_file for a file
// outside the added folders (absolute path, ../, a symlink out, the system
// password file) gets an error observation, never the file's content.
func TestReadFileStaysInAddedFolders(t *testing.T) {
	allowed, secretPath := folders(t)
	passwd, _ := os.ReadFile("/etc/passwd")
	for _, path := range []string{"/etc/passwd", "../secret.txt", secretPath, "link.txt", filepath.Join(allowed, "..", "secret.txt"), "../../../../../../etc/passwd"} {
		t.Run(path, func(t *testing.T) {
			reqs := askReadFile(t, allowed, path)
			if leaked(reqs, secret) {
				t.Fatalf("the secret reached the model through read_file(%q)", path)
			}
			if len(passwd) > 0 && leaked(reqs, firstLine(string(passwd))) {
				t.Fatalf("/etc/passwd reached the model through read_file(%q)", path)
			}
			var observed bool
			for _, r := range reqs {
				if m := world.Last(r); m.Role == "tool" {
					observed = true
				}
			}
			if !observed {
				t.Fatal("the model never got an observation for its read_file call")
			}
		})
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// TestReadFileToolRefusesEscapes runs the registered read_file tool, as the
// app registers it, on the same paths: each escape is an error observation,
// and the file inside the folder is read (so the refusals are not an
// accident of a broken tool).
func TestReadFileToolRefusesEscapes(t *testing.T) {
	allowed, secretPath := folders(t)
	reg, err := tools.Standard(nil, tools.Deps{Folders: func() []api.FolderGrant { return []api.FolderGrant{{Path: allowed}} }})
	if err != nil {
		t.Fatal(err)
	}
	run := func(path string) tools.Outcome {
		return reg.Run(context.Background(), tools.Call{Name: "read_file", Args: map[string]any{"path": path}})
	}
	if out := run("notes.txt"); out.Err != nil || !strings.Contains(out.Result.Text, notes) {
		t.Fatalf("read_file(notes.txt) = %+v", out)
	}
	for _, path := range []string{"/etc/passwd", "../secret.txt", secretPath, "link.txt", filepath.Join(allowed, "..", "secret.txt"), "../../../../../../etc/passwd"} {
		out := run(path)
		if out.Err == nil || strings.Contains(out.Result.Text, secret) || strings.Contains(out.Result.Text, "root:") {
			t.Errorf("read_file(%q) = %+v, want a refusal", path, out)
		}
	}
}
