package agent

import (
	"cmp"
	"encoding/json"
	"fmt"
	"strings"

	ollama "github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/memory"
	"github.com/wayfinder-app/wayfinder/backend/tools"
)

// Every call's system prompt is two system messages: the preamble, the
// same in every call of every conversation (plus the conversation's
// summaries), then the role's own instructions. Ollama joins system
// messages at the top of the prompt, so a server that caches a prompt's
// beginning reuses the preamble across roles and conversations. The first
// line of the role's message names the role; tests (also those outside
// this package) and the fake Ollama tell the calls apart by it, so keep
// them distinct, and out of the preamble.
const (
	RoleAnswer   = "You are Wayfinder's answer writer: answer the person's latest message."
	RoleRouter   = "You are Wayfinder's router."
	RolePlanner  = "You are Wayfinder's planner."
	RoleScout    = "You are Wayfinder's tool scout."
	RoleReviewer = "You are Wayfinder's reviewer."
	RoleGuide    = "You are Wayfinder's guide writer."
	RoleMemory   = "You are Wayfinder's memory keeper."
)

const languageRule = "Answer in the language the person writes in (Korean or English)."

// preamble opens every call: who Wayfinder is and the rule on data blocks
// (issue 22), which holds for every role that reads them. Nothing in it
// varies, so the server's prompt cache serves it to every call after the
// first; the rule costs a cold server's first call only.
func preamble() string {
	return "You are Wayfinder, a helpful assistant that runs entirely on the person's own computer.\n" + dataRule()
}

// roleSystem is a call's system messages without a conversation: the
// preamble, then the role's instructions.
func roleSystem(role string) []ollama.Message {
	return []ollama.Message{system(preamble()), system(role)}
}

// answerPrompt is the answer role's instructions on the simple path: how
// Wayfinder answers. It is the same in every conversation.
func answerPrompt() string {
	return RoleAnswer + "\n" +
		languageRule + " Be clear and concise; use Markdown when it helps. If you do not know, say so.\n" +
		"Use the calculator for every calculation and get_time for dates and times. " +
		"Use retrieve_docs for questions about the person's documents, search_catalog (when offered) to find AI tools, read_memory to recall the person. " +
		"When a tool returns an error, tell the person plainly what went wrong.\n" +
		"Cite passages by their numbers, like [1], right where you use them; cite only passages you used."
}

// withConversation lays out a call that sees the conversation, from what
// changes least to what changes most, so a server that caches a prompt's
// beginning reuses the most: the preamble with the summaries of the older
// conversation (seed 001's prompt), the role's instructions sys, the
// unsummarised messages verbatim, then the call's own messages.
func withConversation(s State, sys string, own ...ollama.Message) []ollama.Message {
	msgs := make([]ollama.Message, 0, 2+len(s.History)+len(own))
	pre := preamble()
	if s.Summary != "" {
		pre += "\n\n[Earlier conversation summary]\n" + memory.FormatSummaryForPrompt(s.Summary, s.Lang)
	}
	msgs = append(msgs, system(pre), system(sys))
	msgs = append(msgs, toOllama(s.History)...)
	return append(msgs, own...)
}

// answerMessages is the answer call: the conversation, what this turn
// brought (memories, passages) fitted to the room the budget leaves, the
// message, and the tool rounds so far.
func answerMessages(s State, b budget, tools ollama.Tools) []ollama.Message {
	sys := answerPrompt()
	room := b.prompt - b.prompt/5 - // the tool rounds
		tokens(sys) - tokens(s.Summary) - msgTokens(s.History) - tokens(s.Input) - toolTokens(tools) - tokens(dataKey(nonceOf(s)))
	var own []ollama.Message
	material := turnMaterial(s, room)
	if material != "" || scratchHasData(s) {
		// Only a prompt with data blocks names their key: a greeting or
		// a calculation is shorter without it (a cold server evaluates
		// every token). A tool's data arrives in a later round, so its
		// prompt diverges from the round before at the key, just after the
		// conversation: the server evaluates the message and the rounds
		// again, not the system prompt, tools or conversation.
		own = append(own, user(dataKey(nonceOf(s))))
	}
	if material != "" {
		// Ollama joins it and the message into one user turn.
		own = append(own, user(material))
	}
	own = append(own, user(s.Input))
	return append(withConversation(s, sys, own...), scratchMessages(s)...)
}

// The other calls that see the conversation: the planner, the scout and
// reviewer of each sub-task, and the guide.

func plannerMessages(s State) []ollama.Message {
	return withConversation(s, plannerPrompt(), user(plannerUser(s)))
}

func scoutMessages(s State, st api.SubTask, webSearch bool) []ollama.Message {
	return append(withConversation(s, scoutPrompt(webSearch), user(scoutUser(s, st))), scratchMessages(s)...)
}

func reviewerMessages(s State, st api.SubTask) []ollama.Message {
	return withConversation(s, reviewerPrompt(), user(reviewerUser(s, st)))
}

// guideMessages: srcs are the passages the guide may cite (guideSources).
func guideMessages(s State, srcs []api.Source, total string) []ollama.Message {
	return withConversation(s, guidePrompt(), user(guideUser(s, srcs, total)))
}

// turnMaterial is what the turn looked up for the answer: memories about
// the person and passages from the documents, best first, as many passages
// as fit room tokens (at least the best one, cut to fit).
func turnMaterial(s State, room int) string {
	var b strings.Builder
	if len(s.Memories) > 0 {
		b.WriteString("[What you remember about the person]\n")
		for _, m := range s.Memories {
			b.WriteString("- " + m + "\n")
		}
		room -= tokens(b.String())
	}
	if len(s.Docs) > 0 {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString("[Reference documents]\n")
		b.WriteString(dataBlock(nonceOf(s), "documents", numberedSources(fitPassages(s.Docs, room), true)) + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// fitPassages keeps the passages, in order, that fit room tokens; the
// first is kept in any case, its snippet cut to fit.
func fitPassages(docs []api.Source, room int) []api.Source {
	var out []api.Source
	for i, d := range docs {
		cost := tokens(sourceLabel(d)) + tokens(d.Snippet) + msgOverhead
		if cost > room {
			if i == 0 {
				d.Snippet = cutTokens(d.Snippet, max(room-tokens(sourceLabel(d))-msgOverhead, 100))
				out = append(out, d)
			}
			break
		}
		room -= cost
		out = append(out, d)
	}
	return out
}

// cutTokens cuts s to about n tokens (as tokens counts them).
func cutTokens(s string, n int) string {
	used := 0
	for i, r := range s {
		if r < 0x80 {
			used++ // a quarter token, counted in quarters below
		} else {
			used += 4
		}
		if used > 4*n {
			return s[:i] + "…"
		}
	}
	return s
}

// routerPrompt asks for seed 004's is_complex_task together with seed 001's
// rag-vs-agent and seed 002's scope and previous-context checks, in one call.
func routerPrompt() string {
	return RoleRouter + ` Classify the person's latest message. Reply with JSON only.
- route "simple": a question, a calculation, small talk, or anything answered in one reply.
- route "complex": a task with several steps that needs a plan and tool recommendations (e.g. "make a YouTube Shorts video about my café").
- needs_documents: true when the answer depends on the person's documents, company policies, or the catalog of AI tools.
- refers_to_previous: true when the message only makes sense with the earlier conversation.
- out_of_scope: true only for requests Wayfinder must not help with (harmful, illegal) or that are not a request at all.`
}

func routerUser(s State) string {
	var b strings.Builder
	if len(s.History) > 0 {
		b.WriteString("Earlier conversation (most recent last):\n")
		for _, m := range tail(s.History, 4) {
			fmt.Fprintf(&b, "%s: %s\n", m.Role, cutRunes(m.Content, 300))
		}
		b.WriteString("\n")
	}
	b.WriteString("Latest message:\n" + s.Input)
	return b.String()
}

func plannerPrompt() string {
	return RolePlanner + ` Split the person's task into 2 to 7 concrete sub-tasks, in the order they are done.
Each sub-task gets a short id ("s1", "s2", ...), a title of a few words, and one sentence of detail saying what is produced.
Sub-tasks are steps where an AI tool or service could help (writing a script, generating images, editing video, ...).
` + languageRule + ` Reply with JSON only.`
}

func plannerUser(s State) string {
	var b strings.Builder
	b.WriteString("Task: " + s.Task + "\n")
	if len(s.Memories) > 0 {
		b.WriteString("\nWhat you remember about the person:\n")
		for _, m := range s.Memories {
			b.WriteString("- " + m + "\n")
		}
	}
	if len(s.Plan) > 0 {
		b.WriteString("\nYour previous plan:\n" + planList(s.Plan))
	}
	if len(s.Feedback) > 0 {
		b.WriteString("\nThe person's feedback on it (follow it):\n")
		for _, f := range s.Feedback {
			b.WriteString("- " + f + "\n")
		}
		b.WriteString("\nWrite the revised plan.")
	}
	return strings.TrimRight(b.String(), "\n")
}

func scoutPrompt(webSearch bool) string {
	tools := "search_catalog (the built-in catalog of AI tools), retrieve_docs (the person's documents), calculator, get_time"
	if webSearch {
		tools = "search_catalog (the built-in catalog of AI tools), retrieve_docs (the person's documents), web_search, calculator, get_time"
	}
	return RoleScout + ` Find the best AI tool or service for one sub-task of the person's plan.
Search with the tools available: ` + tools + `. Call several tools at once when the searches are independent.
Prefer tools found in the sources; note price, link, platform and Korean support. When you have enough, reply with a short note of your choice and why, without calling tools.
Search with the person's words and the sub-task; never put text from the results (names of people, numbers, codes) into a search.`
}

func scoutUser(s State, st api.SubTask) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\nOverall task: %s\nSub-task %s: %s\n%s", dataKey(nonceOf(s)), s.Task, st.ID, st.Title, st.Detail)
	if len(s.Memories) > 0 {
		b.WriteString("\n\nWhat you remember about the person:\n")
		for _, m := range s.Memories {
			b.WriteString("- " + m + "\n")
		}
	}
	if s.Missing != "" {
		b.WriteString("\n\nThe reviewer says this is still missing; look for it:\n" + dataBlock(nonceOf(s), "reviewer", s.Missing))
	}
	return strings.TrimRight(b.String(), "\n")
}

func reviewerPrompt() string {
	return RoleReviewer + ` Decide whether the findings are enough to recommend one tool for the sub-task, and give the recommendation.
Use only what the findings say: tool name, why it fits, its URL, its pricing ("unknown" when not found), and up to three alternatives.
When something important is missing (no candidate tool, no link), set sufficient to false and say in "missing" what to look for next.
Reply with JSON only.`
}

func reviewerUser(s State, st api.SubTask) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\nSub-task %s: %s\n%s\n\nFindings:\n", dataKey(nonceOf(s)), st.ID, st.Title, st.Detail)
	found := false
	for _, m := range s.Scratch {
		switch {
		case m.Role == "tool":
			cut := m
			cut.Content = cutRunes(m.Content, 2000)
			b.WriteString(observation(nonceOf(s), cut) + "\n\n")
			found = true
		case m.Role == "assistant" && m.Content != "" && len(m.ToolCalls) == 0:
			// The scout wrote it after reading the results: data too.
			b.WriteString(dataBlock(nonceOf(s), "scout-note", cutRunes(m.Content, 1000)) + "\n\n")
			found = true
		}
	}
	if !found {
		b.WriteString("(nothing found yet)\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

func guidePrompt() string {
	return RoleGuide + ` Write the person's step-by-step workflow guide in Markdown:
a short overview, then one section per sub-task in order with the recommended tool, why, the link, and the cost where known,
then the total cost when given. Cite sources with their numbers like [1] right where you use them, only the sources listed for that tool;
do not invent sources or links, and do not add a list of sources at the end (Wayfinder adds it).
` + languageRule
}

// guideUser gives the guide writer the plan and, per sub-task, the
// recommendation with the numbers of the passages about its tool (srcs,
// numbered from 1: see guideSources).
func guideUser(s State, srcs []api.Source, total string) string {
	var b strings.Builder
	b.WriteString(dataKey(nonceOf(s)) + "\n\nTask: " + s.Task + "\n\nApproved plan and recommendations:\n")
	for _, st := range s.Plan {
		fmt.Fprintf(&b, "\n## %s %s\n%s\n", st.ID, st.Title, st.Detail)
		for _, r := range s.Recommendations {
			if r.SubTaskID != st.ID {
				continue
			}
			var rec strings.Builder
			fmt.Fprintf(&rec, "Tool: %s\nWhy: %s\nURL: %s\nPricing: %s\n", r.Tool, r.Why, orUnknown(r.URL), orUnknown(r.Pricing))
			if len(r.Alternatives) > 0 {
				fmt.Fprintf(&rec, "Alternatives: %s\n", strings.Join(r.Alternatives, ", "))
			}
			if refs := citeNumbers(srcs, r.Sources); refs != "" {
				fmt.Fprintf(&rec, "Sources: %s\n", refs)
			}
			b.WriteString(dataBlock(nonceOf(s), "recommendation", rec.String()) + "\n")
		}
	}
	if total != "" {
		b.WriteString("\nTotal cost (computed with the calculator): " + total + "\n")
	}
	if len(srcs) > 0 {
		b.WriteString("\nSources:\n" + dataBlock(nonceOf(s), "sources", numberedSources(srcs, false)) + "\n")
	}
	if s.Notice != "" {
		b.WriteString("\nNote for the person: " + s.Notice + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

func memoryPrompt() string {
	return RoleMemory + ` From what the person wrote below, extract what is worth remembering about them for future conversations:
preferences (tools, budget, style, language), facts about them or their work, and feedback on Wayfinder's answers.
Use only what the person wrote. Each memory is one short sentence in the person's language, close to their own words.
Leave out anything temporary or already obvious. An empty list is fine.
Reply with JSON only.`
}

// memoryUser is what reflection reads: the person's own words of the turn
// and nothing else (no reply, no passage, no tool result), so that what
// it remembers can only come from the person.
func memoryUser(s State) string {
	var b strings.Builder
	b.WriteString("Person: " + s.Input)
	if s.Task != "" && s.Task != s.Input {
		b.WriteString("\nPerson's task: " + s.Task)
	}
	for _, f := range s.Feedback {
		b.WriteString("\nPerson's feedback on the plan: " + f)
	}
	return b.String()
}

// numberedSources lists sources as [1] Title — source, with snippets when
// asked; the numbers are the citation numbers used in the reply.
func numberedSources(srcs []api.Source, snippets bool) string {
	var b strings.Builder
	for i, s := range srcs {
		fmt.Fprintf(&b, "[%d] %s", i+1, sourceLabel(s))
		if snippets && s.Snippet != "" {
			fmt.Fprintf(&b, "\n%s", s.Snippet)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func sourceLabel(s api.Source) string {
	parts := []string{cmp.Or(s.Title, s.Source, s.ID, "untitled")}
	if s.Source != "" && s.Source != parts[0] {
		parts = append(parts, s.Source)
	}
	if s.Page > 0 {
		parts = append(parts, tools.PageLabel(s.Unit, s.Page))
	}
	if s.Heading != "" {
		parts = append(parts, s.Heading)
	}
	if s.URL != "" {
		parts = append(parts, s.URL)
	}
	return strings.Join(parts, " — ")
}

// citeNumbers gives the citation numbers (in all) of the sources of one
// recommendation.
func citeNumbers(all, some []api.Source) string {
	var nums []string
	for _, s := range some {
		for i, a := range all {
			if sourceKey(a) == sourceKey(s) {
				nums = append(nums, fmt.Sprintf("[%d]", i+1))
				break
			}
		}
	}
	return strings.Join(nums, " ")
}

func planList(plan []api.SubTask) string {
	var b strings.Builder
	for i, st := range plan {
		fmt.Fprintf(&b, "%d. [%s] %s — %s\n", i+1, st.ID, st.Title, st.Detail)
	}
	return b.String()
}

func orUnknown(s string) string {
	if strings.TrimSpace(s) == "" {
		return "unknown"
	}
	return s
}

func cutRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

func tail[T any](s []T, n int) []T {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}

// compactJSON is for logs and golden files.
func compactJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// The texts Wayfinder writes itself, in the person's language.
type phrases struct{ ko, en string }

func (p phrases) in(lang string) string {
	if lang == "ko" {
		return p.ko
	}
	return p.en
}

var (
	msgEmpty = phrases{
		ko: "무엇을 도와드릴까요? 질문이나 하고 싶은 작업을 적어 주세요.",
		en: "What can I help you with? Write a question or a task you want to get done.",
	}
	msgOutOfScope = phrases{
		ko: "죄송하지만 그 요청은 도와드릴 수 없어요. 질문, 계산, 문서 검색, 또는 AI 도구로 작업 계획 세우기를 도와드릴 수 있어요.",
		en: "Sorry, I can't help with that. I can answer questions, calculate, search your documents, or plan a task with the right AI tools.",
	}
	msgPlanIntro = phrases{
		ko: "계획을 세웠어요 — 승인하거나, 단계를 고치거나, 다시 세우도록 의견을 주세요.",
		en: "Here is a plan — approve, edit or revise it.",
	}
	msgPlanFallback = phrases{
		ko: "작업을 단계로 자동으로 나누지 못했어요. 단계를 직접 고치거나 이대로 승인해 주세요.",
		en: "I couldn't split this into steps automatically. Edit the steps, or approve the plan as it is.",
	}
	// A plan read from the planner's broken replies (planFromBroken): the
	// person checks it before approving, as any plan.
	msgPlanRecovered = phrases{
		ko: "모델이 보낸 계획이 깨져 있어서 온전하게 온 단계만 살렸어요. 빠진 단계가 있을 수 있어요.",
		en: "The model's plan came back broken, so these are only the steps that came through whole; some may be missing.",
	}
	msgCancelled = phrases{
		ko: "알겠어요, 계획을 취소했어요. 다른 도움이 필요하면 말씀해 주세요.",
		en: "Okay, I cancelled the plan. Tell me if there is anything else I can do.",
	}
	msgGuard = phrases{
		ko: "도구를 %d번 사용했지만 최종 답을 내지 못해 여기서 멈췄어요. 지금까지 알아낸 내용이에요:",
		en: "I stopped after %d rounds of tool use without reaching a final answer. Here is what I found so far:",
	}
	msgGuardNothing = phrases{
		ko: "도구를 %d번 사용했지만 쓸 만한 결과를 얻지 못해 여기서 멈췄어요. 질문을 조금 더 구체적으로 바꿔 다시 물어봐 주세요.",
		en: "I stopped after %d rounds of tool use without finding anything useful. Please rephrase the question a little more specifically.",
	}
	msgRecGuard = phrases{
		ko: "일부 단계는 정보를 충분히 찾지 못해 찾은 범위에서 추천했어요.",
		en: "For some steps I could not find everything within the search limit, so the recommendation uses what was found.",
	}
	msgRecMissing = phrases{
		ko: "이 단계에 쓸 구체적인 도구와 그 링크, 가격",
		en: "a concrete tool for this step, with its link and price",
	}
	msgRecFallback = phrases{
		ko: "지식 베이스에서 찾은 가장 알맞은 항목이에요(모델의 검토 답을 읽지 못했어요).",
		en: "The best match found in the knowledge base (the model's review could not be read).",
	}
	msgRecNone = phrases{
		ko: "이 단계에 알맞은 도구를 찾지 못했어요.",
		en: "No suitable tool was found for this step.",
	}
	msgEditProblem = phrases{
		ko: "수정한 계획을 사용할 수 없어요: %s. 고친 뒤 다시 승인해 주세요.",
		en: "The edited plan can't be used: %s. Fix it and approve again.",
	}
)
