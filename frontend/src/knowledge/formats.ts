/**
 * The file extensions Wayfinder reads, for the file pickers of the
 * Knowledge view and of attachments: the importer's own list
 * (backend/knowledge/importer.Extensions; a Go test holds the two equal),
 * so that no readable kind is greyed out in the picker.
 */
export const DOCUMENT_EXTENSIONS = [".csv", ".docx", ".epub", ".htm", ".html", ".hwp", ".hwpx", ".json", ".jsonl", ".log", ".markdown", ".md", ".mdown", ".mkd", ".ndjson", ".odp", ".ods", ".odt", ".pdf", ".pptx", ".rtf", ".text", ".tsv", ".txt", ".xhtml", ".xlsx"];

/** DOCUMENT_ACCEPT is the pickers' accept attribute. */
export const DOCUMENT_ACCEPT = DOCUMENT_EXTENSIONS.join(",");
