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

/** Unread is why a cited chunk's document is not shown; "" when it is. */
export type Unread = "" | "removed" | "attached" | "failed";

/**
 * whyUnread words the reason from the error's code and the document's
 * path: the library no longer has the document (removed since), or it is
 * a file attached to a conversation, which only that conversation's
 * search sees and the library's reader does not open.
 */
export function whyUnread(code: string, source: string): Unread {
  if (code !== "document_not_found" && code !== "not_found") return "failed";
  return /[\\/]\.conversations[\\/]/.test(source) ? "attached" : "removed";
}
