package agent

import (
	"context"
	"errors"
	"maps"
	"slices"
	"testing"
	"time"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// The person stops an approved plan while it runs: the plan is offered
// again, its reply keeps the cards found before the stop, and one line
// says which steps got a tool and which did not (none of them, some, or
// all with the guide cut).
func TestStopWhileThePlanRuns(t *testing.T) {
	reviewerOf := func(id string) ollamatest.Matcher {
		return func(req ollama.ChatRequest) bool {
			m := subTaskRe.FindStringSubmatch(lastMessage(req).Content)
			return isReviewer(req) && m != nil && m[1] == id
		}
	}
	for _, tc := range []struct {
		name   string
		hangAt ollamatest.Matcher // the call that has not answered when the person stops
		key    string
		args   map[string]string
		cards  []string
	}{
		{"before any step", reviewerOf("s1"), keyPlanStoppedNone, nil, nil},
		{"after the first step", reviewerOf("s2"), keyPlanStopped,
			map[string]string{"done": "“대본 작성”", "left": "“영상 편집”, “썸네일 제작”"}, []string{"ChatGPT"}},
		{"while writing the guide", isGuide, keyPlanStoppedGuide, nil, []string{"ChatGPT", "Vrew", "Canva"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			started := make(chan struct{}, 1)
			e.fake.OnFunc(tc.hangAt, func(ollama.ChatRequest) ollamatest.Reply {
				select {
				case started <- struct{}{}:
				default:
				}
				return ollamatest.Reply{Delay: time.Hour}
			})
			scriptComplex(e)
			a := e.agent(Options{})
			first, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: shortsTask})
			if first.Plan == nil {
				t.Fatal("no plan")
			}
			out := &output{}
			res, err := approveAndStop(a, first.Plan, started, out)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("the stopped turn ended with %v", err)
			}
			if res.Plan == nil || res.Plan.Again != api.AgainStopped || len(res.Plan.SubTasks) != 3 {
				t.Fatalf("offered again: %+v", res.Plan)
			}
			want, ok := Line(tc.key, tc.args, "ko")
			if !ok || res.Response != want || res.TextKey != tc.key || !maps.Equal(res.TextArgs, tc.args) || out.String() != want {
				t.Fatalf("said %q (key %s %v), streamed %q\nwant %q (key %s %v)", res.Response, res.TextKey, res.TextArgs, out.String(), want, tc.key, tc.args)
			}
			var cards []string
			for _, r := range res.Recommendations {
				cards = append(cards, r.Tool)
			}
			if !slices.Equal(cards, tc.cards) || (len(cards) > 0 && len(res.Steps) != 3) {
				t.Fatalf("cards kept: %v with steps %+v, want %v", cards, res.Steps, tc.cards)
			}
			a.Wait()
		})
	}
}
