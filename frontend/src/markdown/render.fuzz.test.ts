// @vitest-environment jsdom
// A seeded fuzz of the Markdown sanitiser's input: thousands of random
// mixtures of Markdown, HTML and attack fragments must all render inert.
// The seed is printed on failure; WAYFINDER_FUZZ_SEED and
// WAYFINDER_FUZZ_RUNS replay or extend a run.
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "./render";

const fragments = [
  "<img src=x onerror=alert(1)>", "<svg onload=alert(1)>", "<script>alert(1)</script>", "<iframe src=javascript:alert(1)>",
  "[x](javascript:alert(1))", "[x](JaVaScRiPt:alert(1))", "[x](java\tscript:alert(1))", "[x](&#106;avascript:alert(1))",
  "[x](data:text/html,<script>alert(1)</script>)", "<a href=\"javascript:alert(1)\">a</a>", "<div style=\"background:url(javascript:alert(1))\">",
  "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>", "<details open ontoggle=alert(1)>", "<object data=javascript:alert(1)>",
  "<body onload=alert(1)>", "<input autofocus onfocus=alert(1)>", "<a href=x onmouseover=alert(1)>", "<form action=javascript:alert(1)><button>",
  "<base href=javascript:/>", "<meta http-equiv=refresh content=0;url=javascript:alert(1)>", "<link rel=import href=x>", "<embed src=x>",
  "`<img src=x onerror=alert(1)>`", "```html\n<script>alert(1)</script>\n```", "<!--", "-->", "<", ">", "\"", "'", "=", "/", "\\",
  "# 제목", "**굵게**", "_기울임_", "- 목록", "1. 하나", "> 인용", "| a | b |\n|---|---|\n| 1 | 2 |", "[링크](https://example.com)",
  "![이미지](https://example.com/x.png)", "안녕하세요", "Hello", "\n", "\n\n", " ", "&lt;", "&#x3C;script&#x3E;", "%3Cscript%3E",
];

// mulberry32: a tiny seeded generator, so a failing input can be replayed.
function rng(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function inertProblems(html: string): string[] {
  const root = document.createElement("div");
  root.innerHTML = html;
  const problems: string[] = [];
  for (const el of root.querySelectorAll("*")) {
    for (const attr of el.getAttributeNames()) {
      const v = el.getAttribute(attr) ?? "";
      if (attr.startsWith("on")) problems.push(`handler ${attr} on <${el.tagName}>`);
      if (/^\s*(javascript|vbscript|data:text)/i.test(v.replace(/[\u0000-\u0020]/g, ""))) problems.push(`${attr}=${v}`);
    }
  }
  for (const tag of ["script", "iframe", "svg", "math", "object", "embed", "form", "style", "link", "meta", "base", "frame", "body"]) {
    if (root.querySelector(tag)) problems.push(`<${tag}>`);
  }
  return problems;
}

describe("renderMarkdown under random input", () => {
  it("never lets markup become active", { timeout: 120_000 }, () => {
    const seed = Number(process.env.WAYFINDER_FUZZ_SEED ?? 20261121);
    const runs = Number(process.env.WAYFINDER_FUZZ_RUNS ?? 2000);
    const next = rng(seed);
    for (let i = 0; i < runs; i++) {
      const n = 1 + Math.floor(next() * 8);
      let input = "";
      for (let j = 0; j < n; j++) input += fragments[Math.floor(next() * fragments.length)];
      const problems = inertProblems(renderMarkdown(input));
      expect(problems, `seed ${seed}, run ${i}, input ${JSON.stringify(input)}`).toEqual([]);
    }
  });
});
