// Numbered citations: the guide cites [1], [2] … meaning result.sources in
// order. These helpers find them in text and turn them into buttons after
// the Markdown was sanitised (so a model can never inject its own).

/** A part of a text: plain text, or a citation number (1-based). */
export type Part = string | number;

const CITE = /\[(\d{1,3})\]/g;

/**
 * citationParts splits text at [n] markers that point at an existing source
 * (1 ≤ n ≤ count); other brackets stay text. "[1][2]" gives two citations.
 */
export function citationParts(text: string, count: number): Part[] {
  const parts: Part[] = [];
  let last = 0;
  for (const m of text.matchAll(CITE)) {
    const n = Number(m[1]);
    if (n < 1 || n > count) continue;
    if (m.index! > last) parts.push(text.slice(last, m.index));
    parts.push(n);
    last = m.index! + m[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

/** citedNumbers lists the distinct sources a text cites, in first-use order. */
export function citedNumbers(text: string, count: number): number[] {
  const seen: number[] = [];
  for (const p of citationParts(text, count)) if (typeof p === "number" && !seen.includes(p)) seen.push(p);
  return seen;
}

/**
 * linkCitations replaces citation markers in the text nodes of a sanitised
 * tree with buttons carrying data-cite. Code, pre and links are left alone.
 */
export function linkCitations(root: HTMLElement, count: number, label: (n: number) => string): void {
  if (count <= 0) return;
  const doc = root.ownerDocument;
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const targets: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n as Text;
    if (!/\[\d/.test(text.data)) continue;
    if (text.parentElement?.closest("code, pre, a, button")) continue;
    targets.push(text);
  }
  for (const text of targets) {
    const parts = citationParts(text.data, count);
    if (!parts.some((p) => typeof p === "number")) continue;
    const frag = doc.createDocumentFragment();
    for (const p of parts) {
      if (typeof p === "string") frag.appendChild(doc.createTextNode(p));
      else {
        const b = doc.createElement("button");
        b.type = "button";
        b.className = "cite";
        b.dataset.cite = String(p);
        b.textContent = `[${p}]`;
        b.setAttribute("aria-label", label(p));
        frag.appendChild(b);
      }
    }
    text.replaceWith(frag);
  }
}

// A guide saved before the window listed sources itself ends with its own
// list ("---", "**Sources**", "1. …"); withoutSourcesList drops it so that
// the list is shown, and exported, once.
const LEGACY_LIST = /\n+-{3,}\n+\*\*Sources\*\*\n+(?:\d+\. [^\n]*(?:\n|$))+\s*$/;

export function withoutSourcesList(text: string): string {
  return text.replace(LEGACY_LIST, "\n");
}
