package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A command that would write to a data folder another Wayfinder holds says
// so in the command's language, then what to do, on two lines: a Korean
// terminal read the whole of it in English.
func TestDataFolderInUseIsSaidInTheCommandsLanguage(t *testing.T) {
	dir := t.TempDir()
	l, err := lockDataDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Unlock()
	doc := filepath.Join(t.TempDir(), "note.md")
	if err := os.WriteFile(doc, []byte("# Note\n\nleave policy\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		env  string
		want []string
	}{
		{"en_US.UTF-8", []string{
			"wayfinder: another Wayfinder is using the data folder " + dir + " (a Wayfinder window, `wayfinder serve` or `wayfinder ask`)",
			"  next step: Close it first, or choose another folder with --data-dir.",
		}},
		{"ko_KR.UTF-8", []string{
			"wayfinder: 다른 Wayfinder(Wayfinder 창, `wayfinder serve`, `wayfinder ask`)가 데이터 폴더 " + dir + "을 쓰고 있습니다", // 001: 일, so 을,
			"  다음 단계: 먼저 그것을 닫거나, --data-dir로 다른 폴더를 고르세요.",
		}},
	} {
		for _, args := range [][]string{{"kb", "import", doc}, {"ask", "hi"}, {"memory", "add", "I like tea"}} {
			t.Run(tt.env[:2]+" "+args[0], func(t *testing.T) {
				t.Setenv("LC_ALL", tt.env)
				code, out, errOut := wayfinder(t, append([]string{"--data-dir", dir, "--ollama-host", "http://127.0.0.1:1"}, args...)...)
				if got := strings.TrimSuffix(errOut, "\n"); code != 1 || out != "" || got != strings.Join(tt.want, "\n") {
					t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 1 and:\n%s", code, out, errOut, strings.Join(tt.want, "\n"))
				}
			})
		}
	}
}
