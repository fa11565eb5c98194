// Why a file was not imported, in the person's language. The backend sends
// the failures it can name in parts (FileReason: a PDF over one of its
// limits, locked, without text, damaged; a kind not read, no text, binary
// data, an unknown encoding, broken JSON, too slow; and the warning about
// characters replaced; a folder's entry not read: a link, a pipe); any other keeps the backend's
// sentence, without the "import "<path>": " the Go side wraps it in (the
// file's name is shown beside it, and an upload's path is a temporary one).
import type { FileReason } from "../api/gotypes.gen";
import { formatNumber, isKey, t } from "../i18n/i18n.svelte";

export function failureText(error: string, reason?: FileReason | null): string {
  if (reason) {
    let key = reason.code === "pdf_limit" ? `knowledge.reason.pdf_limit.${reason.limit ?? ""}` : `knowledge.reason.${reason.code}`;
    if (reason.code === "json_invalid" && !reason.line) key = "knowledge.reason.json_invalid_somewhere";
    if (reason.more && isKey(`${key}.more`)) key += ".more";
    if (isKey(key)) {
      return t(key, { page: reason.page ?? 0, max: grouped(reason.max ?? ""), line: reason.line ?? 0, count: formatNumber(reason.count ?? 0), lines: reason.lines ?? "", target: reason.target ?? "" });
    }
  }
  return error.replace(/^import ".*?": /, "");
}

/** grouped is a limit written as a count ("2000000") with its thousands set apart, as every other count on screen; "384 MB" stays as it is. */
function grouped(max: string): string {
  return /^\d+$/.test(max) ? formatNumber(Number(max)) : max;
}

/** warningText is one of a file's warnings (what was imported but not as it was), in the person's language. */
export function warningText(warning: string, reason?: FileReason | null): string {
  return t("knowledge.warning", { text: failureText(warning, reason) });
}
