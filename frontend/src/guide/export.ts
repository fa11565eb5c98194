// Builds the Markdown file a person exports: the guide as written, then the
// recommendations and the sources its numbered citations point at.
import type { Recommendation, Source, SubTask } from "../api/gotypes.gen";
import { withoutSourcesList } from "./citations";

export interface ExportInput {
  title: string;
  guide: string;
  recommendations?: Recommendation[];
  sources?: Source[];
  /** steps names sub-tasks by id for the recommendation table. */
  steps?: SubTask[];
  labels: {
    recommendations: string;
    sources: string;
    step: string;
    tool: string;
    pricing: string;
    link: string;
    /** page names a source's page or slide: "p. 3", "slide 3" (knowledge/units pageShort). */
    page: (page: number, unit: string | undefined) => string;
    exported: string;
  };
  date: Date;
}

/** cell makes text safe inside a Markdown table cell. */
function cell(s: string): string {
  return s.replace(/\r?\n/g, " ").replace(/\|/g, "\\|").trim();
}

function quote(s: string): string {
  return s.trim().split(/\r?\n/).map((l) => `> ${l}`).join("\n");
}

export function exportMarkdown(x: ExportInput): string {
  const out: string[] = [];
  const guide = withoutSourcesList(x.guide).trim();
  if (!/^#\s/.test(guide)) out.push(`# ${x.title.trim() || "Wayfinder"}`, "");
  out.push(guide, "");
  const recs = x.recommendations ?? [];
  if (recs.length) {
    out.push(`## ${x.labels.recommendations}`, "");
    out.push(`| ${x.labels.step} | ${x.labels.tool} | ${x.labels.pricing} | ${x.labels.link} |`, "|---|---|---|---|");
    for (const r of recs) {
      const step = x.steps?.find((s) => s.id === r.subtask_id)?.title ?? r.subtask_id;
      out.push(`| ${cell(step)} | ${cell(r.tool)} | ${cell(r.pricing || "—")} | ${r.url ? `<${r.url.replace(/>/g, "%3E")}>` : "—"} |`);
    }
    out.push("");
  }
  const sources = x.sources ?? [];
  if (sources.length) {
    out.push(`## ${x.labels.sources}`, "");
    sources.forEach((s, i) => {
      const where = [s.title || s.source, s.page ? x.labels.page(s.page, s.unit) : "", s.heading ?? ""].filter(Boolean).join(" · ");
      out.push(`${i + 1}. ${where}${s.url ? ` — <${s.url}>` : ""}`);
      if (s.snippet.trim()) out.push("", quote(s.snippet).replace(/^/gm, "   "), "");
    });
    out.push("");
  }
  out.push("---", `${x.labels.exported} ${x.date.toISOString().slice(0, 10)}`, "");
  return out.join("\n").replace(/\n{3,}/g, "\n\n");
}

/** fileName turns a title into a safe file name (Korean kept). */
export function fileName(title: string): string {
  const base = title
    .normalize("NFC")
    .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, " ")
    .trim()
    .replace(/\s+/g, "-")
    .slice(0, 60)
    .replace(/^[-.]+|[-.]+$/g, "");
  return `${base || "wayfinder-guide"}.md`;
}
