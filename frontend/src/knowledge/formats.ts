import { t } from "../i18n/i18n.svelte";

/**
 * The file extensions Wayfinder reads, for the file pickers of the
 * Knowledge view and of attachments: the importer's own list
 * (backend/knowledge/importer.Extensions; a Go test holds the two equal),
 * so that no readable kind is greyed out in the picker.
 */
export const DOCUMENT_EXTENSIONS = [".csv", ".docx", ".epub", ".htm", ".html", ".hwp", ".hwpx", ".json", ".jsonl", ".log", ".markdown", ".md", ".mdown", ".mkd", ".ndjson", ".odp", ".ods", ".odt", ".pdf", ".pptx", ".rtf", ".text", ".tsv", ".txt", ".xhtml", ".xlsx"];

/** DOCUMENT_ACCEPT is the pickers' accept attribute. */
export const DOCUMENT_ACCEPT = DOCUMENT_EXTENSIONS.join(",");

/** The kinds' names a person knows them by (the importer's Kind values as
 *  keys) where they are the same in English and Korean; the others are in
 *  the i18n files, worded as the drop zone's list of formats words them. */
const KIND_NAMES: Record<string, string> = {
  pdf: "PDF", json: "JSON", docx: "Word", epub: "EPUB", pptx: "PowerPoint", xlsx: "Excel", csv: "CSV", rtf: "RTF",
};

/** kindName names a document's kind one way wherever it is shown (the
 *  Knowledge list, search results), as the drop zone's list of formats
 *  does: the list showed "MARKDOWN" where the results showed "markdown".
 *  A kind it does not know is shown as it came. */
export function kindName(kind: string): string {
  switch (kind) {
    case "text": return t("kinds.text");
    case "markdown": return t("kinds.markdown");
    case "html": return t("kinds.html");
    case "hwp": case "hwpx": return t("kinds.hancom", { ext: kind.toUpperCase() });
    case "odt": case "ods": case "odp": return t("kinds.openDocument", { ext: kind.toUpperCase() });
    case "catalog": return t("knowledge.tabCatalog");
  }
  return KIND_NAMES[kind] ?? kind;
}
