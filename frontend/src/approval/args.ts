// How the tool approval dialog shows a call's arguments: every argument,
// complete, as pretty JSON, so a person reads exactly what will be sent.
// Long values start folded (with their full length said) and unfold;
// characters that could hide or reorder text (zero-width, bidirectional
// controls) are shown as escapes. Pure, so every rule is unit-tested.

/** Values longer than this start folded. */
export const FOLD_AT = 240;

export interface ArgEntry {
  key: string;
  /** text is the value as pretty JSON, invisible characters revealed. */
  text: string;
  /** long values start folded to their first FOLD_AT characters. */
  long: boolean;
}

export type Args = { kind: "object"; entries: ArgEntry[] } | { kind: "raw"; text: string };

// Zero-width and joiner characters, bidirectional marks, embeddings,
// overrides and isolates, the word joiner family, the BOM and the soft
// hyphen: none of them shows, and some reorder what is shown.
const hidden = /[\u00AD\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

/** reveal writes invisible and reordering characters as \uXXXX. */
export function reveal(s: string): string {
  return s.replace(hidden, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`);
}

/**
 * parseArgs turns the call's arguments (a JSON object, as the model sent
 * it; the backend writes its keys sorted) into one entry per argument, in
 * that order. Anything else is shown as it came.
 */
export function parseArgs(raw: string): Args {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { kind: "raw", text: reveal(raw) };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { kind: "raw", text: reveal(JSON.stringify(value, null, 2) ?? raw) };
  }
  const entries = Object.entries(value as Record<string, unknown>).map(([key, v]) => {
    const text = reveal(JSON.stringify(v, null, 2) ?? "null");
    return { key: reveal(key), text, long: text.length > FOLD_AT };
  });
  return { kind: "object", entries };
}

/** folded is the start of a long value, as shown before it unfolds. */
export function folded(text: string): string {
  return text.length > FOLD_AT ? text.slice(0, FOLD_AT) + "…" : text;
}
