// Highlighting a search's words in a passage. Documents are hostile: the
// passage is cut into plain-text pieces that the component renders as text
// nodes and <mark> elements; no markup is ever built from document text.
// Matching ignores case, and a Korean word is also found without the
// particle the person typed after it ("휴가를" finds "휴가는"), as the
// keyword search does.

/** A piece of the passage; mark is true for a matched word. */
export interface Piece {
  text: string;
  mark: boolean;
}

// The particles a Korean query word may end with, longest first.
const PARTICLES = ["에서", "으로", "에게", "까지", "부터", "은", "는", "이", "가", "을", "를", "의", "에", "로", "와", "과", "도", "만"];
const HANGUL = /\p{Script=Hangul}/u;

/** terms are a query's words worth marking: two characters or more, each also without its particle. */
export function terms(query: string): string[] {
  const out = new Set<string>();
  for (const w of query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if ([...w].length >= 2) out.add(w);
    if (!HANGUL.test(w)) continue;
    const p = PARTICLES.find((x) => w.endsWith(x) && [...w].length - [...x].length >= 1);
    if (p) out.add(w.slice(0, w.length - p.length));
  }
  // A one-syllable Korean stem ("차를" → "차") is a word too; a lone Latin letter is not.
  return [...out].filter((w) => [...w].length >= 2 || HANGUL.test(w)).sort((a, b) => b.length - a.length);
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** highlight cuts text into pieces, marking every place a query word occurs. */
export function highlight(text: string, query: string): Piece[] {
  const ts = terms(query);
  if (!text || !ts.length) return text ? [{ text, mark: false }] : [];
  const re = new RegExp(ts.map(escapeRe).join("|"), "giu");
  const out: Piece[] = [];
  let at = 0;
  for (const m of text.matchAll(re)) {
    const i = m.index ?? 0;
    if (!m[0]) continue;
    if (i > at) out.push({ text: text.slice(at, i), mark: false });
    out.push({ text: m[0], mark: true });
    at = i + m[0].length;
  }
  if (at < text.length) out.push({ text: text.slice(at), mark: false });
  return out;
}
