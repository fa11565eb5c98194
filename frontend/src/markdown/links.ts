// Which links in an answer are safe to open at a click (issue 22.2). A
// model that read a hostile document can put any address in its answer —
// an API key in the query of a link to the attacker's site, a look-alike
// of a real site. A link is known when its host is one the person wrote
// in the conversation or one a passage the answer cites contains (the
// source's own address, or an address in its text); subdomains of such a
// host count too. Any other link opens only after the person has seen its
// full address and a warning.
import type { Source } from "../api/gotypes.gen";

// Addresses and bare domains ("vrew.ai", "www.canva.com/pricing") in text.
const URL_RE = /\bhttps?:\/\/[^\s<>"'`)\]]+/gi;
// (No lookbehind: older WebKitGTK builds refuse it, and the window would
// not start.)
const DOMAIN_RE = /(^|[^@\w.-])((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24})(?![\w@-]|\.\w)/gi;

/** hostOf is the host of an http(s) address, lower-cased, without "www."; "" for anything else. */
export function hostOf(url: string): string {
  try {
    const u = new URL(url);
    if (u.protocol !== "http:" && u.protocol !== "https:") return "";
    return u.hostname.toLowerCase().replace(/^www\./, "").replace(/\.$/, "");
  } catch {
    return "";
  }
}

/** hostsIn lists the hosts of the addresses and bare domains written in text. */
export function hostsIn(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(URL_RE)) {
    const h = hostOf(m[0]);
    if (h) out.add(h);
  }
  for (const m of text.matchAll(DOMAIN_RE)) out.add(m[2]!.toLowerCase().replace(/^www\./, ""));
  return [...out];
}

/** knownHosts are the hosts the person wrote and those the cited sources contain. */
export function knownHosts(personTexts: string[], cited: Source[]): Set<string> {
  const known = new Set<string>();
  for (const t of personTexts) for (const h of hostsIn(t)) known.add(h);
  for (const s of cited) {
    const h = hostOf(s.url ?? "");
    if (h) known.add(h);
    for (const x of hostsIn(`${s.title}\n${s.snippet}`)) known.add(x);
  }
  return known;
}

/** isKnownLink: an http(s) link whose host (or a parent of it) is known. */
export function isKnownLink(url: string, known: ReadonlySet<string>): boolean {
  const h = hostOf(url);
  if (!h) return false;
  for (let d = h; d.includes("."); d = d.slice(d.indexOf(".") + 1)) if (known.has(d)) return true;
  return false;
}
