package main

// The model's replies in the speed scenarios: every role answers the way a
// well-behaved qwen3:4b would, with replies of a realistic length, since
// generated tokens cost time under the latency model. The replies suit
// this build and the baseline alike (roles are told apart by the first
// lines of their prompts, which both builds share).

import (
	"regexp"
	"strings"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/tests/internal/world"
)

// benchModel is the chat model the builds ask for; the latency profiles
// are qwen3:4b's.
const benchModel = "qwen3:4b"

// benchPlan has four sub-tasks, as the complex scenario.
var benchPlan = map[string]any{"sub_tasks": []map[string]string{
	{"id": "s1", "title": "대본 작성", "detail": "30초 분량의 카페 소개 쇼츠 대본을 쓴다"},
	{"id": "s2", "title": "영상 편집", "detail": "촬영본을 세로 영상으로 자르고 자막을 넣는다"},
	{"id": "s3", "title": "썸네일 제작", "detail": "눈에 띄는 썸네일 이미지를 만든다"},
	{"id": "s4", "title": "업로드와 홍보", "detail": "쇼츠를 올리고 카페 SNS에 알린다"},
}}

// benchRevisedPlan is the planner's second plan, after the feedback.
var benchRevisedPlan = map[string]any{"sub_tasks": []map[string]string{
	{"id": "s1", "title": "대본 작성", "detail": "무료 도구로 30초 분량의 카페 소개 대본을 쓴다"},
	{"id": "s2", "title": "영상 편집", "detail": "무료 편집기로 세로 영상과 자막을 만든다"},
	{"id": "s3", "title": "썸네일 제작", "detail": "무료 템플릿으로 썸네일을 만든다"},
	{"id": "s4", "title": "업로드와 홍보", "detail": "쇼츠를 올리고 카페 SNS에 알린다"},
}}

var benchPicks = map[string]map[string]any{
	"s1": {"sufficient": true, "missing": "", "tool": "ChatGPT", "why": "한국어로 짧은 대본을 빠르게 쓰고 고칠 수 있어 카페 소개 대본에 알맞습니다.", "url": "https://chatgpt.com", "pricing": "free, Plus $20/month", "alternatives": []string{"Claude", "Gemini"}},
	"s2": {"sufficient": true, "missing": "", "tool": "Vrew", "why": "음성을 인식해 한국어 자막을 자동으로 넣고 세로 영상으로 편집할 수 있습니다.", "url": "https://vrew.ai", "pricing": "free plan, Pro $9.99/month", "alternatives": []string{"CapCut"}},
	"s3": {"sufficient": true, "missing": "", "tool": "Canva", "why": "쇼츠용 썸네일 템플릿이 많고 글꼴과 사진을 쉽게 바꿀 수 있습니다.", "url": "https://canva.com", "pricing": "free, Pro $15/month", "alternatives": []string{"Adobe Express"}},
	"s4": {"sufficient": true, "missing": "", "tool": "YouTube Studio", "why": "쇼츠를 올리고 제목, 설명, 공개 시간을 정할 수 있습니다.", "url": "https://studio.youtube.com", "pricing": "free", "alternatives": []string{"Buffer"}},
}

var benchQueries = map[string]string{"s1": "짧은 영상 대본 작성 AI", "s2": "세로 영상 자막 편집 AI", "s3": "썸네일 디자인 도구", "s4": "영상 업로드 예약 SNS 홍보 도구"}

var subTaskIDRe = regexp.MustCompile(`Sub-task (s\d+)`)

// benchGuide is about 450 tokens of guide, streamed in pieces.
var benchGuide = strings.Repeat("## 카페 쇼츠 만들기\n\n이 가이드는 대본부터 업로드까지 네 단계로 카페 홍보 쇼츠를 만드는 방법을 설명합니다. ", 1) +
	"1. **대본 작성 — ChatGPT** [1]: 카페의 분위기와 대표 메뉴를 30초 안에 소개하는 대본을 부탁하고, 말투를 다듬습니다. 무료로 시작할 수 있고 Plus는 월 $20입니다.\n\n" +
	"2. **영상 편집 — Vrew** [2]: 촬영한 영상을 불러와 세로 9:16으로 자르고, 자동 자막을 확인해 고칩니다. 무료 플랜이 있고 Pro는 월 $9.99입니다.\n\n" +
	"3. **썸네일 제작 — Canva** [3]: 쇼츠 썸네일 템플릿을 골라 대표 메뉴 사진과 짧은 문구를 넣습니다. 무료로 충분합니다.\n\n" +
	"4. **업로드와 홍보 — YouTube Studio** [4]: 제목과 설명에 카페 이름과 위치를 넣고, 손님이 많은 시간에 맞춰 공개합니다. 올린 뒤 카페 인스타그램에도 알립니다.\n\n" +
	"유료 플랜을 모두 쓰면 한 달에 약 $29.99가 듭니다. 처음에는 무료 플랜으로 시작해 보고, 영상을 자주 만들게 되면 필요한 도구만 유료로 바꾸는 것을 추천합니다. " +
	"촬영은 자연광이 좋은 오전에 하고, 음료를 만드는 손과 매장 풍경을 짧게 여러 컷으로 담으면 편집이 쉬워집니다."

// benchAnswer is a medium answer (about 120 tokens).
const benchAnswer = "좋은 질문이에요. 지금 단계에서는 먼저 가장 중요한 일 세 가지를 정하고, 각 일에 필요한 시간과 비용을 적어 보세요. " +
	"그다음 이번 주에 할 수 있는 작은 일부터 시작하면 됩니다. 예를 들어 메뉴 사진을 새로 찍고, 단골손님에게 짧은 설문을 부탁하고, " +
	"가게 소개 글을 다듬는 일은 하루 안에 끝낼 수 있어요. 진행하면서 막히는 부분이 있으면 알려 주세요."

// baselineAnswer opened the answer's system prompt in the baselines (up to
// the preamble every call now opens with, which starts with the same
// line): a baseline's answer calls are those with it and no other role.
const baselineAnswer = "You are Wayfinder, a helpful assistant that runs entirely on the person's own computer."

// isAnswer matches the answer calls of this build and of a baseline.
func isAnswer(req ollama.ChatRequest) bool {
	if world.IsAnswer(req) {
		return true
	}
	for _, role := range world.Roles {
		if world.Matcher(role)(req) {
			return false
		}
	}
	return ollamatest.SystemContains(baselineAnswer)(req)
}

// scriptSpeed makes every role of both builds answer on fake.
func scriptSpeed(fake *ollamatest.Server) {
	is := func(role string) ollamatest.Matcher { return world.Matcher(role) }
	fake.OnFunc(is(world.RoleRouter), world.Route)
	fake.OnFunc(is(world.RolePlanner), func(req ollama.ChatRequest) ollamatest.Reply {
		for _, m := range req.Messages {
			if strings.Contains(m.Content, "feedback") {
				return ollamatest.Reply{JSON: benchRevisedPlan}
			}
		}
		return ollamatest.Reply{JSON: benchPlan}
	})
	fake.OnFunc(is(world.RoleReviewer), func(req ollama.ChatRequest) ollamatest.Reply {
		return ollamatest.Reply{JSON: benchPicks[subTaskOf(req)]}
	})
	fake.OnFunc(is(world.RoleScout), func(req ollama.ChatRequest) ollamatest.Reply {
		if world.Last(req).Role == "tool" {
			return ollamatest.Reply{Text: "찾은 도구 중 첫 번째가 이 단계에 가장 알맞습니다."}
		}
		tool := "retrieve_docs" // the baseline searched the catalog with it
		for _, t := range req.Tools {
			if t.Function.Name == "search_catalog" {
				tool = "search_catalog"
			}
		}
		return ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{{Name: tool, Args: map[string]any{"query": benchQueries[subTaskOf(req)]}}}}
	})
	fake.On(is(world.RoleGuide), ollamatest.Reply{Chunks: pieces(benchGuide, 12)})
	fake.On(is(world.RoleMemory), ollamatest.Reply{JSON: map[string]any{"memories": []map[string]string{{"text": "카페를 운영하고 홍보 영상을 만들고 싶어 함", "kind": "fact"}}}})
	fake.On(world.IsSummary, ollamatest.Reply{Text: "The person runs a café and asked, turn by turn, what to do next about menus, " +
		"photos, a survey of regular customers and short videos; Wayfinder suggested small steps for each week and offered to help when they got stuck."})
	fake.OnFunc(isAnswer, func(req ollama.ChatRequest) ollamatest.Reply {
		in := world.Last(req)
		switch {
		case in.Role == "tool":
			return ollamatest.Reply{Text: "계산 결과는 " + strings.TrimSpace(in.Content) + "입니다."}
		case strings.Contains(lastUser(req), "123*456"):
			return ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{{Name: "calculator", Args: map[string]any{"expression": "123*456"}}}}
		case strings.Contains(lastUser(req), "휴가"):
			return ollamatest.Reply{Text: "회사 휴가 정책에 따르면 연차는 15일입니다 [1]. 입사 1년 후부터 쓸 수 있고, 병가는 따로 10일이 있습니다 [1]."}
		case strings.Contains(lastUser(req), "안녕"):
			return ollamatest.Reply{Text: "안녕하세요! 무엇을 도와드릴까요? 질문이나 하고 싶은 작업을 말씀해 주세요."}
		}
		return ollamatest.Reply{Text: benchAnswer}
	})
}

func subTaskOf(req ollama.ChatRequest) string {
	id := "s1"
	for _, m := range req.Messages {
		if sm := subTaskIDRe.FindStringSubmatch(m.Content); m.Role == "user" && sm != nil {
			id = sm[1]
		}
	}
	return id
}

func lastUser(req ollama.ChatRequest) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == "user" {
			return req.Messages[i].Content
		}
	}
	return ""
}

// pieces cuts text into n streamed chunks at rune boundaries.
func pieces(text string, n int) []string {
	r := []rune(text)
	var out []string
	for i := 0; i < n; i++ {
		out = append(out, string(r[i*len(r)/n:(i+1)*len(r)/n]))
	}
	return out
}
