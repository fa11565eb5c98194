import { describe, expect, it } from "vitest";
import { format } from "./i18n.svelte";
import { particle } from "./particle";

describe("particle", () => {
  it.each([
    ["회의록", "을(를)", "을"],
    ["보고서", "을(를)", "를"],
    ["회의록", "이(가)", "이"],
    ["보고서", "이(가)", "가"],
    ["회의록", "은(는)", "은"],
    ["보고서", "은(는)", "는"],
    ["회의록", "와(과)", "과"],
    ["보고서", "와(과)", "와"],
    ["회의록", "(으)로", "으로"],
    ["보고서", "(으)로", "로"],
    ["파일", "(으)로", "로"], // ㄹ takes 로
    ["파일", "을(를)", "을"],
    ["보고서", "(이)", ""],
    ["report 1", "을(를)", "을"], // 일
    ["report 2", "을(를)", "를"], // 이
    ["10", "은(는)", "은"], // 십
    ["7", "(으)로", "로"], // 칠
    ["6", "(으)로", "으로"], // 육
    ["html", "을(를)", "을"],
    ["llm", "(으)로", "으로"],
    ["twice", "이(가)", "이(가)"], // e: "file" 파일, "e" 이
    ["web", "은(는)", "은(는)"],
    ["ping", "을(를)", "을(를)"],
    ["/home/you/notes/a.md", "을(를)", "를"],
    ["report (1)", "을(를)", "을"],
    ["“회의록”", "을(를)", "을"],
    ["漢字", "을(를)", "을(를)"],
    ["", "을(를)", "을(를)"],
    ["보고서", "", ""],
    ["보고서", "의", "의"],
  ])("%s + %s → %s", (word, form, want) => {
    expect(particle(word, form)).toBe(want);
  });
});

describe("format with particles", () => {
  it.each([
    ["“{title}”을(를) 삭제했습니다.", { title: "회의록" }, "“회의록”을 삭제했습니다."],
    ["“{title}”을(를) 삭제했습니다.", { title: "Meeting notes" }, "“Meeting notes”를 삭제했습니다."],
    ['MCP 서버 web의 "{field}"은(는) 목록', { field: "args" }, 'MCP 서버 web의 "args"는 목록'],
    ["{tool}은(는) 묻지 않고", { tool: "웹 검색" }, "웹 검색은 묻지 않고"],
    ["{name}이(가) {count}번", { name: "twice", count: 2 }, "twice이(가) 2번"],
    ["{n}단계", { n: 3 }, "3단계"],
    ["{missing}을(를)", {}, "{missing}을(를)"],
  ])("%s", (template, params, want) => {
    expect(format(template, params)).toBe(want);
  });
});
