package app

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// `wayfinder sessions` lists the conversations with the ids `ask
// --session` takes, and `ask --session` takes the start of one, as export
// does; a wrong one is said in the command's language and points at the
// list, before anything is sent.
func TestSessionsListsWhatAskContinues(t *testing.T) {
	fake := ollamatest.New(t, ollamatest.WithDefaultReply(ollamatest.Reply{Text: fakeReply}))
	t.Setenv("LC_ALL", "en_US.UTF-8")
	dir := t.TempDir()
	base := []string{"--data-dir", dir, "--ollama-host", fake.URL(), "--model", "llama3.2:3b", "--embed-model", "bge-m3"}
	run := func(args ...string) (int, string, string) {
		t.Helper()
		return wayfinder(t, append(append([]string{}, base...), args...)...)
	}

	if code, out, errOut := run("sessions"); code != 0 || !strings.Contains(out, `No conversations yet. Start one with: wayfinder ask "…"`) {
		t.Fatalf("sessions with none: exit %d\n%s\n%s", code, out, errOut)
	}
	// A question: the fake fills the router's schema with no reason, so a
	// task that asks for a plan would be planned (agent.modelRoute) and
	// wait for approval.
	code, out, errOut := run("ask", "--json", "카페 홍보 영상은 어떻게 만들어?")
	var first api.TurnResult
	if code != 0 || json.Unmarshal([]byte(out), &first) != nil || first.SessionID == "" {
		t.Fatalf("first turn: exit %d\n%s\n%s", code, out, errOut)
	}
	id := first.SessionID

	// The list: headings, the id whole, when, how many messages, the title.
	code, out, errOut = run("sessions")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 2 || !strings.HasPrefix(lines[0], "ID") || !strings.Contains(lines[0], "TITLE") ||
		!strings.HasPrefix(lines[1], id+"  ") || !strings.HasSuffix(lines[1], "카페 홍보 영상은 어떻게 만들어?") {
		t.Fatalf("sessions: exit %d\n%s\n%s", code, out, errOut)
	}
	var listed []api.Session
	if code, out, _ = run("sessions", "--json"); code != 0 || json.Unmarshal([]byte(out), &listed) != nil || len(listed) != 1 || listed[0].ID != id || listed[0].MessageCount != 2 {
		t.Fatalf("sessions --json: exit %d\n%s", code, out)
	}
	// A query searches as the sidebar's box does.
	if code, out, _ = run("sessions", "홍보"); code != 0 || !strings.Contains(out, id) {
		t.Fatalf("sessions 홍보: exit %d\n%s", code, out)
	}
	if code, out, _ = run("sessions", "날씨"); code != 0 || !strings.Contains(out, "No conversation matches “날씨”.") {
		t.Fatalf("sessions 날씨: exit %d\n%s", code, out)
	}

	// ask continues the conversation from the start of its id.
	if code, out, errOut = run("ask", "--session", id[:13], "또 알려 줘"); code != 0 || !strings.Contains(out, fakeReply) || !strings.Contains(errOut, "Session "+id) {
		t.Fatalf("ask --session %s: exit %d\n%s\n%s", id[:13], code, out, errOut)
	}
	if _, out, _ = run("sessions", "--json"); json.Unmarshal([]byte(out), &listed) != nil || len(listed) != 1 || listed[0].MessageCount != 4 {
		t.Fatalf("the second turn did not continue the first conversation:\n%s", out)
	}

	// A wrong id: English, then Korean, and nothing sent.
	calls := len(fake.ChatRequests())
	for _, tt := range []struct {
		lang      string
		want      []string
		notWanted []string
	}{
		{"en_US.UTF-8", []string{`wayfinder: No conversation has an id starting with "0000".`, "next step: `wayfinder sessions` shows them."}, nil},
		{"ko_KR.UTF-8", []string{`wayfinder: "0000"으로 시작하는 ID의 대화가 없습니다.`, "다음 단계: `wayfinder sessions`가 ID를 보여 줍니다."},
			[]string{"no longer exists", "Start a new chat", "next step"}},
	} {
		t.Setenv("LC_ALL", tt.lang)
		for _, cmd := range [][]string{{"ask", "--session", "0000", "hi"}, {"export", "--session", "0000"}} {
			code, _, errOut := run(cmd...)
			for _, w := range tt.want {
				if code != 1 || !strings.Contains(errOut, w) {
					t.Errorf("%s %v: exit %d, want %q in\n%s", tt.lang, cmd, code, w, errOut)
				}
			}
			for _, w := range tt.notWanted {
				if strings.Contains(errOut, w) {
					t.Errorf("%s %v: %q in\n%s", tt.lang, cmd, w, errOut)
				}
			}
		}
	}
	if n := len(fake.ChatRequests()); n != calls {
		t.Errorf("a wrong --session reached the model: %d calls, was %d", n, calls)
	}

	// Korean headings line up (Hangul is two columns wide).
	code, out, _ = run("sessions")
	lines = strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 2 || !strings.HasPrefix(lines[0], "ID") || !strings.Contains(lines[0], "제목") ||
		shownWidth(lines[0][:strings.Index(lines[0], "제목")]) != shownWidth(lines[1][:strings.Index(lines[1], "카페")]) {
		t.Errorf("sessions in Korean: exit %d\n%s", code, out)
	}
}
