package llm_test

import (
	"context"
	"fmt"

	"github.com/ollama/ollama/api"
	"github.com/wayfinder-app/wayfinder/backend/llm"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

func ExampleClient_Chat() {
	srv, err := ollamatest.Start("127.0.0.1:0", ollamatest.WithDefaultReply(ollamatest.Reply{Text: "Hello from the fake."}))
	if err != nil {
		panic(err)
	}
	defer srv.Close()

	c, err := llm.New(srv.URL())
	if err != nil {
		panic(err)
	}
	req := llm.ChatRequest{Model: "llama3.2:3b", Messages: userSays("Hi!")}
	resp, err := c.Chat(context.Background(), req, func(ch llm.Chunk) { fmt.Printf("[%s]", ch.Content) })
	if err != nil {
		fmt.Println(llm.Classify(err).Message)
		return
	}
	fmt.Println()
	fmt.Println(resp.Message.Content, resp.CompletionTokens, "tokens")

	_, err = c.Chat(context.Background(), llm.ChatRequest{Model: "mistral", Messages: userSays("Hi!")}, nil)
	info := llm.Classify(err)
	fmt.Println(info.Code, "-", info.Hint)
	// Output:
	// [Hello ][from ][the ][fake.]
	// Hello from the fake. 4 tokens
	// model_missing - ollama pull mistral
}

func ExampleClient_Structured() {
	srv, err := ollamatest.Start("127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	srv.Script(ollamatest.Reply{Text: `{"route": "complex"`}, ollamatest.Reply{JSON: map[string]any{"route": "complex"}})

	c, _ := llm.New(srv.URL())
	var out struct {
		Route string `json:"route" enum:"simple,complex"`
	}
	req := llm.ChatRequest{Model: "llama3.2:3b", Messages: userSays("Plan a video for me")}
	_, err = c.Structured(context.Background(), req, nil, &out)
	if repair := llm.RepairMessages(err); repair != nil {
		// One repair attempt: show the model its reply and what was wrong.
		req.Messages = append(req.Messages, repair...)
		_, err = c.Structured(context.Background(), req, nil, &out)
	}
	fmt.Println(out.Route, err)
	// Output: complex <nil>
}

func userSays(text string) []api.Message { return []api.Message{{Role: "user", Content: text}} }
