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
  ["import_invalid", { case: "field_type", n: "1", field: "messages", want: "array", got: "string" }, 'This file cannot be imported: conversation 1: "messages" should be []archive.Message, not JSON string.', '1번째 대화의 "messages" 값은 JSON array 형식이어야 하는데 string 형식입니다.'],
  ["import_invalid", { case: "conversation_type", n: "2", got: "number" }, 'This file cannot be imported: conversation 2: "" should be archive.Conversation, not JSON number.', "2번째 대화가 객체가 아니라 JSON number 형식입니다."],
  ["import_invalid", { case: "conversation_unreadable", n: "1", reason: 'parsing time "yesterday"' }, 'This file cannot be imported: conversation 1: parsing time "yesterday".', "1번째 대화를 읽을 수 없습니다."],
  ["import_invalid", { case: "conversation_check", n: "1", id: "c1", reason: 'message 1: role "system" is not user or assistant' }, 'This file cannot be imported: conversation 1 (c1): message 1: role "system" is not user or assistant.', "1번째 대화를 그대로 저장할 수 없습니다."],
  ["import_invalid", { case: "settings", n: "1", id: "c1", reason: "its settings: temperature must be between 0 and 2" }, "This file cannot be imported: conversation 1 (c1): its settings: temperature must be between 0 and 2.", "1번째 대화의 설정 값(온도, 컨텍스트 크기)이 허용 범위를 벗어났습니다."],
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

  it("a backend that sends no case keeps its English sentence", () => {
    setLang("ko");
    const message = "This file cannot be imported: the JSON is broken at byte 1.";
    expect(banner({ code: "import_invalid", message, hint: "" }).detail).toBe(message);
  });
});
