package agent

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// closingKinds are the sentences a closing after a plan list may be made
// of, in English and Korean. A closing is read by what it is, not by what
// it is not: the replies whose lists are not plans (a refusal's reasons,
// the things the person is asked for, options to choose from) end in
// sentences phrased in more ways than any list of words keeps up with
// ("That's not something I'll help with.", "What would you prefer?",
// "Once I have these, I'll draft the plan."), and a list read as a plan
// wrongly is offered for approval, where one not read falls back to the
// task as one step. Each kind matches inside a sentence, so a sentence it
// only partly covers is still held to refusalRe and choiceRe.
var closingKinds = []*regexp.Regexp{
	// An offer to change or adjust the plan, or leave to ask: "Let me know
	// if you want changes.", "Tell me what you'd like to change.", "Feel
	// free to ask any questions.", "수정할 부분이 있으면 말씀해 주세요.",
	// "궁금한 점이 있으시면 언제든지 물어보세요!"
	regexp.MustCompile(`(?i)\b(?:let me know|tell me|just say|just ask)\b.*\bif you(?:'d| would)? (?:like|want|need|have (?:any )?(?:questions|changes|feedback|suggestions))\b` +
		`|\bif you(?:'d| would)? (?:like|want|need)\b.*\b(?:chang|adjust|modif|tweak|edit|revis|alter|help)` +
		`|\b(?:i can|i could|i'd be happy to|i would be happy to|happy to|i'm happy to)\b.*\b(?:change|adjust|modify|tweak|refine|revise|update)\b` +
		`|\bfeel free to (?:ask|reach out|let me know|tell me|suggest|change|adjust)\b|\blet me know if (?:there's|there is) anything\b|\bany (?:changes|adjustments|edits)\b` +
		`|\b(?:would you like|do you want|want) me to (?:make (?:any )?changes|change|adjust|modify|tweak|revise|go into more detail|expand|elaborate)\b` +
		`|\b(?:what|anything) you(?:'d| would)? (?:like|want) to (?:change|adjust|modify|add|remove|edit)\b` +
		`|(?:수정|변경|조정|조절|보완|바꾸|바꿔|바꿀)[^.?!]*(?:있으면|있으시면|있나요|있으신가요|필요하면|필요하시면|원하면|원하시면|싶으시면|말씀|알려|반영)` +
		`|궁금한 (?:점|것|사항)|언제든지? (?:말씀|물어|문의|알려)|(?:더|다른) 필요한 (?:것|게|사항|부분)이? 있으(?:시)?면`),
	// A question whether to proceed or start: "Shall I proceed?", "Would
	// you like me to get started?", "진행할까요?", "이대로 진행해도 될까요?"
	regexp.MustCompile(`(?i)\b(?:shall|should|can|may) (?:i|we) (?:proceed|start|begin|go ahead|continue|get started)\b` +
		`|\b(?:would you like|do you want|want) me to (?:proceed|start|begin|go ahead|continue|get started)\b` +
		`|\b(?:ready to|ok to|okay to) (?:start|begin|proceed|go ahead|get started)\b` +
		`|(?:진행|시작)(?:할까요|해도 (?:될|괜찮을)까요|하시겠어요|하시겠습니까|해 ?볼까요|해 ?드릴까요)`),
	// An invitation for feedback or thoughts on the plan: "Let me know your
	// thoughts!", "Does this look good?", "이 계획에 대한 의견을 알려
	// 주세요.", "어떻게 생각하시는지 말씀해 주세요!"
	regexp.MustCompile(`(?i)\b(?:your (?:thoughts|feedback|opinion)|what you think|how (?:it|this|that|the plan) looks|any feedback|feedback is welcome)\b` +
		`|\b(?:does|do) (?:this|that|it|the plan|this plan) (?:look|sound|seem|work)\b|\bhow (?:does|do) (?:this|that|it|the plan|this plan) (?:look|sound)\b|\bwhat do you think\b|\b(?:this|that|it|the plan|this plan) works? for you\b` +
		`|\bis (?:this|that|the plan) (?:ok|okay|alright|all right|good|fine)\b|\bsounds? good\b` +
		`|의견|피드백|어떻게 생각|(?:이 계획|계획|이대로|이렇게)[^.?!]*(?:마음에 드|괜찮|어떠|어때|좋을까요|좋으세요|좋으신가요)`),
	// A sign-off or a wish: "Good luck!", "I hope this helps!", "That is the
	// plan.", "That's it.", "화이팅!", "도움이 되길 바랍니다.", "좋은 결과 있기를 바랍니다!"
	regexp.MustCompile(`(?i)\b(?:good luck|best of luck|all the best|hope (?:this|it|that)(?: plan)? (?:helps|goes|works|is helpful|turns out)|hope you (?:have|enjoy)|enjoy|have fun|have a (?:great|good|wonderful|fun|nice)|happy to help|happy planning|you(?:'ve| have) got this|cheers)\b` +
		`|^(?:(?:that's|that is|this is|here's|here is) (?:the|my|your|our) plan|that's (?:it|all)|that is (?:it|all))$` +
		`|화이팅|파이팅|행운을 빕|응원(?:합니다|할게요|해요)` +
		`|(?:있기를|있길|되기를|되길|(?:만드|하|되|보내|이루|즐기)시(?:길|기를)) ?(?:바랍니다|바라요|바래요|기원합니다|빕니다)` +
		`|도움이 (?:되|됐|되셨)(?:으면|길|기를)|(?:성공|행운|건승)을 (?:빕니다|기원합니다|바랍니다)` +
		`|(?:즐거운|좋은|멋진|행복한|성공적인) [^.?!]*(?:되세요|보내세요)`),
}

// sentenceEndRe ends a sentence: its mark and the space after it.
var sentenceEndRe = regexp.MustCompile(`[.!?。！？]+(?:\s+|$)`)

// closing reports whether the prose lines after a list are no more than
// the closing a model adds to a plan. It is told first by its shape, at
// most maxTailSentences sentences in maxTailRunes, blank lines before it
// or not (a paragraph is prose the list is part of), then by what each
// sentence is: one of closingKinds, and neither a refusal nor a choice
// (refusalRe, choiceRe). Anything else, a request for the items, a
// question among options, a sentence not recognised, means the list is
// not taken as a plan.
func closing(tail []string) bool {
	var sentences []string
	runes := 0
	for _, l := range tail {
		runes += utf8.RuneCountInString(l)
		sentences = append(sentences, sentencesOf(l)...)
	}
	if runes > maxTailRunes || len(sentences) > maxTailSentences {
		return false
	}
	for _, s := range sentences {
		if !closingSentence(s) {
			return false
		}
	}
	return true
}

// closingSentence reports whether s is one of closingKinds and neither
// refuses nor asks to choose.
func closingSentence(s string) bool {
	s = strings.TrimSpace(strings.ReplaceAll(s, "’", "'"))
	if refusalRe.MatchString(s) || choiceRe.MatchString(s) {
		return false
	}
	for _, k := range closingKinds {
		if k.MatchString(s) {
			return true
		}
	}
	return false
}

// sentencesOf is the sentences of one line: its parts between sentence
// ends that have a letter in them ("Good luck! 🎉" is one), the line's
// end ending one too.
func sentencesOf(l string) []string {
	var out []string
	for _, s := range sentenceEndRe.Split(l, -1) {
		if strings.IndexFunc(s, unicode.IsLetter) >= 0 {
			out = append(out, s)
		}
	}
	return out
}
