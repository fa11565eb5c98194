package app

import (
	"regexp"
	"strconv"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// reasonText words why a file was not imported, or what was imported but
// not as it was (api.FileReason's codes), for `wayfinder kb import`: the
// window's own sentences ("knowledge.reason.*" in frontend/src/i18n, a
// test holds them equal), so the terminal and the Knowledge view say the
// same thing in the same language.
var reasonText = map[string][2]string{
	"knowledge.reason.pdf_limit.memory":       {"This PDF expands to more than {max} in memory; it looks damaged or hostile, so it was not imported.", "이 PDF는 메모리에서 {max}보다 크게 풀립니다. 손상되었거나 악의적으로 만든 파일로 보여 가져오지 않았습니다."},
	"knowledge.reason.pdf_limit.open_time":    {"This PDF takes more than {max} seconds to open; it looks damaged or hostile, so it was not imported.", "이 PDF는 여는 데 {max}초 넘게 걸립니다. 손상되었거나 악의적으로 만든 파일로 보여 가져오지 않았습니다."},
	"knowledge.reason.pdf_limit.page_time":    {"Page {page} of this PDF takes more than {max} seconds to read; it looks damaged or hostile, so it was not imported.", "이 PDF의 {page}쪽은 읽는 데 {max}초 넘게 걸립니다. 손상되었거나 악의적으로 만든 파일로 보여 가져오지 않았습니다."},
	"knowledge.reason.pdf_limit.pages":        {"This PDF has more than {max} pages; it looks damaged or hostile, so it was not imported.", "이 PDF는 {max}쪽이 넘습니다. 손상되었거나 악의적으로 만든 파일로 보여 가져오지 않았습니다."},
	"knowledge.reason.pdf_limit.page_chars":   {"Page {page} of this PDF has more than {max} characters; it looks damaged or hostile, so it was not imported.", "이 PDF의 {page}쪽에는 글자가 {max}자 넘게 있습니다. 손상되었거나 악의적으로 만든 파일로 보여 가져오지 않았습니다."},
	"knowledge.reason.pdf_limit.text_bytes":   {"This PDF holds more than {max} of text; it looks damaged or hostile, so it was not imported.", "이 PDF에는 텍스트가 {max} 넘게 들어 있습니다. 손상되었거나 악의적으로 만든 파일로 보여 가져오지 않았습니다."},
	"knowledge.reason.pdf_encrypted":          {"This PDF is protected by a password. Save a copy without the password, then add that.", "이 PDF는 암호로 보호되어 있습니다. 암호를 없앤 사본을 저장해 그 파일을 추가하세요."},
	"knowledge.reason.pdf_no_text":            {"This PDF has no text to read: scanned pages need OCR first.", "이 PDF에는 읽을 수 있는 텍스트가 없습니다. 스캔한 문서는 먼저 OCR을 거쳐야 합니다."},
	"knowledge.reason.pdf_damaged":            {"This PDF is damaged or not really a PDF, so it could not be read.", "이 PDF는 손상되었거나 실제 PDF 파일이 아니어서 읽을 수 없습니다."},
	"knowledge.reason.not_regular":            {"This is not a file but a device, pipe or socket, which has no end to read; add the file itself.", "파일이 아니라 장치, 파이프 또는 소켓이라 끝까지 읽을 수 없습니다. 파일 자체를 추가하세요."},
	"knowledge.reason.too_large":              {"This file is larger than {max} MB, the most Wayfinder reads from one file; split it, then add the parts.", "이 파일은 {max} MB보다 큽니다. Wayfinder가 한 파일에서 읽는 최대 크기입니다. 나눈 뒤 나눈 파일들을 추가하세요."},
	"knowledge.reason.unsupported":            {"This kind of file is not supported: Wayfinder reads PDF, Markdown, text, JSON and JSON Lines files.", "지원하지 않는 종류의 파일입니다. Wayfinder는 PDF, Markdown, 텍스트, JSON, JSON Lines 파일을 읽습니다."},
	"knowledge.reason.empty":                  {"This file has no text to read.", "이 파일에는 읽을 텍스트가 없습니다."},
	"knowledge.reason.binary":                 {"This file holds binary data, not text (from line {line}), so it was not imported.", "이 파일은 텍스트가 아니라 바이너리 데이터여서({line}번째 줄부터) 가져오지 않았습니다."},
	"knowledge.reason.encoding":               {"This file has many characters Wayfinder cannot read (from line {line}): save it as UTF-8, UTF-16 or EUC-KR text, then add it again.", "이 파일에는 Wayfinder가 읽을 수 없는 글자가 많습니다({line}번째 줄부터). UTF-8, UTF-16 또는 EUC-KR 텍스트로 저장한 뒤 다시 추가하세요."},
	"knowledge.reason.json_record_too_large":  {"A JSON record starting on line {line} is larger than {max} MB; split it, then add the file again.", "{line}번째 줄에서 시작하는 JSON 레코드가 {max} MB보다 큽니다. 나눈 뒤 파일을 다시 추가하세요."},
	"knowledge.reason.too_slow":               {"Reading this file took more than {max} seconds, so it was not imported.", "이 파일을 읽는 데 {max}초 넘게 걸려 가져오지 않았습니다."},
	"knowledge.reason.replaced":               {"{count} unreadable characters were replaced with � (line numbers: {lines}).", "읽을 수 없는 글자 {count}개를 �로 바꿨습니다({lines}번째 줄)."},
	"knowledge.reason.replaced.one":           {"1 unreadable character was replaced with � (line number: {lines}).", "읽을 수 없는 글자 1개를 �로 바꿨습니다({lines}번째 줄)."},
	"knowledge.reason.replaced.more":          {"{count} unreadable characters were replaced with � (line numbers: {lines} and later).", "읽을 수 없는 글자 {count}개를 �로 바꿨습니다({lines}번째 줄과 그 뒤)."},
	"knowledge.reason.json_invalid":           {"This file is not valid JSON: the first mistake is on line {line}. Fix it there, then add the file again.", "올바른 JSON 파일이 아니에요. 처음 잘못된 곳은 {line}번째 줄이에요. 그곳을 고친 뒤 파일을 다시 추가해 주세요."},
	"knowledge.reason.json_invalid_somewhere": {"This file is not valid JSON. Fix it, then add the file again.", "올바른 JSON 파일이 아니에요. 고친 뒤 파일을 다시 추가해 주세요."},
	"knowledge.reason.json_unfinished":        {"This file is not valid JSON: the record that begins on line {line} never ends (a closing brace, bracket or quote is missing). Fix it there, then add the file again.", "올바른 JSON 파일이 아니에요. {line}번째 줄에서 시작하는 레코드가 끝나지 않아요(닫는 괄호나 따옴표가 빠졌어요). 그곳을 고친 뒤 파일을 다시 추가해 주세요."},
}

// errorText words an error's particulars (api.ErrorInfo's Args) for the
// codes an import meets beside its files — the embedding model away or
// missing —: the window's "error.<code>.detail" and its ".hint" or
// ".advice" (a test holds them equal). Other codes keep the backend's
// English words.
var errorText = map[string][2]string{
	"error.ollama_unreachable.detail": {"Wayfinder cannot reach Ollama at {host}.", "Wayfinder가 {host}의 Ollama에 연결할 수 없습니다."},
	"error.ollama_unreachable.advice": {"Start Ollama (run `ollama serve`, or open the Ollama app); if it is not installed, get it from https://ollama.com/download. If Ollama runs elsewhere, change the Ollama host in Settings.", "Ollama를 실행하세요(`ollama serve`를 실행하거나 Ollama 앱을 여세요). 설치되어 있지 않다면 https://ollama.com/download 에서 받으세요. Ollama가 다른 컴퓨터에서 실행 중이면 설정에서 Ollama 호스트를 바꾸세요."},
	"error.model_missing.detail":      {"{model} is not in Ollama on this computer.", "이 컴퓨터의 Ollama에 {model} 모델이 없습니다."},
	"error.model_missing.hint":        {"Download it under Settings › Download a model, or run `ollama pull {model}` in a terminal.", "설정 › 모델 내려받기에서 받거나, 터미널에서 `ollama pull {model}` 명령을 실행하세요."},
}

// importWrap is the "import "<path>": " the Go side wraps a file's error
// in; the line already names the file.
var importWrap = regexp.MustCompile(`^import ".*?": `)

// reasonLine is why a file was not imported in language lang, as the
// window's failureText says it (frontend/src/knowledge/reasons.ts): the
// reason's sentence when there is one and its particulars fill it, else
// the backend's own sentence without its "import "<path>": ".
func reasonLine(errText string, r *api.FileReason, lang int) string {
	if r != nil && r.Code != "" {
		key := "knowledge.reason." + r.Code
		if r.Code == "pdf_limit" {
			key = "knowledge.reason.pdf_limit." + r.Limit
		}
		if r.Code == "json_invalid" && r.Line == 0 {
			key = "knowledge.reason.json_invalid_somewhere"
		}
		if _, ok := reasonText[key+".more"]; r.More && ok {
			key += ".more"
		}
		if _, ok := reasonText[key+".one"]; r.Count == 1 && ok {
			key += ".one"
		}
		if words, ok := reasonText[key]; ok {
			text, all := filled(words[lang], map[string]string{
				"page": strconv.Itoa(r.Page), "max": r.Max, "line": strconv.FormatInt(r.Line, 10),
				"count": strconv.FormatInt(r.Count, 10), "lines": r.Lines,
			})
			if all {
				return text
			}
		}
	}
	return importWrap.ReplaceAllString(errText, "")
}

// errorWords is an error's sentence and what to do about it in language
// lang: errorText's when it has the code and Args fill it, else the
// backend's English Message and Hint.
func errorWords(info api.ErrorInfo, lang int) (message, hint string) {
	message, hint = info.Message, info.Hint
	args := make(map[string]string, len(info.Args))
	for k, v := range info.Args {
		if v != "" { // an empty particular is a missing one
			args[k] = v
		}
	}
	key := "error." + string(info.Code)
	if words, ok := errorText[key+".detail"]; ok {
		if text, all := filled(words[lang], args); all {
			message = text
		}
	}
	for _, k := range []string{".hint", ".advice"} {
		if words, ok := errorText[key+k]; ok {
			if text, all := filled(words[lang], args); all {
				hint = text
			}
			break
		}
	}
	return message, hint
}
