// Checks on the settings form before Save, so a mistyped number or URL is
// pointed at in place instead of being refused by the backend.
import type { Settings } from "../api/gotypes.gen";

export const MAX_ITERATIONS = 20;

export type SettingsProblem = "host" | "iterations" | "web_url" | "wiki_zim" | "wiki_source";

/** isAbsolutePath: /home/…, C:\… or \\server\… — the ZIM file is named in full. */
export function isAbsolutePath(p: string): boolean {
  return /^(\/|[A-Za-z]:[\\/]|\\\\)/.test(p);
}

export function checkSettings(s: Settings): SettingsProblem[] {
  const out: SettingsProblem[] = [];
  // One address, or several separated by commas (the calls are shared).
  const hosts = s.ollama_host.split(",").map((h) => h.trim()).filter((h) => h !== "");
  if (hosts.length === 0 || hosts.some((h) => !/^https?:\/\/[^\s/]+/i.test(h) && !/^[\w.-]+(:\d+)?$/.test(h))) out.push("host");
  const n = Number(s.max_iterations);
  if (!Number.isInteger(n) || n < 1 || n > MAX_ITERATIONS) out.push("iterations");
  if (s.web_search_enabled && !/^https?:\/\/[^\s/]+/i.test(s.web_search_url.trim())) out.push("web_url");
  const zim = (s.wikipedia_zim ?? "").trim();
  if (zim && !isAbsolutePath(zim)) out.push("wiki_zim");
  if (s.wikipedia_enabled && !zim && !s.wikipedia_online) out.push("wiki_source");
  return out;
}
