import { describe, expect, it } from "vitest";
import { highlight, terms } from "./highlight";

const marked = (text: string, q: string) => highlight(text, q).filter((p) => p.mark).map((p) => p.text);

describe("terms", () => {
  it.each([
    ["leave policy", ["policy", "leave"]],
    ["  Leave, POLICY! ", ["policy", "leave"]],
    ["a b cd", ["cd"]],
    ["휴가를 며칠", ["휴가를", "휴가", "며칠"]],
    ["차를", ["차를", "차"]],
    ["", []],
    ["<script>", ["script"]],
  ])("%j", (q, want) => {
    expect(terms(q)).toEqual(want);
  });
});

describe("highlight", () => {
  it.each([
    ["every occurrence, any case", "Leave policy: leave is 15 days. LEAVE early.", "leave", ["Leave", "leave", "LEAVE"]],
    ["several words", "The leave policy says", "policy leave", ["leave", "policy"]],
    ["Korean, the particle left out", "연차 휴가는 15일입니다. 휴가 신청은", "휴가를 신청", ["휴가", "휴가", "신청"]],
    ["nothing found", "nothing here", "leave", []],
    ["regex characters are plain text", "a (b) c.* d", "(b) c.*", []],
  ])("%s", (_name, text, q, want) => {
    expect(marked(text, q)).toEqual(want);
  });

  it("keeps every character of the passage, in order", () => {
    const text = "<img src=x onerror=alert(1)> leave <b>policy</b>";
    const pieces = highlight(text, "leave policy img");
    expect(pieces.map((p) => p.text).join("")).toBe(text);
    expect(pieces.filter((p) => p.mark).map((p) => p.text)).toEqual(["img", "leave", "policy"]);
  });

  it("gives the passage unmarked for an empty query", () => {
    expect(highlight("text", "")).toEqual([{ text: "text", mark: false }]);
    expect(highlight("", "x")).toEqual([]);
  });
});
