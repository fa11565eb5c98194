package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// kb import of folders with no file in them says so and fails, in the
// command's language, where it said "Imported 0 files (0 documents, 0
// chunks); 0 unchanged, 0 failed." and ended well.
func TestKBImportOfEmptyFolders(t *testing.T) {
	empty := t.TempDir()
	nested := t.TempDir()
	if err := os.MkdirAll(filepath.Join(nested, "a", "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name   string
		paths  []string
		en, ko string
	}{
		{"an empty folder", []string{empty}, "wayfinder: there is no file to import in " + empty, "wayfinder: " + empty + "에 가져올 파일이 없습니다"},
		{"empty folders in it", []string{nested}, "wayfinder: there is no file to import in " + nested, "wayfinder: " + nested + "에 가져올 파일이 없습니다"},
		{"two", []string{empty, nested}, "wayfinder: there is no file to import in " + empty + ", " + nested, "wayfinder: " + empty + ", " + nested + "에 가져올 파일이 없습니다"},
	} {
		for _, l := range []struct{ env, want string }{{"en_US.UTF-8", tt.en}, {"ko_KR.UTF-8", tt.ko}} {
			t.Run(l.env[:2]+" "+tt.name, func(t *testing.T) {
				t.Setenv("LC_ALL", l.env)
				code, out, errOut := wayfinder(t, append([]string{"--data-dir", t.TempDir(), "--ollama-host", "http://127.0.0.1:1", "kb", "import"}, tt.paths...)...)
				if code != 1 || out != "" || strings.TrimSuffix(errOut, "\n") != l.want {
					t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and %q", code, out, errOut, l.want)
				}
			})
		}
	}
}
