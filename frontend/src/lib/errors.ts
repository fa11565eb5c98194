// Turns ErrorInfo into words for the person, in their language.
import type { ErrorInfo } from "../api/errors";
import { t, type MessageKey } from "../i18n/i18n.svelte";

const titles: Record<string, MessageKey> = {
  ollama_unreachable: "error.ollama_unreachable",
  model_missing: "error.model_missing",
  model_no_tools: "error.model_no_tools",
  timeout: "error.timeout",
  ollama_error: "error.ollama_error",
  pull_failed: "error.pull_failed",
  bad_model_output: "error.bad_model_output",
  stream_dropped: "error.stream_dropped",
  empty_message: "error.empty_message",
  message_too_long: "error.message_too_long",
  busy: "error.busy",
  not_found: "error.not_found",
  invalid_input: "error.invalid_input",
  internal: "error.internal",
  server_unreachable: "error.server_unreachable",
  unauthorized: "error.unauthorized",
};

export interface ErrorText {
  title: string;
  detail: string;
  hint: string;
}

export function errorText(info: ErrorInfo): ErrorText {
  const key = titles[info.code] ?? "error.internal";
  return { title: t(key), detail: info.message, hint: info.hint ?? "" };
}
