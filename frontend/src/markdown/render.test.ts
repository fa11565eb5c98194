// @vitest-environment jsdom
// jsdom rather than happy-dom here: DOMPurify does not run under happy-dom,
// and this test must exercise the real sanitiser.
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "./render";

function dom(html: string): HTMLElement {
  const div = document.createElement("div");
  div.innerHTML = html;
  return div;
}

function assertInert(html: string) {
  const root = dom(html);
  for (const el of root.querySelectorAll("*")) {
    for (const attr of el.getAttributeNames()) {
      expect(attr.startsWith("on"), `event handler ${attr} on <${el.tagName}> in ${html}`).toBe(false);
      const v = el.getAttribute(attr) ?? "";
      expect(/^\s*(javascript|vbscript|data:text)/i.test(v), `${attr}=${v}`).toBe(false);
    }
  }
  for (const tag of ["script", "iframe", "svg", "math", "object", "embed", "form", "style", "link", "meta", "base", "frame"]) {
    expect(root.querySelector(tag), `<${tag}> in ${html}`).toBeNull();
  }
}

describe("renderMarkdown sanitises untrusted text", () => {
  const payloads = [
    "<img src=x onerror=alert(1)>",
    '<img src="x" onerror="window.__xss=1">',
    "[click](javascript:alert(1))",
    "[click](JaVaScRiPt:alert(1))",
    "[click](  javascript:alert(1))",
    '<a href="javascript:alert(1)">x</a>',
    '<a href="&#106;avascript:alert(1)">x</a>',
    "<svg onload=alert(1)><circle r=5></circle></svg>",
    "<svg><script>alert(1)</script></svg>",
    '<iframe src="javascript:alert(1)"></iframe>',
    '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
    "<script>alert(1)</script>",
    '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
    '<details open ontoggle=alert(1)>',
    '<body onload=alert(1)>',
    '<form action="javascript:alert(1)"><button>x</button></form>',
    '<object data="data:text/html,<script>alert(1)</script>"></object>',
    "![x](javascript:alert(1))",
    '<div style="background:url(javascript:alert(1))">x</div>',
    '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
    "<input autofocus onfocus=alert(1)>",
    '<video><source onerror="alert(1)"></video>',
    "```html\n<script>alert(1)</script>\n```",
    '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  ];
  it.each(payloads)("%s", (p) => {
    assertInert(renderMarkdown(p));
  });

  it("keeps code from a fenced block as text", () => {
    const root = dom(renderMarkdown("```html\n<script>alert(1)</script>\n```"));
    expect(root.querySelector("pre code")?.textContent).toContain("<script>alert(1)</script>");
  });

  it("opens safe links in a new tab without opener", () => {
    const a = dom(renderMarkdown("[docs](https://ollama.com/download)")).querySelector("a")!;
    expect(a.getAttribute("href")).toBe("https://ollama.com/download");
    expect(a.getAttribute("target")).toBe("_blank");
    expect(a.getAttribute("rel")).toBe("noopener noreferrer nofollow");
  });

  it("drops the href of a javascript: link but keeps its text", () => {
    const a = dom(renderMarkdown("[click me](javascript:alert(1))")).querySelector("a");
    expect(a?.hasAttribute("href") ?? false).toBe(false);
    expect(dom(renderMarkdown("[click me](javascript:alert(1))")).textContent).toContain("click me");
  });

  it("replaces remote images by their alt text", () => {
    const root = dom(renderMarkdown("![a cat](https://example.com/cat.png)"));
    expect(root.querySelector("img")).toBeNull();
    expect(root.textContent).toContain("a cat");
  });

  it("renders ordinary Markdown, Korean included", () => {
    const root = dom(renderMarkdown("# 제목\n\n- **굵게** 항목\n- `code`\n\n| a | b |\n|---|---|\n| 1 | 2 |"));
    expect(root.querySelector("h1")?.textContent).toBe("제목");
    expect(root.querySelector("strong")?.textContent).toBe("굵게");
    expect(root.querySelector("code")?.textContent).toBe("code");
    expect(root.querySelectorAll("td")).toHaveLength(2);
  });

  it("renders half-written Markdown while streaming", () => {
    const root = dom(renderMarkdown("Here:\n\n```go\nfunc main() {"));
    expect(root.querySelector("pre code")?.textContent).toContain("func main() {");
  });
});
