//go:build unix

package app

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// `kb import` of a folder says of every entry it did not read why, in the
// command's language: a link out of the folder (not followed: nothing
// outside the folder chosen is read), a link to a file inside it (read
// where it is, once), a pipe. Before, they were skipped without a word.
func TestKBImportSaysWhatItDidNotRead(t *testing.T) {
	top := t.TempDir()
	docs := filepath.Join(top, "docs")
	os.Mkdir(docs, 0o700)
	os.WriteFile(filepath.Join(top, "secret.md"), []byte("# 비밀\n\n바깥 글\n"), 0o600)
	os.WriteFile(filepath.Join(docs, "notes.md"), []byte("# Notes\n\nOne small note.\n"), 0o600)
	for name, target := range map[string]string{"escape.md": "../secret.md", "copy.md": "notes.md"} {
		if err := os.Symlink(target, filepath.Join(docs, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(docs, "pipe.txt"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		lang string
		want []string
	}{
		{"en_US.UTF-8", []string{
			"Imported 1 file (1 document, 1 chunk); 0 unchanged, 0 failed.\n",
			"Not read from the folders: 3 entries (links and what is not a file), each with why:\n",
			"  " + filepath.Join(docs, "copy.md") + ": This is a link to " + filepath.Join(docs, "notes.md") + ", inside the folder you chose: that is read where it is, not a second time through the link.\n",
			"  " + filepath.Join(docs, "escape.md") + ": This is a link to " + filepath.Join(top, "secret.md") + ", outside the folder you chose: Wayfinder does not follow it, so nothing outside that folder is read.",
			"  " + filepath.Join(docs, "pipe.txt") + ": This is not a file but a device, pipe or socket",
		}},
		{"ko_KR.UTF-8", []string{
			"파일 1개를 가져왔습니다(문서 1개, 청크 1개). 바뀌지 않음 0개, 실패 0개.\n",
			"폴더에서 읽지 않은 항목 3개(링크, 파일이 아닌 것)와 그 까닭:\n",
			"  " + filepath.Join(docs, "copy.md") + ": 고른 폴더 안의 " + filepath.Join(docs, "notes.md") + "를 가리키는 링크입니다.",
			"  " + filepath.Join(docs, "escape.md") + ": 고른 폴더 밖의 " + filepath.Join(top, "secret.md") + "를 가리키는 링크입니다. 고른 폴더 밖은 읽지 않도록 따라가지 않았습니다.",
			"  " + filepath.Join(docs, "pipe.txt") + ": 파일이 아니라 장치, 파이프 또는 소켓이라",
		}},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			t.Setenv("LC_ALL", tc.lang)
			base := []string{"--data-dir", t.TempDir(), "--ollama-host", "http://127.0.0.1:1"}
			code, out, errOut := wayfinder(t, append(base, "kb", "import", docs)...)
			if code != 0 {
				t.Fatalf("exit %d, want 0 (nothing failed):\n%s%s", code, out, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("want %q in\n%s", w, out)
				}
			}
			code, out, _ = wayfinder(t, append(base, "kb", "search", "바깥")...)
			if code != 0 || strings.Contains(out, "secret.md") {
				t.Errorf("the file outside the folder was read: %s", out)
			}
		})
	}
}
