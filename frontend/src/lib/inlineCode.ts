// Hints written for the terminal mark commands with backticks
// ("run `ollama serve`"); the window shows those as code, never the
// backticks themselves. An unpaired backtick is left as it is.
export type Part = { text: string; code: boolean };

export function inlineCode(text: string): Part[] {
  const parts: Part[] = [];
  const re = /`([^`\n]+)`/g;
  let at = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > at) parts.push({ text: text.slice(at, m.index), code: false });
    parts.push({ text: m[1]!, code: true });
    at = m.index + m[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at), code: false });
  return parts;
}

/**
 * breakable splits a file name after its separators (_ - . / and spaces)
 * so that a long name wraps there, between words, and not mid-word.
 */
export function breakable(name: string): string[] {
  return name.split(/(?<=[_\-./\\\s])/);
}
