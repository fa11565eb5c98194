// Highlighting a search's words in a passage. Documents are hostile: the
// passage is cut into plain-text pieces that the component renders as text
// nodes and <mark> elements; no markup is ever built from document text.
// Matching ignores case, and a Korean word is also found without the
// particle the person typed after it ("휴가를" finds "휴가는"), as the
// keyword search does; two Korean words typed side by side also as one
// ("도구 모음" marks "도구모음"). A Korean word is found whatever the
// spacing between its syllables — one space or one line break — as the
// keyword index finds it: "위임장" in a form's letter-spaced title
// "위 임 장", "도구모음" written "도구 모음", "적용한다" broken across a
// PDF's line as "적\n용한다". Such a match must begin a word of the text,
// so that one word's end and the next one's start ("가정 리스트") is not
// taken for "정리"; two spaces, a blank line or punctuation never match.
// The backend cuts a hit's snippet around the first word marked by the same
// rule (backend/knowledge/marks.go); both are tested against the cases of
// backend/knowledge/testdata/marks/cases.json.

/** A piece of the passage; mark is true for a matched word. */
export interface Piece {
  text: string;
  mark: boolean;
}

// The particles a Korean query word may end with, longest first.
const PARTICLES = ["에서", "으로", "에게", "까지", "부터", "은", "는", "이", "가", "을", "를", "의", "에", "로", "와", "과", "도", "만"];
const HANGUL = /\p{Script=Hangul}/u;

/** terms are a query's words worth marking: two characters or more, each also without its particle, longest first. */
export function terms(query: string): string[] {
  const out = new Set<string>();
  const word = (w: string) => {
    if ([...w].length >= 2) out.add(w);
    if (!HANGUL.test(w)) return;
    const p = PARTICLES.find((x) => w.endsWith(x) && [...w].length - [...x].length >= 1);
    if (p) out.add(w.slice(0, w.length - p.length));
  };
  const q = query.toLowerCase();
  const words = [...q.matchAll(/[\p{L}\p{N}]+/gu)];
  words.forEach((m, i) => {
    word(m[0]);
    // A compound typed apart ("도구 모음"; "시트 탭"), but not two
    // one-syllable words ("이 책"), which are seldom one word.
    const next = words[i + 1];
    if (!next) return;
    const [a, b] = [[...m[0]], [...next[0]]];
    const gap = q.slice((m.index ?? 0) + m[0].length, next.index);
    if (/^\s+$/u.test(gap) && HANGUL.test(a[a.length - 1]!) && HANGUL.test(b[0]!) && (a.length >= 2 || b.length >= 2)) word(m[0] + next[0]);
  });
  // A one-syllable Korean stem ("차를" → "차") is a word too; a lone Latin letter is not.
  return [...out].filter((w) => [...w].length >= 2 || HANGUL.test(w)).sort((a, b) => b.length - a.length);
}

// The most of a query a search takes (backend/knowledge search.go's
// maxQueryRunes): a longer one, a pasted document, is searched by its first
// and last halves of this, joined by a line break (boundQuery), and the
// window marks the words of the same.
const MAX_QUERY = 2000;

/** boundQuery is what of query a search takes: all of it, or its first and last 1,000 characters. */
export function boundQuery(query: string): string {
  if (query.length <= MAX_QUERY) return query;
  const cs = [...query];
  if (cs.length <= MAX_QUERY) return query;
  return cs.slice(0, MAX_QUERY / 2).join("") + "\n" + cs.slice(-MAX_QUERY / 2).join("");
}

// Characters are compared as a regular expression ignoring case (/iu, the
// Unicode simple case folding) compares them, as the window did: one
// character a letter's every case folds to. Its lower case of its upper case
// gives that fold but for these, which the test checks over every letter.
const FOLD_EXCEPTIONS: Record<string, string> = { "ı": "ı", "\u1fd3": "\u0390", "\u1fe3": "\u03b0", "\ufb05": "\ufb06" };
const one = (s: string) => s.length === 1 || (s.length === 2 && s.codePointAt(0)! > 0xffff);
const folds = new Map<number, number>();

/** fold is the code point a case-ignoring comparison takes for cp. */
export function fold(cp: number): number {
  if (cp < 0x80) return cp >= 0x41 && cp <= 0x5a ? cp + 32 : cp;
  let f = folds.get(cp);
  if (f === undefined) {
    const c = String.fromCodePoint(cp);
    let to = FOLD_EXCEPTIONS[c];
    if (to === undefined) {
      const u = c.toUpperCase(), ul = u.toLowerCase(), l = c.toLowerCase();
      to = one(u) && one(ul) ? ul : one(l) ? l : c;
    }
    f = to.codePointAt(0)!;
    folds.set(cp, f);
  }
  return f;
}

const WORD = /[\p{L}\p{N}]/u;
const words = new Map<number, boolean>();
function isWord(cp: number): boolean {
  if (cp < 0x80) return (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);
  let w = words.get(cp);
  if (w === undefined) words.set(cp, (w = WORD.test(String.fromCodePoint(cp))));
  return w;
}

/** A term to find: its characters folded, and after which of them one break may come in the text. */
interface Term {
  cps: number[];
  gap: boolean[]; // gap[k]: one break may come before cps[k] (both it and the one before are Hangul)
}

function compile(term: string): Term {
  const cs = [...term];
  return {
    cps: cs.map((c) => fold(c.codePointAt(0)!)),
    gap: cs.map((c, k) => k > 0 && HANGUL.test(cs[k - 1]!) && HANGUL.test(c)),
  };
}

// The length of the one space or line break text holds at i (keyword/spacing.go's oneBreak), or 0.
function breakLen(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 0x20 || c === 0x0a) return 1;
  return c === 0x0d && text.charCodeAt(i + 1) === 0x0a ? 2 : 0;
}

/**
 * markAt returns where term's match at i of text ends, or -1: character by
 * character, case ignored, with one space, "\n" or "\r\n" allowed between
 * two Hangul characters where the match begins a word (backend marks.go's
 * markAt). A break is taken or not, never searched for, so a place costs at
 * most the term's length.
 */
function markAt(text: string, i: number, t: Term, wordStart: boolean): number {
  let j = i;
  for (let k = 0; k < t.cps.length; k++) {
    if (wordStart && t.gap[k]) {
      const n = breakLen(text, j);
      if (n > 0 && j + n < text.length && fold(text.codePointAt(j + n)!) === t.cps[k]) j += n;
    }
    if (j >= text.length) return -1;
    const c = text.codePointAt(j)!;
    if (fold(c) !== t.cps[k]) return -1;
    j += c > 0xffff ? 2 : 1;
  }
  return j;
}

// The last query's terms by their first character, longest first: the hit
// list marks every hit's snippet with the same query.
let last: { query: string; byFirst: Map<number, Term[]> } | undefined;

function termsByFirst(query: string): Map<number, Term[]> {
  if (last?.query === query) return last.byFirst;
  const byFirst = new Map<number, Term[]>();
  for (const t of terms(boundQuery(query).normalize("NFC"))) {
    const c = compile(t);
    const list = byFirst.get(c.cps[0]!);
    if (list) list.push(c); // longest first still
    else byFirst.set(c.cps[0]!, [c]);
  }
  last = { query, byFirst };
  return byFirst;
}

/**
 * highlight cuts text into pieces, marking every place a query word occurs.
 * Both are compared composed (NFC), and the pieces hold the composed text,
 * which looks the same: Hangul saved decomposed, as macOS writes file names
 * and some of its apps text, is one character a syllable to the search
 * (keyword/tokenize.go) but three jamo otherwise, so "위임장" typed on a
 * keyboard never matched it.
 *
 * The words are found as the backend finds them (marks.go's next): grouped
 * by their first character, only those beginning with a place's character
 * are tried there, longest first, so a text costs its length times the
 * words sharing a first character, not times the query. A regular
 * expression of every word, the spaced forms in it, took 2 s for a pasted
 * paragraph over ten snippets (0.9 s for the longest query a search takes
 * over one passage), on the window's thread. work, if given, counts the
 * words tried.
 */
export function highlight(text: string, query: string, work?: { tried: number }): Piece[] {
  text = text.normalize("NFC");
  const byFirst = termsByFirst(query);
  if (!text || !byFirst.size) return text ? [{ text, mark: false }] : [];
  const out: Piece[] = [];
  let at = 0;
  let wordBefore = false;
  for (let i = 0; i < text.length; ) {
    const c = text.codePointAt(i)!;
    const size = c > 0xffff ? 2 : 1;
    let end = -1;
    for (const t of byFirst.get(fold(c)) ?? []) {
      if (work) work.tried++;
      if ((end = markAt(text, i, t, !wordBefore)) >= 0) break;
    }
    if (end < 0) {
      wordBefore = isWord(c);
      i += size;
      continue;
    }
    if (i > at) out.push({ text: text.slice(at, i), mark: false });
    out.push({ text: text.slice(i, end), mark: true });
    at = i = end;
    const prev = text.codePointAt(end - 1)!;
    const high = end >= 2 ? text.charCodeAt(end - 2) : 0;
    wordBefore = isWord(prev >= 0xdc00 && prev <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? text.codePointAt(end - 2)! : prev);
  }
  if (at < text.length) out.push({ text: text.slice(at), mark: false });
  return out;
}
