// A search hit that stands for copies of its file (the same bytes under
// another name or in another folder, shown once) says so on the line under
// its title, quietly, with every copy's path in its tooltip; a hit without
// copies says nothing of them.
import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import type { KnowledgeApi } from "../api/knowledge";
import type { SearchHit } from "../api/gotypes.gen";
import { setLang } from "../i18n/i18n.svelte";
import KnowledgeView from "./KnowledgeView.svelte";
import { KnowledgeStore } from "./store.svelte";

let c: ReturnType<typeof mount> | undefined;
afterEach(() => {
  if (c) unmount(c);
  c = undefined;
  document.body.innerHTML = "";
  setLang("en");
});

const hits: SearchHit[] = [
  {
    id: "r:0", doc_id: "r", file: "report.pdf", title: "report", source: "/home/me/Documents/report.pdf", kind: "pdf", page: 2, unit: "page", score: 0.9, words: true, meaning: false,
    text: "Quarterly budget review.", snippet: "Quarterly budget review.",
    copies: [{ doc_id: "r1", file: "report (1).pdf", source: "/home/me/Downloads/report (1).pdf" }],
  },
  { id: "m:0", doc_id: "m", file: "memo.md", title: "memo", source: "/home/me/memo.md", kind: "markdown", score: 0.5, words: true, meaning: false, text: "Budget memo.", snippet: "Budget memo." },
];

/** searchFor mounts the Knowledge screen, searches and returns the hits' elements. */
async function searchFor(lang: "en" | "ko"): Promise<HTMLElement[]> {
  setLang(lang);
  const api = { documents: async () => [], search: async () => hits, categories: async () => [], catalog: async () => [] } as unknown as KnowledgeApi;
  const store = new KnowledgeStore(api);
  const target = document.createElement("div");
  document.body.appendChild(target);
  c = mount(KnowledgeView, { target, props: { store } });
  flushSync();
  document.querySelector<HTMLButtonElement>("#kb-tab-search")!.click();
  await store.search("budget");
  flushSync();
  await vi.waitFor(() => expect(document.querySelectorAll(".hits > li").length).toBe(2));
  return [...document.querySelectorAll<HTMLElement>(".hits > li")];
}

describe("a hit with copies of its file", () => {
  it("says where else the file is, in English", async () => {
    const [report, memo] = await searchFor("en");
    const part = report!.querySelector<HTMLElement>("[data-testid=hit-where] [data-part=copies]");
    expect(part?.textContent).toBe("also: report (1).pdf");
    expect(part?.title).toBe("The same file is also kept at:\n/home/me/Downloads/report (1).pdf");
    expect(report!.querySelector("[data-part=page]")?.textContent).toBe("page 2");
    expect(memo!.querySelector("[data-part=copies]")).toBeNull();
  });

  it("says it in Korean", async () => {
    const [report] = await searchFor("ko");
    const part = report!.querySelector<HTMLElement>("[data-part=copies]");
    expect(part?.textContent).toBe("같은 파일: report (1).pdf");
    expect(part?.title).toBe("같은 파일이 다음 위치에도 있습니다:\n/home/me/Downloads/report (1).pdf");
  });
});
