// A model download's progress line in the person's language. Ollama
// reports each stage of a pull in fixed English words (its /api/pull
// stream: "pulling manifest", "pulling <digest>", "verifying sha256
// digest", "writing manifest", "removing any unused layers", "success";
// Wayfinder adds "error" and "cancelled" to the last event): they are
// codes of Ollama's protocol, worded here, never shown as they are.
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
