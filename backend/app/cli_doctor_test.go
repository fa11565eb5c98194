package app

import (
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// doctor says each check and what to do in the command's language; the
// models' names, commands and flags stay as they are.
func TestDoctorSpeaksTheCommandsLanguage(t *testing.T) {
	fake := ollamatest.New(t)
	for _, tc := range []struct {
		lang     string
		out      []string
		errOut   string
		notInOut []string
	}{
		{"en_US.UTF-8", []string{"✓ Data folder ", " is writable\n", "✓ Ollama ", "✓ The chat model llama3.2:3b is ready (",
			"✗ The embedding model nomic-embed-text is not downloaded\n    fix: ollama pull nomic-embed-text\n"}, "wayfinder: 1 problem found\n", []string{"습니다"}},
		{"ko_KR.UTF-8", []string{"✓ 데이터 폴더 ", "에 쓸 수 있습니다\n", "의 Ollama ", "가 응답합니다\n", "✓ 대화 모델 llama3.2:3b이(가) 준비되었습니다(",
			"✗ 임베딩 모델 nomic-embed-text을(를) 내려받지 않았습니다\n    고치려면: ollama pull nomic-embed-text\n"}, "wayfinder: 문제 1개를 찾았습니다\n",
			[]string{"Data folder", "writable", "answers at", "model", "fix:", "found"}},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			t.Setenv("LC_ALL", tc.lang)
			code, out, errOut := wayfinder(t, "--data-dir", t.TempDir(), "--ollama-host", fake.URL(), "--model", "llama3.2:3b", "--embed-model", "nomic-embed-text", "doctor")
			if code != 1 || !strings.Contains(errOut, tc.errOut) {
				t.Fatalf("doctor: %d\n%s\n%s", code, out, errOut)
			}
			for _, w := range tc.out {
				if !strings.Contains(out, w) {
					t.Errorf("want %q in\n%s", w, out)
				}
			}
			// The models' names hold "model" in neither language's words.
			said := strings.NewReplacer("llama3.2:3b", "", "nomic-embed-text", "").Replace(out)
			for _, n := range tc.notInOut {
				if strings.Contains(said, n) {
					t.Errorf("%q is not in this language:\n%s", n, out)
				}
			}
		})
	}
}

// The hosts' lines in Korean: why each is down and what to do, the error
// itself kept.
func TestDoctorHostsInKorean(t *testing.T) {
	at := time.Date(2026, 11, 27, 1, 0, 0, 0, time.UTC)
	hosts := []api.HostStatus{
		{URL: "http://gpu1:11434", Up: true, Models: []string{"qwen3:4b"}},
		{URL: "http://gpu2:11434", DownSince: at, RetryAt: at, Code: api.ErrOllamaUnreachable, Error: "connection refused"},
		{URL: "http://gpu3:11434", DownSince: at, RetryAt: at, Code: api.ErrTimeout, Error: "no answer within 2s"},
	}
	var oks []string
	var bads [][2]string
	doctorHosts(hosts, 1, func(key string, kv ...string) { oks = append(oks, say(key, 1, kv...)) }, func(msg, fix string) { bads = append(bads, [2]string{msg, fix}) })
	if len(oks) != 1 || oks[0] != "Ollama 호스트 http://gpu1:11434가 응답합니다(모델: qwen3:4b)" {
		t.Errorf("up: %q", oks)
	}
	if len(bads) != 2 || !strings.Contains(bads[0][0], "이 주소에서 기다리는 프로그램이 없습니다: connection refused. 호출은 다른 호스트로 가고") ||
		!strings.Contains(bads[0][1], "`ollama serve`를 실행하거나") || !strings.Contains(bads[1][0], "제때 응답하지 않습니다: no answer within 2s") ||
		!strings.Contains(bads[1][1], "멈췄거나 과부하일 수 있습니다") {
		t.Errorf("down: %q", bads)
	}
}
