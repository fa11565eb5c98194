package agent

import (
	"strings"
	"testing"

	ollama "github.com/ollama/ollama/api"

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
