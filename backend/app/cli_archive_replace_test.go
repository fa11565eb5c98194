package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// export -o does not write over a file that is there without asking: a
// terminal is asked "Replace it? [y/N]" (no, Enter and Ctrl+C write
// nothing), a script is refused with exit code 2 and told about --force,
// in the command's language; --force replaces it without a word.
func TestExportAsksBeforeReplacingAFile(t *testing.T) {
	dir := t.TempDir()
	base := []string{"--data-dir", dir, "--ollama-host", "http://127.0.0.1:1", "export", "--all"}
	const mine = "my own notes, not an export\n"
	out := filepath.Join(t.TempDir(), "chats.md")
	reset := func() {
		t.Helper()
		if err := os.WriteFile(out, []byte(mine), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	kept := func() bool {
		b, err := os.ReadFile(out)
		return err == nil && string(b) == mine
	}
	for _, tc := range []struct {
		name, lang string
		answer     string // "" : no terminal
		args       []string
		code       int
		want       []string
		replaced   bool
	}{
		{"script en", "en_US.UTF-8", "", nil, 2, []string{"wayfinder: " + out + " already exists: add --force to replace it, or give -o another file", "Run `wayfinder export --help` for usage."}, false},
		{"script ko", "ko_KR.UTF-8", "", nil, 2, []string{"wayfinder: " + out + "가 이미 있습니다. 바꿔 쓰려면 --force를 붙이고, 아니면 -o에 다른 파일을 적으세요"}, false},
		{"script --force", "en_US.UTF-8", "", []string{"--force"}, 0, []string{"Exported 0 conversations to " + out}, true},
		{"terminal no", "en_US.UTF-8", "n\n", nil, 1, []string{out + " already exists. Replace it? [y/N] ", "cancelled: nothing was changed"}, false},
		{"terminal Enter", "ko_KR.UTF-8", "\n", nil, 1, []string{out + "가 이미 있습니다. 바꿔 쓸까요? [y/N] ", "취소했습니다. 아무것도 바꾸지 않았습니다"}, false},
		{"terminal yes", "ko_KR.UTF-8", "y\n", nil, 0, []string{"바꿔 쓸까요? [y/N] ", "대화 0개를 내보냈습니다: " + out}, true},
		{"terminal --force", "en_US.UTF-8", "", []string{"--force"}, 0, []string{"Exported 0 conversations to " + out}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("LC_ALL", tc.lang)
			reset()
			var code int
			var stderr string
			args := append([]string{"-o", out}, tc.args...)
			run := wayfinder
			if tc.answer != "" || strings.HasPrefix(tc.name, "terminal") {
				run = func(t *testing.T, args ...string) (int, string, string) { return inTerminal(t, tc.answer, args...) }
			}
			code, _, stderr = run(t, append(append([]string{}, base...), args...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d:\n%s", code, tc.code, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("want %q in\n%s", w, stderr)
				}
			}
			if tc.replaced == kept() {
				b, _ := os.ReadFile(out)
				t.Errorf("replaced: %v, want %v; the file holds %q", !kept(), tc.replaced, b)
			}
			if strings.Contains(tc.name, "--force") && strings.Contains(stderr, "[y/N]") {
				t.Errorf("--force asked:\n%s", stderr)
			}
		})
	}
	// A file that is not there is written without a question, as before.
	fresh := filepath.Join(t.TempDir(), "new.md")
	if code, _, stderr := wayfinder(t, append(append([]string{}, base...), "-o", fresh)...); code != 0 || strings.Contains(stderr, "[y/N]") {
		t.Errorf("a new file: exit %d\n%s", code, stderr)
	}
}
