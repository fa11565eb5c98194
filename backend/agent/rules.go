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

// unexplainedRoute is the route when the router's model chose one without
// the reason its schema asks for (routeDecision.Reason, a required field):
// a model that fills the schema without reading the message, as the tiny
// test model does, sending "Plan a birthday party for 20 people next
// Saturday" to a direct answer as often as not. Where the rules' lean
// agrees, the model's route stands (ok is false); where it disagrees, the
// lean decides, as for a reply that cannot be read, so a task's verb with
// no question's form is planned and a question answered. After earlier
// turns the lean does not plan: "Make it shorter" has a task's verb and
// edits the last reply, which the lean cannot tell from a new task.
func unexplainedRoute(route, text string, hasHistory bool) (preRoute, bool) {
	lean := leanRoute(text)
	if lean.route == route || hasHistory && lean.route == RouteComplex {
		return preRoute{}, false
	}
	lean.reason = map[string]string{RouteComplex: reasonUnexplainedTask, RouteSimple: reasonUnexplainedAnswer}[lean.route]
	return lean, true
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
