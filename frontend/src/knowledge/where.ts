// Where a search hit comes from, as the line under its title says it (and
// the reader's line under its heading): the file, the record, the page or
// slide, the heading. What the title above already says is not said again.
import type { SearchHit } from "../api/gotypes.gen";
import { t } from "../i18n/i18n.svelte";
import { baseName } from "./progress";
import { pageLabel } from "./units";

export interface WherePart {
  key: "file" | "record" | "page" | "heading";
  text: string;
}

/** hitName is the name a hit's first line shows: its document's title, else its file's. */
export function hitName(h: Pick<SearchHit, "title" | "source">): string {
  return h.title || baseName(h.source);
}

/**
 * namedByFile: the title is the file's name, or the name without its
 * extension (the importers' title when a document has none of its own:
 * most text, PDF and office files). The line under it then repeated the
 * name the line above shows ("notes" over "notes.txt"); the kind beside
 * the title says what the extension said, and the file's path is the
 * title's tooltip.
 */
function namedByFile(name: string, file: string): boolean {
  const dot = file.lastIndexOf(".");
  return name === file || (dot > 0 && name === file.slice(0, dot));
}

/** whereOf says where a hit comes from: file, record id, page, heading. */
export function whereOf(h: SearchHit): WherePart[] {
  const parts: WherePart[] = [];
  if (h.file && !namedByFile(hitName(h), h.file)) parts.push({ key: "file", text: h.file });
  if (h.record_id && h.record_id !== h.title) parts.push({ key: "record", text: t("knowledge.recordId", { id: h.record_id }) });
  if (h.page) parts.push({ key: "page", text: pageLabel(h.page, h.unit) });
  if (h.heading && h.heading !== h.title) parts.push({ key: "heading", text: h.heading });
  return parts;
}
