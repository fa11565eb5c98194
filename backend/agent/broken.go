package agent

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// What can still be read from a structured reply the model broke twice
// (its first reply and the repair: structuredOr). A small model's reply is
// most often cut short (its stream dropped, or the token limit reached),
// so its beginning is whole: the router's route written before the cut,
// the planner's steps written before it. Only what is whole and plainly
// meant is read; the text is the model's, untrusted: it is matched and
// copied, never followed, and whatever is read still goes where the
// model's own answer would (a plan still waits for the person's approval).

// minRoutePrefix is how many letters of a cut route value say which route
// it is. One or two letters ("c", "si") are a word barely begun: a small
// model that does not keep to the schema's enum may have been writing
// "chat", "code" or "single"; three ("com", "sim") no longer fit any other
// answer a router gives, and are the least a cut reply keeps of the word.
const minRoutePrefix = 3

// routeValueRe finds the route's value in a reply: the key in either
// quote, then the letters of the value and its closing quote, when it has
// one.
var routeValueRe = regexp.MustCompile(`["']route["']\s*:\s*["']([A-Za-z]*)(["']?)`)

// routeFromBroken reads the route from the router's unusable replies: a
// value written whole ("complex"), or cut at the end of the reply after at
// least minRoutePrefix letters of exactly one route's name ("comp").
// Replies that name different routes, a value that names none ("chat"),
// or too short a cut ("co") read nothing, and the rules' lean decides
// (leanRoute).
func routeFromBroken(replies []string) (string, bool) {
	found := ""
	for _, raw := range replies {
		route, ok := brokenRoute(raw)
		switch {
		case !ok:
			continue
		case found != "" && route != found:
			return "", false // the two replies disagree: neither is plainly meant
		}
		found = route
	}
	return found, found != ""
}

// brokenRoute is the route one reply names, whole or cut.
func brokenRoute(raw string) (string, bool) {
	raw = strings.TrimRightFunc(raw, unicode.IsSpace)
	m := routeValueRe.FindStringSubmatchIndex(raw)
	if m == nil {
		return "", false
	}
	value := strings.ToLower(raw[m[2]:m[3]])
	closed := m[4] < m[5]
	routes := []string{RouteSimple, RouteComplex}
	if closed {
		for _, r := range routes {
			if value == r {
				return r, true
			}
		}
		return "", false
	}
	if m[1] != len(raw) || len(value) < minRoutePrefix {
		return "", false // more followed the open value: not a cut, or cut too soon
	}
	match := ""
	for _, r := range routes {
		if strings.HasPrefix(r, value) {
			if match != "" {
				return "", false
			}
			match = r
		}
	}
	return match, match != ""
}

// Bounds on what is read from a broken plan: the reply (a model that
// rambles is not read to its end), the detail kept of a step, and a step
// id (the model's "s1"; anything else is replaced, assignIDs).
const (
	maxBrokenReply   = 16 << 10
	maxDetailRunes   = 500
	maxStepIDLetters = 16
)

var stepIDRe = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// idTitleRe is a title that is a step's id or number and nothing else
// ("s1", "3", "Step 2", "2단계"): a model cut short, or writing ids where
// titles go, says nothing to do in it.
var idTitleRe = regexp.MustCompile(`(?i)^(?:(?:s|step|task)[\s_#-]*)?\d+[.)]?$|^\d+\s*단계$`)

// planFromBroken reads the planner's unusable replies for the steps that
// came through whole: the complete elements of a "sub_tasks" array cut
// mid-way, or the items of a numbered or bulleted list the model wrote
// instead of JSON ("1. 대본 작성: 30초 분량", "- Edit the video"). Of the
// two replies, the one with more such steps is read (the repair on a
// tie). A plan needs minPlanSteps to maxPlanSteps steps, as the model's
// own must have (planOut.Validate): one step is no split of the task —
// the task itself as one step says more — and a longer list is something
// other than a plan. Nothing usable returns nil, and the planner falls
// back to the task as one step.
func planFromBroken(replies []string) []planStep {
	var best []planStep
	for _, raw := range replies {
		if steps := brokenPlan(raw); len(steps) >= len(best) && len(steps) > 0 {
			best = steps
		}
	}
	if len(best) < minPlanSteps || len(best) > maxPlanSteps {
		return nil
	}
	return best
}

// brokenPlan is the complete, sane steps of one reply: its JSON array's
// when it has one, else its list's.
func brokenPlan(raw string) []planStep {
	if len(raw) > maxBrokenReply {
		raw = strings.ToValidUTF8(raw[:maxBrokenReply], "")
	}
	if steps, ok := jsonSteps(raw); ok {
		return steps
	}
	return listSteps(raw)
}

// jsonSteps reads the complete elements of the reply's step array
// (stepElements) as steps: a step object, or a plain string (its title);
// reading stops at the first element that is neither. ok is false when
// the reply has no such array.
func jsonSteps(raw string) ([]planStep, bool) {
	els, ok := stepElements(raw, maxPlanSteps+1)
	var steps []planStep
	for _, el := range els {
		var st planStep
		var title string
		switch {
		case json.Unmarshal(el, &st) == nil:
		case json.Unmarshal(el, &title) == nil:
			st = planStep{Title: title}
		default:
			return steps, ok
		}
		if isQuestion(st.Title) {
			return nil, ok // questions to the person, not steps: no plan
		}
		if st, sane := saneStep(st); sane {
			steps = append(steps, st)
		}
	}
	return steps, ok
}

// stepElements is the first n complete elements of the reply's step
// array: the array after a "sub_tasks" key, or an array that is the whole
// reply (prose or a fence before it). Reading stops at the first element
// cut short. ok is false when the reply has no such array.
func stepElements(raw string, n int) (els []json.RawMessage, ok bool) {
	start := -1
	if k := strings.Index(raw, `"sub_tasks"`); k >= 0 {
		if i := strings.IndexByte(raw[k:], '['); i >= 0 {
			start = k + i
		}
	} else if i := strings.IndexAny(raw, "{["); i >= 0 && raw[i] == '[' {
		start = i
	}
	if start < 0 {
		return nil, false
	}
	dec := json.NewDecoder(strings.NewReader(raw[start:]))
	if _, err := dec.Token(); err != nil { // the array's '['
		return nil, false
	}
	for dec.More() && len(els) < n {
		var el json.RawMessage
		if err := dec.Decode(&el); err != nil {
			break // cut short inside this element
		}
		els = append(els, el)
	}
	return els, true
}

// numberedRe and bulletRe are one item of a list: a number ("1.", "2)", "3단계:",
// "Step 4:", "①") or a bullet ("-", "*", "•", "·") before its text.
var (
	numberedRe = regexp.MustCompile(`^\s*(?:(\d{1,2})\s*[.)]|(\d{1,2})\s*단계\s*[:.)]?|(?i:step)\s*(\d{1,2})\s*[:.)]|([①-⑩]))\s*(.+)$`)
	bulletRe   = regexp.MustCompile(`^(\s*)[-*•·]\s+(.+)$`)
)

// listSteps reads the items of a list: the numbered items, counting up
// from 1 (a second list that starts again is not read), or else the
// bullets of the outermost level. The last line is read only when the
// reply went on after it (a newline, or more text): a line the reply ends
// on may be cut mid-word. A list is read only when it is plainly a plan
// (plainList): a refusal's reasons or a request's questions are lists
// too, and under `ask --approve` whatever is read here could run.
func listSteps(raw string) []planStep {
	all := strings.Split(raw, "\n")
	lines := all
	if !strings.HasSuffix(raw, "\n") {
		lines = lines[:len(lines)-1] // the last line may be cut short
	}
	var numbered, bullets []planStep
	var items []string // the chosen list's items as written, for isQuestion
	var numItems, bulletItems []string
	numFirst, numLast, bulletFirst, bulletLast := -1, -1, -1, -1
	next, indent := 1, -1
	for i, l := range lines {
		l = strings.ReplaceAll(l, "**", "") // "**1단계:** 대본 작성"
		if m := numberedRe.FindStringSubmatch(l); m != nil {
			n := 0
			for _, g := range m[1:4] {
				if g != "" {
					n, _ = strconv.Atoi(g)
				}
			}
			if m[4] != "" {
				n = int([]rune(m[4])[0]-'①') + 1
			}
			if n != next {
				if next > 1 {
					break // another list begins: the plan was the first
				}
				continue
			}
			next++
			if numFirst < 0 {
				numFirst = i
			}
			numLast = i
			numItems = append(numItems, m[5])
			if st, ok := saneStep(itemStep(m[5])); ok {
				numbered = append(numbered, st)
			}
			continue
		}
		if m := bulletRe.FindStringSubmatch(l); m != nil {
			switch depth := len(m[1]); {
			case indent < 0 || depth < indent:
				indent, bullets, bulletItems, bulletFirst = depth, nil, nil, i // an outer level: its items are the steps
				fallthrough
			case depth == indent:
				bulletLast = i
				bulletItems = append(bulletItems, m[2])
				if st, ok := saneStep(itemStep(m[2])); ok {
					bullets = append(bullets, st)
				}
			}
		}
	}
	steps, first, last := bullets, bulletFirst, bulletLast
	items = bulletItems
	if len(numbered) > 0 {
		steps, first, last, items = numbered, numFirst, numLast, numItems
	}
	if len(steps) == 0 || !plainList(all, first, last, items) {
		return nil
	}
	return steps
}

// Bounds on the prose around a list read as a plan: a lead-in of at most
// two short lines ("계획입니다:", "Here is the plan:"), and a closing of
// at most two sentences, short, after it ("Let me know if you want
// changes.", "이대로 진행할까요?"), the offer or sign-off a small model
// ends a plan with. More is a reply about something, with a list in it,
// not a plan.
const (
	maxLeadLines     = 2
	maxLeadRunes     = 120
	maxTailSentences = 2
	maxTailRunes     = 160
)

// The words of a lead-in that say the list after it is not a plan. A
// closing is read by what it is (closingKinds), not by these; refusalRe
// and choiceRe still veto a closing sentence that an allowed kind only
// partly covers ("I hope this helps, but I can't book it.").
var (
	// refusalRe is a refusal ("죄송하지만 … 할 수 없습니다") or its reasons
	// ("이유는 다음과 같습니다", "because"): the list is why not.
	refusalRe = regexp.MustCompile(`(?i)\b(?:sorry|apologi[sz]e|cannot|can ?not|can't|unable|won't|not able|refuse|reasons?|because|why)\b|죄송|미안|수 없|어렵|불가|이유|때문|왜냐`)
	// choiceRe asks the person to choose among the items ("Here are some
	// options:", "어느 쪽이 좋으세요?"): the list is options, not steps done
	// one after another.
	choiceRe = regexp.MustCompile(`(?i)\b(?:which|either|options?|alternatives?|choose|choices?)\b|어느|어떤 (?:것|쪽|걸|게)|중에서|중 하나|고르|선택`)
	// askRe is questions for the person ("I need more information",
	// "알려 주세요") and the warnings or problems a model lists.
	askRe = regexp.MustCompile(`(?i)\b(?:questions?|clarif\w*|more (?:information|info|details?|context)|need to know|could you|can you|let me know|tell me|please (?:provide|answer|share)|concerns?|risks?|warnings?|issues?|problems?)\b|질문|궁금|정보가 (?:더 )?필요|(?:알려|말씀해) ?주|확인이 필요|문제|주의|위험|우려`)
)

// plainList reports whether the list whose items are lines[first..last]
// is plainly a plan: no item is a question, the text before it, if any,
// is a short lead-in that does not introduce reasons, questions, options
// or a refusal, and what follows it is at most a closing (closing). List
// lines before or after it (a nested level, a second list) are not prose.
func plainList(lines []string, first, last int, items []string) bool {
	for _, it := range items {
		if isQuestion(it) {
			return false
		}
	}
	var lead []string
	leadRunes := 0
	for _, l := range lines[:first] {
		if l = proseLine(l); l != "" {
			lead = append(lead, l)
			leadRunes += utf8.RuneCountInString(l)
		}
	}
	if len(lead) > maxLeadLines || leadRunes > maxLeadRunes {
		return false
	}
	for _, l := range lead {
		if !leadIn(l) {
			return false
		}
	}
	var tail []string
	under := true // lines indented right under the last item are its own
	after := lines[last+1:]
	for i, l := range after {
		if under && strings.TrimSpace(l) != "" && l != strings.TrimLeft(l, " \t") {
			continue
		}
		under = false
		if l = proseLine(l); l == "" {
			continue
		}
		if listHeading(l, after[i+1:]) {
			// "Notes:" over a second list, which is not read: a lead-in
			// to it, held to a lead-in's words, not a closing.
			if !leadIn(l) || utf8.RuneCountInString(l) > maxLeadRunes {
				return false
			}
			continue
		}
		tail = append(tail, l)
	}
	return closing(tail)
}

// leadIn reports whether a line before a list may introduce a plan: it
// introduces no refusal or reasons, options, questions or warnings.
func leadIn(l string) bool {
	return !refusalRe.MatchString(l) && !choiceRe.MatchString(l) && !askRe.MatchString(l) && !isQuestion(l)
}

// listHeading reports whether l is a label over the list that follows it
// ("Notes:" then "1. x"): it ends in a colon and the next line that is
// not blank is a list's.
func listHeading(l string, rest []string) bool {
	if !strings.HasSuffix(l, ":") && !strings.HasSuffix(l, "：") {
		return false
	}
	for _, r := range rest {
		if strings.TrimSpace(r) != "" {
			return listLine(r)
		}
	}
	return false
}

// proseLine is l trimmed when it is prose: "" for a blank line, a code
// fence, or a line of a list.
func proseLine(l string) string {
	l = strings.TrimSpace(strings.ReplaceAll(l, "**", ""))
	if strings.HasPrefix(l, "```") || listLine(l) {
		return ""
	}
	return l
}

// listLine reports whether l is an item of a list, numbered or bulleted.
func listLine(l string) bool {
	l = strings.ReplaceAll(l, "**", "")
	return numberedRe.MatchString(l) || bulletRe.MatchString(l)
}

// isQuestion reports whether text asks something ("What is the
// deadline?", "마감은 언제인가요？"): a step is something to do.
func isQuestion(text string) bool {
	text = strings.TrimRightFunc(strings.ReplaceAll(text, "**", ""), unicode.IsSpace)
	return strings.HasSuffix(text, "?") || strings.HasSuffix(text, "？")
}

// itemSepRe parts a list item's title from its detail: "대본 작성: 30초
// 분량", "Edit — vertical", "Script - 30 seconds"; not the colon inside a
// time or an address ("10:30", "https://vrew.ai").
var itemSepRe = regexp.MustCompile(`\s*(?:[:：]\s|\s[-–—]\s)\s*`)

// itemStep is a list item's text as a step: the title, then what follows
// a colon or a dash as its detail, Markdown's emphasis taken off.
func itemStep(text string) planStep {
	text = strings.NewReplacer("**", "", "__", "", "`", "").Replace(text)
	title, detail := text, ""
	if loc := itemSepRe.FindStringIndex(text); loc != nil && loc[0] > 0 {
		title, detail = text[:loc[0]], text[loc[1]:]
	}
	return planStep{Title: title, Detail: detail}
}

// saneStep cleans a step read from a broken reply (control characters
// out, spaces collapsed) and keeps it only when its title is a title:
// not empty, not a step's id or number (idTitleRe), not longer than a
// person's edit may make one (maxTitleRunes). Its detail is cut at maxDetailRunes; an id other than
// a short word is dropped.
func saneStep(st planStep) (planStep, bool) {
	st.Title, st.Detail = cleanText(st.Title), cutRunes(cleanText(st.Detail), maxDetailRunes)
	st.ID = strings.TrimSpace(st.ID)
	if len(st.ID) > maxStepIDLetters || !stepIDRe.MatchString(st.ID) {
		st.ID = ""
	}
	if st.Title == "" || idTitleRe.MatchString(st.Title) || utf8.RuneCountInString(st.Title) > maxTitleRunes {
		return planStep{}, false
	}
	return st, true
}

// cleanText is text with its control and format characters taken out
// and its runs of spaces made one.
func cleanText(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsSpace(r):
			return ' '
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r), r == utf8.RuneError:
			return -1
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}
