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

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// One space or one line break, as the keyword index joins two Hangul words (keyword/spacing.go's oneBreak).
const BREAK = "(?: |\\r?\\n)?";

/**
 * pattern is a term as a regular expression: the term itself, and where it
 * has two Hangul characters in a row and the match begins a word, the term
 * with one break allowed between them. Each place costs at most the term's
 * length (a break is taken or not, never searched for), so a whole text costs
 * its length times the query's.
 */
function pattern(term: string): string {
  const cs = [...term];
  let spaced = "";
  let breaks = false;
  cs.forEach((c, i) => {
    if (i > 0 && HANGUL.test(cs[i - 1]!) && HANGUL.test(c)) {
      spaced += BREAK;
      breaks = true;
    }
    spaced += escapeRe(c);
    // Not after a letter or number: checked after the first character, so
    // that the expression begins with a plain one and the engine can skip
    // ahead to it (before it, four times slower).
    if (i === 0) spaced += "(?<![\\p{L}\\p{N}].)";
  });
  const exact = escapeRe(term);
  return breaks ? `${spaced}|${exact}` : exact;
}

/**
 * highlight cuts text into pieces, marking every place a query word occurs.
 * Both are compared composed (NFC), and the pieces hold the composed text,
 * which looks the same: Hangul saved decomposed, as macOS writes file names
 * and some of its apps text, is one character a syllable to the search
 * (keyword/tokenize.go) but three jamo to a regular expression, so "위임장"
 * typed on a keyboard never matched it.
 */
export function highlight(text: string, query: string): Piece[] {
  text = text.normalize("NFC");
  const ts = terms(query.normalize("NFC"));
  if (!text || !ts.length) return text ? [{ text, mark: false }] : [];
  const re = new RegExp(ts.map(pattern).join("|"), "giu");
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
