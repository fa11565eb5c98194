package agent

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/llm"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

func TestDirectStreamsWithHistory(t *testing.T) {
	fake := ollamatest.New(t)
	fake.Script(ollamatest.Reply{Chunks: []string{"철수님", "이라고 ", "하셨습니다."}, PromptTokens: 42, CompletionTokens: 7})
	client, err := llm.New(fake.URL())
	if err != nil {
		t.Fatal(err)
	}
	d := Direct{Model: func() (ChatModel, string) { return client, "llama3.2:3b" }}
	var streamed textOut
	res, err := d.Respond(context.Background(), chat.Turn{
		History: []api.Message{
			{Role: api.RoleUser, Content: "내 이름은 철수야", Status: api.StatusComplete},
			{Role: api.RoleAssistant, Content: "반가워요", Status: api.StatusComplete},
			{Role: api.RoleAssistant, Content: "", Status: api.StatusError},
		},
		Text: "내 이름이 뭐라고 했지?",
	}, &streamed)
	if err != nil {
		t.Fatal(err)
	}
	if streamed.String() != "철수님이라고 하셨습니다." || res.Response != streamed.String() {
		t.Fatalf("streamed %q, response %q", streamed.String(), res.Response)
	}
	if res.LLMCalls != 1 || res.PromptTokens != 42 || res.CompletionTokens != 7 {
		t.Fatalf("accounting = %+v", res)
	}
	req, _ := fake.LastChat()
	var roles []string
	for _, m := range req.Messages {
		roles = append(roles, m.Role)
	}
	if got := strings.Join(roles, ","); got != "system,user,assistant,user" {
		t.Fatalf("roles sent = %s (the failed empty reply must be left out)", got)
	}
	if req.Model != "llama3.2:3b" || req.Messages[1].Content != "내 이름은 철수야" {
		t.Fatalf("request = %+v", req)
	}
}

func TestDirectReportsModelMissing(t *testing.T) {
	fake := ollamatest.New(t)
	client, err := llm.New(fake.URL())
	if err != nil {
		t.Fatal(err)
	}
	d := Direct{Model: func() (ChatModel, string) { return client, "no-such-model" }}
	_, err = d.Respond(context.Background(), chat.Turn{Text: "hi"}, &textOut{})
	if !errors.Is(err, llm.ErrModelNotFound) {
		t.Fatalf("err = %v, want ErrModelNotFound", err)
	}
	if info := llm.Classify(err); info.Code != api.ErrModelMissing || !strings.Contains(info.Hint, "ollama pull no-such-model") {
		t.Fatalf("classified = %+v", info)
	}
}

// textOut collects the streamed text.
type textOut struct{ strings.Builder }

func (o *textOut) Text(s string)          { o.WriteString(s) }
func (o *textOut) Trace(e api.TraceEvent) {}
