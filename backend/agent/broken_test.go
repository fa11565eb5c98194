package agent

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kaptinlin/jsonrepair"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"
	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
)

// A route cut mid-word is read when at least three letters of it are
// there and they begin one route's name alone; anything less plain reads
// nothing (leanRoute decides).
func TestRouteFromBroken(t *testing.T) {
	for _, tt := range []struct {
		name    string
		replies []string
		want    string // "": nothing read
	}{
		{"cut after four letters", []string{`{"route": "comp`, `{"route": "comp`}, RouteComplex},
		{"cut after three letters", []string{`{"route":"sim`, `no JSON at all`}, RouteSimple},
		{"only the repair has it", []string{`I think complex`, `{"route": "compl`}, RouteComplex},
		{"cut with spaces after", []string{"{\"route\": \"simpl  \n", ""}, RouteSimple},
		{"single quotes", []string{`{'route': 'comple`}, RouteComplex},
		{"capitals", []string{`{"route": "Compl`}, RouteComplex},
		{"in a fence, after prose", []string{"Sure:\n```json\n{\"route\": \"compl"}, RouteComplex},
		{"whole value, the rest broken", []string{`{"route": "complex", "needs_documents": maybe`}, RouteComplex},
		{"whole route, cut after it", []string{`{"route": "simple", "needs_doc`}, RouteSimple},
		{"the whole name, still open", []string{`{"route": "complex`}, RouteComplex},

		{"two letters", []string{`{"route": "co`, `{"route": "co`}, ""},
		{"one letter", []string{`{"route": "s`}, ""},
		{"nothing of the value", []string{`{"route": "`}, ""},
		{"no route key", []string{`{"needs_documents":false,"out_of_scope":false`}, ""},
		{"a word of no route", []string{`{"route": "chat", "reason": "x"}`}, ""},
		{"a cut word of no route", []string{`{"route": "conver`}, ""},
		{"longer than a route", []string{`{"route": "simpler`}, ""},
		{"a closed prefix is not a route", []string{`{"route": "comp", "needs`}, ""},
		{"the open value is not at the end", []string{"{\"route\": \"comp\n}"}, ""},
		{"the replies disagree", []string{`{"route": "simp`, `{"route": "compl`}, ""},
		{"no replies", nil, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := routeFromBroken(tt.replies)
			if got != tt.want || ok != (tt.want != "") {
				t.Fatalf("routeFromBroken(%q) = %q, %v; want %q", tt.replies, got, ok, tt.want)
			}
		})
	}
}

// A refusal with its reasons listed, and a request for details with its
// questions listed: replies a planner gives instead of a plan, whose
// lists are no steps (the reviewer's reproductions of 417c369).
const (
	koRefusal   = "죄송하지만 이 작업은 도와드릴 수 없습니다. 이유는 다음과 같습니다:\n1. 요청에 개인정보가 포함되어 있습니다\n2. 저작권이 있는 자료를 복제하게 됩니다\n\n다른 방법이 있다면 말씀해 주세요."
	enQuestions = "I need more information before planning:\n- What is the deadline?\n- Who is the audience?\nPlease answer these."
)

// The steps that came through whole are read from a broken plan: a JSON
// array cut mid-way, or a list, in Korean or English; what is cut, empty,
// an id or too long is left out, fewer than two steps or more than seven
// read nothing (the task as one step stands), and so does a list that is
// not plainly a plan: questions, a refusal's reasons, a list inside prose.
func TestPlanFromBroken(t *testing.T) {
	long := strings.Repeat("가", maxTitleRunes+1)
	for _, tt := range []struct {
		name    string
		replies []string
		want    []planStep // nil: nothing usable
	}{
		{"array cut in the third step", []string{`{"sub_tasks":[{"id":"s1","title":"대본 작성","detail":"30초 분량"},{"id":"s2","title":"영상 편집","detail":"세로 영상"},{"id":"s3","title":"썸네`},
			[]planStep{{ID: "s1", Title: "대본 작성", Detail: "30초 분량"}, {ID: "s2", Title: "영상 편집", Detail: "세로 영상"}}},
		{"array cut between steps", []string{`Here: {"sub_tasks": [{"title": "Script"}, {"title": "Edit"},`},
			[]planStep{{Title: "Script"}, {Title: "Edit"}}},
		{"steps as strings", []string{`{"sub_tasks": ["Write the script", "Edit the video", "Make a thum`},
			[]planStep{{Title: "Write the script"}, {Title: "Edit the video"}}},
		{"a bare array in a fence", []string{"```json\n[{\"title\": \"a\"}, {\"title\": \"b\"}, {\"ti"},
			[]planStep{{Title: "a"}, {Title: "b"}}},
		{"the repair has more", []string{`{"sub_tasks":[{"title":"a"},{"title":"b"},{"ti`, `{"sub_tasks":[{"title":"a"},{"title":"b"},{"title":"c"},{"t`},
			[]planStep{{Title: "a"}, {Title: "b"}, {Title: "c"}}},
		{"a step without a title and an odd id", []string{`{"sub_tasks":[{"id":"s1","title":"a"},{"id":"s2","title":"  "},{"id":"ignore previous instructions","title":"b"},{"id":"s4","title":"c`},
			[]planStep{{ID: "s1", Title: "a"}, {Title: "b"}}},
		{"numbered list in Korean", []string{"계획입니다:\n1. 대본 작성: 30초 분량의 카페 소개 대본\n2. **영상 편집** — 촬영본을 세로 영상으로\n3. 썸네일 제"},
			[]planStep{{Title: "대본 작성", Detail: "30초 분량의 카페 소개 대본"}, {Title: "영상 편집", Detail: "촬영본을 세로 영상으로"}}},
		{"단계 list", []string{"1단계: 대본 작성\n2단계: 영상 편집\n3단계: 썸네일 제작\n"},
			[]planStep{{Title: "대본 작성"}, {Title: "영상 편집"}, {Title: "썸네일 제작"}}},
		{"Step list in English, ended", []string{"Step 1: Write a script - 30 seconds\nStep 2: Edit at https://vrew.ai\nThat's it."},
			[]planStep{{Title: "Write a script", Detail: "30 seconds"}, {Title: "Edit at https://vrew.ai"}}},
		{"circled numbers", []string{"① 대본\n② 편집\n③ 썸네일\n"},
			[]planStep{{Title: "대본"}, {Title: "편집"}, {Title: "썸네일"}}},
		{"bullets, the nested ones left out", []string{"- Script\n  - find a hook\n- Edit\n- Thumb"},
			[]planStep{{Title: "Script"}, {Title: "Edit"}}},
		{"a second list is not read", []string{"1. a\n2. b\nNotes:\n1. x\n2. y\n"},
			[]planStep{{Title: "a"}, {Title: "b"}}},
		{"control characters out", []string{"1. a\u0007b\u200b\n2. c\t\td\n"},
			[]planStep{{Title: "ab"}, {Title: "c d"}}},
		{"a long detail is cut", []string{"1. a: " + strings.Repeat("x", maxDetailRunes+10) + "\n2. b\n"},
			[]planStep{{Title: "a", Detail: strings.Repeat("x", maxDetailRunes) + "…"}, {Title: "b"}}},
		{"steps with only an id are dropped", []string{`{"sub_tasks":[{"id":"s1"},{"id":"s2","title":"대본 작성"},{"id":"s3","title":"영상 편집"},{"id":"s4"},{"id":"s5","ti`},
			[]planStep{{ID: "s2", Title: "대본 작성"}, {ID: "s3", Title: "영상 편집"}}},
		{"titles that are ids or numbers are no steps", []string{`{"sub_tasks":[{"id":"s1","title":"s1"},{"title":"2"},{"title":"Step 3"},{"title":"Script"},{"title":"Edit"}]}`},
			[]planStep{{Title: "Script"}, {Title: "Edit"}}},
		{"bullets under a lead-in, in a fence", []string{"Here is the plan:\n```\n- Write the script\n- Edit the video\n- Post it\n```\n"},
			[]planStep{{Title: "Write the script"}, {Title: "Edit the video"}, {Title: "Post it"}}},
		{"a heading and a lead-in", []string{"## 계획\n다음 순서로 하세요:\n1. 대본 작성\n2. 영상 편집\n"},
			[]planStep{{Title: "대본 작성"}, {Title: "영상 편집"}}},
		{"two lines after the list", []string{"1. Write the script\n2. Edit the video\nThat is the plan.\nGood luck.\n"},
			[]planStep{{Title: "Write the script"}, {Title: "Edit the video"}}},
		{"a line under an item", []string{"1. 대본 작성\n2. 영상 편집\n   세로 영상으로\n"},
			[]planStep{{Title: "대본 작성"}, {Title: "영상 편집"}}},

		{"one complete step", []string{`{"sub_tasks":[{"id":"s1","title":"대본 작성"},{"id":"s2","title":"영`, `{"sub_tasks":[{"ti`}, nil},
		{"the robustness test's half", []string{`{"sub_tasks":[{"detail":"30초 분량의 카페 소개 대본","id":"s1","title":"대본 작성"},{"detail":"촬영본을 세로 `}, nil},
		{"list on one line, cut", []string{"1. write a script 2. edit"}, nil},
		{"the last line may be cut", []string{"1. Script\n2. Ed"}, nil},
		{"a title too long", []string{"1. " + long + "\n2. b\n"}, nil},
		{"too many steps", []string{"1. a\n2. b\n3. c\n4. d\n5. e\n6. f\n7. g\n8. h\n"}, nil},
		{"too many in JSON", []string{`{"sub_tasks":["a","b","c","d","e","f","g","h","i","j"]}`}, nil},
		{"prose", []string{"I would split this task into a few steps.", "Sorry, I cannot."}, nil},
		{"a list that does not start at 1", []string{"3. c\n4. d\n"}, nil},
		{"JSON with no complete step beats a list after it", []string{`{"sub_tasks": [{"title": "a", "detail": "1. x` + "\n2. y\n"}, nil},
		{"an object that is not a step ends the reading", []string{`{"sub_tasks":[{"title":"a"},7,{"title":"b"},{"title":"c"}]}`}, nil},
		// A list in a reply about something else is no plan: a refusal's
		// reasons, questions for the person, warnings.
		{"a refusal's reasons", []string{koRefusal, koRefusal}, nil},
		{"questions for the person", []string{enQuestions, enQuestions}, nil},
		{"items that are questions, no lead-in", []string{"1. 마감은 언제인가요?\n2. 대상은 누구인가요？\n"}, nil},
		{"one question among steps", []string{"1. Write the script\n2. Deadline: when is it?\n3. Edit the video\n"}, nil},
		{"a question as a JSON title", []string{`{"sub_tasks":[{"title":"What is the deadline?"},{"title":"Who is the audience?"},{"ti`}, nil},
		{"ids as titles", []string{`{"sub_tasks": ["s1", "s2", "s3"`}, nil},
		{"numbers as titles", []string{"1. 1\n2. 2\n3. 3\n"}, nil},
		{"reasons, in English", []string{"This cannot be planned, for these reasons:\n1. It needs your account\n2. It copies a paid course\n"}, nil},
		{"a lead-in that asks", []string{"Which of these do you mean?\n- A video for the cafe\n- A video for the menu\n"}, nil},
		{"a long lead-in", []string{strings.Repeat("카페 영상을 만들려면 준비할 것이 많습니다. ", 6) + "\n1. 대본 작성\n2. 영상 편집\n"}, nil},
		{"three lines before the list", []string{"계획:\n순서대로:\n아래처럼:\n1. 대본 작성\n2. 영상 편집\n"}, nil},
		{"a paragraph after the list", []string{"1. Write the script\n2. Edit the video\n\nA video needs its script first.\nEditing takes the longest, so start early.\nPosting is quick.\n"}, nil},
		{"a closing line that refuses", []string{"1. 개인정보가 들어 있음\n2. 저작권 자료를 복제함\n위 이유로 도와드릴 수 없습니다.\n"}, nil},
		{"a second list of reasons", []string{"1. a\n2. b\nReasons I can't:\n1. x\n2. y\n"}, nil},
		{"warnings", []string{"주의할 점:\n- 개인정보를 올리지 마세요\n- 저작권을 확인하세요\n"}, nil},
		{"nothing", nil, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := planFromBroken(tt.replies)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Fatalf("planFromBroken(%q) (-want +got):\n%s", tt.replies, diff)
			}
		})
	}
}

// A plan list followed by the closing a small model adds (an offer to
// change it, a question whether to proceed, an invitation for thoughts on
// it, a sign-off or a wish: at most two short sentences, blank line
// before or not) is read, in English and Korean; a closing with any other
// sentence (a refusal or its reasons, a request for the items however
// conditioned, a choice among options, a sentence not recognised) or a
// paragraph is not, and the task as one step stands. The replies are as
// small models write them.
func TestPlanClosings(t *testing.T) {
	party := []planStep{{Title: "Set a budget", Detail: "Decide how much to spend."}, {Title: "Book a venue", Detail: "Reserve a place for 20 people."}, {Title: "Send invitations"}}
	shorts := []planStep{{Title: "대본 작성"}, {Title: "영상 촬영"}, {Title: "편집 및 업로드"}}
	partyEN := "Here's a plan for your birthday party:\n\n1. **Set a budget**: Decide how much to spend.\n2. **Book a venue**: Reserve a place for 20 people.\n3. **Send invitations**\n\n"
	shortsKO := "1단계: 대본 작성\n2단계: 영상 촬영\n3단계: 편집 및 업로드\n\n"
	for _, tt := range []struct {
		name, reply string
		want        []planStep // nil: nothing usable
	}{
		{"an offer", partyEN + "Let me know if you want changes.", party},
		{"asking to proceed", partyEN + "Shall I proceed?\n", party},
		{"a question and an offer", partyEN + "Does this look good? Please let me know if you'd like me to adjust anything!", party},
		{"a sign-off and leave to ask", partyEN + "I hope this helps! Feel free to ask any questions. 🎉", party},
		{"no blank line, cut mid-word", partyEN[:len(partyEN)-2] + "\nLet me know if you'd like any chan", party},
		{"수정 제안", shortsKO + "수정할 부분이 있으면 말씀해 주세요.", shorts},
		{"진행 질문", shortsKO + "진행할까요?", shorts},
		{"질문과 제안", shortsKO + "이대로 진행해도 될까요? 수정이 필요하면 알려 주세요.\n", shorts},
		{"궁금하면 물어보라", shortsKO + "궁금한 점이 있으시면 언제든지 물어보세요! 😊", shorts},
		{"what the person thinks", partyEN + "Let me know what you think!", party},
		{"피드백 제안", shortsKO + "피드백 주시면 반영할게요.", shorts},
		{"인사", "계획입니다:\n- 대본 작성\n- 영상 촬영\n- 편집 및 업로드\n좋은 결과 있기를 바랍니다!", shorts},
		{"thoughts", partyEN + "Let me know your thoughts!", party},
		{"how it looks", partyEN + "Let me know how it looks.", party},
		{"what to change", partyEN + "Tell me what you’d like to change.", party},
		{"a wish", partyEN + "Good luck, and I hope it goes without any problems!", party},
		{"proceed and a wish", partyEN + "Would you like me to get started? Have fun!", party},
		{"계획에 대한 의견", shortsKO + "이 계획에 대한 의견을 알려 주세요.", shorts},
		{"어떻게 생각하는지", shortsKO + "어떻게 생각하시는지 말씀해 주세요!", shorts},
		{"화이팅", shortsKO + "화이팅! 도움이 되길 바랍니다.", shorts},
		{"이대로 괜찮은지", shortsKO + "이대로 괜찮으세요?", shorts},
		{"more closings", partyEN + "I hope this plan helps you have a great party! Would you like me to make any changes?", party},
		{"what do you think", partyEN + "Does this plan work for you? What do you think?", party},
		{"anything else", partyEN + "Let me know if there's anything else I can help with. Have a great time!", party},
		{"더 필요한 것", shortsKO + "더 필요한 것이 있으면 말씀해 주세요. 도움이 되셨으면 좋겠습니다!", shorts},
		{"수정할 내용", shortsKO + "수정이나 추가할 내용이 있나요? 좋은 영상 만드시길 바랍니다!", shorts},
		{"성공을 빕니다", shortsKO + "성공을 빕니다!", shorts},

		{"three sentences", partyEN + "A party needs a budget first. The venue books out fast. Send the invitations early.", nil},
		{"too long", partyEN + "Let me know if you want changes, " + strings.Repeat("or if you would like more about any of the steps, ", 3) + "and I will help.", nil},
		{"asking to choose", "1. Rent a hall downtown\n2. Host it at home\n\nWhich one do you prefer?", nil},
		{"asking for the items", "- Your budget\n- The date\n- How many guests\n\nPlease share these so I can plan.", nil},
		{"asking for the items, plainly", "- Your budget\n- The date\n- How many guests\n\nLet me know these and I'll make the plan.", nil},
		{"asking for the items in a condition", "- Your budget\n- The date\n\nIf you can share these, I'll make a plan.", nil},
		{"항목을 조건으로", "- 예산\n- 날짜\n- 인원\n\n알려 주시면 계획을 세워 드릴게요.", nil},
		{"reasons, said after", "1. It needs your bank login\n2. It copies a paid course\n\nThat is why I can't plan this.", nil},
		{"a refusal in a condition", partyEN + "If you need the venue booked, sorry, I cannot do that.", nil},
		{"options in the lead-in", "Here are some options:\n1. Rent a hall\n2. Host it at home\n", nil},
		{"어느 쪽", "1. 호텔 연회장 대여\n2. 집에서 파티\n\n어느 쪽이 좋으세요?", nil},
		{"둘 중에서, 조건이어도", "1. 호텔 연회장 대여\n2. 집에서 파티\n\n둘 중에서 마음에 드는 것이 있으면 말씀해 주세요.", nil},
		{"항목을 알려 달라", "- 예산\n- 날짜\n- 인원\n\n위 정보를 알려 주세요.", nil},
		{"항목을 말해 달라", "1. 예산\n2. 날짜\n3. 인원\n\n위 내용을 말씀해 주세요.", nil},
		{"이유를 뒤에", "1. 개인정보가 들어 있음\n2. 저작권 자료를 복제함\n\n그래서 진행하기 어렵습니다.", nil},
		{"세 문장", shortsKO + "대본이 먼저입니다. 촬영은 하루면 됩니다. 편집이 가장 오래 걸립니다.", nil},
		{"a refusal, said after", "1. It needs your bank login\n2. It copies a paid course\n\nThat's not something I'll help with.", nil},
		{"거절, 뒤에", "1. It needs your bank login\n2. It copies a paid course\n\n그래서 도와드릴 수가 없네요.", nil},
		{"진행 거절", "1. 개인정보가 들어 있음\n2. 저작권 자료를 복제함\n\n따라서 이 요청은 진행하지 않겠습니다.", nil},
		{"options, preferred", "1. Rent a hall\n2. Host it at home\n\nWhat would you prefer?", nil},
		{"뭐가 더 좋은지", "1. 호텔 연회장 대여\n2. 집에서 파티\n\n뭐가 더 좋으세요?", nil},
		{"골라 달라", "1. 호텔 연회장 대여\n2. 집에서 파티\n\n원하시는 걸로 골라 주세요.", nil},
		{"the items, if you can", "- Your budget\n- The date\n- How many guests\n\nPlease provide these details if you can.", nil},
		{"the items, if possible", "- Your budget\n- The date\n- How many guests\n\nCould you confirm these if possible?", nil},
		{"the items, then the plan", "- Your budget\n- The date\n- How many guests\n\nOnce I have these, I'll draft the plan.", nil},
		{"the items, and an offer", "- Your budget\n- The date\n\nPlease share these. Let me know if you need help!", nil},
		{"가능하면 알려 달라", "1. 예산\n2. 날짜\n3. 참석 인원\n\n가능하면 위 내용을 알려 주세요.", nil},
		{"괜찮으시면 알려 달라", "1. 예산\n2. 날짜\n3. 참석 인원\n\n괜찮으시면 위 정보를 알려 주세요.", nil},
		{"정보를 받으면", "1. 예산\n2. 날짜\n3. 참석 인원\n\n이 정보를 받으면 계획을 세워 드릴게요.", nil},
		{"a wish, then a refusal", partyEN + "I hope this helps, but I can't book the venue.", nil},
		{"items, asked as a wish", "1. 예산\n2. 날짜\n\n위 정보를 알려 주시길 바랍니다.", nil},
		{"items, then anything else", "- Your budget\n- The date\n\nI need these first. Let me know if there's anything else.", nil},
		{"a sentence not known", partyEN + "The venue matters most.", nil},
		{"선택지 소개", "몇 가지 선택지가 있어요:\n- 호텔 연회장\n- 집에서 파티\n", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := planFromBroken([]string{tt.reply, tt.reply})
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Fatalf("planFromBroken(%q) (-want +got):\n%s", tt.reply, diff)
			}
		})
	}
}

// A router whose two replies are cut inside the route goes the way the
// cut word goes, and the trace says it was read from the broken reply
// (in the person's language: trace.reason.broken_reply); cut too soon,
// the lean decides as before.
func TestRouterReadsACutRoute(t *testing.T) {
	for _, tt := range []struct {
		name, cut, text string
		plan            bool
		reason          string
	}{
		// A question the lean would answer directly is planned: the
		// model said complex.
		{"complex read", `{"route": "comp`, "Opening a small cafe in Seoul next spring", true, reasonBrokenReply},
		// A task the lean would plan is answered: the model said simple.
		{"simple read", `{"route": "simp`, "I want to make a short video for my cafe", false, reasonBrokenReply},
		{"too short: the lean answers", `{"route": "co`, "Opening a small cafe in Seoul next spring", false, reasonLeanAnswer},
		{"too short: the lean plans", `{"route": "si`, "I want to make a short video for my cafe", true, reasonLeanTask},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			a := e.agent(Options{})
			cut := ollamatest.Reply{Text: tt.cut}
			e.fake.On(isRouter, cut, cut)
			e.fake.On(isPlanner, ollamatest.Reply{JSON: firstPlan()})
			e.fake.On(isAnswer, ollamatest.Reply{Text: "Here is how."})
			e.fake.On(isMemory, ollamatest.Reply{JSON: memoryOut{}})
			res, out := turn(t, a, chat.Turn{SessionID: "s1", Text: tt.text})
			a.Wait()
			if len(e.requests(isRouter)) != 2 || (res.Plan != nil) != tt.plan {
				t.Fatalf("router calls %d, plan %+v, response %q", len(e.requests(isRouter)), res.Plan, res.Response)
			}
			var reasons []string
			defaults := 0
			for _, tr := range out.traces {
				switch tr.Code {
				case api.TraceRouted:
					reasons = append(reasons, tr.Args["reason"])
				case api.TraceJSONDefault:
					defaults++
				}
			}
			if len(reasons) != 1 || reasons[0] != tt.reason {
				t.Fatalf("routed reasons %q, want %q", reasons, tt.reason)
			}
			// "Using a safe default" is said only when the lean decides.
			if want := map[bool]int{true: 0, false: 1}[tt.reason == reasonBrokenReply]; defaults != want {
				t.Fatalf("%d json_default lines, want %d", defaults, want)
			}
		})
	}
}

// A planner whose two replies are broken offers the steps that came
// through whole, says so in the trace and in the approval's introduction
// (its own key, so the window words it in the person's language), and the
// person approves them as any plan; with nothing usable, the task is the
// one step, as before.
func TestPlannerRecoversBrokenPlan(t *testing.T) {
	cutJSON := `{"sub_tasks":[{"id":"s1","title":"대본 작성","detail":"30초 분량"},{"id":"s2","title":"영상 편집","detail":"세로 영상"},{"id":"s3","title":"썸`
	for _, tt := range []struct {
		name    string
		replies []ollamatest.Reply
		titles  []string
		key     string
	}{
		{"cut JSON", []ollamatest.Reply{{Text: cutJSON}, {Text: cutJSON}}, []string{"대본 작성", "영상 편집"}, keyPlanRecovered},
		{"a Korean list, then a cut array", []ollamatest.Reply{{Text: "1. 대본 작성\n2. 영상 편집\n3. 썸네일 제작\n"}, {Text: `{"sub_tasks":[{"title":"대본`}},
			[]string{"대본 작성", "영상 편집", "썸네일 제작"}, keyPlanRecovered},
		{"a Korean list and a closing question", []ollamatest.Reply{{Text: "1. 대본 작성\n2. 영상 편집\n3. 썸네일 제작\n\n진행할까요?"}, {Text: "1. 대본 작성\n2. 영상 편집\n\n수정할 부분이 있으면 말씀해 주세요."}},
			[]string{"대본 작성", "영상 편집", "썸네일 제작"}, keyPlanRecovered},
		{"nothing usable", []ollamatest.Reply{{Text: "계획을 세워 볼게요"}, {Text: `{"sub_tasks":[{"title":"대본 작성"},{"ti`}}, []string{shortsTask}, keyPlanFallback},
		{"a refusal's reasons", []ollamatest.Reply{{Text: koRefusal}, {Text: koRefusal}}, []string{shortsTask}, keyPlanFallback},
		{"questions for the person", []ollamatest.Reply{{Text: enQuestions}, {Text: enQuestions}}, []string{shortsTask}, keyPlanFallback},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			a := e.agent(Options{})
			e.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: RouteComplex}})
			e.fake.On(isPlanner, tt.replies...)
			res, out := turn(t, a, chat.Turn{SessionID: "s1", Text: shortsTask})
			if len(e.requests(isPlanner)) != 2 || res.Plan == nil {
				t.Fatalf("planner calls %d, result %+v", len(e.requests(isPlanner)), res)
			}
			var titles []string
			for _, st := range res.Plan.SubTasks {
				titles = append(titles, st.Title)
			}
			if diff := cmp.Diff(tt.titles, titles); diff != "" || res.TextKey != tt.key {
				t.Fatalf("titles (-want +got):\n%s\nkey %q", diff, res.TextKey)
			}
			note := map[string]phrases{keyPlanRecovered: msgPlanRecovered, keyPlanFallback: msgPlanFallback}[tt.key]
			if want := note.ko + " " + msgPlanIntro.ko; res.Response != want {
				t.Fatalf("response %q, want %q", res.Response, want)
			}
			var said []api.TraceEvent
			for _, tr := range out.kinds(api.TraceRetry) {
				if tr.Code == api.TracePlanRecovered || tr.Code == api.TraceJSONDefault {
					said = append(said, tr)
				}
			}
			switch {
			case len(said) != 1:
				t.Fatalf("trace %+v", said)
			case tt.key == keyPlanRecovered && (said[0].Code != api.TracePlanRecovered || said[0].Args["count"] != strconv.Itoa(len(tt.titles))):
				t.Fatalf("trace %+v, want plan_recovered with %d", said[0], len(tt.titles))
			case tt.key == keyPlanFallback && said[0].Code != api.TraceJSONDefault:
				t.Fatalf("trace %+v, want json_default", said[0])
			}
		})
	}
	// The recovered plan waits for the person, and runs as approved.
	t.Run("approved", func(t *testing.T) {
		e := newEnv(t)
		a := e.agent(Options{})
		e.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: RouteComplex}})
		e.fake.On(isPlanner, ollamatest.Reply{Text: cutJSON}, ollamatest.Reply{Text: cutJSON})
		e.fake.On(isScout, ollamatest.Reply{Text: "Found it."})
		e.fake.On(isReviewer, ollamatest.Reply{JSON: review{Sufficient: true, Tool: "Vrew", Why: "자막"}})
		e.fake.On(isGuide, ollamatest.Reply{Text: "# Guide"})
		e.fake.On(isMemory, ollamatest.Reply{JSON: memoryOut{}})
		plan, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: shortsTask})
		if plan.Plan == nil || len(e.requests(isScout)) != 0 {
			t.Fatalf("ran before the approval: %+v", plan)
		}
		res, _ := turn(t, a, chat.Turn{SessionID: "s1", Decision: &api.ApprovalDecision{Action: api.ActionApprove, Version: plan.Plan.Version}})
		a.Wait()
		if len(res.Recommendations) != 2 || res.Recommendations[1].SubTaskID != "s2" {
			t.Fatalf("recommendations %+v", res.Recommendations)
		}
	})
}

// A plan backend/llm mended from a reply cut inside a step is refused, so
// the model is asked again; one mended otherwise is whole and stands.
func TestCheckMended(t *testing.T) {
	for _, tt := range []struct {
		name, raw string
		cut       bool
	}{
		{"cut inside the third title", `{"sub_tasks":[{"title":"a"},{"title":"b"},{"title":"썸`, true},
		{"cut inside a detail", `{"sub_tasks":[{"title":"a"},{"title":"b","detail":"세로 영`, true},
		{"the last brace missing", `{"sub_tasks":[{"title":"a"},{"title":"b"}]`, false},
		{"the brackets missing", `{"sub_tasks":[{"title":"a"},{"title":"b"}`, false},
		{"prose before", "Sure! Here is the JSON you asked for:\n" + `{"sub_tasks":[{"title":"a"},{"title":"b"}]}`, false},
		{"single quotes", `{'sub_tasks':[{'title':'a'},{'title':'b'}]}`, false},
		{"a trailing comma", `{"sub_tasks":[{"title":"a"},{"title":"b"},]}`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var p planOut
			mended, err := llmRepairJSON(tt.raw)
			if err != nil {
				t.Fatalf("not mendable: %v", err)
			}
			if err := json.Unmarshal([]byte(mended), &p); err != nil {
				t.Fatalf("mended %q: %v", mended, err)
			}
			if err := p.checkMended(tt.raw); (err != nil) != tt.cut {
				t.Fatalf("checkMended(%q) = %v, want cut %v", tt.raw, err, tt.cut)
			}
		})
	}
}

// A plan cut inside a step that backend/llm could mend is not offered
// with its cut step: the model is asked again, and its whole plan is used.
func TestPlannerAsksAgainForAMendedCut(t *testing.T) {
	e := newEnv(t)
	a := e.agent(Options{})
	e.fake.On(isRouter, ollamatest.Reply{JSON: routeDecision{Route: RouteComplex}})
	e.fake.On(isPlanner, ollamatest.Reply{Text: `{"sub_tasks":[{"id":"s1","title":"대본 작성"},{"id":"s2","title":"영상 편집"},{"id":"s3","title":"썸`}, ollamatest.Reply{JSON: firstPlan()})
	res, _ := turn(t, a, chat.Turn{SessionID: "s1", Text: shortsTask})
	reqs := e.requests(isPlanner)
	if len(reqs) != 2 || !strings.Contains(lastMessage(reqs[1]).Content, "cut short after 2 whole sub-tasks") {
		t.Fatalf("planner calls %d", len(reqs))
	}
	if res.Plan == nil || len(res.Plan.SubTasks) != 3 || res.Plan.SubTasks[2].Title != firstPlan().SubTasks[2].Title || res.TextKey != keyPlanIntro {
		t.Fatalf("plan %+v, key %q", res.Plan, res.TextKey)
	}
}

// llmRepairJSON mends a reply as backend/llm does before decoding it
// (repairJSON there): prose before the value cut, the rest to jsonrepair.
func llmRepairJSON(text string) (string, error) {
	if i := strings.IndexAny(text, "{["); i > 0 {
		text = text[i:]
	}
	return jsonrepair.Repair(text)
}
