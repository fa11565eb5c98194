// The line under a search hit's title says where the hit comes from,
// without the file's name when the title above is that name already.
import { describe, expect, it } from "vitest";
import type { SearchHit } from "../api/gotypes.gen";
import { setLang } from "../i18n/i18n.svelte";
import { hitName, whereOf } from "./where";

const hit = (h: Partial<SearchHit>): SearchHit => ({ id: "d:0", doc_id: "d", title: "", source: "", kind: "text", score: 1, text: "", snippet: "", words: true, meaning: false, ...h });

describe("whereOf", () => {
  setLang("en");
  const cases: { name: string; hit: SearchHit; title: string; where: string[] }[] = [
    { name: "titled by the file's name without its extension", hit: hit({ title: "notes", file: "notes.txt", source: "/u/notes.txt" }), title: "notes", where: [] },
    { name: "titled by the file's whole name", hit: hit({ title: "notes.txt", file: "notes.txt", source: "/u/notes.txt" }), title: "notes.txt", where: [] },
    { name: "untitled: named by its file", hit: hit({ file: "메모.md", source: "/u/메모.md", page: 2 }), title: "메모.md", where: ["page 2"] },
    { name: "a title of its own keeps the file", hit: hit({ title: "Leave policy", file: "leave.md", source: "/u/leave.md", heading: "Leave policy › Annual" }), title: "Leave policy", where: ["leave.md", "Leave policy › Annual"] },
    { name: "a title that only starts like the file keeps it", hit: hit({ title: "notes", file: "notes.v2.txt", source: "/u/notes.v2.txt" }), title: "notes", where: ["notes.v2.txt"] },
    { name: "a dot-file is not a name and an extension", hit: hit({ title: "", file: ".notes", source: "/u/.notes" }), title: ".notes", where: [] },
    { name: "a record under its file", hit: hit({ title: "Leave", file: "records.jsonl", record_id: "r-1", source: "/u/records.jsonl" }), title: "Leave", where: ["records.jsonl", "id r-1"] },
    { name: "a heading that is the title is not said twice", hit: hit({ title: "Rules", file: "rules.md", source: "/u/rules.md", heading: "Rules" }), title: "Rules", where: ["rules.md"] },
    { name: "a copy under another name, by its name", hit: hit({ title: "report", file: "report.pdf", source: "/u/report.pdf", page: 3, copies: [{ doc_id: "c", file: "report (1).pdf", source: "/u/report (1).pdf" }] }), title: "report", where: ["page 3", "also: report (1).pdf"] },
    { name: "a copy of the same name, by its folder too", hit: hit({ title: "report", file: "report.pdf", source: "/u/Documents/report.pdf", copies: [{ doc_id: "c", file: "report.pdf", source: "/u/Backup/report.pdf" }] }), title: "report", where: ["also: Backup/report.pdf"] },
    { name: "several copies: the first and how many more", hit: hit({ title: "Leave", file: "notes.jsonl", record_id: "r-1", source: "/u/notes.jsonl", copies: [{ doc_id: "c1", file: "notes copy.jsonl", source: "/u/notes copy.jsonl" }, { doc_id: "c2", file: "notes.jsonl", source: "/old/notes.jsonl" }] }), title: "Leave", where: ["notes.jsonl", "id r-1", "also: notes copy.jsonl and 1 more"] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(hitName(c.hit)).toBe(c.title);
      expect(whereOf(c.hit).map((p) => p.text)).toEqual(c.where);
    });
  }

  it("names every copy's path in the tooltip, in English and Korean", () => {
    const h = hit({ title: "report", file: "report.pdf", source: "/u/report.pdf", copies: [{ doc_id: "c1", file: "report (1).pdf", source: "/u/report (1).pdf" }, { doc_id: "c2", file: "report.pdf", source: "/b/report.pdf" }] });
    try {
      const part = whereOf(h).find((p) => p.key === "copies");
      expect(part?.title).toBe("The same file is also kept at:\n/u/report (1).pdf\n/b/report.pdf");
      setLang("ko");
      const ko = whereOf(h).find((p) => p.key === "copies");
      expect(ko?.text).toBe("같은 파일: report (1).pdf 외 1개");
      expect(ko?.title).toBe("같은 파일이 다음 위치에도 있습니다:\n/u/report (1).pdf\n/b/report.pdf");
      expect(whereOf({ ...h, copies: [h.copies![0]!] }).at(-1)?.text).toBe("같은 파일: report (1).pdf");
    } finally {
      setLang("en");
    }
  });
});
