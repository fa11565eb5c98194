package app

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// kb import, list and remove speak the command's language: a file's
// progress, why one was not imported or not embedded (as the window words
// it), its warning, the summary, what was left out, the list's headings
// and what was removed — with no English left in a Korean run, and the
// English run as it was.
func TestKBSpeaksTheCommandsLanguage(t *testing.T) {
	docs := t.TempDir()
	os.WriteFile(filepath.Join(docs, "notes.md"), []byte("# Notes\n\nOne small note.\n"), 0o644)
	os.WriteFile(filepath.Join(docs, "memo.md"), []byte("# 메모\n\n"+strings.Repeat("좋은 문장입니다.\n", 300)+"깨진 \xff 글자\n"), 0o644)
	os.WriteFile(filepath.Join(docs, "broken.pdf"), []byte("%PDF-1.7 not really"), 0o644)
	os.WriteFile(filepath.Join(docs, "photo.png"), []byte("\x89PNG\r\n"), 0o644)
	for _, tc := range []struct {
		lang                string
		imported, again     []string
		list, kinds, search []string
		removed, not        []string
		nothing             string
	}{
		{"en_US.UTF-8",
			[]string{
				"notes.md: 1 chunk, 0 embedded\n",
				"  not embedded: Wayfinder cannot reach Ollama at http://127.0.0.1:1.\n",
				"  Keyword search finds them now; they are embedded when",
				"  next step: Start Ollama (run `ollama serve`",
				"  warning: 1 unreadable character was replaced with � (line number: 303).\n",
				"broken.pdf: failed: This PDF is damaged or not really a PDF, so it could not be read.\n",
				"Imported 2 files (2 documents, ",
				"); 0 unchanged, 1 failed.\n",
				"  not imported: " + filepath.Join(docs, "broken.pdf") + ": This PDF is damaged or not really a PDF, so it could not be read.\n",
				"Left out 1 file of other types (Wayfinder imports PDF, Word, PowerPoint, Excel, Hancom (HWP, HWPX), OpenDocument, RTF, web pages, EPUB, Markdown, text, CSV, JSON and JSON Lines):\n",
			},
			[]string{"notes.md: unchanged, skipped\n", "Imported 0 files (0 documents, 0 chunks); 2 unchanged, 1 failed.\n", "wayfinder: 1 file could not be imported\n"},
			[]string{"ID", "TITLE", "KIND", "LENGTH", "CHUNKS", "SOURCE"}, []string{" Markdown "}, []string{"1. Notes (", ") score "}, []string{"removed "},
			[]string{"다음 단계", "가져", "경고", "실패"},
			"Nothing found for “zebra crossing”.",
		},
		{"ko_KR.UTF-8",
			[]string{
				"notes.md: 청크 1개, 0개 임베딩\n",
				"  임베딩 안 됨: Wayfinder가 http://127.0.0.1:1의 Ollama에 연결할 수 없습니다.\n",
				"  지금은 키워드 검색으로 찾을 수 있고",
				"  다음 단계: Ollama를 실행하세요(`ollama serve`",
				"  경고: 읽을 수 없는 글자 1개를 �로 바꿨습니다(303번째 줄).\n",
				"broken.pdf: 실패: 이 PDF는 손상되었거나 실제 PDF 파일이 아니어서 읽을 수 없습니다.\n",
				"파일 2개를 가져왔습니다(문서 2개, 청크 ",
				"). 바뀌지 않음 0개, 실패 1개.\n",
				"  가져오지 못함: " + filepath.Join(docs, "broken.pdf") + ": 이 PDF는 손상되었거나",
				"다른 종류의 파일 1개는 가져오지 않았습니다(Wayfinder는 PDF, Word, PowerPoint, Excel, 한글(HWP, HWPX), OpenDocument, RTF, 웹 페이지, EPUB, 마크다운, 텍스트, CSV, JSON, JSON Lines 파일을 가져옵니다):\n",
			},
			[]string{"notes.md: 바뀌지 않아 건너뜀\n", "파일 0개를 가져왔습니다(문서 0개, 청크 0개). 바뀌지 않음 2개, 실패 1개.\n", "wayfinder: 파일 1개를 가져오지 못했습니다\n"},
			[]string{"ID", "제목", "종류", "분량", "청크", "출처"}, []string{" 마크다운 "}, []string{"1. Notes (", ") 점수 "}, []string{"지웠습니다: "},
			[]string{"next step", "Imported", "warning", "failed", "unchanged", "embedded", "not imported", "Left out", "Keyword", "cannot reach", "TITLE", "removed", "score"},
			"“zebra crossing”에 맞는 구절이 없습니다.",
		},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			t.Setenv("LC_ALL", tc.lang)
			base := []string{"--data-dir", t.TempDir(), "--ollama-host", "http://127.0.0.1:1", "--embed-model", "bge-m3"}
			check := func(what string, code, wantCode int, out string, want []string) {
				t.Helper()
				if code != wantCode {
					t.Fatalf("%s: exit %d, want %d:\n%s", what, code, wantCode, out)
				}
				for _, w := range want {
					if !strings.Contains(out, w) {
						t.Errorf("%s: want %q in\n%s", what, w, out)
					}
				}
				for _, n := range tc.not {
					if strings.Contains(out, n) {
						t.Errorf("%s: %q is not in this language:\n%s", what, n, out)
					}
				}
			}
			code, out, errOut := wayfinder(t, append(base, "kb", "import", docs)...)
			check("import", code, 1, out+errOut, tc.imported)
			code, out, errOut = wayfinder(t, append(base, "kb", "import", docs)...)
			check("import again", code, 1, out+errOut, tc.again)
			code, out, errOut = wayfinder(t, append(base, "kb", "list")...)
			check("list", code, 0, out+errOut, tc.list)
			// Each document's kind as the Knowledge view names it.
			check("list's kinds", code, 0, out, tc.kinds)
			heading := strings.Fields(strings.SplitN(out, "\n", 2)[0])
			if strings.Join(heading, " ") != strings.Join(tc.list, " ") {
				t.Errorf("list headings %q, want %q", heading, tc.list)
			}
			code, out, errOut = wayfinder(t, append(base, "kb", "search", "small", "note")...)
			check("search", code, 0, out+errOut, tc.search)
			code, out, errOut = wayfinder(t, append(base, "kb", "search", "zebra", "crossing")...)
			check("search with no hits", code, 0, out+errOut, []string{tc.nothing})
			code, out, errOut = wayfinder(t, append(base, "kb", "list")...)
			id := strings.Fields(strings.Split(out, "\n")[1])[0]
			code, out, errOut = wayfinder(t, append(base, "kb", "remove", id)...)
			check("remove", code, 0, out+errOut, append(tc.removed, id))
		})
	}
}

// reasonLine says a file's failure as the window's failureText does: the
// reason's sentence (its ".more" and ".one" forms), else the backend's
// own without the "import "<path>": " it is wrapped in — also when the
// reason's particulars cannot fill the sentence.
func TestReasonLine(t *testing.T) {
	for _, tc := range []struct {
		name   string
		err    string
		reason *api.FileReason
		en, ko string
	}{
		{"no reason", `import "/x/a.txt": disk on fire`, nil, "disk on fire", "disk on fire"},
		{"unknown code", `import "/x/a.txt": odd`, &api.FileReason{Code: "new_one"}, "odd", "odd"},
		{"pdf limit", "x", &api.FileReason{Code: "pdf_limit", Limit: "page_time", Page: 3, Max: "20"},
			"Page 3 of this PDF takes more than 20 seconds to read; it looks damaged or hostile, so it was not imported.",
			"이 PDF의 3쪽은 읽는 데 20초 넘게 걸립니다. 손상되었거나 악의적으로 만든 파일로 보여 가져오지 않았습니다."},
		{"pdf limit unknown", `import "/x/a.pdf": too odd`, &api.FileReason{Code: "pdf_limit", Limit: "ink"}, "too odd", "too odd"},
		{"json somewhere", "x", &api.FileReason{Code: "json_invalid"},
			"This file is not valid JSON. Fix it, then add the file again.", "올바른 JSON 파일이 아닙니다. 고친 뒤 파일을 다시 추가해 주세요."},
		{"json line", "x", &api.FileReason{Code: "json_invalid", Line: 7},
			"This file is not valid JSON: the first mistake is on line 7. Fix it there, then add the file again.",
			"올바른 JSON 파일이 아닙니다. 처음 잘못된 곳은 7번째 줄입니다. 그곳을 고친 뒤 파일을 다시 추가해 주세요."},
		{"replaced more", "x", &api.FileReason{Code: "replaced", Count: 40, Lines: "3, 7", More: true},
			"40 unreadable characters were replaced with � (line numbers: 3, 7 and later).",
			"읽을 수 없는 글자 40개를 �로 바꿨습니다(3, 7번째 줄과 그 뒤)."},
		{"replaced", "x", &api.FileReason{Code: "replaced", Count: 2, Lines: "3"},
			"2 unreadable characters were replaced with � (line numbers: 3).", "읽을 수 없는 글자 2개를 �로 바꿨습니다(3번째 줄)."},
		{"counts grouped", "x", &api.FileReason{Code: "too_many_words", Max: "2000000"},
			"This file holds more than 2,000,000 different words; it looks like generated data, not a document, and indexing it would take more memory than one file may. Add the documents it was made from instead.",
			"이 파일에는 서로 다른 단어가 2,000,000개보다 많습니다. 문서가 아니라 생성된 데이터로 보이며, 색인하려면 한 파일에 허용되는 것보다 많은 메모리가 듭니다. 대신 이 데이터를 만든 원래 문서들을 추가하세요."},
		{"count grouped", "x", &api.FileReason{Code: "replaced", Count: 12345, Lines: "3"},
			"12,345 unreadable characters were replaced with � (line numbers: 3).", "읽을 수 없는 글자 12,345개를 �로 바꿨습니다(3번째 줄)."},
		{"too large", "x", &api.FileReason{Code: "too_large", Max: "512"},
			"This file is larger than 512 MB, the most Wayfinder reads from one file; split it, then add the parts.",
			"이 파일은 512 MB보다 큽니다. Wayfinder가 한 파일에서 읽는 최대 크기입니다. 나눈 뒤 나눈 파일들을 추가하세요."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for i, want := range []string{tc.en, tc.ko} {
				if got := reasonLine(tc.err, tc.reason, i); got != want {
					t.Errorf("lang %d:\n got %q\nwant %q", i, got, want)
				}
			}
		})
	}
}

// errorWords words an error from its particulars in either language, and
// keeps the backend's words for a code it has no sentence for or when a
// particular is missing.
func TestErrorWords(t *testing.T) {
	for _, tc := range []struct {
		name          string
		info          api.ErrorInfo
		lang          int
		message, hint string
	}{
		{"missing ko", api.ErrorInfo{Code: api.ErrModelMissing, Message: "The model \"bge-m3\" is not installed in Ollama.", Hint: "ollama pull bge-m3", Args: map[string]string{"model": "bge-m3"}}, 1,
			"이 컴퓨터의 Ollama에 bge-m3 모델이 없습니다.", "`ollama pull bge-m3` 명령을 실행하거나, 이미 있는 모델을 --model(임베딩은 --embed-model)로 고르세요. `ollama list`가 있는 모델을 보여 줍니다."},
		{"missing en", api.ErrorInfo{Code: api.ErrModelMissing, Message: "x", Hint: "y", Args: map[string]string{"model": "bge-m3"}}, 0,
			"bge-m3 is not in Ollama on this computer.", "Run `ollama pull bge-m3`, or choose a model you have with --model (--embed-model for embeddings); `ollama list` shows them."},
		{"no host", api.ErrorInfo{Code: api.ErrOllamaUnreachable, Message: "Cannot reach.", Hint: "Start it.", Args: map[string]string{"host": ""}}, 1,
			"Ollama에 연결할 수 없습니다. (Cannot reach.)", cliHintText["error.ollama_unreachable.advice"][1]},
		{"other code", api.ErrorInfo{Code: api.ErrInternal, Message: "boom", Hint: "h"}, 1, "boom", "h"},
		{"no detail ko", api.ErrorInfo{Code: api.ErrStreamDropped, Message: "the stream ended early: unexpected EOF", Hint: "Send it again."}, 1,
			"응답이 끝나기 전에 끊겼습니다. (the stream ended early: unexpected EOF)", "Ollama가 아직 실행 중인지 확인한 뒤(`ollama ps`) 메시지를 다시 보내세요."},
		{"no detail en", api.ErrorInfo{Code: api.ErrStreamDropped, Message: "the stream ended early", Hint: "Send it again."}, 0,
			"the stream ended early", "Check that Ollama is still running (`ollama ps`), then send the message again."},
		{"folder ko: the command line's way, not the window's button", api.ErrorInfo{Code: api.ErrFolderNotFound, Message: "There is no folder /nope.", Hint: "Check the path.", Args: map[string]string{"path": "/nope"}}, 1,
			"이 폴더가 없습니다: /nope", "경로를 확인하고 폴더의 전체 경로를 적으세요: `wayfinder folders add ~/Documents`"},
		{"folder en", api.ErrorInfo{Code: api.ErrFolderNotFound, Message: "There is no folder /nope.", Args: map[string]string{"path": "/nope"}}, 0,
			"There is no folder /nope.", "Check the path, and give the folder's full path: `wayfinder folders add ~/Documents`."},
		{"ollama refused ko: by its case", api.ErrorInfo{Code: api.ErrInvalidInput, Message: "Ollama refused the request: 400 Bad Request: \"bge-m3\" does not support chat", Hint: "Check the model chosen in Settings; updating Ollama may help.", Args: map[string]string{"case": "ollama_rejected", "reason": "400 Bad Request"}}, 1,
			"Ollama가 요청을 거부했습니다. (Ollama refused the request: 400 Bad Request: \"bge-m3\" does not support chat)", cliHintText["error.invalid_input.case.ollama_rejected.hint"][1]},
		{"invalid input without a known case keeps its words", api.ErrorInfo{Code: api.ErrInvalidInput, Message: "bad", Hint: "h", Args: map[string]string{"case": "nope"}}, 1, "bad", "h"},
		{"disk full ko", api.ErrorInfo{Code: api.ErrDiskFull, Message: "The disk is full.", Args: map[string]string{"dir": "/data"}}, 1,
			"데이터 폴더가 있는 디스크가 가득 찼습니다: /data", "그 디스크의 공간을 비운 뒤(휴지통 비우기, 필요 없는 큰 파일 지우기) 다시 시도하세요. 전에 저장한 내용은 그대로 있습니다."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if m, h := errorWords(tc.info, tc.lang); m != tc.message || h != tc.hint {
				t.Errorf("got %q, %q\nwant %q, %q", m, h, tc.message, tc.hint)
			}
		})
	}
}

// A value holding a {blank} of its own (a document's title) is put in as
// it is, not filled again.
func TestFillIsOnePass(t *testing.T) {
	if got := say("kb.removed", 0, "id", "0190", "title", "{id} and {x}"); got != "removed 0190 ({id} and {x})" {
		t.Errorf("got %q", got)
	}
}

// memory and folders speak the command's language: what was remembered,
// changed and forgotten, the lists' headings, what read_file may read.
func TestMemoryAndFoldersSpeakTheCommandsLanguage(t *testing.T) {
	for _, tc := range []struct {
		lang                          string
		remembered, updated, forgot   string
		list                          []string
		forgotAll, none               string
		folderAdded, folders, revoked string
		not                           []string
	}{
		{"en_US.UTF-8", "remembered ", "updated ", "forgot ", []string{"ID", "KIND", "FROM", "UPDATED", "TEXT"},
			"Forgot 1 memory.\n", "There are no memories to forget.\n",
			"read_file may now read ", "FOLDER", "read_file may no longer read ", []string{"습니다", "기억"}},
		{"ko_KR.UTF-8", "기억했습니다: ", "고쳤습니다: ", "잊었습니다: ", []string{"ID", "종류", "출처", "고친", "때", "내용"},
			"기억 1개를 잊었습니다.\n", "잊을 기억이 없습니다.\n",
			"이제 read_file이 읽을 수 있습니다: ", "폴더", "이제 read_file이 읽을 수 없습니다: ",
			[]string{"remembered", "updated", "forgot", "Forgot", "KIND", "memories", "may now", "FOLDER", "no longer", "hidden", "fact", "edited"}},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			t.Setenv("LC_ALL", tc.lang)
			base := []string{"--data-dir", t.TempDir(), "--ollama-host", "http://127.0.0.1:1", "--embed-model", "bge-m3"}
			run := func(want string, args ...string) string {
				t.Helper()
				code, out, errOut := wayfinder(t, append(base, args...)...)
				if code != 0 || !strings.Contains(out, want) {
					t.Fatalf("%v: exit %d, want %q in\n%s%s", args, code, want, out, errOut)
				}
				for _, n := range tc.not {
					if strings.Contains(out+errOut, n) {
						t.Errorf("%v: %q is not in this language:\n%s%s", args, n, out, errOut)
					}
				}
				return out
			}
			out := run(tc.remembered, "memory", "add", "녹차를 좋아한다")
			id := strings.TrimSpace(strings.TrimPrefix(out, tc.remembered))
			run(tc.updated+id, "memory", "edit", id, "홍차를 좋아한다")
			out = run("홍차를 좋아한다", "memory", "list")
			if kind := map[string]string{"en_US.UTF-8": "fact", "ko_KR.UTF-8": "사실"}[tc.lang]; !regexp.MustCompile(kind + `\s+(edited|직접 씀)\s`).MatchString(out) {
				t.Errorf("memory list: want the kind %q and who wrote it in this language:\n%s", kind, out)
			}
			if got := strings.Fields(strings.SplitN(out, "\n", 2)[0]); strings.Join(got, " ") != strings.Join(tc.list, " ") {
				t.Errorf("memory list headings %q, want %q", got, tc.list)
			}
			run(tc.forgot+id+" (홍차를 좋아한다)", "memory", "rm", id)
			run(tc.remembered, "memory", "add", "회의는 오전에")
			run(tc.forgotAll, "memory", "rm", "--all", "--yes")
			run(tc.none, "memory", "rm", "--all", "--yes")
			folder := t.TempDir()
			run(tc.folderAdded+folder+" (", "folders", "add", folder)
			run(tc.folders, "folders", "list")
			run(tc.revoked+folder, "folders", "remove", folder)
		})
	}
}
