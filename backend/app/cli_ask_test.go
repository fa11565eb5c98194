package app

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// A waiting plan and tool call are put to the person in the command's
// language, the answers still the letters shown; what was refused for
// want of an answer is said so too.
func TestDecideSpeaksTheCommandsLanguage(t *testing.T) {
	plan := &api.PlanApproval{Version: "v1", Round: 1, Again: "stopped", SubTasks: []api.SubTask{{ID: "1", Title: "대본 작성"}}}
	tc := api.ToolApproval{ID: "c1", Server: "files", Tool: "read", Arguments: `{"path":"a.md"}`, Reason: api.ReasonAlwaysAsk, Again: api.AgainStopped}
	for _, c := range []struct {
		lang             int
		plan, tool, none []string
		not              string
	}{
		{0, []string{"\nProposed plan (round 1):\n  1. 대본 작성\n", "offered again as you approved it. Approved again, it keeps the tools its unchanged steps found and runs only the rest.", "[a]pprove, [r]evise with feedback, or [c]ancel? What should change? "},
			[]string{"\nThe assistant wants to run the tool files / read.\n", "  This tool asks before every call.\n", "  You stopped this call", "Arguments:\n", "[r]un once, [a]lways for this tool, or [d]eny? "},
			[]string{"the plan stays waiting in the session (use --approve in scripts)", "the call stays waiting in the session (use --approve-tools in scripts)"}, "습니다"},
		{1, []string{"\n제안된 계획(1번째):\n  1. 대본 작성\n", "승인하신 그대로 다시 제안합니다. 다시 승인하면 바뀌지 않은 단계가 찾은 도구는 그대로 두고 나머지만 진행합니다.", "[a] 승인, [r] 의견을 주고 고치기, [c] 취소? 무엇을 바꿀까요? "},
			[]string{"\n어시스턴트가 도구 files / read를 실행하려고 합니다.\n", "  이 도구는 호출할 때마다 묻습니다.\n", "  이 호출이 끝나기 전에 멈추셨습니다", "인수:\n", "[r] 한 번 실행, [a] 이 도구는 항상 허용, [d] 거부? "},
			[]string{"계획은 대화에서 계속 기다립니다(스크립트에서는 --approve를 쓰세요)", "호출은 대화에서 계속 기다립니다(스크립트에서는 --approve-tools를 쓰세요)"}, "the "},
	} {
		var errOut bytes.Buffer
		s := stdio{err: &errOut, out: &bytes.Buffer{}}
		if d, err := decide(context.Background(), plan, false, newLineReader(strings.NewReader("r\n더 짧게\n")), s, c.lang); err != nil || d.Action != api.ActionRevise {
			t.Fatalf("lang %d: decide %+v %v", c.lang, d, err)
		}
		if d, err := decideTool(context.Background(), tc, false, newLineReader(strings.NewReader("d\n")), s, c.lang); err != nil || d.Action != api.ActionDeny {
			t.Fatalf("lang %d: decideTool %+v %v", c.lang, d, err)
		}
		for _, want := range append(c.plan, c.tool...) {
			if !strings.Contains(errOut.String(), want) {
				t.Errorf("lang %d: want %q in\n%s", c.lang, want, errOut.String())
			}
		}
		if strings.Contains(errOut.String(), c.not) {
			t.Errorf("lang %d: %q is not in this language:\n%s", c.lang, c.not, errOut.String())
		}
		_, err := decide(context.Background(), plan, false, newLineReader(strings.NewReader("")), s, c.lang)
		_, err2 := decideTool(context.Background(), tc, false, newLineReader(strings.NewReader("")), s, c.lang)
		if err == nil || !strings.Contains(err.Error(), c.none[0]) || err2 == nil || !strings.Contains(err2.Error(), c.none[1]) {
			t.Errorf("lang %d: without an answer: %v; %v", c.lang, err, err2)
		}
	}
}

// `wayfinder ask` says where to continue the conversation in the
// command's language, on standard error.
func TestAskSaysTheSessionInTheCommandsLanguage(t *testing.T) {
	fake := ollamatest.New(t)
	fake.On(ollamatest.HasTools(), ollamatest.Reply{Text: "안녕하세요"})
	fake.On(ollamatest.HasFormat(), ollamatest.Reply{JSON: map[string]any{"route": "simple", "needs_documents": false, "refers_to_previous": false, "out_of_scope": false, "reason": "chat", "memories": []any{}}})
	for lang, want := range map[string]string{
		"ko_KR.UTF-8": "(이어서 하려면: wayfinder ask --session ",
		"en_US.UTF-8": "(continue it with: wayfinder ask --session ",
	} {
		t.Run(lang, func(t *testing.T) {
			t.Setenv("LC_ALL", lang)
			code, out, errOut := wayfinder(t, "--data-dir", t.TempDir(), "--ollama-host", fake.URL(), "--model", "llama3.2:3b", "ask", "안녕")
			if code != 0 || !strings.Contains(out, "안녕하세요") || !strings.Contains(errOut, want) {
				t.Fatalf("ask: %d\n%s\n%s", code, out, errOut)
			}
		})
	}
}

// Ctrl+C while the reply streams ends ask with the shell's code for it
// (130), as kb import stopped does, saying in the command's language that
// what came is saved and how to go on with it; it ended with 1, as if it
// had failed, and the session's id was not said.
func TestAskStoppedByCtrlC(t *testing.T) {
	fake := ollamatest.New(t, ollamatest.WithDefaultReply(ollamatest.Reply{Text: strings.Repeat("word ", 200), ChunkDelay: 20 * time.Millisecond}))
	for _, c := range []struct{ env, want string }{
		{"en_US.UTF-8", "wayfinder: stopped before the reply was complete; the partial reply is saved in the session (continue it with: wayfinder ask --session "},
		{"ko_KR.UTF-8", "wayfinder: 답이 끝나기 전에 멈췄습니다. 여기까지의 답은 대화에 저장되어 있습니다(이어서 하려면: wayfinder ask --session "},
	} {
		t.Run(c.env[:2], func(t *testing.T) {
			t.Setenv("LC_ALL", c.env)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var out, errOut lockedBuffer
			stopped := make(chan int)
			go func() {
				stopped <- Main(ctx, []string{"--data-dir", t.TempDir(), "--ollama-host", fake.URL(), "--model", "llama3.2:3b", "--embed-model", "bge-m3", "ask", "hello"}, strings.NewReader(""), &out, &errOut, testShells)
			}()
			for deadline := time.Now().Add(10 * time.Second); !strings.Contains(out.String(), "word word") && time.Now().Before(deadline); {
				time.Sleep(20 * time.Millisecond)
			}
			cancel()
			code := <-stopped
			if code != 130 || !strings.Contains(errOut.String(), c.want) {
				t.Errorf("exit %d, want 130 and %q in stderr:\n%s", code, c.want, errOut.String())
			}
		})
	}
}
