// A conversation export that cannot be imported is said in Korean in a
// Korean window, every case of it: the backend's English sentence ("This
// file cannot be imported: the JSON is broken at byte 65…") is only the
// fallback, and the JSON decoder's own words stay as the muted cause.
import { afterEach, describe, expect, it } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import ErrorBanner from "../lib/ErrorBanner.svelte";
import type { ErrorInfo } from "../api/errors";
import { setLang } from "../i18n/i18n.svelte";

afterEach(() => setLang("en"));

type Case = [code: "import_not_export" | "import_invalid", args: Record<string, string>, message: string, korean: string];

// The args and English messages as backend/app/import_words_test.go has them.
const cases: Case[] = [
  ["import_not_export", { case: "empty" }, "This file cannot be imported: it is not a Wayfinder conversation export: the file is empty.", "파일이 비어 있습니다."],
  ["import_not_export", { case: "not_json" }, "This file cannot be imported: it is not a Wayfinder conversation export: not JSON.", "파일이 JSON 형식이 아닙니다."],
  ["import_not_export", { case: "not_object" }, "This file cannot be imported: it is not a Wayfinder conversation export: not a JSON object.", "객체({…})로 되어 있지 않습니다"],
  ["import_not_export", { case: "no_format" }, 'This file cannot be imported: it is not a Wayfinder conversation export: its "format" is "", not "wayfinder.conversations".', '"format": "wayfinder.conversations" 항목이 없습니다.'],
  ["import_not_export", { case: "format", format: "chatgpt" }, 'This file cannot be imported: it is not a Wayfinder conversation export: its "format" is "chatgpt", not "wayfinder.conversations".', "wayfinder.conversations가 아니라 chatgpt입니다."],
  ["import_not_export", { case: "format_not_text" }, 'This file cannot be imported: it is not a Wayfinder conversation export: "format" is not a string.', '"format" 값이 문자열이 아닙니다.'],
  ["import_not_export", { case: "no_version" }, 'This file cannot be imported: it is not a Wayfinder conversation export: it has no valid "version".', '"version" 값(1 이상의 정수)이 없습니다.'],
  ["import_not_export", { case: "version_not_number" }, 'This file cannot be imported: it is not a Wayfinder conversation export: "version" is not a whole number.', '"version" 값이 정수가 아닙니다.'],
  ["import_not_export", { case: "no_conversations" }, 'This file cannot be imported: it is not a Wayfinder conversation export: it has no "conversations".', '"conversations" 목록이 없습니다.'],
  ["import_invalid", { case: "too_large", n: "3", mb: "64" }, "This file cannot be imported: conversation 3 is larger than 64 MB.", "파일의 3번째 대화가 64 MB보다 큽니다."],
  ["import_invalid", { case: "json_broken", byte: "1", reason: "invalid character 'x' looking for beginning of value" }, "This file cannot be imported: the JSON is broken at byte 1: invalid character 'x' looking for beginning of value.", "파일의 1번째 바이트에서 JSON 형식이 깨져 있습니다."],
  ["import_invalid", { case: "cut_short" }, "This file cannot be imported: the file ends too soon (cut short?): unexpected EOF.", "파일이 도중에 끝납니다."],
  ["import_invalid", { case: "newer", version: "9", max: "2" }, "This file cannot be imported: it was made by a newer Wayfinder (format version 9; this one reads up to 2): update Wayfinder.", "형식 버전 9, 이 Wayfinder는 2까지 읽습니다"],
  ["import_invalid", { case: "not_list" }, 'This file cannot be imported: "conversations" is not a list.', '"conversations" 값이 목록이 아닙니다.'],
  ["import_invalid", { case: "field_type", n: "1", field: "messages", want: "array", got: "string" }, 'This file cannot be imported: conversation 1: "messages" should be a JSON array, not a string.', '1번째 대화의 "messages" 값은 JSON 배열 형식이어야 하는데 문자열 형식입니다.'],
  ["import_invalid", { case: "conversation_type", n: "2", got: "number" }, 'This file cannot be imported: conversation 2 is a JSON number, not an object.', "2번째 대화가 객체가 아니라 JSON 숫자 형식입니다."],
  ["import_invalid", { case: "conversation_unreadable", n: "1", reason: 'parsing time "yesterday"' }, 'This file cannot be imported: conversation 1: parsing time "yesterday".', "1번째 대화를 읽을 수 없습니다."],
  ["import_invalid", { case: "conversation_check", n: "1", id: "c1", check: "role", msg: "1", role: '"system"' }, 'This file cannot be imported: conversation 1 (c1): message 1: role "system" is not user or assistant.', '1번째 대화에서 1번째 메시지의 역할(role)이 "system"입니다. Wayfinder는 user와 assistant만 압니다.'],
  ["import_invalid", { case: "settings", n: "1", id: "c1", check: "temperature", max: "2" }, "This file cannot be imported: conversation 1 (c1): its settings: temperature must be between 0 and 2.", "1번째 대화의 온도는 0에서 2 사이여야 합니다."],
  ["import_invalid", { case: "trailing" }, "This file cannot be imported: there is more after the end of the export.", "내보내기가 끝난 뒤에도 내용이 더 있습니다."],
  ["import_invalid", { case: "unreadable", reason: "input/output error" }, "This file cannot be imported: input/output error.", "파일을 내보내기 파일로 읽을 수 없습니다."],
];

/** english: the backend's English words, or any run of three English words, outside the cause. */
const english = /cannot be imported|broken at byte|ends too soon|newer Wayfinder|should be|not a list|more after|larger than|[A-Za-z]+ [a-z]+ [a-z]+/;

function banner(error: ErrorInfo): { said: string; cause: string; detail: string } {
  const target = document.createElement("div");
  document.body.append(target);
  const c = mount(ErrorBanner, { target, props: { error } });
  flushSync();
  const said = [...target.querySelectorAll(".title, .detail:not(.cause), .hint")].map((e) => e.textContent).join(" ");
  const cause = target.querySelector(".cause")?.textContent ?? "";
  const detail = target.querySelector(".detail:not(.cause)")?.textContent ?? "";
  unmount(c);
  target.remove();
  return { said, cause, detail };
}

// Every check of a conversation (archive.CheckError) and of its settings,
// broken JSON's and a time's, with their particulars as backend/archive's
// TestCheckSaysWhatAndWhere has them: each worded in both languages,
// "where" and the JSON kinds too, and no English cause under it.
const checks: [args: Record<string, string>, english: string, korean: string][] = [
  [{ case: "conversation_check", check: "id_length" }, "The id of conversation 1 must be 1 to 64 characters long.", "1번째 대화의 id는 1~64자여야 합니다."],
  [{ case: "conversation_check", check: "id_letters", id: "../etc" }, "The id of conversation 1 (../etc) may hold only letters, digits, -, _, . and :.", "1번째 대화의 id(../etc)에는 영문자, 숫자, -, _, ., :만 쓸 수 있습니다."],
  [{ case: "conversation_check", check: "title_long", length: "1200", limit: "1000" }, "The title of conversation 1 is 1200 characters long; the limit is 1000.", "1번째 대화의 제목이 1200자입니다. 1000자까지 가져올 수 있습니다."],
  [{ case: "conversation_check", check: "no_times" }, "Conversation 1 has no created_at or updated_at.", "1번째 대화에 created_at이나 updated_at 값이 없습니다."],
  [{ case: "conversation_check", check: "too_many", count: "20001", limit: "20000" }, "Conversation 1 has 20001 messages; the limit is 20000.", "1번째 대화의 메시지가 20001개입니다. 20000개까지 가져올 수 있습니다."],
  [{ case: "conversation_check", check: "too_many_answers", count: "20001", limit: "20000" }, "Conversation 1 has 20001 messages with the other answers kept; the limit is 20000.", "1번째 대화의 메시지가 보관된 다른 답변까지 20001개입니다. 20000개까지 가져올 수 있습니다."],
  [{ case: "conversation_check", check: "message_id_length", msg: "3" }, "In conversation 1, the id of message 3 must be 1 to 64 characters long.", "1번째 대화에서 3번째 메시지의 id는 1~64자여야 합니다."],
  [{ case: "conversation_check", check: "message_id_letters", msg: "3", variant: "2" }, "In conversation 1, the id of other answer 2 of message 3 may hold only letters, digits, -, _, . and :.", "1번째 대화에서 3번째 메시지의 2번째 다른 답변의 id에는 영문자, 숫자, -, _, ., :만 쓸 수 있습니다."],
  [{ case: "conversation_check", check: "id_taken", msg: "2", message_id: "m1", other: "c1" }, "In conversation 1, message 2 has the id m1, which a message of conversation c1 has too.", "1번째 대화에서 2번째 메시지의 id(m1)가 대화 c1에 있는 메시지의 id와 같습니다."],
  [{ case: "conversation_check", check: "role", msg: "1", role: '""' }, 'In conversation 1, message 1 has the role "": Wayfinder knows only user and assistant.', '1번째 대화에서 1번째 메시지의 역할(role)이 ""입니다. Wayfinder는 user와 assistant만 압니다.'],
  [{ case: "conversation_check", check: "status", msg: "1", variant: "1", status: '"done"' }, 'In conversation 1, other answer 1 of message 1 has the status "done", which Wayfinder does not know.', '1번째 대화에서 1번째 메시지의 1번째 다른 답변의 상태(status)가 "done"입니다. Wayfinder가 모르는 값입니다.'],
  [{ case: "conversation_check", check: "no_time", msg: "4" }, "In conversation 1, message 4 has no created_at.", "1번째 대화에서 4번째 메시지에 created_at 값이 없습니다."],
  [{ case: "conversation_check", check: "message_long", msg: "1", length: "13", limit: "10" }, "In conversation 1, message 1 is 13 characters long; the limit is 10.", "1번째 대화에서 1번째 메시지의 길이가 13자입니다. 10자까지 가져올 수 있습니다."],
  [{ case: "conversation_check", check: "order", msg: "2" }, "In conversation 1, the messages are not in the order of their ids (at message 2).", "1번째 대화의 메시지가 id 순서대로 있지 않습니다(2번째 메시지)."],
  [{ case: "conversation_check", check: "variants_of_question", msg: "1" }, "In conversation 1, message 1 is not an answer, yet it has other answers (variants).", "1번째 대화에서 1번째 메시지는 답변이 아닌데 다른 답변(variants)이 있습니다."],
  [{ case: "conversation_check", check: "variant_role", msg: "1", variant: "1", role: '"user"' }, 'In conversation 1, other answer 1 of message 1 has the role "user": an other answer is always assistant.', '1번째 대화에서 1번째 메시지의 1번째 다른 답변의 역할(role)이 "user"입니다. 다른 답변의 역할은 assistant여야 합니다.'],
  [{ case: "conversation_check", check: "variant_variants", msg: "1", variant: "1" }, "In conversation 1, other answer 1 of message 1 has other answers of its own, which an other answer cannot have.", "1번째 대화에서 1번째 메시지의 1번째 다른 답변에 또 다른 답변이 있습니다. 다른 답변에는 다른 답변이 있을 수 없습니다."],
  [{ case: "conversation_check", check: "variant_order", msg: "1" }, "In conversation 1, the other answers of message 1 are not oldest first.", "1번째 대화에서 1번째 메시지의 다른 답변이 오래된 순서로 있지 않습니다."],
  [{ case: "json_broken", check: "char", byte: "65", char: "'}'" }, "The JSON is broken at byte 65 of the file: '}' cannot come there.", "파일의 65번째 바이트에서 JSON 형식이 깨져 있습니다. 그 자리에는 '}' 문자가 올 수 없습니다."],
  [{ case: "json_broken", check: "depth", byte: "10059" }, "The JSON of the file is nested too deeply (at byte 10059).", "파일의 JSON이 너무 깊게 중첩되어 있습니다(10059번째 바이트)."],
  [{ case: "conversation_unreadable", check: "time", value: '"yesterday"' }, 'In conversation 1, the time "yesterday" is not in the form Wayfinder writes, such as 2026-01-01T09:30:00Z.', '1번째 대화의 시각 값이 Wayfinder가 쓰는 형식(예: 2026-01-01T09:30:00Z)이 아닙니다: "yesterday"'],
  [{ case: "settings", check: "temperature", max: "2" }, "The temperature of conversation 1 must be between 0 and 2.", "1번째 대화의 온도는 0에서 2 사이여야 합니다."],
  [{ case: "settings", check: "context", min: "2048", max: "262144" }, "The context size of conversation 1 must be between 2048 and 262144 tokens.", "1번째 대화의 컨텍스트 크기는 2048에서 262144 토큰 사이여야 합니다."],
  [{ case: "settings", check: "prompt_too_long", length: "4001", max: "4000" }, "The system prompt of conversation 1 is 4001 characters long; the limit is 4000.", "1번째 대화의 시스템 프롬프트가 4001자입니다. 4000자까지 쓸 수 있습니다."],
];

describe("a refused conversation export in Korean", () => {
  it.each(cases)("%s %o: a Korean banner, the raw words only as the cause", (code, args, message, korean) => {
    setLang("ko");
    const got = banner({ code, message, hint: "Nothing was imported. Export the conversations again.", args });
    expect(got.detail).toContain(korean);
    expect(got.said).not.toMatch(english);
    expect(got.cause).toBe(args.reason ?? "");
  });

  it("every case the backend has is worded in both languages", () => {
    expect(cases).toHaveLength(21);
    setLang("en");
    for (const [code, args, message] of cases) {
      const got = banner({ code, message, hint: "", args });
      expect(got.detail).not.toBe("");
      expect(got.detail).not.toBe(message);
    }
  });

  it.each(checks)("check %o: its own sentence in English and Korean, no English left in Korean", (particulars, en, ko) => {
    const args = { n: "1", id: "c1", ...particulars };
    const message = "This file cannot be imported: conversation 1 (c1): …";
    expect(banner({ code: "import_invalid", message, hint: "", args }).detail).toBe(en);
    setLang("ko");
    const got = banner({ code: "import_invalid", message, hint: "", args });
    expect(got.detail).toBe(ko);
    expect(got.said).not.toMatch(english);
    expect(got.cause).toBe("");
  });

  it("JSON kinds in Korean, an unknown one as it came", () => {
    setLang("ko");
    const said = (want: string, got: string) => banner({ code: "import_invalid", message: "x", hint: "", args: { case: "field_type", n: "1", field: "f", want, got } }).detail;
    expect(said("object", "bool")).toBe('1번째 대화의 "f" 값은 JSON 객체 형식이어야 하는데 참/거짓 형식입니다.');
    expect(said("number", "number 1.5")).toBe('1번째 대화의 "f" 값은 JSON 숫자 형식이어야 하는데 숫자 1.5 형식입니다.');
    expect(said("map", "string")).toBe('1번째 대화의 "f" 값은 JSON map 형식이어야 하는데 문자열 형식입니다.');
  });

  it("a check the window has no words for says its case's sentence", () => {
    setLang("ko");
    const args = { case: "conversation_check", n: "2", id: "c2", check: "newer_check" };
    expect(banner({ code: "import_invalid", message: "x", hint: "", args }).detail).toBe("2번째 대화를 그대로 저장할 수 없습니다.");
  });

  it("a backend that sends no case keeps its English sentence", () => {
    setLang("ko");
    const message = "This file cannot be imported: the JSON is broken at byte 1.";
    expect(banner({ code: "import_invalid", message, hint: "" }).detail).toBe(message);
  });
});
