package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// The pre-classifier reads whatever a person types: it must never panic
// and must answer a known route whenever it answers.
func FuzzClassify(f *testing.F) {
	for _, s := range []string{"", "안녕", "123 * 456", "회사 휴가 정책이 뭐야?", "그럼 가격은?", "make a video", "((((", "%%%", "\x00\xff"} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, text string, history bool) {
		got := classify(text, history)
		if got.ok && got.route != RouteSimple && got.route != RouteEnd {
			t.Fatalf("classify(%q) = %+v", text, got)
		}
		if lang := detectLang(text); lang != "ko" && lang != "en" {
			t.Fatalf("detectLang(%q) = %q", text, lang)
		}
	})
}

// An edited plan comes from the UI as JSON: validation never panics, and
// what it accepts always meets the rules.
func FuzzValidateEdited(f *testing.F) {
	f.Add(`[{"id":"s1","title":"a"},{"title":"b"}]`)
	f.Add(`[{"id":"x","title":"a"},{"id":"x","title":"b"}]`)
	f.Add(`[{"id":"s2","title":"  "}]`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, raw string) {
		var steps []api.SubTask
		if json.Unmarshal([]byte(raw), &steps) != nil {
			return
		}
		out, err := validateEdited(steps)
		if err != nil {
			return
		}
		ids := map[string]bool{}
		for _, st := range out {
			if st.ID == "" || ids[st.ID] || st.Title == "" || utf8.RuneCountInString(st.Title) > maxTitleRunes {
				t.Fatalf("accepted %+v", out)
			}
			ids[st.ID] = true
		}
		if len(out) == 0 || len(out) > maxEditSteps {
			t.Fatalf("accepted %d steps", len(out))
		}
	})
}

// The router's broken replies are the model's text, anything at all:
// reading them never panics, and reads a route of the graph or nothing.
func FuzzRouteFromBroken(f *testing.F) {
	for _, s := range []string{`{"route": "comp`, `{"route":"sim`, `{'route': 'simple', 'x`, `{"route": "co`, `{"route": "`, `"route":`, `{"route": "chat"}`, "\x00\xff", ""} {
		f.Add(s, `{"route": "compl`)
		f.Add(s, "")
	}
	f.Fuzz(func(t *testing.T, first, repair string) {
		got, ok := routeFromBroken([]string{first, repair})
		if ok != (got != "") || ok && got != RouteSimple && got != RouteComplex {
			t.Fatalf("routeFromBroken(%q, %q) = %q, %v", first, repair, got, ok)
		}
	})
}

// The planner's broken replies are untrusted text: reading them never
// panics, and what it keeps is a plan a person could be shown — 2 to 7
// steps, each titled in one line of at most maxTitleRunes, with a short
// detail and an id that is a short word or none. Checking a mended plan
// against its reply never panics either.
func FuzzPlanFromBroken(f *testing.F) {
	for _, s := range []string{
		`{"sub_tasks":[{"id":"s1","title":"대본 작성","detail":"30초"},{"id":"s2","title":"영상 편집"},{"id":"s3","title":"썸`,
		`{"sub_tasks": ["a", "b", "c`, "```json\n[{\"title\": \"a\"}, {\"title\": \"b\"}, {",
		"1. 대본 작성: 30초\n2. **영상 편집** — 세로\n3. 썸", "1단계: a\n2단계: b\n", "Step 1: a - x\nStep 2: b\n",
		"① a\n② b\n", "- a\n  - x\n- b\n- c", "1. a\n2. b\n1. c\n", "1. a\u0007\u200b\n2. \t\n3. c\n", "", "\xff\xfe",
		"1. a\n2. b\n\nLet me know if you want changes.", "1단계: a\n2단계: b\n\n진행할까요? 수정할 부분이 있으면 말씀해 주세요.",
		"1. a\n2. b\n\nWhich one? ...!? 。", "- a\n- b\n\n어느 쪽이 좋으세요?면",
		"1. a\n2. b\n   c\nNotes:\n1. x\n", "1. a\n2. b\n\nThat's it. 화이팅! 🎉", "- a\n- b\n\n’'’ if you'd like : \n- c",
	} {
		f.Add(s, "")
		f.Add(s, "1. x\n2. y\n")
	}
	f.Fuzz(func(t *testing.T, first, repair string) {
		steps := planFromBroken([]string{first, repair})
		if steps != nil && (len(steps) < minPlanSteps || len(steps) > maxPlanSteps) {
			t.Fatalf("kept %d steps", len(steps))
		}
		for _, st := range steps {
			if st.Title == "" || st.Title != strings.TrimSpace(st.Title) || strings.ContainsAny(st.Title, "\n\r\t\x00") ||
				!utf8.ValidString(st.Title) || utf8.RuneCountInString(st.Title) > maxTitleRunes ||
				utf8.RuneCountInString(st.Detail) > maxDetailRunes+1 || len(st.ID) > maxStepIDLetters || st.ID != "" && !stepIDRe.MatchString(st.ID) {
				t.Fatalf("kept %+v", st)
			}
		}
		var p planOut
		if mended, err := llmRepairJSON(first); err == nil && json.Unmarshal([]byte(mended), &p) == nil {
			_ = p.checkMended(first)
		}
	})
}

// A node's config is read from a person's workflow file.
func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{``, `null`, `{"toolset":"answer"}`, `{"max_iterations":3}`, `{"max_rounds":-1}`, `[1]`, `{`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		cfg, err := parseConfig([]byte(raw))
		if err == nil && (cfg.MaxIterations < 0 || cfg.MaxIterations > 50 || cfg.MaxRounds < 0 || cfg.MaxRounds > 50) {
			t.Fatalf("accepted %+v", cfg)
		}
	})
}

func BenchmarkClassify(b *testing.B) {
	inputs := []string{"안녕하세요", "123 * 456 계산해줘", "회사 휴가 정책이 뭐야?", "카페 홍보용 유튜브 쇼츠 영상을 만들고 싶어", "그럼 가격은?"}
	for i := 0; b.Loop(); i++ {
		classify(inputs[i%len(inputs)], true)
	}
}

// BenchmarkSimpleTurn measures a one-call turn end to end against the
// fake model over loopback HTTP: the agent's own overhead (engine, prompt
// building, checkpoints in memory or SQLite) is what differs between the
// two.
func BenchmarkSimpleTurn(b *testing.B) {
	for _, inMemory := range []bool{true, false} {
		name := "sqlite"
		if inMemory {
			name = "memory"
		}
		b.Run(name, func(b *testing.B) {
			e := newEnv(b)
			e.inMemory = inMemory
			e.fake.On(isAnswer, ollamatest.Reply{Text: "안녕하세요!"})
			a := e.agent(Options{})
			ctx := context.Background()
			for b.Loop() {
				if _, err := a.Respond(ctx, chat.Turn{SessionID: "bench", Text: "안녕"}, &output{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
