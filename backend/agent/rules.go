package agent

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// detectLang answers "ko" when the text has Hangul, else "en": the fixed
// messages Wayfinder writes itself (polite ends, guard notices) follow the
// person's language.
func detectLang(s string) string {
	for _, r := range s {
		if unicode.Is(unicode.Hangul, r) {
			return "ko"
		}
	}
	return "en"
}

// preRoute is the rule-based pre-classifier's verdict. ok is false when the
// rules cannot tell and the model must decide.
type preRoute struct {
	ok         bool
	route      string
	trivial    bool
	needsDocs  bool
	refersBack bool
	reason     string
}

var (
	// Whole messages that are only a greeting or thanks, in either language.
	greetingRe = regexp.MustCompile(`(?i)^(hi|hello|hey|yo|hiya|good (morning|afternoon|evening)|안녕|안녕하세요|안녕하십니까|반가워|반가워요|반갑습니다|하이|ㅎㅇ)[\s!.~?,]*(there|wayfinder)?[\s!.~?]*$`)
	thanksRe   = regexp.MustCompile(`(?i)^(thanks?( you)?( so much| a lot)?|thx|ty|cheers|great,? thanks|고마워|고마워요|고맙습니다|감사합니다|감사해요|감사|땡큐|ㄱㅅ)[\s!.~?,]*$`)
	// An arithmetic expression: two numbers joined by an operator.
	arithmeticRe = regexp.MustCompile(`\d[\d,.]*\s*(\*|×|x|X|/|÷|\+|-|\^|%)\s*\(?\d`)
	mathWordsRe  = regexp.MustCompile(`(?i)(sqrt|제곱근|곱하기|나누기|더하기|빼기|\d\s*%\s*(of|의)\s*\d)`)
	// Words of a task, as a verb would ask it: English words whole (not
	// "plan" in "explanation" or "planet", "build" in "building"), Korean
	// forms of a verb (만들어, 계획을 세워, 준비하고 싶어), not the noun
	// inside "사업계획서". leanRoute plans on them, so a noun that matched
	// would send a document's summary to a plan.
	taskVerbRe = regexp.MustCompile(`(?i)` + taskVerbs)
	// Task words in any form, the nouns too ("계획", "제작"): a question
	// with them is left to the model (classify), which costs a call where
	// the rules might have answered a task as a question.
	taskWordsRe = regexp.MustCompile(`(?i)(만들|제작|기획|계획|워크플로|자동화|세워|짜줘|구축|준비하|시작하려|하고 싶)|` + taskVerbs)
	// Verbs that ask for an answer from what exists: summarise, list, find,
	// explain, translate. leanRoute answers a message whose main verb is
	// one, with the documents, though it names a task ("Summarize the launch
	// plan", "출시 계획 문서 정리해줘").
	answerVerbRe = regexp.MustCompile(`(?i)(\b(summari[sz]e|sum up|list|find|look up|search|explain|describe|translate|tell me|show me|(make|give) me a (summary|list)|make a (summary|list))\b|요약|정리|찾아|검색|알려|설명|번역|보여\s?줘)`)
	// Question forms that are answered, not planned.
	questionRe = regexp.MustCompile(`(?i)(\?|？|뭐야|뭐예요|뭔가요|무엇|인가요|나요|까요|어때|언제|어디|얼마|누구|몇|알려줘|알려 줘|설명해|^(what|when|where|who|how|why|which|is|are|does|do|can)\b)`)
	// Words that point back at earlier turns (seed 002's check_previous_context).
	referRe = regexp.MustCompile(`(?i)^(그럼|그러면|그거|그건|그것|이거|이건|아까|방금|앞에서|위에서|그래서|그리고|and |so |what about|how about|then |that |it |its |also |again|more|why)|아까|말한|말했|했지|했더라|했었|얘기한|said|earlier|before|you mentioned|did i|i told you|we talked`)
	// Words that ask what was said in the conversation itself: answered
	// from it, not from the documents.
	recallRe = regexp.MustCompile(`(?i)말한|말했|했지|했더라|했었|얘기한|said|you mentioned|did i|i told you|we talked`)
)

// taskVerbs is taskVerbRe's pattern, which taskWordsRe widens.
const taskVerbs = `(\b(make|create|build|plan|automate|set up|launch|produce|design|workflows?|help me (start|get started))\b|만들어\s?(줘|주|봐|보|야|요|서|라)|만들고\s?싶|만들자|만들려|만들래|(제작|기획|계획|구축|자동화|준비|시작)(해\s?(줘|주|봐|보|야|요|서|라)|하고\s?싶|하려|할래|하자)|세워\s?(줘|주|봐|보|야|요)|세우고\s?싶|짜\s?줘|짜\s?주|짜고\s?싶|준비(를|좀|\s)*도와)`

// classify decides obvious cases without a model call: a greeting costs
// one call (the answer) instead of two.
func classify(text string, hasHistory bool) preRoute {
	t := strings.TrimSpace(text)
	n := utf8.RuneCountInString(t)
	switch {
	case t == "":
		return preRoute{ok: true, route: RouteEnd, trivial: true, reason: "empty message"}
	case greetingRe.MatchString(t):
		return preRoute{ok: true, route: RouteSimple, trivial: true, reason: "greeting"}
	case thanksRe.MatchString(t):
		return preRoute{ok: true, route: RouteSimple, trivial: true, reason: "thanks"}
	case n <= 80 && (arithmeticRe.MatchString(t) || mathWordsRe.MatchString(t)) && !taskWordsRe.MatchString(t):
		return preRoute{ok: true, route: RouteSimple, trivial: true, reason: "arithmetic"}
	case hasHistory && referRe.MatchString(t) && n <= 80:
		return preRoute{ok: true, route: RouteSimple, refersBack: true, needsDocs: asksOnward(t), reason: "follow-up"}
	case hasHistory && n <= 12:
		return preRoute{ok: true, route: RouteSimple, refersBack: true, needsDocs: asksOnward(t), reason: "short follow-up"}
	case n <= 120 && questionRe.MatchString(t) && !taskWordsRe.MatchString(t):
		// A plain question: look in the documents up front, so a document
		// question needs one model call.
		return preRoute{ok: true, route: RouteSimple, needsDocs: true, reason: "question"}
	}
	return preRoute{}
}

// leanRoute is the route when the router's model gave no usable reply
// (its JSON and the repair both broken): what the rules saw, which alone
// could not decide, leans. A message with a task's words ("만들고 싶어",
// "help me build") and no question's form is planned: the person sees the
// plan and approves or edits it before anything runs, where a direct answer
// would skip the plan the task needed. Anything else is answered directly
// with the documents at hand, as a question is: a message whose main verb
// asks to summarise, list, find, explain or translate too ("사업계획서 내용
// 요약해줘"), since a plan has no step that answers it and the answer path
// is the one that searches the documents first.
func leanRoute(text string) preRoute {
	t := strings.TrimSpace(text)
	if taskVerbRe.MatchString(t) && !questionRe.MatchString(t) && !asksAnswer(t) {
		return preRoute{ok: true, route: RouteComplex, reason: reasonLeanTask}
	}
	return preRoute{ok: true, route: RouteSimple, needsDocs: true, reason: reasonLeanAnswer}
}

// asksAnswer says whether the message's main verb asks for an answer
// (answerVerbRe) rather than a task (taskVerbRe): the verb nearest the end
// in Korean, where the verb closes the sentence ("회의록 정리해서 보고서
// 만들어줘" is a task), the first in English, where an imperative opens it
// ("Summarize the launch plan" is not). A tie ("make a list") answers.
func asksAnswer(t string) bool {
	answers := answerVerbRe.FindAllStringIndex(t, -1)
	if len(answers) == 0 {
		return false
	}
	tasks := taskVerbRe.FindAllStringIndex(t, -1)
	if len(tasks) == 0 {
		return true
	}
	if detectLang(t) == "ko" {
		return answers[len(answers)-1][0] >= tasks[len(tasks)-1][0]
	}
	return answers[0][0] <= tasks[0][0]
}

// The router's reasons when its model gave no usable reply: leanRoute's,
// and the route read from the broken replies; worded in the trace
// (trace.reason.* in the frontend's language files).
const (
	reasonLeanTask   = "task words"
	reasonLeanAnswer = "safe default"
	// The route read from the model's broken replies (routeFromBroken).
	reasonBrokenReply = "broken reply"
	// The lean's routes where the model gave a route with no reason for it
	// (unexplainedRoute).
	reasonUnexplainedTask   = "unexplained task"
	reasonUnexplainedAnswer = "unexplained"
)

// modelRoute is the route the router's model gave, what it said of the
// message (refers to earlier turns, needs the documents) kept as it said
// it. A route given without the reason its schema asks for
// (routeDecision.Reason, a required field) is a schema filled rather than
// the message read, as the tiny test model fills it, sending "Plan a
// birthday party for 20 people next Saturday" to a direct answer as often
// as not; such a route yields to the rules where they are sure
// (unexplainedRoute).
func modelRoute(d routeDecision, text string, hasHistory bool) preRoute {
	pre := preRoute{route: d.Route, needsDocs: d.NeedsDocuments, refersBack: d.RefersToPrevious, reason: "model"}
	if strings.TrimSpace(d.Reason) == "" {
		if route, reason, ok := unexplainedRoute(d.Route, text, hasHistory); ok {
			// Only the route: the model's refersBack and needsDocs stand, so
			// a follow-up sent to an answer is still looked up with the
			// message it follows.
			pre.route, pre.reason = route, reason
		}
	}
	return pre
}

// unexplainedRoute is the route, and the reason for it, when the router's
// model chose one with no reason and the rules' lean (leanRoute) disagrees
// with it plainly enough to decide; ok is false where the model's route
// stands. A plan asked of a direct answer costs the person an approval for
// what one reply does ("Create a short bio for my LinkedIn", "자기소개
// 만들어줘"), so an answer is made a plan only when the message asks for
// one outright (strongTask: a plan, steps, a schedule, several tasks in a
// row), never after earlier turns ("Make it shorter" has a task's verb and
// edits the last reply). A plan made an answer is what the lean answers
// anyway, a question ("What is a good way to plan my week?").
func unexplainedRoute(route, text string, hasHistory bool) (string, string, bool) {
	lean := leanRoute(text)
	switch {
	case lean.route == route:
		return "", "", false
	case lean.route == RouteComplex && (hasHistory || !strongTask(text)):
		return "", "", false
	case lean.route == RouteComplex:
		return RouteComplex, reasonUnexplainedTask, true
	}
	return lean.route, reasonUnexplainedAnswer, true
}

var (
	// planAskRe names what a plan is: a plan, steps, a schedule ("Plan a
	// party", "Give me a step-by-step schedule", "계획 세워줘", "일정 짜줘",
	// "단계별로"); not the document "사업계획서", which one reply writes.
	planAskRe = regexp.MustCompile(`(?i)\b(?:plan|planning|schedule|itinerary|roadmap|timeline|steps|step[- ]by[- ]step|workflows?)\b|계획(?:[^서]|$)|일정|단계|로드맵|스케줄|절차|워크플로`)
	// stepVerbRe is an English verb of one task among several; two of them
	// ("Write a script, film it and upload it") are several tasks.
	stepVerbRe = regexp.MustCompile(`(?i)\b(?:write|make|create|build|design|draft|edit|record|film|shoot|upload|post|publish|launch|research|find|book|send|buy|order|prepare|organi[sz]e|set up|automate|produce|deploy|invite|compare|collect)\b`)
	// thenRe puts one task after another: "then", "after that"; a Korean
	// verb joined to the next by -고 ("대본 쓰고 영상 찍고", not "하고 싶어"
	// or "찾고 있어") or "-한 다음", "그 다음".
	thenRe = regexp.MustCompile(`(?i)\b(?:then|after that|afterwards)\b|(?:하|쓰|만들|찍|올리|짜|세우|보내|사|찾)고\s+[^싶있\s]|(?:한|든|쓴|찍은) ?(?:다음|뒤|후)(?:에|\s|,|$)|하고 나서|그 ?다음`)
)

// strongTask says whether a message asks for a plan outright: it names a
// plan, steps or a schedule (planAskRe), or sets out several tasks, two
// verbs of a task or one after another (stepVerbRe, thenRe). A request one
// reply fulfils names one thing to make ("Make a shopping list for tacos",
// "Build a packing list for a weekend trip").
func strongTask(t string) bool {
	if planAskRe.MatchString(t) || thenRe.MatchString(t) {
		return true
	}
	verbs := map[string]bool{}
	for _, v := range stepVerbRe.FindAllString(t, -1) {
		verbs[strings.ToLower(v)] = true
	}
	return len(verbs) >= 2
}

// asksOnward says whether a follow-up asks something new ("그럼 병가는?",
// "what about the second one?") rather than what was said ("내 이름이
// 뭐라고 했지?"). Such a question is looked up in the documents as the
// one it follows was (searchQuery joins the two): answered from the
// conversation alone, it would be answered from the earlier reply's
// words, without the passages that reply was written from.
func asksOnward(t string) bool {
	return questionRe.MatchString(t) && !recallRe.MatchString(t)
}
