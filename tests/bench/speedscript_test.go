package main

import (
	"testing"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/tests/internal/world"
)

// The bench's fake answers the answer calls of this build and of the
// baselines (whose answer prompt opened with what is now every call's
// preamble), and only those: a miss gives the fake's one-token default
// reply and a baseline that looks faster than it is.
func TestIsAnswerMatchesBothBuilds(t *testing.T) {
	sys := func(texts ...string) ollama.ChatRequest {
		var r ollama.ChatRequest
		for _, s := range texts {
			r.Messages = append(r.Messages, ollama.Message{Role: "system", Content: s})
		}
		return r
	}
	for _, c := range []struct {
		name string
		req  ollama.ChatRequest
		want bool
	}{
		{"this build's answer", sys(baselineAnswer+"\nrule", world.RoleAnswer+"\nrules"), true},
		{"a baseline's answer", sys(baselineAnswer + "\nAnswer in the language the person writes in."), true},
		{"this build's router", sys(baselineAnswer+"\nrule", world.RoleRouter+" Classify"), false},
		{"this build's guide", sys(baselineAnswer+"\nrule", world.RoleGuide+" Write"), false},
		{"a baseline's reviewer", sys(world.RoleReviewer + " Decide"), false},
	} {
		if got := isAnswer(c.req); got != c.want {
			t.Errorf("%s: isAnswer = %v, want %v", c.name, got, c.want)
		}
	}
}
