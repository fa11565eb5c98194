package agent

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

func TestCiteRenumbersByFirstUse(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		offered        int
		cited          []int
	}{
		{"first use order", "Vrew [3] and ChatGPT [1]; again Vrew [3].", "Vrew [1] and ChatGPT [2]; again Vrew [1].", 4, []int{3, 1}},
		{"glued to Korean", "추천합니다[2]. 가격은[2][4] 참고", "추천합니다[1]. 가격은[1][2] 참고", 4, []int{2, 4}},
		{"list becomes markers", "see [4, 2、4]", "see [1][2]", 4, []int{4, 2}},
		{"unknown number dropped with its space", "made up [9]. real [2]", "made up. real [1]", 4, []int{2}},
		{"zero dropped", "x [0] y", "x y", 3, nil},
		{"nothing offered", "no passages [1]", "no passages", 0, nil},
		{"inline code left alone", "use `arr[3]` then [3]", "use `arr[3]` then [1]", 3, []int{3}},
		{"fence left alone", "```go\nx := a[2]\n```\nsee [2]", "```go\nx := a[2]\n```\nsee [1]", 2, []int{2}},
		{"not markers", "[ ] task, [x] done, [1a], [^1], [1234]", "[ ] task, [x] done, [1a], [^1], [1234]", 5, nil},
		{"unfinished at the end", "see [1", "see [1", 3, nil},
		{"markdown link", "[docs](https://a.example) [1]", "[docs](https://a.example) [1]", 1, []int{1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, cited := cite(tc.in, tc.offered)
			if got != tc.want || !equalInts(cited, tc.cited) {
				t.Fatalf("cite(%q) = %q %v, want %q %v", tc.in, got, cited, tc.want, tc.cited)
			}
		})
	}
}

// However the reply is cut into stream chunks, what is streamed equals
// what the whole text rewrites to: the person watches the stored text.
func TestCiterStreamsWhatItStores(t *testing.T) {
	text := "# 가이드\n\nChatGPT로 대본 [3], 편집은 Vrew [1, 3]`a[2]`\n```\nb[1]\n```\n끝 [7] [2]"
	want, wantCited := cite(text, 3)
	for size := 1; size <= len(text); size++ {
		var streamed strings.Builder
		c := newCiter(3, func(s string) { streamed.WriteString(s) })
		for _, chunk := range chunks(text, size) {
			c.Write(chunk)
		}
		c.Close()
		if streamed.String() != want || c.Text() != want || !equalInts(c.Cited(), wantCited) {
			t.Fatalf("chunks of %d: streamed %q, text %q, cited %v; want %q %v", size, streamed.String(), c.Text(), c.Cited(), want, wantCited)
		}
	}
}

// A stream that never closes a bracket is not held back for long.
func TestCiterHoldsLittle(t *testing.T) {
	var got strings.Builder
	c := newCiter(3, func(s string) { got.WriteString(s) })
	c.Write("[1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3")
	if got.Len() == 0 {
		t.Fatal("an endless list was held back whole")
	}
}

func FuzzCiter(f *testing.F) {
	for _, s := range []string{"a [1] b [2, 3]", "`[1]` [1", "```\n[2]\n```[3]", " [", "[99] [1]"} {
		f.Add(s, 3, 2)
	}
	f.Fuzz(func(t *testing.T, text string, offered, size int) {
		if size <= 0 || size > 64 || offered < 0 || offered > 20 || !utf8.ValidString(text) {
			return
		}
		want, cited := cite(text, offered)
		var streamed strings.Builder
		c := newCiter(offered, func(s string) { streamed.WriteString(s) })
		for _, chunk := range chunks(text, size) {
			c.Write(chunk)
		}
		c.Close()
		if streamed.String() != want {
			t.Fatalf("streamed %q, whole %q", streamed.String(), want)
		}
		for i, n := range cited {
			if n < 1 || n > offered {
				t.Fatalf("cited %d of %d offered", n, offered)
			}
			if strings.Count(want, "["+strconv.Itoa(i+1)+"]") == 0 {
				t.Fatalf("cited[%d] = %d but [%d] is not in %q", i, n, i+1, want)
			}
		}
	})
}

// chunks cuts s into pieces of size bytes, on rune boundaries.
func chunks(s string, size int) []string {
	var out []string
	for len(s) > 0 {
		n := min(size, len(s))
		for n < len(s) && !utf8.RuneStart(s[n]) {
			n++
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestAboutTool(t *testing.T) {
	srcs := []api.Source{
		{ID: "rytr", Title: "Rytr", Source: "Wayfinder AI tool catalog", Snippet: "AI writer, cheaper than ChatGPT Plus."},
		{ID: "notes", Title: "team notes.md", Snippet: "We draft scripts in ChatGPT."},
		{ID: "chatgpt", Title: "ChatGPT", URL: "https://chatgpt.com"},
		{ID: "web", Title: "OpenAI pricing", URL: "https://www.chatgpt.com/pricing"},
		{ID: "canvas", Title: "Canvas LMS", Snippet: "Canvas is a learning platform."},
		{ID: "leave", Title: "휴가 정책", Snippet: "연차 15일"},
	}
	ids := func(ss []api.Source) string {
		var out []string
		for _, s := range ss {
			out = append(out, s.ID)
		}
		return strings.Join(out, ",")
	}
	for _, tc := range []struct{ tool, url, want string }{
		{"ChatGPT", "https://chatgpt.com", "chatgpt,web,notes"},
		{"Canva", "https://canva.com", ""},
		{"Rytr", "", "rytr"},
		{"—", "", ""},
	} {
		if got := ids(aboutTool(tc.tool, tc.url, srcs)); got != tc.want {
			t.Errorf("aboutTool(%s) = %s, want %s", tc.tool, got, tc.want)
		}
	}
}

// An answer's sources are the passages it cites, numbered as first cited;
// passages found up front and by a tool share one numbering, and what was
// retrieved but not cited is kept apart.
func TestAnswerSourcesAreWhatItCites(t *testing.T) {
	e := newEnv(t)
	a := e.agent(Options{})
	e.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: RouteSimple, NeedsDocuments: true}})
	e.fake.OnFunc(isAnswer, func(req ollama.ChatRequest) ollamatest.Reply {
		if lastMessage(req).Role != "tool" {
			return ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{toolCall("search_catalog", map[string]any{"query": "Vrew ChatGPT"})}}
		}
		// Up front: [1] the leave policy; the tool: [2] Vrew, [3] ChatGPT.
		return ollamatest.Reply{Chunks: []string{"ChatGPT writes scripts [", "3]; Vrew edits [2", "]. Again [3][9]."}}
	})
	e.fake.On(isMemory, ollamatest.Reply{JSON: memoryOut{}})

	res, out := turn(t, a, chat.Turn{SessionID: "s1", Text: "휴가 정책하고 영상 도구 알려 줘"})
	a.Wait()
	if obs := lastMessage(e.requests(isAnswer)[1]).Content; !strings.Contains(obs, "[2] Vrew") || !strings.Contains(obs, "[3] ChatGPT") {
		t.Fatalf("the tool's passages are not numbered after the one found up front:\n%s", obs)
	}
	const want = "ChatGPT writes scripts [1]; Vrew edits [2]. Again [1]."
	if res.Response != want || out.String() != want {
		t.Fatalf("response %q, streamed %q, want %q", res.Response, out.String(), want)
	}
	ids := func(ss []api.Source) (out []string) {
		for _, s := range ss {
			out = append(out, s.ID)
		}
		return out
	}
	if got := strings.Join(ids(res.Sources), ","); got != "cat-chatgpt,cat-vrew" {
		t.Fatalf("sources %s", got)
	}
	if got := strings.Join(ids(res.Retrieved), ","); got != "hr-1" {
		t.Fatalf("retrieved %s", got)
	}
}

// The guide is given only the passages about the recommended tools, its
// citations are renumbered as it streams, and every card points at
// passages about its own tool.
func TestGuideCitesWhatItUses(t *testing.T) {
	e := newEnv(t)
	a := e.agent(Options{})
	// Rules match oldest first: these come before scriptComplex's. Each
	// first review asks for more, and the scout's search also finds the
	// leave policy and the other tools.
	e.fake.OnFunc(isReviewer, func(req ollama.ChatRequest) ollamatest.Reply {
		if !strings.Contains(lastMessage(req).Content, "휴가 정책") {
			return ollamatest.Reply{JSON: review{Sufficient: false, Missing: "more tools"}}
		}
		return scriptedReview(req)
	})
	e.fake.OnFunc(isScout, func(req ollama.ChatRequest) ollamatest.Reply {
		if lastMessage(req).Role == "tool" {
			return ollamatest.Reply{Text: "Found a good candidate."}
		}
		// Every search also finds the leave policy and the other tools.
		return ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{
			toolCall("search_catalog", map[string]any{"query": "Vrew ChatGPT Canva", "top_k": 10}),
			toolCall("retrieve_docs", map[string]any{"query": "휴가", "top_k": 10})}}
	})
	// Offered: [1] ChatGPT (s1), [2] Vrew (s2), [3] Canva (s3).
	e.fake.On(isGuide, ollamatest.Reply{Chunks: []string{"# 가이드\n\n편집: Vrew [", "2]\n대본: ChatGPT [1][2]\n"}})
	scriptComplex(e)

	plan, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: shortsTask})
	res, out := turn(t, a, chat.Turn{SessionID: "s1", Text: "✓", Decision: &api.ApprovalDecision{Action: api.ActionApprove, Version: plan.Plan.Version}})
	a.Wait()
	prompt := lastMessage(e.requests(isGuide)[0]).Content
	if strings.Contains(prompt, "휴가") || !strings.Contains(prompt, "[3] Canva") {
		t.Fatalf("the guide was offered passages about no recommended tool:\n%s", prompt)
	}
	const want = "# 가이드\n\n편집: Vrew [1]\n대본: ChatGPT [2][1]"
	if res.Response != want || strings.TrimSpace(out.String()) != want {
		t.Fatalf("guide %q, streamed %q", res.Response, out.String())
	}
	var got []string
	for _, s := range res.Sources {
		got = append(got, s.ID)
	}
	// Cited first, then what only a card shows.
	if strings.Join(got, ",") != "cat-vrew,cat-chatgpt,cat-canva" {
		t.Fatalf("sources %v", got)
	}
	if len(res.Retrieved) == 0 || res.Retrieved[0].ID != "hr-1" {
		t.Fatalf("retrieved %+v", res.Retrieved)
	}
	for _, r := range res.Recommendations {
		for _, s := range r.Sources {
			if s.Title != r.Tool {
				t.Errorf("the %s card points at %s", r.Tool, s.Title)
			}
		}
	}
}
