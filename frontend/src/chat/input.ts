// Rules for what the person may send, checked before anything leaves the
// page so a huge paste gets a clear explanation and stays in the box.

/** MAX_MESSAGE_CHARS matches the backend's limit (counted in Unicode code points). */
export const MAX_MESSAGE_CHARS = 100_000;

export type InputCheck =
  | { ok: true; length: number }
  | { ok: false; reason: "empty" | "too_long"; length: number };

/** codePointLength counts characters the way Go's utf8.RuneCountInString does. */
export function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // a high surrogate followed by a low surrogate is one code point
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

export function checkMessage(text: string, max = MAX_MESSAGE_CHARS): InputCheck {
  const length = codePointLength(text);
  if (text.trim() === "") return { ok: false, reason: "empty", length };
  if (length > max) return { ok: false, reason: "too_long", length };
  return { ok: true, length };
}

/** isSendShortcut: Enter sends; Shift+Enter (and IME composition) do not. */
export function isSendShortcut(e: Pick<KeyboardEvent, "key" | "shiftKey" | "isComposing" | "altKey" | "ctrlKey" | "metaKey">): boolean {
  return e.key === "Enter" && !e.shiftKey && !e.isComposing && !e.altKey;
}
