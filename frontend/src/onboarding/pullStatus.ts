// A model download's progress line in the person's language. Ollama
// reports each stage of a pull in fixed English words (its /api/pull
// stream: "pulling manifest", "pulling <digest>", "verifying sha256
// digest", "writing manifest", "removing any unused layers", "success";
// Wayfinder adds "error" and "cancelled" to the last event): they are
// codes of Ollama's protocol, worded here, never shown as they are.
import type { PullProgress } from "../api/gotypes.gen";
import { t, type MessageKey } from "../i18n/i18n.svelte";

const stages: [RegExp, MessageKey][] = [
  [/^pulling manifest$/i, "pull.stage.manifest"],
  [/^(pulling|downloading)\b/i, "pull.stage.download"],
  [/^verifying\b/i, "pull.stage.verify"],
  [/^writing\b/i, "pull.stage.write"],
  [/^removing\b/i, "pull.stage.cleanup"],
  [/^success$/i, "pull.stage.success"],
  [/^error$/i, "pull.stage.error"],
  [/^cancelled$/i, "pull.stage.cancelled"],
];

/** pullStage is what a download is doing now; a status this build does not know reads as downloading. */
export function pullStage(status: string): string {
  const s = status.trim();
  for (const [re, key] of stages) if (re.test(s)) return t(key);
  return t("onboarding.pulling");
}

/**
 * pullShare is the percent of a download done, null while unknown. With
 * several Ollama hosts each downloads the model in turn and Ollama's
 * figures start again for each, so the share is over all of them: host 2
 * of 3 half done is 50%, and the bar moves on instead of starting again.
 */
export function pullShare(p: PullProgress): number | null {
  const part = p.total > 0 ? Math.min(1, p.completed / p.total) : null;
  const hosts = p.hosts ?? 0;
  const at = p.host_index ?? 0;
  if (hosts > 1 && at >= 1) return Math.round(((at - 1 + (part ?? 0)) / hosts) * 100);
  return part === null ? null : Math.round(part * 100);
}

/** pullHost says which host of several is downloading now; "" with one host. */
export function pullHost(p: PullProgress): string {
  if (!p.host || !p.hosts || p.hosts < 2 || !p.host_index) return "";
  return t("pull.host", { n: p.host_index, count: p.hosts, host: p.host });
}
