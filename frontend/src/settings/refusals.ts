// A Save the backend refused says why beside each field (ErrorInfo.fields:
// the field's JSON name, a code and its particulars), in the person's
// language: the backend's English sentence is never shown there.
import type { FieldProblem } from "../api/gotypes.gen";
import type { ErrorInfo } from "../api/errors";
import { filled } from "../lib/errors";
import { t, type MessageKey } from "../i18n/i18n.svelte";
import type { TuningProblem } from "./tuning";

/** fieldIds: where the Settings dialog shows each field the backend may refuse. */
export const fieldIds: Record<string, string> = {
  ollama_host: "set-host",
  chat_model: "set-chat",
  fallback_model: "set-fallback",
  embed_model: "set-embed",
  language: "set-lang",
  theme: "set-theme",
  max_iterations: "set-iter",
  system_prompt: "set-tune-prompt",
  temperature: "set-tune-temp",
  context_tokens: "set-tune-ctx",
  web_search_url: "set-web-url",
  wikipedia_zim: "set-wiki-zim",
};

/** tuningFields: the fields the Tuning component shows, as its problems. */
export const tuningFields: Record<string, TuningProblem> = { system_prompt: "prompt", temperature: "temperature", context_tokens: "context" };

// Refusals that say the same as the dialog's own checks use their words.
const same: Record<string, MessageKey> = { web_url: "settings.webSearchUrlInvalid", wiki_source: "settings.wikipediaNeedsSource" };

/** refusalText is why a field was refused, in the person's language. */
export function refusalText(p: FieldProblem): string {
  const args = p.args ?? {};
  if (same[p.code]) return t(same[p.code]!);
  // A ZIM file refused: its error's words (the file is the field's value).
  if (p.code.startsWith("zim_")) {
    const title = filled(`error.${p.code}`, args);
    const hint = filled(`error.${p.code}.hint`, args);
    if (title) return hint ? `${title} ${hint}` : title;
  }
  return filled(`settings.refusal.${p.code}`, args) || t("settings.refusal.other");
}

/** fieldsOf: the refused fields of a failed Save, in the order the backend checked them. */
export function fieldsOf(info: ErrorInfo | null | undefined): FieldProblem[] {
  return info?.fields ?? [];
}
