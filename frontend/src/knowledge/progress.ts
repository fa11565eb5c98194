// How far one file of an import is, for its progress bar. Stages come from
// the backend (waiting, reading, chunking, indexing, embedding, done, skipped,
// duplicate, failed, stopped: the person stopped its import, and nothing of
// the file was added).
import type { FileReason, ImportProgress } from "../api/gotypes.gen";

export interface FileProgress {
  /** unique among imports: the same file may be in two of them */
  key: string;
  /** the import the file belongs to, for its Stop button */
  importID: string;
  file: string;
  stage: string;
  /** percent 0-100 */
  percent: number;
  pages: number;
  /** what pages counts: "page", or "slide" for a presentation */
  unit: string;
  chunks: number;
  /** in stage "indexing": how many of chunks have their words indexed */
  indexed: number;
  error: string;
  /** error in parts the view words in the person's language (reasons.ts) */
  reason: FileReason | null;
  finished: boolean;
  /** an upload that replaced an earlier one of its name */
  replaced: boolean;
  /** stopped while it embedded: the file is in, found by its words; the rest is embedded later */
  embedStopped: boolean;
  /** Ollama did not answer an embedding of its import in time: the file is in, found by its words, embedded in the background */
  embedLater: boolean;
  /** another file was added while it embedded: it is in, found by its words, and embeds in the background while that one is read */
  embedHandedOn: boolean;
  /** the background embedding of a file embedded later (or stopped while it embedded) is done (knowledge.embedded) */
  caughtUp: boolean;
  /** its embedding waits for the person's chat turn to end (the backend's pace), then goes on */
  waiting: boolean;
  /** waiting for its turn: the file (name) the import holding the library reads now; "" when not known */
  waitingFor: string;
  /** how many files its import has (its Stop button stops them all) */
  filesTotal: number;
  /** the title of the document that had this upload's content already */
  duplicateOf: string;
  /** what was imported but not as it was (invalid bytes, by line) */
  warnings: string[];
  /** the warnings in parts, one for each (null: no words of the view's own) */
  warningReasons: (FileReason | null)[];
}

const FINISHED = new Set(["done", "skipped", "duplicate", "failed", "stopped"]);

export function progressOf(p: ImportProgress): FileProgress {
  let percent = 0;
  switch (p.stage) {
    case "reading":
      percent = 10;
      break;
    case "chunking":
      percent = 30;
      break;
    case "indexing": // a large file's words take seconds to index
      percent = 30 + (p.chunks > 0 ? Math.min(1, (p.indexed ?? 0) / p.chunks) * 10 : 0);
      break;
    case "embedding":
      percent = 40 + (p.chunks > 0 ? Math.min(1, p.embedded / p.chunks) * 55 : 0);
      break;
    case "stopped":
      percent = 0; // nothing of the file was added
      break;
    case "done":
    case "skipped":
    case "duplicate":
    case "failed":
      percent = 100;
      break;
    default:
      percent = 5;
  }
  return {
    key: `${p.import_id}\u0000${p.file}`,
    importID: p.import_id,
    file: p.file,
    stage: p.stage,
    percent: Math.round(percent),
    pages: p.pages,
    unit: p.unit ?? "page",
    chunks: p.chunks,
    indexed: p.indexed ?? 0,
    error: p.error ?? "",
    reason: p.reason ?? null,
    finished: FINISHED.has(p.stage),
    replaced: p.replaced ?? false,
    embedStopped: p.embed_stopped ?? false,
    embedLater: p.embed_later ?? false,
    embedHandedOn: p.embed_handed_on ?? false,
    caughtUp: false,
    waiting: p.waiting ?? false,
    waitingFor: p.stage === "waiting" ? (p.waiting_for ?? "") : "",
    filesTotal: p.files_total,
    duplicateOf: p.duplicate_of ?? "",
    warnings: p.warnings ?? [],
    warningReasons: (p.warnings ?? []).map((_, i) => (p.warning_reasons?.[i]?.code ? p.warning_reasons[i]! : null)),
  };
}

/** baseName shows a path's last part (both / and \ separators). */
export function baseName(path: string): string {
  const parts = path.split(/[\\/]/).filter(Boolean);
  return parts.at(-1) ?? path;
}

/** formatBytes: 1536 → "1.5 KB". */
export function formatBytes(n: number, locale = "en-US"): string {
  const units = ["B", "KB", "MB", "GB"];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: u === 0 ? 0 : 1 }).format(v)} ${units[u]}`;
}
