package memory

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/ollama/ollama/api"
)

// maxSummarizedChars cuts each message in the transcript, so that six long
// answers cannot overflow the model's context.
const maxSummarizedChars = 2000

const summaryInstructionKo = `당신은 대화를 요약하는 도우미입니다. 아래 대화에서 나중에 다시 필요할 내용만 간결하게 요약하세요.
- 사용자의 이름, 선호, 결정, 날짜와 마감일, 숫자와 금액, 진행 중인 작업을 빠짐없이 남기세요.
- 인사말과 잡담은 빼세요.
- 대화에 없는 내용은 만들지 마세요.
- 다섯 문장 이하로, 한국어로 쓰세요. 요약만 출력하세요.`

const summaryInstructionEn = `You summarise conversations. Summarise only what will be needed again later.
- Keep the person's name, preferences, decisions, dates and deadlines, numbers and amounts, and tasks in progress.
- Leave out greetings and small talk.
- Do not add anything that is not in the conversation.
- At most five sentences, in English. Output only the summary.`

// SummaryPrompt is the request sent to summarise msgs: the instructions as
// the system message and the transcript as one user message, so a small
// model cannot mistake the old turns for a conversation to continue.
// carried, when not empty, is the summary that is about to slide out of the
// window (SlidingOut): it opens the transcript, so what it held lives on in
// the new summary instead of being dropped.
func SummaryPrompt(msgs []Msg, carried, lang string) []api.Message {
	instr, user, assistant, head, earlier := summaryInstructionEn, "User", "Assistant", "Conversation to summarise:", "Summary of the conversation before it (keep what still matters):"
	if isKorean(lang) {
		instr, user, assistant, head, earlier = summaryInstructionKo, "사용자", "AI", "요약할 대화:", "그 전 대화의 요약 (아직 필요한 내용은 남기세요):"
	}
	var b strings.Builder
	if carried = strings.TrimSpace(carried); carried != "" {
		b.WriteString(earlier + "\n" + carried + "\n\n")
	}
	b.WriteString(head)
	for _, m := range msgs {
		who := assistant
		if m.Role == "user" {
			who = user
		}
		fmt.Fprintf(&b, "\n%s: %s", who, cutRunes(strings.TrimSpace(m.Content), maxSummarizedChars))
	}
	return []api.Message{
		{Role: "system", Content: instr},
		{Role: "user", Content: b.String()},
	}
}

func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}
