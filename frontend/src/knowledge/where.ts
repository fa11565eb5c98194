// Where a search hit comes from, as the line under its title says it (and
// the reader's line under its heading): the file, the record, the page or
// slide, the heading, and the other copies of its file the hit stands for.
// What the title above already says is not said again.
import type { SearchCopy, SearchHit } from "../api/gotypes.gen";
import { t } from "../i18n/i18n.svelte";
import { baseName } from "./progress";
import { pageLabel } from "./units";

export interface WherePart {
  key: "file" | "record" | "page" | "heading" | "copies";
  text: string;
  /** title is the part's tooltip, where it says more than its text. */
  title?: string;
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

/**
 * copyName names a copy as the hit's line does: by its file's name, or,
 * where that is the hit's own (the same name in another folder), by its
 * folder too ("Backup/report.pdf"), which is what tells them apart.
 */
function copyName(c: SearchCopy, h: Pick<SearchHit, "source">): string {
  const name = c.file || baseName(c.source);
  if (name !== baseName(h.source)) return name;
  const dir = c.source.slice(0, c.source.length - name.length).replace(/[\\/]+$/, "");
  const folder = baseName(dir);
  return folder ? `${folder}/${name}` : name;
}

/**
 * copiesPart says, quietly, that the hit's file is kept in other places
 * too (the same bytes under another name or in another folder; the search
 * shows its passage once): the first copy by name and how many more, the
 * full path of each in its tooltip.
 */
function copiesPart(h: SearchHit): WherePart | undefined {
  const copies = h.copies ?? [];
  if (!copies.length) return undefined;
  const name = copyName(copies[0]!, h);
  const text = copies.length === 1 ? t("knowledge.copiesOne", { name }) : t("knowledge.copiesMany", { name, n: copies.length - 1 });
  return { key: "copies", text, title: [t("knowledge.copiesTitle"), ...copies.map((c) => c.source)].join("\n") };
}

/** whereOf says where a hit comes from: file, record id, page, heading, its copies. */
export function whereOf(h: SearchHit): WherePart[] {
  const parts: WherePart[] = [];
  if (h.file && !namedByFile(hitName(h), h.file)) parts.push({ key: "file", text: h.file, title: h.source });
  if (h.record_id && h.record_id !== h.title) parts.push({ key: "record", text: t("knowledge.recordId", { id: h.record_id }) });
  if (h.page) parts.push({ key: "page", text: pageLabel(h.page, h.unit) });
  if (h.heading && h.heading !== h.title) parts.push({ key: "heading", text: h.heading });
  const copies = copiesPart(h);
  if (copies) parts.push(copies);
  return parts;
}
