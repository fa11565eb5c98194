// Turns ErrorInfo into words for the person, in their language.
import type { ErrorInfo } from "../api/errors";
import { isKey, t, type MessageKey } from "../i18n/i18n.svelte";

const titles: Record<string, MessageKey> = {
  ollama_unreachable: "error.ollama_unreachable",
  model_missing: "error.model_missing",
  model_no_tools: "error.model_no_tools",
  model_out_of_memory: "error.model_out_of_memory",
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
  session_not_found: "error.session_not_found",
  memory_not_found: "error.memory_not_found",
  document_not_found: "error.document_not_found",
  folder_not_found: "error.folder_not_found",
  folder_not_granted: "error.folder_not_granted",
  no_such_method: "error.no_such_method",
  title_empty: "error.title_empty",
  title_too_long: "error.title_too_long",
  memory_empty: "error.memory_empty",
  memory_too_long: "error.memory_too_long",
  memory_kind_unknown: "error.memory_kind_unknown",
  settings_invalid: "error.settings_invalid",
  not_a_folder: "error.not_a_folder",
  nothing_to_import: "error.nothing_to_import",
  unknown_category: "error.unknown_category",
  upload_no_name: "error.upload_no_name",
  upload_too_large: "error.upload_too_large",
  upload_damaged: "error.upload_damaged",
  model_name_empty: "error.model_name_empty",
  desktop_only: "error.desktop_only",
  feedback_empty: "error.feedback_empty",
  unknown_decision: "error.unknown_decision",
  bad_request: "error.bad_request",
  plan_waiting: "error.plan_waiting",
  tool_call_waiting: "error.tool_call_waiting",
  no_plan_waiting: "error.no_plan_waiting",
  nothing_to_retry: "error.nothing_to_retry",
  foreign_page: "error.foreign_page",
  disk_full: "error.disk_full",
  data_folder_read_only: "error.data_folder_read_only",
  plan_changed: "error.plan_changed",
  tool_call_changed: "error.tool_call_changed",
  import_not_export: "error.import_not_export",
  import_invalid: "error.import_invalid",
  zim_relative: "error.zim_relative",
  zim_missing: "error.zim_missing",
  zim_not_zim: "error.zim_not_zim",
  zim_damaged: "error.zim_damaged",
  zim_unreadable: "error.zim_unreadable",
};

export interface ErrorText {
  title: string;
  detail: string;
  hint: string;
}

/**
 * errorText is an error in the person's language. The title comes from
 * the code; so does the hint when the catalogs have one for it
 * ("error.<code>.hint"), since the backend writes its hints in English
 * only. A backend message that only says what the title says in another
 * language is dropped for codes with a hint of their own; "advice" keys
 * translate the hint and keep the message, which names a host or model.
 */
export function errorText(info: ErrorInfo): ErrorText {
  let key = titles[info.code] ?? "error.internal";
  // A refused decision with nothing waiting any more was simply decided first.
  if ((info.code === "plan_changed" || info.code === "tool_call_changed") && !info.awaiting) key = "error.decided_already";
  const hintKey = `${key}.hint`;
  if (isKey(hintKey)) return { title: t(key), detail: "", hint: t(hintKey) };
  // Advice in the person's language beside a message whose particulars
  // (a host, a model) the title lacks: the message stays, as the detail.
  const adviceKey = `${key}.advice`;
  if (isKey(adviceKey)) return { title: t(key), detail: info.message, hint: t(adviceKey) };
  return { title: t(key), detail: info.message, hint: info.hint ?? "" };
}
