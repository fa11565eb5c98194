// Model names as Ollama resolves them, and the order the pickers show them
// in. The UI compared names exactly, so "bge-m3" (the setting) and
// "bge-m3:latest" (what Ollama lists) looked like two models and Settings
// called an installed model "not installed" while `doctor` said it was
// ready; the backend's settings.SameModel is the rule both now follow.
import type { ModelInfo } from "../api/gotypes.gen";
import { formatNumber, isKey, t } from "../i18n/i18n.svelte";

/** normalName is a name with the tag Ollama assumes when there is none. */
function normalName(name: string): string {
  const n = name.trim().toLowerCase();
  return n.includes(":") ? n : `${n}:latest`;
}

/** sameModel tells whether two names mean the same installed model. */
export function sameModel(a: string | undefined, b: string | undefined): boolean {
  return !!a && !!b && normalName(a) === normalName(b);
}

/** findModel is the installed model a name refers to, if any. */
export function findModel(models: ModelInfo[], name: string | undefined): ModelInfo | undefined {
  return models.find((m) => sameModel(m.name, name));
}

/**
 * answerer is the installed model a turn sent to `model` is answered by:
 * that model, else the fallback model named in Settings, which the backend
 * asks when the chosen one is missing (backend/agent/model.go). Sending is
 * held only when neither is installed: the window held it whenever the
 * chosen model was missing, so a fallback never got the chance Settings
 * promises ("answers when the chat model is not downloaded").
 */
export function answerer(models: ModelInfo[], model: string | undefined, fallback: string | undefined): ModelInfo | undefined {
  const own = findModel(models, model);
  if (own || !fallsBack(model, fallback)) return own;
  return findModel(models, fallback);
}

/** fallsBack: Settings name a fallback model other than `model`, which the backend asks when `model` is missing. */
export function fallsBack(model: string | undefined, fallback: string | undefined): boolean {
  return !!fallback?.trim() && !sameModel(fallback, model);
}

/** isChatModel: a model that writes text (embedding-only models do not). */
export function isChatModel(m: ModelInfo): boolean {
  return !m.capabilities.includes("embedding") || m.capabilities.includes("completion");
}

/**
 * chatModels are the installed models that can chat, those that call tools
 * first (Wayfinder needs tools for calculations, documents and
 * recommendations), each group by name.
 */
export function chatModels(models: ModelInfo[]): ModelInfo[] {
  const tools = (m: ModelInfo) => (m.capabilities.includes("tools") ? 0 : 1);
  return models.filter(isChatModel).sort((a, b) => tools(a) - tools(b) || a.name.localeCompare(b.name));
}

/** capLabel words one of Ollama's capabilities in the UI's language. */
export function capLabel(cap: string): string {
  const key = `models.cap.${cap}`;
  return isKey(key) ? t(key) : cap;
}

/**
 * modelSize is a model's download size as `ollama list` gives it (decimal
 * units): gigabytes to one place, and megabytes below one gigabyte, where
 * an embedding model such as all-minilm (46 MB) read "0 GB".
 */
export function modelSize(bytes: number): string {
  if (!(bytes > 0)) return "";
  const mb = Math.max(1, Math.round(bytes / 1e6));
  // The unit is chosen after rounding, as `ollama list` does: 999.7 MB is "1 GB".
  if (mb >= 1000) return `${formatNumber(Math.round(bytes / 1e8) / 10)} GB`;
  return `${formatNumber(mb)} MB`;
}
