package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/wayfinder-app/wayfinder/backend/agent"
	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// scriptTask makes the fake answer a task with a plan of two steps, a
// recommendation for each and a cited guide, and anything else simply.
func scriptTask(fake *ollamatest.Server) {
	fake.On(ollamatest.SystemContains(agent.RoleRouter), ollamatest.Reply{JSON: map[string]any{
		"route": "complex", "needs_documents": false, "refers_to_previous": false, "out_of_scope": false}})
	fake.On(ollamatest.SystemContains(agent.RolePlanner), ollamatest.Reply{JSON: map[string]any{"sub_tasks": []map[string]string{
		{"id": "s1", "title": "대본 작성", "detail": "30초"}, {"id": "s2", "title": "영상 편집", "detail": "세로 영상"}}}})
	fake.On(ollamatest.SystemContains(agent.RoleScout), ollamatest.Reply{Text: "Found a good candidate."})
	fake.On(ollamatest.SystemContains(agent.RoleReviewer), ollamatest.Reply{JSON: map[string]any{
		"sufficient": true, "tool": "Vrew", "why": "자동 한국어 자막", "url": "https://vrew.ai", "pricing": "free plan", "alternatives": []string{"CapCut"}}})
	fake.On(ollamatest.SystemContains(agent.RoleGuide), ollamatest.Reply{Text: "# 카페 쇼츠 가이드\n\n1. 대본을 씁니다.\n2. Vrew로 편집합니다.\n"})
	fake.On(ollamatest.SystemContains(agent.RoleMemory), ollamatest.Reply{JSON: map[string]any{"memories": []any{}}})
}

// Every conversation exported as JSON, imported into an empty data folder
// and exported again is the same file, byte for byte; importing it again
// changes nothing; a conversation continued since comes back as a copy.
func TestExportImportRoundTrip(t *testing.T) {
	fake := ollamatest.New(t, ollamatest.WithDefaultReply(ollamatest.Reply{Text: fakeReply}))
	scriptTask(fake)
	src := t.TempDir()
	base := func(dir string) []string {
		return []string{"--data-dir", dir, "--ollama-host", fake.URL(), "--model", "llama3.2:3b", "--embed-model", "bge-m3"}
	}
	if code, out, errOut := wayfinder(t, append(base(src), "ask", "--approve", "카페 홍보용 유튜브 쇼츠를 만들고 싶어")...); code != 0 {
		t.Fatalf("task: %d\n%s\n%s", code, out, errOut)
	}
	out := t.TempDir()
	first := filepath.Join(out, "first.json")
	if code, _, errOut := wayfinder(t, append(base(src), "export", "--all", "-o", first)...); code != 0 || !strings.Contains(errOut, "Exported 1 conversation to "+first) {
		t.Fatalf("export: %d %s", code, errOut)
	}
	b1, _ := os.ReadFile(first)
	for _, want := range []string{`"format": "wayfinder.conversations"`, `"version": 2`, `"title": "대본 작성"`, `"decision": {`, `"tool": "Vrew"`, "카페 쇼츠 가이드"} {
		if !bytes.Contains(b1, []byte(want)) {
			t.Fatalf("the export lacks %q:\n%s", want, b1)
		}
	}
	if info, _ := os.Stat(first); info.Mode().Perm() != 0o600 {
		t.Errorf("the export is readable by others: %v", info.Mode())
	}

	dst := t.TempDir()
	if code, out, errOut := wayfinder(t, append(base(dst), "import", first)...); code != 0 || !strings.Contains(out, "Imported 1 conversation: 1 new.") {
		t.Fatalf("import: %d\n%s\n%s", code, out, errOut)
	}
	second := filepath.Join(out, "second.json")
	if code, _, errOut := wayfinder(t, append(base(dst), "export", "--all", "--format", "json", "-o", second)...); code != 0 {
		t.Fatalf("export again: %d %s", code, errOut)
	}
	if b2, _ := os.ReadFile(second); !bytes.Equal(b1, b2) {
		t.Fatalf("export → import → export differs:\n%s\n---\n%s", b1, b2)
	}
	if code, out, _ := wayfinder(t, append(base(dst), "import", first)...); code != 0 || !strings.Contains(out, "Imported 1 conversation: 0 new, 1 already here, unchanged.") {
		t.Fatalf("import twice: %d %s", code, out)
	}
	// The imported conversation goes on; the export, imported again, is
	// kept beside it as a copy.
	_, list, _ := wayfinder(t, append(base(dst), "export", "--all", "--format", "json")...)
	id := between(list, `"id": "`, `"`)
	if code, _, errOut := wayfinder(t, append(base(dst), "ask", "--session", id, "thanks")...); code != 0 {
		t.Fatalf("continue the imported conversation: %s", errOut)
	}
	if code, out, _ := wayfinder(t, append(base(dst), "import", first)...); code != 0 || !strings.Contains(out, "Imported 1 conversation: 0 new, 1 as a copy under new ids") {
		t.Fatalf("import after continuing: %d %s", code, out)
	}
	if _, all, _ := wayfinder(t, append(base(dst), "export", "--all", "--format", "json")...); strings.Count(all, `"title": "카페 홍보용`) != 2 {
		t.Fatalf("want the continued conversation and its copy:\n%s", all)
	}
}

// The Markdown export reads as the conversation did: the plan, the
// approved steps, the recommendations and the guide, headings kept below
// the conversation's own.
func TestExportMarkdown(t *testing.T) {
	t.Setenv("LC_ALL", "en_US.UTF-8")
	fake := ollamatest.New(t, ollamatest.WithDefaultReply(ollamatest.Reply{Text: fakeReply}))
	scriptTask(fake)
	base := []string{"--data-dir", t.TempDir(), "--ollama-host", fake.URL(), "--model", "llama3.2:3b", "--embed-model", "bge-m3"}
	_, _, errOut := wayfinder(t, append(base, "ask", "--approve", "카페 홍보용 유튜브 쇼츠를 만들고 싶어")...)
	id := between(errOut, "Session ", " ")
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"--session", id[:8]}, []string{"# 카페 홍보용 유튜브 쇼츠를 만들고 싶어\n", "## You · ", "## Wayfinder · ", "### Approved plan\n\n1. 대본 작성 — 30초\n2. 영상 편집 — 세로 영상\n",
			"### Recommendations\n\n| Step | Tool | Why | Pricing | Link |", "| 영상 편집 | Vrew (Alternatives: CapCut) | 자동 한국어 자막 | free plan | <https://vrew.ai> |", "### 카페 쇼츠 가이드", "Exported from Wayfinder on ",
			// The plan's introduction, stored in Korean as a question, says
			// in the export's English what became of the plan.
			"\nYou approved this plan.\n"}},
		{[]string{"--all", "--lang", "ko"}, []string{"## 나 · ", "\n이 계획을 승인했습니다.\n", "### 승인한 계획\n", "### 추천\n", "Wayfinder에서 내보낸 날짜: "}},
	} {
		code, out, errOut := wayfinder(t, append(append(base, "export"), tt.args...)...)
		for _, w := range tt.want {
			if code != 0 || !strings.Contains(out, w) {
				t.Fatalf("export %v: exit %d, want %q in\n%s\n%s", tt.args, code, w, out, errOut)
			}
		}
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, "choose one conversation with --session ID, or --all"},
		{[]string{"--all", "--session", id}, "choose one conversation"},
		{[]string{"--all", "--format", "pdf"}, `unknown format "pdf"`},
		{[]string{"--session", "0000"}, `No conversation has an id starting with "0000"`},
	} {
		if code, _, errOut := wayfinder(t, append(append(base, "export"), tt.args...)...); code == 0 || !strings.Contains(errOut, tt.want) {
			t.Errorf("export %v: exit %d, want %q in %s", tt.args, code, tt.want, errOut)
		}
	}
	// Without --lang, the headings are in the language the command speaks.
	t.Setenv("LC_ALL", "ko_KR.UTF-8")
	if code, out, errOut := wayfinder(t, append(base, "export", "--all")...); code != 0 || !strings.Contains(out, "## 나 · ") || !strings.Contains(out, "### 승인한 계획\n") {
		t.Errorf("export --all in Korean: exit %d, want Korean headings in\n%s\n%s", code, out, errOut)
	}
}

// A file that is not an export, or an export that cannot be taken as it
// is, imports nothing and says why.
func TestImportRefusesBadFiles(t *testing.T) {
	fake := ollamatest.New(t)
	dir := t.TempDir()
	base := []string{"--data-dir", dir, "--ollama-host", fake.URL(), "--embed-model", "bge-m3"}
	files := t.TempDir()
	good := `{"id":"c1","title":"fine","created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z","messages":[]}`
	bad := `{"id":"c2","title":"bad","created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z","messages":[{"id":"m","role":"system","status":"complete","created_at":"2026-01-01T00:00:00Z"}]}`
	for _, tt := range []struct{ name, content, want string }{
		{"notes.md", "# My chat\n\nhello\n", "This file cannot be imported: it is not a Wayfinder conversation export"},
		{"half.json", `{"format":"wayfinder.conversations","version":1,"conversations":[` + good + "," + bad + `]}`, `conversation 2 (c2): message 1: role "system" is not user or assistant`},
		{"newer.json", `{"format":"wayfinder.conversations","version":9,"conversations":[]}`, "made by a newer Wayfinder"},
	} {
		path := filepath.Join(files, tt.name)
		os.WriteFile(path, []byte(tt.content), 0o600)
		code, out, errOut := wayfinder(t, append(base, "import", path)...)
		if code != 1 || !strings.Contains(errOut, tt.want) || !strings.Contains(errOut, "next step:") {
			t.Errorf("import %s: exit %d\n%s\n%s", tt.name, code, out, errOut)
		}
	}
	// Not even the good conversation before the bad one was stored.
	if _, out, _ := wayfinder(t, append(base, "export", "--all", "--format", "json")...); strings.Contains(out, `"c1"`) {
		t.Fatalf("a refused file left a conversation behind:\n%s", out)
	}
	if code, _, errOut := wayfinder(t, append(base, "import", filepath.Join(files, "missing.json"))...); code != 1 || !strings.Contains(errOut, "There is no file "+filepath.Join(files, "missing.json")+".") {
		t.Errorf("missing file: %d %s", code, errOut)
	}
}

func between(s, start, end string) string {
	_, after, ok := strings.Cut(s, start)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(after, end)
	return v
}

// A conversation exported while its plan waited comes back with the plan
// in its transcript but no longer waiting (the agent's working state is
// not exported), so the person can go on in it.
func TestImportAWaitingPlan(t *testing.T) {
	fake := ollamatest.New(t, ollamatest.WithDefaultReply(ollamatest.Reply{Text: fakeReply}))
	scriptTask(fake)
	base := func(dir string) []string {
		return []string{"--data-dir", dir, "--ollama-host", fake.URL(), "--model", "llama3.2:3b", "--embed-model", "bge-m3"}
	}
	src, dst := t.TempDir(), t.TempDir()
	wayfinder(t, append(base(src), "ask", "카페 홍보용 유튜브 쇼츠를 만들고 싶어")...) // no answer on stdin: the plan waits
	file := filepath.Join(t.TempDir(), "waiting.json")
	wayfinder(t, append(base(src), "export", "--all", "-o", file)...)
	if b, _ := os.ReadFile(file); !bytes.Contains(b, []byte(`"pending_approval": true`)) {
		t.Fatalf("the export lost the waiting plan:\n%s", b)
	}
	if code, _, errOut := wayfinder(t, append(base(dst), "import", file)...); code != 0 {
		t.Fatal(errOut)
	}
	_, out, _ := wayfinder(t, append(base(dst), "export", "--all", "--format", "json")...)
	if strings.Contains(out, "pending_approval") || strings.Contains(out, `"status": "awaiting_approval"`) || !strings.Contains(out, `"title": "대본 작성"`) {
		t.Fatalf("imported waiting plan:\n%s", out)
	}
	fake.On(ollamatest.SystemContains(agent.RoleRouter), ollamatest.Reply{JSON: map[string]any{"route": "simple", "needs_documents": false, "refers_to_previous": false, "out_of_scope": false}})
	if code, _, errOut := wayfinder(t, append(base(dst), "ask", "--session", between(out, `"id": "`, `"`), "안녕")...); code != 0 {
		t.Fatalf("the imported conversation does not go on: %s", errOut)
	}
}

// TestExportImportVariants: a conversation with answers regenerated twice
// (an earlier one chosen to show), its own model and settings, exported
// from one data folder and imported into another, is the same
// conversation there — every answer kept behind the one shown, which
// stays shown and can be swapped — and exports again byte for byte.
func TestExportImportVariants(t *testing.T) {
	fake := ollamatest.New(t, ollamatest.WithModels(
		ollamatest.Model{Name: "llama3.2:3b", Capabilities: []string{"completion", "tools"}},
		ollamatest.Model{Name: "qwen3:4b", Capabilities: []string{"completion", "tools"}},
		ollamatest.Model{Name: "bge-m3", Capabilities: []string{"embedding"}},
	), ollamatest.WithDefaultReply(ollamatest.Reply{Text: "ok"}))
	src, events := openTestApp(t, fake, "llama3.2:3b")
	c := &ChatService{src}
	ack, err := c.Send("", "hello there", api.SendOptions{Model: "qwen3:4b"})
	if err != nil {
		t.Fatal(err)
	}
	events.finished(t, ack.TurnID)
	for range 2 {
		src.agent.Wait()
		for src.chat.Busy(ack.SessionID) {
			time.Sleep(5 * time.Millisecond)
		}
		again, err := c.Regenerate(ack.SessionID)
		if err != nil {
			t.Fatal(err)
		}
		events.finished(t, again.TurnID)
	}
	src.agent.Wait()
	for src.chat.Busy(ack.SessionID) {
		time.Sleep(5 * time.Millisecond)
	}
	msgs, _ := c.Messages(ack.SessionID)
	if len(msgs) != 2 || len(msgs[1].Variants) != 2 {
		t.Fatalf("before the export: %+v", msgs)
	}
	if _, err := c.ShowVariant(ack.SessionID, msgs[1].ID, msgs[1].Variants[0].ID); err != nil {
		t.Fatal(err)
	}
	prompt, temp, num := "존댓말로 답하세요.", 0.2, 4096
	if _, err := c.SetSettings(ack.SessionID, api.ConversationSettings{SystemPrompt: &prompt, Temperature: &temp, ContextTokens: &num}); err != nil {
		t.Fatal(err)
	}
	wantSess, _ := src.store.Session(src.ctx, ack.SessionID)
	wantMsgs, _ := c.Messages(ack.SessionID)
	file, err := c.Export(nil, "json", "en")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"version": 2`, `"variants": [`, `"system_prompt": "존댓말로 답하세요."`, `"model": "qwen3:4b"`} {
		if !strings.Contains(file.Content, want) {
			t.Fatalf("the export lacks %q:\n%s", want, file.Content)
		}
	}

	dst, _ := openTestApp(t, fake, "llama3.2:3b")
	d := &ChatService{dst}
	if res, err := d.Import(file.Content); err != nil || res.Added != 1 {
		t.Fatalf("import: %+v %v", res, err)
	}
	gotSess, err := dst.store.Session(dst.ctx, ack.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	gotMsgs, _ := d.Messages(ack.SessionID)
	sameTime := cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })
	if diff := cmp.Diff(wantSess, gotSess, sameTime); diff != "" {
		t.Errorf("session (-exported +imported):\n%s", diff)
	}
	if diff := cmp.Diff(wantMsgs, gotMsgs, sameTime); diff != "" {
		t.Errorf("messages (-exported +imported):\n%s", diff)
	}
	if again, err := d.Export(nil, "json", "en"); err != nil || again.Content != file.Content {
		t.Fatalf("export → import → export differs (%v):\n%s\n---\n%s", err, file.Content, again.Content)
	}
	md, err := d.Export([]string{ack.SessionID}, "md", "ko")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"모델 qwen3:4b · 온도 0.2 · 컨텍스트 4096 토큰", "시스템 프롬프트:\n\n> 존댓말로 답하세요.", "· 답변 1/3\n", "### 다른 답변", "#### 답변 2/3 · ", "#### 답변 3/3 · "} {
		if !strings.Contains(md.Content, want) {
			t.Errorf("the Markdown export lacks %q:\n%s", want, md.Content)
		}
	}
	// A refused file says which kind of refusal it is, for the window to
	// word (import_not_export, import_invalid), and what and where.
	for _, tt := range []struct {
		content string
		code    api.ErrorCode
		where   string
	}{
		{"# notes\n", api.ErrImportNotExport, "not a Wayfinder conversation export"},
		{`{"format":"wayfinder.conversations","version":9,"conversations":[]}`, api.ErrImportInvalid, "made by a newer Wayfinder"},
	} {
		if _, err := d.Import(tt.content); describe(err).Code != tt.code || !strings.Contains(describe(err).Message, tt.where) {
			t.Errorf("import %q: %+v", tt.content, describe(err))
		}
	}
	// The imported answers are answers like any: another can be shown.
	if shown, err := d.ShowVariant(ack.SessionID, gotMsgs[1].ID, gotMsgs[1].Variants[1].ID); err != nil || shown.Content != gotMsgs[1].Variants[1].Content {
		t.Fatalf("show an imported variant: %+v %v", shown, err)
	}
}
