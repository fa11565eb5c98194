// A large file's words take seconds to index after its chunks are stored
// (stage "indexing"): the Knowledge screen's row and a chat's attach row
// say so with how many of its chunks are done, in English and Korean,
// their bars move, and Stop stops it (nothing of the file is kept).
import { afterEach, describe, expect, it, vi } from "vitest";
import { $, attach, cleanup, click, openKnowledge, start } from "../testing/ui";
import { setLang } from "../i18n/i18n.svelte";
import { progressOf } from "./progress";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const words = {
  en: { row: "Indexing its words · 8,000 of 34,796 chunks", stop: "Stop importing words-big.txt", stopped: "Stopped — nothing of this file was added" },
  ko: { row: "단어를 색인하는 중 · 조각 34,796개 중 8,000개", stop: "words-big.txt 가져오기 중지", stopped: "중지했습니다 — 이 파일은 아무것도 추가하지 않았습니다" },
};

describe("indexing a file's words", () => {
  for (const lang of ["en", "ko"] as const) {
    it(`the Knowledge screen's row says how many chunks' words are indexed (${lang})`, async () => {
      const { fake } = await start({ settings: { language: lang } });
      setLang(lang);
      await openKnowledge();
      const ev = (indexed: number) => ({ import_id: "imp-big", file: "/home/you/big.txt", stage: "indexing", pages: 0, chunks: 34796, indexed, embedded: 0, file_index: 1, files_total: 1 });
      fake.emit("knowledge.import", ev(8000));
      const row = () => document.querySelector(".progress li.file[data-stage='indexing']");
      await vi.waitFor(() => expect(row()).not.toBeNull(), { timeout: 5000 });
      expect(row()!.querySelector(".stage")!.textContent).toBe(words[lang].row);
      expect(row()!.querySelector(".bar")!.getAttribute("aria-valuenow")).toBe("32");
      expect(row()!.querySelector("button.stop")).not.toBeNull();
      fake.emit("knowledge.import", ev(34796));
      await vi.waitFor(() => expect(row()!.querySelector(".bar")!.getAttribute("aria-valuenow")).toBe("40"), { timeout: 5000 });
    });

    it(`an attached file's row says it, and Stop leaves nothing of it (${lang})`, async () => {
      const { fake } = await start({ settings: { language: lang } });
      setLang(lang);
      attach([new File(["큰 파일"], "words-big.txt")]);
      const row = () => document.querySelector("[data-testid='attachments'] .pending li[data-stage='indexing']");
      await vi.waitFor(() => expect(row()).not.toBeNull(), { timeout: 5000 });
      expect(row()!.querySelector(".stage")!.textContent).toBe(words[lang].row);
      const stop = row()!.querySelector<HTMLElement>("button.stop")!;
      expect(stop.getAttribute("aria-label")).toBe(words[lang].stop);
      click(stop);
      expect(fake.calls.filter((c) => c.method === "CancelImport")).toHaveLength(1);
      await vi.waitFor(() => expect($("[data-testid='attachments'] .pending li[data-stage='stopped'] .stage").textContent).toBe(words[lang].stopped), { timeout: 3000 });
      expect(Object.values(fake.attached).flat()).toHaveLength(0);
    });
  }

  it("puts the indexing between chunking and embedding on the bar", () => {
    const p = (stage: string, chunks: number, indexed: number, embedded: number) => progressOf({ import_id: "i", file: "/a.txt", stage, pages: 0, chunks, indexed, embedded, file_index: 1, files_total: 1 }).percent;
    expect([p("chunking", 10, 0, 0), p("indexing", 10, 0, 0), p("indexing", 10, 5, 0), p("indexing", 10, 10, 0), p("embedding", 10, 10, 0), p("embedding", 10, 10, 10)]).toEqual([30, 30, 35, 40, 40, 95]);
  });
});
