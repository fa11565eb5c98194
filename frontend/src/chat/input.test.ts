import { describe, expect, it } from "vitest";
import { checkMessage, codePointLength, isSendShortcut, MAX_MESSAGE_CHARS } from "./input";

describe("checkMessage", () => {
  it.each([
    ["", { ok: false, reason: "empty", length: 0 }],
    ["   \n\t ", { ok: false, reason: "empty", length: 6 }],
    ["hi", { ok: true, length: 2 }],
    ["안녕하세요", { ok: true, length: 5 }],
    ["x".repeat(MAX_MESSAGE_CHARS), { ok: true, length: MAX_MESSAGE_CHARS }],
    ["x".repeat(MAX_MESSAGE_CHARS + 1), { ok: false, reason: "too_long", length: MAX_MESSAGE_CHARS + 1 }],
    ["가".repeat(MAX_MESSAGE_CHARS + 1), { ok: false, reason: "too_long", length: MAX_MESSAGE_CHARS + 1 }],
  ])("%#", (text, want) => {
    expect(checkMessage(text)).toEqual(want);
  });

  it("counts emoji as one character each, like Go's rune count", () => {
    expect(codePointLength("😀😀")).toBe(2);
    expect(checkMessage("😀".repeat(MAX_MESSAGE_CHARS)).ok).toBe(true); // 200k UTF-16 units
    expect(codePointLength("\ud800x")).toBe(2); // lone surrogate counts once
  });

  it("handles a 2 MB paste quickly and reports its length", () => {
    const big = "a".repeat(2 * 1024 * 1024);
    const r = checkMessage(big);
    expect(r).toEqual({ ok: false, reason: "too_long", length: 2 * 1024 * 1024 });
  });
});

describe("isSendShortcut", () => {
  const base = { key: "Enter", shiftKey: false, isComposing: false, altKey: false, ctrlKey: false, metaKey: false };
  it.each([
    ["Enter", base, true],
    ["Shift+Enter", { ...base, shiftKey: true }, false],
    ["Enter during IME composition (Korean input)", { ...base, isComposing: true }, false],
    ["Alt+Enter", { ...base, altKey: true }, false],
    ["Ctrl+Enter", { ...base, ctrlKey: true }, true],
    ["a", { ...base, key: "a" }, false],
  ])("%s", (_n, e, want) => {
    expect(isSendShortcut(e)).toBe(want);
  });
});
