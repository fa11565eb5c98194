// Turns ErrorInfo into words for the person, in their language.
import type { ErrorInfo } from "../api/errors";
import { everyLang, isKey, t, type MessageKey } from "../i18n/i18n.svelte";

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

/** rawCodes: faults whose message is Go's or the server's own words, not a sentence for the person. */
const rawCodes = new Set<string>(["internal", "bad_request", "no_such_method"]);

export interface ErrorText {
  title: string;
  detail: string;
  hint: string;
  /**
   * cause is the raw words of Ollama or the system behind the error
   * (ErrorInfo.args.reason), shown muted under a detail worded in the
   * person's language: it is what a search or a bug report needs.
   */
  cause: string;
}

/**
 * filled is the catalogs' sentence for key with every blank filled from
 * args, or "" when there is no such key or args lack one of its blanks
 * (an older backend, a stored error): the caller then keeps the backend's
 * English words rather than show a sentence with a hole. The values are
 * data: a backtick in one (a path, a model name) is dropped, so it cannot
 * open or close the hint's `command` markup.
 */
export function filled(key: string, args: Record<string, string>): string {
  if (!isKey(key)) return "";
  const blanks = [...t(key).matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  if (blanks.some((b) => !args[b])) return "";
  const data: Record<string, string> = {};
  for (const b of blanks) data[b] = args[b]!.replaceAll("`", "");
  return t(key, data);
}

/**
 * errorText is an error in the person's language. The title comes from
 * the code. The backend sends the particulars in parts (ErrorInfo.args: a
 * model, a host, a path, and "case" when a code covers several
 * situations), and the catalogs word them: "error.<code>.case.<case>" or
 * "error.<code>.detail" in place of the English message, and the same
 * key + ".hint" (else "error.<code>.hint") in place of the English hint,
 * each only when args fill all its blanks. A code whose hint has no
 * blanks needs no message either: it only says what the title says
 * ("error.<code>.advice" instead keeps the message, which names a host or
 * a model, for a backend that sends no args). A raw cause (Ollama's own
 * words, args.reason) stays beside a worded detail, as its muted last line.
 */
export function errorText(info: ErrorInfo): ErrorText {
  let key = titles[info.code] ?? "error.internal";
  // A refused decision with nothing waiting any more was simply decided first.
  if ((info.code === "plan_changed" || info.code === "tool_call_changed") && !info.awaiting) key = "error.decided_already";
  const args = { ...info.args };
  // A refused Save counts the values marked beside their fields.
  if (info.fields?.length) args.count = String(info.fields.length);
  const title = t(key);
  if (info.code === "import_invalid") importParticulars(args);
  const caseKey = args.case ? `${key}.case.${args.case}` : "";
  // A case with a check says which of its checks failed ("the role of
  // message 1"), where it has words for it; else the case's own sentence.
  const checkKey = caseKey && args.check ? `${caseKey}.${args.check}` : "";
  const worded = (checkKey && filled(checkKey, args)) || (caseKey && filled(caseKey, args)) || filled(`${key}.detail`, args);
  const hinted = (caseKey && filled(`${caseKey}.hint`, args)) || filled(`${key}.hint`, args);
  const hint = hinted || filled(`${key}.advice`, args) || info.hint || "";
  const cause = args.reason && args.reason !== info.message ? args.reason : "";
  if (worded) return { title, detail: worded, hint, cause };
  // No particulars worded: a code with a hint of its own drops the message
  // (it repeats the title); one with only advice keeps it as the detail.
  if (hinted) return { title, detail: "", hint, cause };
  // The particulars arrived only as the raw cause: the title says the rest.
  if (cause && isKey(`${key}.advice`)) return { title, detail: "", hint, cause };
  // A fault of Wayfinder or of the page itself: the message is the raw
  // text behind it (a bug report needs it), shown as the muted cause.
  if (rawCodes.has(info.code) && info.message.trim()) return { title, detail: "", hint, cause: info.message };
  // A message that is only the title in English says nothing more.
  const detail = everyLang(key as MessageKey).includes(info.message.trim()) ? "" : info.message;
  return { title, detail, hint, cause: "" };
}

/**
 * importParticulars words the particulars of a refused import that are
 * words themselves: where in a conversation (message 3, or other answer 2
 * of message 3: args.msg, args.variant) and the kinds of JSON value
 * (want, got: "array", "number 1.5") in the person's language, as
 * backend/app/cli_reasons.go's importParticulars does for the terminal.
 */
function importParticulars(args: Record<string, string>): void {
  if (args.msg && !args.where) args.where = filled(args.variant ? "error.import_invalid.where.variant" : "error.import_invalid.where.message", args);
  for (const k of ["want", "got"]) {
    const [kind = "", ...rest] = (args[k] ?? "").split(" ");
    const word = kind && filled(`error.import_invalid.json.${kind}`, {});
    if (word) args[k] = [word, ...rest].join(" ");
  }
}
