// A chat's rows of the files it added to the library are kept by the
// backend, so that a reload (serve mode in a browser, the desktop window
// reloaded) shows them as the window that added them did: paused with
// what is left and its Resume, indexing, in, removed; a dismissed row
// does not come back. A file that became several documents (a file of
// records, an archive) says how many of them were removed on the
// Knowledge screen while any is left, and that it was removed once none
// is, when the Knowledge screen lists none of it either. In English and
// Korean.
import { afterEach, describe, expect, it, vi } from "vitest";
import { $$, attach, cleanup, click, start, stop, attachRows as rows, attachRow as row, attachChip as chip, attachStage as stage, removeOnKnowledgeScreen, openKnowledge } from "../testing/ui";
import type { FakeBackend } from "../testing/fakeBackend";
import { setLang } from "../i18n/i18n.svelte";

afterEach(cleanup);

const words = {
  en: {
    embedding: "Ready for questions · indexing its meaning",
    added: "Added to your library: every conversation finds it by its words and by its meaning",
    addedPaused: "Added to your library: every conversation finds it by its words now; indexing its meaning is paused — 2 of 4 passages left",
    addedEmbedding: "Added to your library: every conversation finds it by its words now; its meaning is indexed in the background",
    addedRemoved: "Added to your library, then removed from it: no conversation finds it any more",
    oneOfThree: "1 of its 3 documents were removed from the library since",
    twoOfThree: "2 of its 3 documents were removed from the library since",
  },
  ko: {
    embedding: "지금 질문할 수 있습니다 · 의미를 색인하는 중",
    added: "지식 베이스에 추가했습니다. 이제 모든 대화에서 키워드와 의미로 찾습니다",
    addedPaused: "지식 베이스에 추가했습니다. 이제 모든 대화에서 키워드로 찾고, 의미 색인은 멈춰 두었습니다 — 구절 4개 중 2개 남음",
    addedEmbedding: "지식 베이스에 추가했습니다. 이제 모든 대화에서 키워드로 찾고, 의미 색인은 뒤에서 이어서 합니다",
    addedRemoved: "지식 베이스에 추가했다가 지웠습니다. 이제 어느 대화에서도 찾지 않습니다",
    oneOfThree: "그 뒤 문서 3개 중 1개를 지식 베이스에서 지웠습니다",
    twoOfThree: "그 뒤 문서 3개 중 2개를 지식 베이스에서 지웠습니다",
  },
} as const;

/** reload unmounts the window and opens it again on the same backend, at conversation sid. */
async function reload(fake: FakeBackend, lang: "en" | "ko", sid: string) {
  stop();
  window.history.replaceState(null, "", `/#s=${sid}`);
  await start({}, fake);
  setLang(lang);
}

/** gone is a row's count of its file's documents removed since, if any. */
const gone = () => row().querySelector(".gone")?.textContent ?? null;

/** addChip adds a conversation's file to the library with its chip's button. */
async function addChip(name: string) {
  await vi.waitFor(() => expect(chip(name)).toBeTruthy(), { timeout: 5000 });
  click(chip(name)!.querySelector<HTMLButtonElement>("button")!);
  await vi.waitFor(() => expect(row().dataset.stage).toBe("library"), { timeout: 5000 });
}

describe("a chat's rows of files it added to the library, after a reload", () => {
  for (const lang of ["en", "ko"] as const) {
    const say = words[lang];
    it(`come back paused with their Resume, then removed, and a dismissed one does not (${lang})`, async () => {
      const { fake } = await start({ settings: { language: lang } });
      setLang(lang);
      attach([new File(["# 큰 보고서"], "slow-report.md")]);
      await vi.waitFor(() => expect(stage().textContent).toBe(say.embedding), { timeout: 5000 });
      click(row().querySelector<HTMLButtonElement>("button.stop")!);
      await vi.waitFor(() => expect(row().dataset.meaning).toBe("stopped"), { timeout: 5000 });
      await addChip("slow-report.md");
      await vi.waitFor(() => expect(stage().textContent).toBe(say.addedPaused), { timeout: 5000 });
      const sid = fake.sessions[0]!.id;

      await reload(fake, lang, sid);
      await vi.waitFor(() => expect(rows()).toHaveLength(1), { timeout: 5000 });
      expect(row().dataset.stage).toBe("library");
      expect(stage().textContent).toBe(say.addedPaused);
      click(row().querySelector<HTMLButtonElement>("button.resume")!);
      await vi.waitFor(() => expect(stage().textContent).toBe(say.addedEmbedding), { timeout: 5000 });

      // Removed on the Knowledge screen, then the window reloaded.
      await removeOnKnowledgeScreen(fake.docs[0]!.id);
      await vi.waitFor(() => expect(stage().textContent).toBe(say.addedRemoved), { timeout: 5000 });
      await reload(fake, lang, sid);
      await vi.waitFor(() => expect(rows()).toHaveLength(1), { timeout: 5000 });
      expect(stage().textContent).toBe(say.addedRemoved);

      // Dismissed, it stays dismissed.
      click(row().querySelector<HTMLButtonElement>("button.link:last-child")!);
      expect(rows()).toHaveLength(0);
      await vi.waitFor(() => expect(fake.promoted).toHaveLength(0), { timeout: 5000 });
      const asks = () => fake.calls.filter((c) => c.method === "AddedToLibrary").length;
      const asked = asks();
      await reload(fake, lang, sid);
      await vi.waitFor(() => expect(asks()).toBeGreaterThan(asked), { timeout: 5000 });
      await new Promise((r) => setTimeout(r, 0));
      expect(rows()).toHaveLength(0);
    }, 30000);

    it(`of a file added while its meaning was indexed, read the same once it is indexed, before and after a reload (${lang})`, async () => {
      const { fake } = await start({ settings: { language: lang } });
      setLang(lang);
      attach([new File(["# 큰 보고서"], "slow-report.md")]);
      await vi.waitFor(() => expect(stage().textContent).toBe(say.embedding), { timeout: 5000 });
      await addChip("slow-report.md");
      await vi.waitFor(() => expect(stage().textContent).toBe(say.addedEmbedding), { timeout: 5000 });
      fake.embedLaterDone(); // its meaning indexed in the background, said in this window
      await vi.waitFor(() => expect(stage().textContent).toBe(say.added), { timeout: 5000 });
      const sid = fake.sessions[0]!.id;

      await reload(fake, lang, sid);
      await vi.waitFor(() => expect(rows()).toHaveLength(1), { timeout: 5000 });
      expect(row().dataset.stage).toBe("library");
      expect(stage().textContent).toBe(say.added);
    }, 30000);

    it(`of a file of three documents, count those removed on the Knowledge screen, and say removed with the last (${lang})`, async () => {
      const { fake } = await start({ settings: { language: lang } });
      setLang(lang);
      attach([new File(['{"_id": "r1"}'], "records.jsonl")]);
      await vi.waitFor(() => expect(chip("records.jsonl")).toBeTruthy(), { timeout: 5000 });
      // Its records are three documents of one file, as the backend reads them.
      const sid = fake.sessions[0]!.id;
      const first = fake.attached[sid]![0]!;
      fake.attached[sid]!.push({ ...first, id: "rec-2", title: "r2" }, { ...first, id: "rec-3", title: "r3" });
      await addChip("records.jsonl");
      await vi.waitFor(() => expect(stage().textContent).toBe(say.added), { timeout: 5000 });
      expect(gone()).toBeNull();

      await removeOnKnowledgeScreen("rec-2");
      await vi.waitFor(() => expect(gone()).toBe(say.oneOfThree), { timeout: 5000 });
      expect(stage().textContent).toBe(say.added); // the rest are in, as the Knowledge screen lists them
      await openKnowledge();
      expect($$("tr[data-doc]").map((r) => r.dataset.doc)).toEqual([first.id, "rec-3"]);
      click(".sidebar li button.open");

      await reload(fake, lang, sid);
      await vi.waitFor(() => expect(gone()).toBe(say.oneOfThree), { timeout: 5000 });
      expect(stage().textContent).toBe(say.added);
      // Another removed while the event stream was away: said once it is back.
      fake.docs = fake.docs.filter((d) => d.id !== "rec-3");
      fake.emit("transport.reconnected", null);
      await vi.waitFor(() => expect(gone()).toBe(say.twoOfThree), { timeout: 5000 });

      await removeOnKnowledgeScreen(first.id);
      await vi.waitFor(() => expect(stage().textContent).toBe(say.addedRemoved), { timeout: 5000 });
      expect(gone()).toBeNull();
    }, 30000);
  }
});
