package agent

import (
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/backend/tools"
	"github.com/wayfinder-app/wayfinder/backend/tools/toolstest"
)

// A passage of a presentation reaches the model as "slide 4", not "p. 4",
// so that the model names the slide a person will look for, and the
// turn's source keeps its unit for the window to say the same.
func TestASlideIsCitedAsASlide(t *testing.T) {
	e := newEnv(t)
	e.docs = toolstest.NewDocs(tools.Doc{ID: "deck-4", Title: "휴가 안내", Source: "leave-briefing.pptx", Page: 4, Unit: "slide",
		Text: "휴가 정책: 연차 15일, 병가 10일."})
	a := e.agent(Options{})
	e.fake.On(isAnswer, ollamatest.Reply{Text: "연차는 15일입니다 [1]."})
	e.fake.On(isMemory, ollamatest.Reply{JSON: memoryOut{Memories: []memoryItem{}}})

	res, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: "회사 휴가 정책이 뭐야?"})
	var material string
	for _, m := range e.requests(isAnswer)[0].Messages {
		material += m.Content + "\n"
	}
	if !strings.Contains(material, "[1] 휴가 안내 — leave-briefing.pptx — slide 4") || strings.Contains(material, "p. 4") {
		t.Errorf("the model was not told the slide:\n%s", material)
	}
	if len(res.Sources) != 1 || res.Sources[0].Page != 4 || res.Sources[0].Unit != "slide" {
		t.Errorf("sources = %+v, want slide 4", res.Sources)
	}
	a.Wait()
}
