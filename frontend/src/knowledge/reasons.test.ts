import { afterEach, describe, expect, it } from "vitest";
import { setLang } from "../i18n/i18n.svelte";
import { failureText, warningText } from "./reasons";

describe("failureText", () => {
  afterEach(() => setLang("en"));
  const goError = 'import "/data/uploads/.incoming/up-1/bomb.pdf": this PDF expands to more than 384 MB in memory; it looks damaged or hostile';

  it.each([
    [
      { code: "pdf_limit", limit: "memory", max: "384 MB" },
      "This PDF expands to more than 384 MB in memory; it looks damaged or hostile, so it was not imported.",
      "이 PDF는 메모리에서 384 MB보다 크게 풀립니다. 손상되었거나 악의적으로 만든 파일로 보여 가져오지 않았습니다.",
    ],
    [
      { code: "pdf_limit", limit: "page_time", page: 3, max: "30" },
      "Page 3 of this PDF takes more than 30 seconds to read; it looks damaged or hostile, so it was not imported.",
      "이 PDF의 3쪽은 읽는 데 30초 넘게 걸립니다. 손상되었거나 악의적으로 만든 파일로 보여 가져오지 않았습니다.",
    ],
    [
      { code: "pdf_limit", limit: "page_chars", page: 1, max: "500000" },
      "Page 1 of this PDF has more than 500,000 characters; it looks damaged or hostile, so it was not imported.",
      "이 PDF의 1쪽에는 글자가 500,000자 넘게 있습니다. 손상되었거나 악의적으로 만든 파일로 보여 가져오지 않았습니다.",
    ],
    [
      { code: "pdf_encrypted" },
      "This PDF is protected by a password. Save a copy without the password, then add that.",
      "이 PDF는 암호로 보호되어 있습니다. 암호를 없앤 사본을 저장해 그 파일을 추가하세요.",
    ],
    [
      { code: "legacy_hwp" },
      "This is an HWP 3 file (Hangul 97 or earlier), a format Wayfinder does not read: open it in Hancom Office, save it as .hwpx (or PDF), then add that.",
      "이 파일은 한글 97 이전의 HWP 3 형식이라 Wayfinder가 읽지 못합니다. 한글에서 열어 .hwpx(또는 PDF)로 저장한 뒤 그 파일을 추가하세요.",
    ],
    [
      { code: "office_limit", max: "64" },
      "This document unpacks to more than Wayfinder reads from one file (64 MB of text and markup, or too many parts or levels); it looks damaged or hostile, so it was not imported.",
      "이 문서는 풀었을 때 Wayfinder가 한 파일에서 읽는 양(본문과 서식 64 MB, 또는 부분이나 단계 수)을 넘습니다. 손상되었거나 악의적으로 만든 파일로 보여 가져오지 않았습니다.",
    ],
    [
      { code: "json_invalid", line: 4 },
      "This file is not valid JSON: the first mistake is on line 4. Fix it there, then add the file again.",
      "올바른 JSON 파일이 아닙니다. 처음 잘못된 곳은 4번째 줄입니다. 그곳을 고친 뒤 파일을 다시 추가해 주세요.",
    ],
    [
      { code: "json_unfinished", line: 2 },
      "This file is not valid JSON: the record that begins on line 2 never ends (a closing brace, bracket or quote is missing). Fix it there, then add the file again.",
      "올바른 JSON 파일이 아닙니다. 2번째 줄에서 시작하는 레코드가 끝나지 않습니다(닫는 괄호나 따옴표가 빠졌습니다). 그곳을 고친 뒤 파일을 다시 추가해 주세요.",
    ],
    [
      { code: "not_regular" },
      "This is not a file but a device, pipe or socket, which has no end to read; add the file itself.",
      "파일이 아니라 장치, 파이프 또는 소켓이라 끝까지 읽을 수 없습니다. 파일 자체를 추가하세요.",
    ],
    [
      { code: "changed" },
      "This file changed while Wayfinder read it (it was being saved or written to), so it was not imported; add it again once it is saved.",
      "이 파일은 Wayfinder가 읽는 동안 바뀌었습니다(저장 중이었거나 다른 프로그램이 쓰고 있었습니다). 가져오지 않았으니 저장이 끝난 뒤 다시 추가하세요.",
    ],
    [
      { code: "not_found" },
      "This file cannot be found: it was moved or deleted, or a link leads nowhere.",
      "이 파일을 찾을 수 없습니다. 옮겨졌거나 지워졌거나, 링크가 가리키는 곳이 없습니다.",
    ],
    [
      { code: "unreadable" },
      "Wayfinder may not read this file (no permission, or links that loop); check it, then add it again.",
      "Wayfinder가 이 파일을 읽을 수 없습니다(읽기 권한이 없거나 링크가 서로를 가리킵니다). 확인한 뒤 다시 추가하세요.",
    ],
    [
      { code: "too_many_chunks", max: "500000" },
      "This file holds more than 500,000 passages (records or paragraphs), the most Wayfinder keeps from one file; split it, then add the parts.",
      "이 파일에는 Wayfinder가 한 파일에서 담는 최대치인 500,000개보다 많은 구절(레코드나 문단)이 있습니다. 나눈 뒤 나눈 파일들을 추가하세요.",
    ],
    [
      { code: "replaced", count: 12345, lines: "3" },
      "12,345 unreadable characters were replaced with � (line numbers: 3).",
      "읽을 수 없는 글자 12,345개를 �로 바꿨습니다(3번째 줄).",
    ],
    [
      { code: "json_too_deep", line: 3, max: "10000" },
      "A JSON record starting on line 3 nests more than 10,000 levels deep, more than Wayfinder reads; it looks damaged or hostile, so it was not imported.",
      "3번째 줄에서 시작하는 JSON 레코드가 10,000단계보다 깊게 중첩되어 Wayfinder가 읽지 않습니다. 손상되었거나 악의적으로 만든 파일로 보여 가져오지 않았습니다.",
    ],
    [
      { code: "path_too_long" },
      "This file's path is longer than the system lets a program open; move it to a folder with a shorter path, then add it again.",
      "이 파일의 경로가 시스템이 열 수 있는 길이보다 깁니다. 더 짧은 경로의 폴더로 옮긴 뒤 다시 추가하세요.",
    ],
    [
      { code: "too_large", max: "512" },
      "This file is larger than 512 MB, the most Wayfinder reads from one file; split it, then add the parts.",
      "이 파일은 512 MB보다 큽니다. Wayfinder가 한 파일에서 읽는 최대 크기입니다. 나눈 뒤 나눈 파일들을 추가하세요.",
    ],
    [
      { code: "json_invalid" },
      "This file is not valid JSON. Fix it, then add the file again.",
      "올바른 JSON 파일이 아닙니다. 고친 뒤 파일을 다시 추가해 주세요.",
    ],
  ])("%o in both languages, one line, no Go error", (reason, en, ko) => {
    setLang("en");
    expect(failureText(goError, reason)).toBe(en);
    setLang("ko");
    expect(failureText(goError, reason)).toBe(ko);
  });

  it("every limit and code the backend names has words in both languages", () => {
    const reasons = [
      ...["memory", "open_time", "page_time", "pages", "page_chars", "text_bytes"].map((limit) => ({ code: "pdf_limit", limit, page: 2, max: "9" })),
      { code: "pdf_encrypted" },
      { code: "pdf_no_text" },
      { code: "pdf_damaged" },
      ...["unsupported", "empty", "binary", "encoding", "json_invalid", "json_record_too_large", "too_slow", "replaced"].map((code) => ({ code, line: 4, max: "32", count: 3, lines: "4, 9" })),
      { code: "replaced", count: 3, lines: "4, 9", more: true },
    ];
    for (const lang of ["en", "ko"] as const) {
      setLang(lang);
      for (const r of reasons) {
        const text = failureText(goError, r);
        expect(text).not.toBe(failureText(goError));
        expect(text).not.toContain("{");
        expect(text).not.toContain("\n");
      }
    }
  });

  it("an unnamed failure keeps its sentence without the Go wrapping", () => {
    expect(failureText('import "/tmp/x/notes.md": not readable as text: it holds binary data')).toBe("not readable as text: it holds binary data");
    expect(failureText("file is 300 MB; the limit is 256 MB", { code: "something_new" })).toBe("file is 300 MB; the limit is 256 MB");
  });

  // The importer's reasons the Korean window used to show in English.
  it.each([
    [{ code: "unsupported" }, "This kind of file is not supported: Wayfinder reads PDF, Word (.docx), PowerPoint (.pptx), Excel (.xlsx), Hancom (.hwp, .hwpx), OpenDocument (.odt, .ods, .odp), RTF, web pages (HTML), EPUB books, Markdown, text, CSV, JSON and JSON Lines files.", "지원하지 않는 종류의 파일입니다. Wayfinder는 PDF, Word(.docx), PowerPoint(.pptx), Excel(.xlsx), 한글(.hwp, .hwpx), OpenDocument(.odt, .ods, .odp), RTF, 웹 페이지(HTML), EPUB 전자책, 마크다운, 텍스트, CSV, JSON, JSON Lines 파일을 읽습니다."],
    [{ code: "empty" }, "This file has no text to read.", "이 파일에는 읽을 텍스트가 없습니다."],
    [{ code: "binary", line: 1 }, "This file holds binary data, not text (from line 1), so it was not imported.", "이 파일은 텍스트가 아니라 바이너리 데이터여서(1번째 줄부터) 가져오지 않았습니다."],
    [{ code: "encoding", line: 12 }, "This file has many characters Wayfinder cannot read (from line 12): save it as UTF-8, UTF-16 or EUC-KR text, then add it again.", "이 파일에는 Wayfinder가 읽을 수 없는 글자가 많습니다(12번째 줄부터). UTF-8, UTF-16 또는 EUC-KR 텍스트로 저장한 뒤 다시 추가하세요."],
    [{ code: "json_record_too_large", line: 5, max: "32" }, "A JSON record starting on line 5 is larger than 32 MB; split it, then add the file again.", "5번째 줄에서 시작하는 JSON 레코드가 32 MB보다 큽니다. 나눈 뒤 파일을 다시 추가하세요."],
    [{ code: "too_slow", max: "120" }, "Reading this file took more than 120 seconds, so it was not imported.", "이 파일을 읽는 데 120초 넘게 걸려 가져오지 않았습니다."],
  ])("%o in Korean too", (reason, en, ko) => {
    const goError = 'import "/tmp/up/x.md": something in English';
    setLang("en");
    expect(failureText(goError, reason)).toBe(en);
    setLang("ko");
    expect(failureText(goError, reason)).toBe(ko);
  });
});

describe("warningText", () => {
  afterEach(() => setLang("en"));
  const sentence = "3 invalid characters replaced with \uFFFD (lines 4, 9)";
  it.each([
    [{ code: "replaced", count: 3, lines: "4, 9" }, "Imported with a warning: 3 unreadable characters were replaced with � (line numbers: 4, 9).", "가져왔지만 확인이 필요합니다: 읽을 수 없는 글자 3개를 �로 바꿨습니다(4, 9번째 줄)."],
    [{ code: "replaced", count: 1, lines: "7" }, "Imported with a warning: 1 unreadable character was replaced with � (line number: 7).", "가져왔지만 확인이 필요합니다: 읽을 수 없는 글자 1개를 �로 바꿨습니다(7번째 줄)."],
    [{ code: "replaced", count: 40, lines: "1, 2, 3, 4, 5", more: true }, "Imported with a warning: 40 unreadable characters were replaced with � (line numbers: 1, 2, 3, 4, 5 and later).", "가져왔지만 확인이 필요합니다: 읽을 수 없는 글자 40개를 �로 바꿨습니다(1, 2, 3, 4, 5번째 줄과 그 뒤)."],
  ])("the invalid-bytes warning %o in English and Korean", (reason, en, ko) => {
    setLang("en");
    expect(warningText(sentence, reason)).toBe(en);
    setLang("ko");
    expect(warningText(sentence, reason)).toBe(ko);
    expect(warningText(sentence, reason)).not.toContain("replaced");
  });
  it("keeps a warning it has no words for", () => {
    expect(warningText("something new")).toBe("Imported with a warning: something new");
  });
});
