package app

import (
	"errors"
	"io"
	"maps"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/archive"
)

// A refused conversation export is said in the person's language, by its
// case: the window words Args (error.<code>.case.<case> in en.json and
// ko.json), and `wayfinder import` in a Korean locale says the same
// sentence after the title, where it said the backend's English. Every
// case the archive has is here, with its particulars; the raw words of the
// JSON decoder stay only as the reason, in brackets.
func TestARefusedImportIsWordedByItsCase(t *testing.T) {
	const head = `{"format":"wayfinder.conversations","version":2,"conversations":[`
	conv := func(body string) string { return head + body + `]}` }
	const okConv = `{"id":"c1","title":"t","created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z","messages":[]}`
	const notExport, invalid = "This file is not a Wayfinder conversation export, so nothing was imported. ", "This conversation export cannot be imported as it is, so nothing was imported. "
	const koNotExport, koInvalid = "Wayfinder 대화 내보내기 파일이 아니어서 아무것도 가져오지 않았습니다. ", "이 대화 내보내기 파일은 그대로 가져올 수 없어 아무것도 가져오지 않았습니다. "
	for _, tt := range []struct {
		name, in string
		code     api.ErrorCode
		args     map[string]string // without the reason
		reason   bool
		en, ko   string
	}{
		{"empty", "", api.ErrImportNotExport, map[string]string{"case": "empty"}, false,
			notExport + "The file is empty.", koNotExport + "파일이 비어 있습니다."},
		{"not_json", "# My chat\n", api.ErrImportNotExport, map[string]string{"case": "not_json"}, false,
			notExport + "The file is not JSON.", koNotExport + "파일이 JSON 형식이 아닙니다."},
		{"not_object", "[]", api.ErrImportNotExport, map[string]string{"case": "not_object"}, false,
			notExport + "The file is JSON, but not an object ({…}) as an export is.", koNotExport + "JSON 파일이지만 내보내기 파일처럼 객체({…})로 되어 있지 않습니다."},
		{"no_format", `{"version":1,"conversations":[]}`, api.ErrImportNotExport, map[string]string{"case": "no_format"}, false,
			notExport + `The file has no "format": "wayfinder.conversations".`, koNotExport + `파일에 "format": "wayfinder.conversations" 항목이 없습니다.`},
		{"format", `{"format":"chatgpt","version":1,"conversations":[]}`, api.ErrImportNotExport, map[string]string{"case": "format", "format": "chatgpt"}, false,
			notExport + `The file's "format" is chatgpt, not wayfinder.conversations.`, koNotExport + `파일의 "format" 값이 wayfinder.conversations가 아니라 chatgpt입니다.`},
		{"format_not_text", `{"format":1}`, api.ErrImportNotExport, map[string]string{"case": "format_not_text"}, false,
			notExport + `The file's "format" is not text.`, koNotExport + `파일의 "format" 값이 문자열이 아닙니다.`},
		{"no_version", `{"format":"wayfinder.conversations","conversations":[]}`, api.ErrImportNotExport, map[string]string{"case": "no_version"}, false,
			notExport + `The file has no valid "version" (a whole number from 1).`, koNotExport + `파일에 올바른 "version" 값(1 이상의 정수)이 없습니다.`},
		{"version_not_number", `{"format":"wayfinder.conversations","version":"1"}`, api.ErrImportNotExport, map[string]string{"case": "version_not_number"}, false,
			notExport + `The file's "version" is not a whole number.`, koNotExport + `파일의 "version" 값이 정수가 아닙니다.`},
		{"no_conversations", `{"format":"wayfinder.conversations","version":1}`, api.ErrImportNotExport, map[string]string{"case": "no_conversations"}, false,
			notExport + `The file has no "conversations" list.`, koNotExport + `파일에 "conversations" 목록이 없습니다.`},
		{"too_large", conv(`{"id":"c1","title":"` + strings.Repeat("x", 2<<20) + `"}`), api.ErrImportInvalid, map[string]string{"case": "too_large", "n": "1", "mb": "1"}, false,
			invalid + "Conversation 1 in the file is larger than 1 MB.", koInvalid + "파일의 1번째 대화가 1 MB보다 큽니다."},
		{"json_broken", `{"format":"wayfinder.conversations","version":2,"conversations":[}`, api.ErrImportInvalid, map[string]string{"case": "json_broken", "byte": "65", "check": "char", "char": "'}'"}, false,
			invalid + "The JSON is broken at byte 65 of the file: '}' cannot come there.", koInvalid + "파일의 65번째 바이트에서 JSON 형식이 깨져 있습니다. 그 자리에는 '}' 문자가 올 수 없습니다."},
		{"json_broken depth", `{"format":"wayfinder.conversations","version":2,"conversations":[` + strings.Repeat("[", 10001), api.ErrImportInvalid, map[string]string{"case": "json_broken", "byte": "10059", "check": "depth"}, false,
			invalid + "The JSON of the file is nested too deeply (at byte 10059).", koInvalid + "파일의 JSON이 너무 깊게 중첩되어 있습니다(10059번째 바이트)."},
		{"cut_short", head + okConv, api.ErrImportInvalid, map[string]string{"case": "cut_short"}, false,
			invalid + "The file ends too soon: it may have been cut short while it was saved or copied.", koInvalid + "파일이 도중에 끝납니다. 저장하거나 복사하는 중에 잘렸을 수 있습니다."},
		{"newer", `{"format":"wayfinder.conversations","version":9,"conversations":[]}`, api.ErrImportInvalid, map[string]string{"case": "newer", "version": "9", "max": "2"}, false,
			invalid + "It was made by a newer Wayfinder (format version 9; this one reads up to 2): update Wayfinder, then import it again.",
			koInvalid + "더 새로운 Wayfinder로 만든 파일입니다(형식 버전 9, 이 Wayfinder는 2까지 읽습니다). Wayfinder를 업데이트한 뒤 다시 가져오세요."},
		{"not_list", `{"format":"wayfinder.conversations","version":2,"conversations":{}}`, api.ErrImportInvalid, map[string]string{"case": "not_list"}, false,
			invalid + `The file's "conversations" is not a list.`, koInvalid + `파일의 "conversations" 값이 목록이 아닙니다.`},
		{"field_type", conv(`{"id":"c1","messages":"hello"}`), api.ErrImportInvalid, map[string]string{"case": "field_type", "n": "1", "field": "messages", "want": "array", "got": "string"}, false,
			invalid + `In conversation 1, "messages" should be a JSON array, not a string.`, koInvalid + `1번째 대화의 "messages" 값은 JSON 배열 형식이어야 하는데 문자열 형식입니다.`},
		{"conversation_type", conv(okConv + `,7`), api.ErrImportInvalid, map[string]string{"case": "conversation_type", "n": "2", "got": "number"}, false,
			invalid + "Conversation 2 is a JSON number, not an object.", koInvalid + "2번째 대화가 객체가 아니라 JSON 숫자 형식입니다."},
		{"conversation_unreadable", conv(strings.Replace(okConv, "2026-01-01T00:00:00Z", "yesterday", 1)), api.ErrImportInvalid, map[string]string{"case": "conversation_unreadable", "n": "1", "check": "time", "value": `"yesterday"`}, false,
			invalid + `In conversation 1, the time "yesterday" is not in the form Wayfinder writes, such as 2026-01-01T09:30:00Z.`, koInvalid + `1번째 대화의 시각 값이 Wayfinder가 쓰는 형식(예: 2026-01-01T09:30:00Z)이 아닙니다: "yesterday"`},
		{"conversation_unreadable other", conv(`{"id":"c1","created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z","messages":[{"id":"m1","created_at":5}]}`), api.ErrImportInvalid, map[string]string{"case": "conversation_unreadable", "n": "1"}, true,
			invalid + "Conversation 1 cannot be read: a value in it is not in the form Wayfinder writes.", koInvalid + "1번째 대화를 읽을 수 없습니다. Wayfinder가 쓰는 형식과 다른 값이 들어 있습니다."},
		{"conversation_check", conv(strings.Replace(okConv, `"id":"c1"`, `"id":"../etc"`, 1)), api.ErrImportInvalid, map[string]string{"case": "conversation_check", "n": "1", "id": "../etc", "check": "id_letters"}, false,
			invalid + "The id of conversation 1 (../etc) may hold only letters, digits, -, _, . and :.", koInvalid + "1번째 대화의 id(../etc)에는 영문자, 숫자, -, _, ., :만 쓸 수 있습니다."},
		{"conversation_check role", conv(strings.Replace(okConv, `"messages":[]`, `"messages":[{"id":"m1","role":"system","status":"complete","created_at":"2026-01-01T00:00:00Z"}]`, 1)), api.ErrImportInvalid,
			map[string]string{"case": "conversation_check", "n": "1", "id": "c1", "check": "role", "msg": "1", "role": `"system"`}, false,
			invalid + `In conversation 1, message 1 has the role "system": Wayfinder knows only user and assistant.`, koInvalid + `1번째 대화에서 1번째 메시지의 역할(role)이 "system"입니다. Wayfinder는 user와 assistant만 압니다.`},
		{"conversation_check other answer", conv(strings.Replace(okConv, `"messages":[]`, `"messages":[{"id":"m1","role":"assistant","status":"complete","created_at":"2026-01-01T00:00:00Z","variants":[{"id":"m2","role":"assistant","status":"done","created_at":"2026-01-01T00:00:00Z"}]}]`, 1)), api.ErrImportInvalid,
			map[string]string{"case": "conversation_check", "n": "1", "id": "c1", "check": "status", "msg": "1", "variant": "1", "status": `"done"`}, false,
			invalid + `In conversation 1, other answer 1 of message 1 has the status "done", which Wayfinder does not know.`, koInvalid + `1번째 대화에서 1번째 메시지의 1번째 다른 답변의 상태(status)가 "done"입니다. Wayfinder가 모르는 값입니다.`},
		{"settings", conv(strings.Replace(okConv, `"messages"`, `"settings":{"temperature":9},"messages"`, 1)), api.ErrImportInvalid, map[string]string{"case": "settings", "n": "1", "id": "c1", "check": "temperature", "max": "2"}, false,
			invalid + "The temperature of conversation 1 must be between 0 and 2.", koInvalid + "1번째 대화의 온도는 0에서 2 사이여야 합니다."},
		{"settings context", conv(strings.Replace(okConv, `"messages"`, `"settings":{"context_tokens":10},"messages"`, 1)), api.ErrImportInvalid, map[string]string{"case": "settings", "n": "1", "id": "c1", "check": "context", "min": "2048", "max": "262144"}, false,
			invalid + "The context size of conversation 1 must be between 2048 and 262144 tokens.", koInvalid + "1번째 대화의 컨텍스트 크기는 2048에서 262144 토큰 사이여야 합니다."},
		{"settings prompt", conv(strings.Replace(okConv, `"messages"`, `"settings":{"system_prompt":"`+strings.Repeat("가", 4001)+`"},"messages"`, 1)), api.ErrImportInvalid, map[string]string{"case": "settings", "n": "1", "id": "c1", "check": "prompt_too_long", "length": "4001", "max": "4000"}, false,
			invalid + "The system prompt of conversation 1 is 4001 characters long; the limit is 4000.", koInvalid + "1번째 대화의 시스템 프롬프트가 4001자입니다. 4000자까지 쓸 수 있습니다."},
		{"trailing", conv(okConv) + `{"more":1}`, api.ErrImportInvalid, map[string]string{"case": "trailing"}, false,
			invalid + "There is more in the file after the end of the export.", koInvalid + "파일에 내보내기가 끝난 뒤에도 내용이 더 있습니다."},
		{"unreadable", head, api.ErrImportInvalid, map[string]string{"case": "unreadable"}, true,
			invalid + "The file cannot be read as an export.", koInvalid + "파일을 내보내기 파일로 읽을 수 없습니다."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			lim := archive.DefaultLimits
			lim.ConversationBytes = 1 << 20
			var r io.Reader = strings.NewReader(tt.in)
			if tt.name == "unreadable" { // the disk fails halfway
				r = io.MultiReader(r, iotest.ErrReader(errors.New("input/output error")))
			}
			_, err := archive.Read(r, lim, func(archive.Conversation) error { return nil })
			info := describe(importError(err))
			reason := info.Args["reason"]
			args := maps.Clone(info.Args)
			delete(args, "reason")
			if info.Code != tt.code || !maps.Equal(args, tt.args) || (reason != "") != tt.reason {
				t.Fatalf("%v: %s %v; want %s %v (a reason: %v)", err, info.Code, info.Args, tt.code, tt.args, tt.reason)
			}
			if !strings.HasPrefix(info.Message, "This file cannot be imported: ") {
				t.Errorf("the English fallback is gone: %q", info.Message)
			}
			for lang, want := range []string{tt.en, tt.ko} {
				if reason != "" {
					want += " (" + reason + ")"
				}
				if got, _ := errorWords(info, lang); got != want {
					t.Errorf("[%d]\n got %q\nwant %q", lang, got, want)
				}
			}
		})
	}
}
