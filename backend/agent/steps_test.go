package agent

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/graph"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// copyOf gives a new thread every field of the state: a field added to
// State and forgotten there would reach a sub-task's loop empty.
func TestCopyOfWritesEveryField(t *testing.T) {
	var s State
	fill(t, reflect.ValueOf(&s).Elem())
	f := newFields()
	g, err := graph.New(f.all()...).AddNode("noop", func(context.Context, State, *graph.Runtime) (graph.Update, error) { return nil, nil }).
		AddEdge(graph.Start, "noop").AddEdge("noop", graph.End).Compile()
	if err != nil {
		t.Fatal(err)
	}
	res, err := g.Invoke(context.Background(), graph.Config{}, f.copyOf(s))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(s)
	got, _ := json.Marshal(res.State)
	if string(got) != string(want) {
		t.Fatalf("copy differs:\n got %s\nwant %s", got, want)
	}
}

// fill sets every field of v to something other than its zero value.
func fill(t *testing.T, v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Int:
		v.SetInt(3)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fill(t, s.Index(0))
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(t, k)
		if e.Kind() == reflect.Interface {
			e.Set(reflect.ValueOf("x"))
		} else {
			fill(t, e)
		}
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() && !strings.EqualFold(v.Type().Field(i).Name, "Reset") {
				fill(t, v.Field(i))
			}
		}
	case reflect.Float64:
		v.SetFloat(0.5)
	case reflect.Int64:
		v.SetInt(7)
	case reflect.Interface:
		v.Set(reflect.ValueOf("x"))
	default:
		t.Fatalf("fill: %s", v.Kind())
	}
}

// Sub-tasks recommended several at once give what one at a time gives:
// the same cards, guide, sources and number of calls; and they do run at
// once (their reviews are asked for before the first one is answered),
// each card reaching the person as its sub-task ends.
func TestParallelStepsMatchOneAtATime(t *testing.T) {
	// together says whether every review was asked for before any was
	// answered: each review waits (a while at most) for all three to come,
	// so the check does not hang on a slow machine, nor pass by timing.
	var together atomic.Bool
	run := func(parallel int) (api.TurnResult, *output, *env) {
		e := newEnv(t)
		a := e.agent(Options{Parallel: parallel})
		var arrived atomic.Int32
		all := make(chan struct{})
		together.Store(true)
		e.fake.OnFunc(isReviewer, func(req ollama.ChatRequest) ollamatest.Reply {
			if parallel > 1 {
				if arrived.Add(1) == 3 {
					close(all)
				}
				select {
				case <-all:
				case <-time.After(10 * time.Second):
					together.Store(false)
				}
			}
			return scriptedReview(req)
		})
		scriptComplex(e) // after the reviews' rule: the first rule that matches answers
		plan, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: shortsTask})
		res, out := turn(t, a, chat.Turn{SessionID: "s1", Text: "✓", Decision: &api.ApprovalDecision{Action: api.ActionApprove, Version: plan.Plan.Version}})
		a.Wait()
		return res, out, e
	}
	one, oneOut, _ := run(1)
	many, manyOut, e := run(3)
	ids := func(srcs []api.Source) []string {
		var out []string
		for _, s := range srcs {
			out = append(out, s.ID)
		}
		return out
	}
	if !reflect.DeepEqual(one.Recommendations, many.Recommendations) || one.Response != many.Response ||
		!reflect.DeepEqual(ids(one.Sources), ids(many.Sources)) || !reflect.DeepEqual(ids(one.Retrieved), ids(many.Retrieved)) ||
		one.LLMCalls != many.LLMCalls || !reflect.DeepEqual(one.ToolsUsed, many.ToolsUsed) {
		t.Fatalf("one at a time:\n%+v\nthree at once:\n%+v", one, many)
	}
	reviews := 0
	for _, r := range e.fake.Requests() {
		var req ollama.ChatRequest
		if r.Path == ollamatest.PathChat && json.Unmarshal(r.Body, &req) == nil && isReviewer(req) {
			reviews++
		}
	}
	if reviews != 3 || !together.Load() {
		t.Fatalf("%d reviews; all asked for before any was answered: %v", reviews, together.Load())
	}
	cards := func(o *output) int {
		n := 0
		for _, ev := range o.kinds(api.TraceEvaluation) {
			if ev.Code == api.TraceStepRecommend && ev.Recommendation != nil {
				n++
			}
		}
		return n
	}
	if cards(oneOut) != 3 || cards(manyOut) != 3 {
		t.Fatalf("cards as each sub-task ends: %d one at a time, %d at once", cards(oneOut), cards(manyOut))
	}
}
