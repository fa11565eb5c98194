// What people tune (a system prompt, the temperature, the context size),
// checked the way the backend checks it (backend/settings), so a mistake is
// pointed at in place.
export const MAX_TEMPERATURE = 2;
export const MIN_CONTEXT = 2048;
export const MAX_CONTEXT = 262144;
export const MAX_SYSTEM_PROMPT = 4000;

export type TuningProblem = "prompt" | "temperature" | "context";

/** checkTuning: zeroContext allows 0 (the model's own context size). */
export function checkTuning(prompt: string | null | undefined, temperature: number | null | undefined, context: number | null | undefined, zeroContext: boolean): TuningProblem[] {
  const out: TuningProblem[] = [];
  if (prompt != null && [...prompt.trim()].length > MAX_SYSTEM_PROMPT) out.push("prompt");
  if (temperature != null && (!Number.isFinite(Number(temperature)) || Number(temperature) < 0 || Number(temperature) > MAX_TEMPERATURE)) out.push("temperature");
  if (context != null) {
    const n = Number(context);
    if (!(zeroContext && n === 0) && (!Number.isInteger(n) || n < MIN_CONTEXT || n > MAX_CONTEXT)) out.push("context");
  }
  return out;
}

/** TuningValue is the form's state; null follows the global value (a
 * conversation), or, for the global temperature, the model's default. */
export interface TuningValue {
  prompt: string | null;
  temperature: number | null;
  context: number | null;
}
