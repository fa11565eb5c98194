package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What export cannot write and import cannot read is said in the
// command's language with what to do, never with Go's words or the name
// of the temporary file export writes beside its target.
func TestExportAndImportSayWhatIsWrongWithTheFile(t *testing.T) {
	dir := t.TempDir()
	base := []string{"--data-dir", dir, "--ollama-host", "http://127.0.0.1:1"}
	files := filepath.Join(t.TempDir(), "files") // a name whose particle is known: "files는"
	if err := os.Mkdir(files, 0o700); err != nil {
		t.Fatal(err)
	}
	notExport := filepath.Join(files, "notes.md")
	if err := os.WriteFile(notExport, []byte("# My chat\n\nhello\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(files, "gone", "x.md")
	for i, tt := range []struct {
		lang string
		args []string
		want []string
	}{
		{"en_US.UTF-8", []string{"export", "--all", "-o", missing}, []string{
			"wayfinder: There is no folder " + filepath.Dir(missing) + ", so " + missing + " was not written.",
			"next step: Create the folder first (mkdir -p " + filepath.Dir(missing) + "), or give -o a path in a folder that exists."}},
		{"ko_KR.UTF-8", []string{"export", "--all", "-o", missing}, []string{
			"wayfinder: " + filepath.Dir(missing) + " 폴더가 없어 " + missing + "에 쓰지 못했습니다.",
			"다음 단계: 먼저 폴더를 만들거나(mkdir -p " + filepath.Dir(missing) + ") -o에 있는 폴더의 경로를 적으세요."}},
		{"en_US.UTF-8", []string{"export", "--all", "-o", files}, []string{"wayfinder: " + files + " is a folder, not a file.", "next step: Give -o the file to write, such as " + files + "/conversations.md."}},
		{"ko_KR.UTF-8", []string{"export", "--all", "-o", files}, []string{"wayfinder: " + files + "는 파일이 아니라 폴더입니다.", "다음 단계: -o에 쓸 파일을 적으세요"}},
		{"en_US.UTF-8", []string{"import", missing}, []string{"wayfinder: There is no file " + missing + ".", "next step: Check the path; `wayfinder export --format json -o FILE` makes a file to import."}},
		{"ko_KR.UTF-8", []string{"import", missing}, []string{"wayfinder: " + missing + " 파일이 없습니다.", "다음 단계: 경로를 확인하세요."}},
		{"ko_KR.UTF-8", []string{"import", files}, []string{"wayfinder: " + files + "는 파일이 아니라 폴더입니다."}},
		{"en_US.UTF-8", []string{"import", notExport}, []string{"wayfinder: This file cannot be imported: it is not a Wayfinder conversation export", "next step: Import a JSON file made by `wayfinder export --format json` or by the app's Export"}},
		{"ko_KR.UTF-8", []string{"import", notExport}, []string{"wayfinder: Wayfinder 대화 내보내기 파일이 아니어서 아무것도 가져오지 않았습니다.",
			"다음 단계: `wayfinder export --format json`이나 앱의 내보내기로 만든 JSON 파일을 가져오세요. Markdown 내보내기는 읽기용이라 가져올 수 없습니다."}},
	} {
		t.Run(fmt.Sprintf("%d %s %s", i, tt.lang[:2], tt.args[0]), func(t *testing.T) {
			t.Setenv("LC_ALL", tt.lang)
			code, _, errOut := wayfinder(t, append(append([]string{}, base...), tt.args...)...)
			if code != 1 {
				t.Errorf("exit %d, want 1:\n%s", code, errOut)
			}
			for _, w := range tt.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("want %q in\n%s", w, errOut)
				}
			}
			for _, bad := range []string{"no such file", "is a directory", "stat ", "open ", "/.x.md."} {
				if strings.Contains(errOut, bad) {
					t.Errorf("%q in\n%s", bad, errOut)
				}
			}
		})
	}
}
