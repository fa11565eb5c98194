import { describe, expect, it } from "vitest";
import { citationParts, citedNumbers, linkCitations, withoutSourcesList } from "./citations";
import { exportMarkdown, fileName } from "./export";
import type { Source } from "../api/gotypes.gen";
import { setLang } from "../i18n/i18n.svelte";
import { pageShort } from "../knowledge/units";

describe("citations", () => {
  it.each([
    ["ChatGPT [1] and Vrew [2].", 2, ["ChatGPT ", 1, " and Vrew ", 2, "."]],
    ["[1][2]", 2, [1, 2]],
    ["out of range [3] and [0]", 2, ["out of range [3] and [0]"]],
    ["array[1] stays? no: it cites", 1, ["array", 1, " stays? no: it cites"]],
    ["no sources [1]", 0, ["no sources [1]"]],
    ["", 3, []],
  ])("citationParts(%j, %i)", (text, count, want) => {
    expect(citationParts(text, count)).toEqual(want);
  });

  it("lists cited sources once in first-use order", () => {
    expect(citedNumbers("b [2] a [1] b again [2]", 3)).toEqual([2, 1]);
  });

  it("turns markers into buttons outside code and links", () => {
    const root = document.createElement("div");
    root.innerHTML = "<p>Use Vrew [2] or <code>x[1]</code> see <a href='https://a'>[1]</a> [1]</p><pre>[1]</pre>";
    linkCitations(root, 2, (n) => `Source ${n}`);
    const buttons = [...root.querySelectorAll("button.cite")];
    expect(buttons.map((b) => b.getAttribute("data-cite"))).toEqual(["2", "1"]);
    expect(buttons[0]!.getAttribute("aria-label")).toBe("Source 2");
    expect(root.querySelector("code")!.textContent).toBe("x[1]");
    expect(root.querySelector("pre")!.textContent).toBe("[1]");
  });
});

describe("export", () => {
  const sources: Source[] = [
    { id: "a", title: "ChatGPT", source: "catalog", url: "https://chatgpt.com", snippet: "Writes scripts.\nFast.", score: 1 },
    { id: "b", title: "정책.pdf", source: "정책.pdf", page: 3, heading: "휴가", snippet: "연차는 15일", score: 0.5 },
    { id: "c", title: "메뉴.pptx", source: "메뉴.pptx", page: 4, unit: "slide", snippet: "", score: 0.4 },
  ];
  const labels = { recommendations: "Recommendations", sources: "Sources", step: "Step", tool: "Tool", pricing: "Pricing", link: "Link", page: pageShort, exported: "Exported from Wayfinder on" };

  it("writes the guide, a recommendation table and the cited sources", () => {
    const md = exportMarkdown({
      title: "Café Shorts",
      guide: "Overview [1]\n\n1. Script: ChatGPT [1]\n2. 휴가 [2]",
      recommendations: [{ subtask_id: "s1", tool: "ChatGPT", why: "fast", url: "https://chatgpt.com", pricing: "free | $20", alternatives: [], sources: [] }],
      steps: [{ id: "s1", title: "대본 작성", detail: "" }],
      sources,
      labels,
      date: new Date("2026-11-21T00:00:00Z"),
    });
    expect(md).toBe(
      [
        "# Café Shorts",
        "",
        "Overview [1]",
        "",
        "1. Script: ChatGPT [1]",
        "2. 휴가 [2]",
        "",
        "## Recommendations",
        "",
        "| Step | Tool | Pricing | Link |",
        "|---|---|---|---|",
        "| 대본 작성 | ChatGPT | free \\| $20 | <https://chatgpt.com> |",
        "",
        "## Sources",
        "",
        "1. ChatGPT — <https://chatgpt.com>",
        "",
        "   > Writes scripts.",
        "   > Fast.",
        "",
        "2. 정책.pdf · p. 3 · 휴가",
        "",
        "   > 연차는 15일",
        "",
        "3. 메뉴.pptx · slide 4",
        "",
        "---",
        "Exported from Wayfinder on 2026-11-21",
        "",
      ].join("\n"),
    );
  });

  it("names a slide a slide, in Korean too", () => {
    setLang("ko");
    try {
      const md = exportMarkdown({ title: "x", guide: "text [2] [3]", sources, labels, date: new Date(0) });
      expect(md).toContain("2. 정책.pdf · 3쪽 · 휴가");
      expect(md).toContain("3. 메뉴.pptx · 슬라이드 4");
    } finally {
      setLang("en");
    }
  });

  it("lists the sources once when a guide saved earlier carries its own list", () => {
    const legacy = "# Guide\n\nUse ChatGPT [1].\n\n---\n**Sources**\n\n1. ChatGPT — Wayfinder AI tool catalog — https://chatgpt.com\n2. 정책.pdf — p. 3\n";
    const md = exportMarkdown({ title: "x", guide: legacy, sources, labels, date: new Date(0) });
    expect(md.match(/Sources/g)).toHaveLength(1);
    expect(md).toContain("Use ChatGPT [1].\n\n## Sources");
    expect(withoutSourcesList("Text\n\n---\nNot a list")).toBe("Text\n\n---\nNot a list");
  });

  it("keeps the guide's own title", () => {
    const md = exportMarkdown({ title: "x", guide: "# 카페 쇼츠 가이드\n\ntext", labels, date: new Date(0) });
    expect(md.startsWith("# 카페 쇼츠 가이드\n")).toBe(true);
    expect(md).not.toContain("## Sources");
  });

  it.each([
    ["카페 쇼츠: 가이드?", "카페-쇼츠-가이드.md"],
    ["../../etc/passwd", "etc-passwd.md"],
    ["   ", "wayfinder-guide.md"],
  ])("fileName(%j) = %s", (title, want) => {
    expect(fileName(title)).toBe(want);
  });
});
