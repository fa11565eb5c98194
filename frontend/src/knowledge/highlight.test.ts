import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { boundQuery, fold, highlight, terms } from "./highlight";

// The cases the backend's snippet window is tested against too (marks_test.go): both mark the same words.
const shared: { name: string; query: string; text: string; marks: string[] }[] = JSON.parse(
  readFileSync(join(__dirname, "../../../backend/knowledge/testdata/marks/cases.json"), "utf8"),
);

const marked = (text: string, q: string) => highlight(text, q).filter((p) => p.mark).map((p) => p.text);

describe("terms", () => {
  it.each([
    ["leave policy", ["policy", "leave"]],
    ["  Leave, POLICY! ", ["policy", "leave"]],
    ["a b cd", ["cd"]],
    ["휴가를 며칠", ["휴가를며칠", "휴가를", "휴가", "며칠"]],
    ["도구 모음을", ["도구모음을", "도구모음", "모음을", "도구", "모음"]],
    ["시트 탭", ["시트탭", "시트"]],
    ["이 책", []],
    ["mp3 파일", ["mp3", "파일"]],
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

  it.each(shared.map((c) => [c.name, c] as const))("as the snippet's window: %s", (_name, c) => {
    expect(marked(c.text, c.query)).toEqual(c.marks);
  });

  it("reads the shared cases", () => {
    expect(shared.length).toBeGreaterThanOrEqual(10);
  });

  // Each place costs at most the query's length, also where nearly every place almost matches: 2 MB of letter-spaced
  // text or line breaks, a long Korean query, within the test's time (about 0.1 s each here).
  it.each([
    ["letter-spaced", "가 나 다 라 마 바 사 "],
    ["one word", "가나다라마바사아자차카타파"],
    ["line breaks", "가\n나\r\n"],
  ])("marks 2 MB of %s text in bounded time", (_name, unit) => {
    const text = unit.repeat(Math.floor((2 << 20) / unit.length));
    const pieces = highlight(text, "가나다라마바사아자차카타파하 가나다라 가나 위임장 도구 모음");
    expect(pieces.some((p) => p.mark)).toBe(true);
    expect(pieces.map((p) => p.text).join("")).toBe(text);
  });

  // The longest query a search takes, a pasted Korean page of some 500 words, over a 1,500-character passage: only the
  // words beginning with a place's character are tried there (a regular expression of every word took 0.9 s here on
  // the window's thread), counted, not timed.
  it("tries at each place only the words beginning with its character", () => {
    const syl = (i: number) => String.fromCharCode(0xac00 + ((i * 37) % 2000) * 5);
    const ws = Array.from({ length: 500 }, (_, i) => syl(i) + syl(i + 1) + syl(i + 2));
    const query = boundQuery(ws.join(" ").repeat(2));
    expect([...query].length).toBe(2001);
    expect(terms(query).length).toBeGreaterThan(900);
    const text = Array.from({ length: 375 }, (_, i) => (i % 25 ? "가나다 " : ws[i]!.split("").join(" ") + " ")).join("");
    expect(text.length).toBeGreaterThan(1500);
    const work = { tried: 0 };
    const pieces = highlight(text, query, work);
    expect(pieces.map((p) => p.text).join("")).toBe(text);
    expect(pieces.filter((p) => p.mark).map((p) => p.text)).toEqual(
      Array.from({ length: 15 }, (_, k) => ws[k * 25]!.split("").join(" ")),
    );
    expect(work.tried).toBeGreaterThan(0);
    expect(work.tried).toBeLessThan(3 * text.length);
  });

  it("marks the words of the query a search takes: a long one's first and last 1,000 characters", () => {
    const query = "위임장 " + "x".repeat(3000) + " 도구모음 " + "y".repeat(3000) + " 휴가";
    expect(boundQuery(query)).toBe("위임장 " + "x".repeat(996) + "\n" + "y".repeat(997) + " 휴가");
    expect(boundQuery("가".repeat(2000))).toBe("가".repeat(2000));
    expect(boundQuery("😀".repeat(2000))).toBe("😀".repeat(2000));
    expect(marked("위임장, 도구모음, 휴가", query)).toEqual(["위임장", "휴가"]);
  });

  // Characters compare as the regular expression ignoring case that marked them before did: every character with
  // a case, against every other, matched by /x/iu exactly where they fold alike (about 2 s).
  it("ignores case as a regular expression does", () => {
    const cased: string[] = [];
    for (let cp = 0; cp < 0x110000; cp++) {
      if (cp >= 0xd800 && cp < 0xe000) continue;
      const c = String.fromCodePoint(cp);
      if (c.toLowerCase() !== c || c.toUpperCase() !== c) cased.push(c);
    }
    const f = (c: string) => fold(c.codePointAt(0)!);
    const wrong: string[] = [];
    for (const a of cased) {
      const re = new RegExp(`^${a.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`, "iu");
      for (const b of cased) if (re.test(b) !== (f(a) === f(b))) wrong.push(a + b);
    }
    expect(wrong).toEqual([]);
    expect(marked("ΟΔΟΣ οδος Straße STRASSE", "οδοσ straße")).toEqual(["ΟΔΟΣ", "οδος", "Straße"]);
  }, 30_000);

  it("keeps every character of the passage, in order", () => {
    const text = "<img src=x onerror=alert(1)> leave <b>policy</b>";
    const pieces = highlight(text, "leave policy img");
    expect(pieces.map((p) => p.text).join("")).toBe(text);
    expect(pieces.filter((p) => p.mark).map((p) => p.text)).toEqual(["img", "leave", "policy"]);
  });

  it("finds words in Hangul saved decomposed (NFD), and gives the text composed", () => {
    const text = "위 임 장(갑) 도구모음".normalize("NFD");
    expect(marked(text, "위임장 도구 모음")).toEqual(["위 임 장", "도구모음"]);
    expect(marked("위 임 장", "위임장".normalize("NFD"))).toEqual(["위 임 장"]);
    expect(highlight(text, "위임장").map((p) => p.text).join("")).toBe(text.normalize("NFC"));
  });

  it("gives the passage unmarked for an empty query", () => {
    expect(highlight("text", "")).toEqual([{ text: "text", mark: false }]);
    expect(highlight("", "x")).toEqual([]);
  });
});
