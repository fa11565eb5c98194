// Why a file was not imported, in the person's language. The backend sends
// the failures it can name in parts (FileReason: a PDF over one of its
// limits, locked, without text, damaged); any other keeps the backend's
// sentence, without the "import "<path>": " the Go side wraps it in (the
// file's name is shown beside it, and an upload's path is a temporary one).
import type { FileReason } from "../api/gotypes.gen";
import { isKey, t } from "../i18n/i18n.svelte";

export function failureText(error: string, reason?: FileReason | null): string {
  if (reason) {
    const key = reason.code === "pdf_limit" ? `knowledge.reason.pdf_limit.${reason.limit ?? ""}` : `knowledge.reason.${reason.code}`;
    if (isKey(key)) return t(key, { page: reason.page ?? 0, max: reason.max ?? "" });
  }
  return error.replace(/^import ".*?": /, "");
}
