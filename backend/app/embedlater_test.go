package app

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/knowledge"
	"github.com/wayfinder-app/wayfinder/backend/llm"
)

// A file whose embedding was left to the background because Ollama hung
// (knowledge.EmbedLaterError) is told apart from Ollama being away and
// from the person's stop, and `kb import` says it once for the whole
// queue, in the command's language, with what to do; Ollama being away
// is still said as before.
func TestKBImportSaysAHungOllamaOnce(t *testing.T) {
	timeout := &llm.Error{Kind: llm.ErrTimeout, Op: "embed", Model: "bge-m3"}
	later := &knowledge.EmbedLaterError{Err: fmt.Errorf("embed 3 documents with bge-m3: %w", timeout)}
	away := &llm.Error{Kind: llm.ErrUnreachable, Op: "embed", Model: "bge-m3", Host: "http://127.0.0.1:1"}
	ev := progressOf("i", knowledge.Progress{Stage: knowledge.StageDone, Chunks: 3, EmbedErr: later})
	if !ev.EmbedLater || ev.EmbedError != nil || ev.EmbedStopped {
		t.Errorf("hung Ollama: %+v, want embed_later alone", ev)
	}
	if ev := progressOf("i", knowledge.Progress{Stage: knowledge.StageDone, Chunks: 3, EmbedErr: context.Canceled}); ev.EmbedLater || !ev.EmbedStopped {
		t.Errorf("stopped: %+v, want embed_stopped", ev)
	}
	if ev := progressOf("i", knowledge.Progress{Stage: knowledge.StageDone, Chunks: 3, EmbedErr: knowledge.ErrEmbedHandedOn}); !ev.EmbedHandedOn || ev.EmbedLater || ev.EmbedStopped || ev.EmbedError != nil {
		t.Errorf("handed on to the next file: %+v, want embed_handed_on alone", ev)
	}

	for _, tc := range []struct {
		lang      string
		want      []string
		away, not string
	}{
		{"en", []string{"Ollama did not answer the embedding in time: the files are found by their words now and are embedded later", "next step: nothing to do now; if it keeps happening, restart Ollama or choose a smaller embedding model in Settings (--embed-model tries one for a run"}, "not embedded: Wayfinder cannot reach Ollama", "임베딩"},
		{"ko", []string{"Ollama가 임베딩에 제때 답하지 않았습니다. 파일은 지금 키워드로 찾을 수 있고", "다음 단계: 지금 할 일은 없습니다. 계속 그러면 Ollama를 다시 시작하거나 설정에서 더 작은 임베딩 모델을 고르세요(--embed-model은 한 번 실행에 시험해"}, "임베딩 안 됨: Wayfinder가 http://127.0.0.1:1의 Ollama에 연결할 수 없습니다", "Ollama did not"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			var notes embedNotes
			var out []string
			for range 5 { // five dropped files, all left to the background
				out = append(out, notes.lines(progressOf("i", knowledge.Progress{Stage: knowledge.StageDone, Chunks: 3, EmbedErr: later}), langIndex(tc.lang))...)
			}
			all := strings.Join(out, "\n")
			if len(out) != len(tc.want) {
				t.Errorf("%d lines for five files, want %d said once:\n%s", len(out), len(tc.want), all)
			}
			for _, w := range tc.want {
				if strings.Count(all, w) != 1 {
					t.Errorf("want %q once in\n%s", w, all)
				}
			}
			if strings.Contains(all, tc.not) {
				t.Errorf("another language in\n%s", all)
			}
			// Ollama away afterwards is a reason of its own, said once.
			awayLines := notes.lines(progressOf("i", knowledge.Progress{Stage: knowledge.StageDone, Chunks: 3, EmbedErr: away}), langIndex(tc.lang))
			awayLines = append(awayLines, notes.lines(progressOf("i", knowledge.Progress{Stage: knowledge.StageDone, Chunks: 3, EmbedErr: away}), langIndex(tc.lang))...)
			if got := strings.Join(awayLines, "\n"); strings.Count(got, tc.away) != 1 {
				t.Errorf("Ollama away: want %q once in\n%s", tc.away, got)
			}
		})
	}
}
