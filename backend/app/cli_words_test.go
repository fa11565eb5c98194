package app

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// What an import of conversations did, in either language.
func TestImportSummaryInBothLanguages(t *testing.T) {
	for _, tc := range []struct {
		r      api.ImportResult
		en, ko string
	}{
		{api.ImportResult{Conversations: 1, Added: 1}, "Imported 1 conversation: 1 new.", "대화 1개를 가져왔습니다: 새 대화 1개."},
		{api.ImportResult{Conversations: 3, Added: 0, Copies: 1, Unchanged: 2},
			"Imported 3 conversations: 0 new, 1 as a copy under new ids (a different conversation had the id), 2 already here, unchanged.",
			"대화 3개를 가져왔습니다: 새 대화 0개, 1개는 다른 대화가 같은 ID를 써서 새 ID로 복사, 2개는 이미 있어 그대로."},
		{api.ImportResult{Conversations: 2, Copies: 2},
			"Imported 2 conversations: 0 new, 2 as copies under new ids (a different conversation had the id).",
			"대화 2개를 가져왔습니다: 새 대화 0개, 2개는 다른 대화가 같은 ID를 써서 새 ID로 복사."},
		{api.ImportResult{Conversations: 4500, Added: 1200, Copies: 1300, Unchanged: 2000},
			"Imported 4,500 conversations: 1,200 new, 1,300 as copies under new ids (a different conversation had the id), 2,000 already here, unchanged.",
			"대화 4,500개를 가져왔습니다: 새 대화 1,200개, 1,300개는 다른 대화가 같은 ID를 써서 새 ID로 복사, 2,000개는 이미 있어 그대로."},
	} {
		for i, want := range []string{tc.en, tc.ko} {
			if got := importSummary(tc.r, i); got != want {
				t.Errorf("lang %d %+v:\n got %q\nwant %q", i, tc.r, got, want)
			}
		}
	}
}

// kb import's summary sets every count's thousands apart, "unchanged"
// and "failed" as well as the files, documents and chunks.
func TestKBSummaryGroupsEveryCount(t *testing.T) {
	many := func(n int) []string { return make([]string, n) }
	for _, tc := range []struct {
		name   string
		rep    api.ImportReport
		en, ko string
	}{
		{"small", api.ImportReport{Imported: many(2), Skipped: many(3), Failed: make([]api.ImportFailure, 1), Documents: 2, Chunks: 40},
			"Imported 2 files (2 documents, 40 chunks); 3 unchanged, 1 failed.",
			"파일 2개를 가져왔습니다(문서 2개, 청크 40개). 바뀌지 않음 3개, 실패 1개."},
		{"thousands", api.ImportReport{Imported: many(1500), Skipped: many(2345), Failed: make([]api.ImportFailure, 1001), Documents: 1500, Chunks: 34796},
			"Imported 1,500 files (1,500 documents, 34,796 chunks); 2,345 unchanged, 1,001 failed.",
			"파일 1,500개를 가져왔습니다(문서 1,500개, 청크 34,796개). 바뀌지 않음 2,345개, 실패 1,001개."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for i, want := range []string{tc.en, tc.ko} {
				if got := kbSummary(tc.rep, i); got != want {
					t.Errorf("lang %d:\n got %q\nwant %q", i, got, want)
				}
			}
		})
	}
}

// A command that only reads beside an open Wayfinder says so in the data
// folder's language, and one that would ask a question with no terminal
// to ask on says which flag goes ahead without it, in the system's.
func TestReadOnlyNoteAndQuestionSpeakTheCommandsLanguage(t *testing.T) {
	dir := t.TempDir()
	a, err := openApp(context.Background(), globals{dataDir: dir}, "serve", newLogger(io.Discard, false))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	cfg := a.settings.Current()
	cfg.Language = "ko"
	if _, err := a.settings.Save(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	t.Setenv("LC_ALL", "en_US.UTF-8")
	code, _, errOut := wayfinder(t, "--data-dir", dir, "kb", "list")
	if code != 0 || !strings.Contains(errOut, "(열려 있는 Wayfinder가 이 데이터 폴더를 쓰고 있어, 저장된 내용을 읽기 전용으로 보여 줍니다.)\n") {
		t.Fatalf("read-only beside the open app: %d %q", code, errOut)
	}
	for lang, want := range map[string]string{
		"ko_KR.UTF-8": "표준 입력이 터미널이 아니어서 확인할 수 없습니다. 묻지 않고 진행하려면 --yes를 붙이세요",
		"en_US.UTF-8": "standard input is not a terminal, so nobody can confirm; add --yes to go ahead without asking",
	} {
		t.Setenv("LC_ALL", lang)
		other := t.TempDir()
		wayfinder(t, "--data-dir", other, "--ollama-host", "http://127.0.0.1:1", "memory", "add", "녹차")
		if code, _, errOut := wayfinder(t, "--data-dir", other, "--ollama-host", "http://127.0.0.1:1", "memory", "rm", "--all"); code != 2 || !strings.Contains(errOut, want) {
			t.Errorf("%s: rm --all without a terminal: %d %q", lang, code, errOut)
		}
	}
}

// A failure the window words (Ollama away) is said by the command line
// in Korean as the window says it, the next step too; English keeps the
// backend's words.
func TestReportWordsKnownErrorsInKorean(t *testing.T) {
	for lang, want := range map[string][]string{
		"ko_KR.UTF-8": {"wayfinder: Wayfinder가 http://127.0.0.1:1의 Ollama에 연결할 수 없습니다.\n", "  다음 단계: Ollama를 실행하세요(`ollama serve`"},
		"en_US.UTF-8": {"wayfinder: Wayfinder cannot reach Ollama at http://127.0.0.1:1.\n", "  next step: Start Ollama (run `ollama serve`"},
	} {
		t.Run(lang, func(t *testing.T) {
			t.Setenv("LC_ALL", lang)
			code, _, errOut := wayfinder(t, "--data-dir", t.TempDir(), "--ollama-host", "http://127.0.0.1:1", "--model", "llama3.2:3b", "ask", "안녕")
			for _, w := range want {
				if code != 1 || !strings.Contains(errOut, w) {
					t.Errorf("exit %d, want %q in\n%s", code, w, errOut)
				}
			}
		})
	}
}

// Too short a start of an id is said in the command's language too.
func TestShortIDPrefixInBothLanguages(t *testing.T) {
	for lang, want := range map[string]string{
		"ko_KR.UTF-8": "wayfinder: 문서 ID를 4자 이상 적으세요(`wayfinder kb list`가 보여 줍니다)\n사용법은 `wayfinder kb remove --help`로 볼 수 있습니다.\n",
		"en_US.UTF-8": "wayfinder: give at least 4 characters of the document's id (`wayfinder kb list` shows them)\nRun `wayfinder kb remove --help` for usage.\n",
	} {
		t.Setenv("LC_ALL", lang)
		if code, _, errOut := wayfinder(t, "--data-dir", t.TempDir(), "kb", "remove", "abc"); code != 2 || errOut != want {
			t.Errorf("%s: %d\n got %q\nwant %q", lang, code, errOut, want)
		}
	}
}
