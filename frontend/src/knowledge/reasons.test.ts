import { afterEach, describe, expect, it } from "vitest";
import { setLang } from "../i18n/i18n.svelte";
import { failureText } from "./reasons";

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
      "Page 1 of this PDF has more than 500000 characters; it looks damaged or hostile, so it was not imported.",
      "이 PDF의 1쪽에는 글자가 500000자 넘게 있습니다. 손상되었거나 악의적으로 만든 파일로 보여 가져오지 않았습니다.",
    ],
    [
      { code: "pdf_encrypted" },
      "This PDF is protected by a password. Save a copy without the password, then add that.",
      "이 PDF는 암호로 보호되어 있습니다. 암호를 없앤 사본을 저장해 그 파일을 추가하세요.",
    ],
    [
      { code: "json_invalid", line: 4 },
      "This file is not valid JSON: the first mistake is on line 4. Fix it there, then add the file again.",
      "올바른 JSON 파일이 아니에요. 처음 잘못된 곳은 4번째 줄이에요. 그곳을 고친 뒤 파일을 다시 추가해 주세요.",
    ],
    [
      { code: "json_invalid" },
      "This file is not valid JSON. Fix it, then add the file again.",
      "올바른 JSON 파일이 아니에요. 고친 뒤 파일을 다시 추가해 주세요.",
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
      { code: "json_invalid", line: 7 },
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
});
