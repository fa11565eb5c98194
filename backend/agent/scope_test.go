package agent

import (
	"strings"
	"testing"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/backend/tools"
)

func TestAsksForTool(t *testing.T) {
	tests := map[string]bool{
		"영상 편집에 좋은 AI 도구 추천해 줘":                     true,
		"자막 만들어 주는 앱 있어?":                           true,
		"Which app should I use to edit shorts?":    true,
		"what's a good free tool for thumbnails":    true,
		"회사 휴가 정책이 뭐야?":                             false,
		"연차는 며칠이에요?":                                false,
		"What does my handbook say about overtime?": false,
		"내 문서에서 추천하는 프로그램이 뭐야?":                     false, // a question about the person's file
		"What is 12% of 3,700,000 won?":             false,
	}
	for text, want := range tests {
		if got := asksForTool(text); got != want {
			t.Errorf("asksForTool(%q) = %v, want %v", text, got, want)
		}
	}
}

// catalogIn reports whether a request carries a catalog entry anywhere the
// model reads: a prompt, a tool observation, or a tool it is offered.
func catalogIn(req ollama.ChatRequest) bool {
	for _, m := range req.Messages {
		if strings.Contains(m.Content, "Wayfinder AI tool catalog") {
			return true
		}
	}
	for _, tl := range req.Tools {
		if tl.Function.Name == "search_catalog" {
			return true
		}
	}
	return false
}

// A question about the person's documents searches the documents only:
// no catalog entry reaches the model, and search_catalog is not offered.
// A question that asks for a tool gets the catalog.
func TestCatalogOnlyWhereToolsAreWanted(t *testing.T) {
	e := newEnv(t)
	a := e.agent(Options{})
	e.fake.On(isAnswer, ollamatest.Reply{Text: "연차는 15일입니다 [1]."}, ollamatest.Reply{Text: "Vrew를 추천해요 [1]."})
	e.fake.On(isMemory, ollamatest.Reply{JSON: memoryOut{Memories: []memoryItem{}}})

	// "영상" matches the catalog's video tools too: only the scope keeps them out.
	res, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: "회사 휴가 정책에 영상 촬영 휴가도 있나요?"})
	for _, s := range e.docs.Searches() {
		if s.Scope != tools.ScopeDocuments {
			t.Errorf("a document question searched %q for %q", s.Scope, s.Query)
		}
	}
	if req := e.requests(isAnswer)[0]; catalogIn(req) {
		t.Errorf("the catalog reached a document question's prompt:\n%s", promptText(req))
	}
	for _, src := range res.Sources {
		if src.Source == "Wayfinder AI tool catalog" {
			t.Errorf("catalog source %q on a document question", src.Title)
		}
	}

	res, _ = turn(t, a, chat.Turn{SessionID: "s2", Text: "영상 자막 편집에 좋은 AI 도구가 뭐예요?"})
	var catalogFound bool
	for _, s := range e.docs.Searches() {
		if s.Scope == tools.ScopeCatalog && len(s.Found) > 0 {
			catalogFound = true
		}
	}
	req := e.requests(isAnswer)[1]
	if !catalogFound || !strings.Contains(promptText(req), "Vrew") || !catalogIn(req) {
		t.Errorf("a tool question did not get the catalog (searches %+v):\n%s", e.docs.Searches(), promptText(req))
	}
	if len(res.Sources) == 0 || res.Sources[0].Title != "Vrew" {
		t.Errorf("sources = %+v", res.Sources)
	}
	a.Wait()
}

// A message in a conversation with attached files searches them even
// where the router's model says no documents are needed ("표에 나온
// 내용도 요약해 줘" reads as small talk to a small model); a follow-up
// searches with the words of the question it follows, in any
// conversation where it asks something new. A conversation without files
// keeps the router's verdict.
func TestAttachedFilesAreSearched(t *testing.T) {
	history := []api.Message{
		{ID: "m1", Role: api.RoleUser, Content: "휴가 정책에서 연차는 며칠이야?", Status: api.StatusComplete},
		{ID: "m2", Role: api.RoleAssistant, Content: "연차는 15일입니다 [1].", Status: api.StatusComplete},
	}
	tests := []struct {
		name     string
		attached []string
		history  []api.Message
		text     string
		want     string // the query searched; "" for no search
	}{
		{"the model says no documents, the conversation has files", []string{"employee-handbook.pdf"}, nil, "휴가 정책 표에 나온 내용도 요약해 줘", "휴가 정책 표에 나온 내용도 요약해 줘"},
		{"a follow-up searches with the question it follows", []string{"employee-handbook.pdf"}, history, "그럼 병가는?", "휴가 정책에서 연차는 며칠이야?\n그럼 병가는?"},
		{"a follow-up question searches the library too", nil, history, "그럼 병가는?", "휴가 정책에서 연차는 며칠이야?\n그럼 병가는?"},
		{"a question about what was said searches nothing", nil, history, "내가 아까 뭐라고 했지?", ""},
		{"a greeting searches nothing", []string{"employee-handbook.pdf"}, nil, "안녕하세요", ""},
		{"no files: the router's verdict", nil, nil, "휴가 정책 표에 나온 내용도 요약해 줘", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.attached = map[string][]string{"s1": tt.attached}
			a := e.agent(Options{})
			e.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: RouteSimple}})
			e.fake.On(isAnswer, ollamatest.Reply{Text: "연차 15일, 병가 10일입니다."})
			e.fake.On(isMemory, ollamatest.Reply{JSON: memoryOut{Memories: []memoryItem{}}})
			turn(t, a, chat.Turn{SessionID: "s1", Text: tt.text, History: tt.history})
			a.Wait()
			var got []string
			for _, s := range e.docs.Searches() {
				got = append(got, s.Query)
			}
			switch {
			case tt.want == "" && len(got) > 0:
				t.Errorf("searched %q, want no search", got)
			case tt.want != "" && (len(got) != 1 || got[0] != tt.want):
				t.Errorf("searched %q, want [%q]", got, tt.want)
			}
			if tt.want != "" && !strings.Contains(promptText(e.requests(isAnswer)[0]), "병가 10일") {
				t.Errorf("the passage found did not reach the answer:\n%s", promptText(e.requests(isAnswer)[0]))
			}
		})
	}
}
