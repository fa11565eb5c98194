package memory

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/ollama/ollama/api"

	"github.com/wayfinder-app/wayfinder/backend/llm"
)

// Chatter is the one model call the summariser needs; *llm.Client has it.
type Chatter interface {
	Chat(ctx context.Context, req llm.ChatRequest, onChunk func(llm.Chunk)) (llm.Response, error)
}

// ErrEmptySummary is returned when the model answers with nothing; the
// window is then left as it was and summarising is tried after the next turn.
var ErrEmptySummary = errors.New("model returned an empty summary")

// maxSummarizedChars cuts each message in the transcript, so that six long
// answers cannot overflow the model's context.
const maxSummarizedChars = 2000

// Summarizer folds old messages into one short summary with the chat model.
type Summarizer struct {
	Chat  Chatter
	Model string
	// Lang is the language of the summary ("ko" or "en").
	Lang string
}

// Summarize returns a summary of msgs.
func (s *Summarizer) Summarize(ctx context.Context, msgs []Msg) (string, error) {
	resp, err := s.Chat.Chat(ctx, llm.ChatRequest{
		Model:    s.Model,
		Messages: SummaryPrompt(msgs, s.Lang),
		Options:  map[string]any{"temperature": 0},
	}, nil)
	if err != nil {
		return "", fmt.Errorf("summarise %d messages: %w", len(msgs), err)
	}
	text := strings.TrimSpace(resp.Message.Content)
	if text == "" {
		return "", ErrEmptySummary
	}
	return text, nil
}

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
func SummaryPrompt(msgs []Msg, lang string) []api.Message {
	instr, user, assistant, head := summaryInstructionEn, "User", "Assistant", "Conversation to summarise:"
	if isKorean(lang) {
		instr, user, assistant, head = summaryInstructionKo, "사용자", "AI", "요약할 대화:"
	}
	var b strings.Builder
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
