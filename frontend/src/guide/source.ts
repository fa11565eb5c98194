// What a cited source's reader needs to know before and after asking for
// the cited chunk's document.

/**
 * citedPassage says whether a source's id names a chunk of a library
 * document ("<document id>:<seq>"), which the reader can open in its
 * document; a web page's (its URL) or Wikipedia's ("zim:…",
 * "wikipedia:en:…") does not.
 */
export function citedPassage(id: string): boolean {
  return /^[^:/\s]+:\d+$/.test(id);
}

/**
 * changedSince says whether the chunk's text now differs from the passage
 * the answer cited (its source's snippet: the chunk's text, trimmed, and
 * cut with "…" past a few hundred characters), as when the document was
 * imported again since. Spacing and Unicode composition do not count; an
 * empty snippet is not a change (nothing to compare).
 */
export function changedSince(cited: string, now: string): boolean {
  const norm = (s: string) => s.normalize("NFC").replace(/\s+/g, " ").trim();
  const was = norm(cited);
  if (!was) return false;
  const is = norm(now);
  return was.endsWith("…") ? !is.startsWith(was.slice(0, -1).trimEnd()) : was !== is;
}

/** Unread is why a cited chunk's document is not shown; "" when it is. */
export type Unread = "" | "removed" | "attached" | "failed";

/**
 * whyUnread words the reason from the error's code and the document's
 * path: the library no longer has the document (removed since), or it was
 * a file attached to the conversation that is no longer there (another
 * conversation's never opens: the backend does not find it).
 */
export function whyUnread(code: string, source: string): Unread {
  if (code !== "document_not_found" && code !== "not_found") return "failed";
  return /[\\/]\.conversations[\\/]/.test(source) ? "attached" : "removed";
}
