// The row of a Knowledge screen import whose embedding the person stopped
// says it waits for a Resume in the list only while it does: resumed in
// the list, or its pause ended by a restart of the backend while the
// window stays (serve mode), it says its meaning is being indexed, as the
// list shows; removed from the library, here or elsewhere, it says so.
// In English and Korean.
import { afterEach, describe, expect, it, vi } from "vitest";
import { $, cleanup, click, openKnowledge, pickDocuments, start } from "../testing/ui";
import { setLang } from "../i18n/i18n.svelte";

afterEach(cleanup);

const words = {
  en: {
    paused: "Added, found by its words now — indexing its meaning is paused until you resume it in the list",
    unpaused: "Added, found by its words now — its pause ended: its meaning is being indexed, as the list shows",
    removed: "Added, then removed from the library",
  },
  ko: {
    paused: "추가했습니다. 지금은 키워드로 찾고, 의미 색인은 목록에서 다시 시작할 때까지 멈춥니다",
    unpaused: "추가했습니다. 지금은 키워드로 찾고, 멈춤이 풀려 의미 색인을 이어서 합니다. 진행 상황은 목록에서 볼 수 있습니다",
    removed: "추가했다가 지식 베이스에서 지웠습니다",
  },
} as const;

/** stopped uploads a file the fake holds at its embedding, in lang, and stops it there. */
async function stopped(lang: "en" | "ko") {
  const { fake } = await start({ settings: { language: lang } });
  setLang(lang);
  await openKnowledge();
  pickDocuments([new File(["# big"], "slow-manual.pdf")]);
  await vi.waitFor(() => expect(document.querySelector(".progress li.file[data-stage='embedding'] button.stop")).not.toBeNull(), { timeout: 5000 });
  click($(".progress li.file button.stop"));
  await vi.waitFor(() => expect(stage()?.textContent).toBe(words[lang].paused), { timeout: 5000 });
  await vi.waitFor(() => expect(meaning()?.dataset.meaning).toBe("paused"), { timeout: 5000 });
  return fake;
}

const stage = () => document.querySelector(".progress li.file[data-stage='done'] .stage");
const meaning = () => document.querySelector<HTMLElement>("tr[data-doc] .meaning");

describe("a Knowledge screen import whose embedding the person stopped", () => {
  for (const lang of ["en", "ko"] as const) {
    it(`its Resume and the dot before it are one piece that wraps whole (${lang})`, async () => {
      await stopped(lang);
      // A narrow column wraps the row: the dot left alone on a line (800 px, Korean) is kept with Resume instead.
      const resume = meaning()!.querySelector<HTMLButtonElement>("button.resume")!;
      const piece = resume.parentElement!;
      expect(piece.classList.contains("resume-with")).toBe(true);
      expect(piece.parentElement).toBe(meaning());
      expect(piece.textContent).toBe(`· ${lang === "en" ? "Resume" : "다시 시작"}`);
      expect(meaning()!.textContent!.split("·")).toHaveLength(2);
    });

    it(`resumed in the list, its row no longer says it waits for a Resume (${lang})`, async () => {
      await stopped(lang);
      click(meaning()!.querySelector<HTMLButtonElement>("button.resume")!);
      await vi.waitFor(() => expect(meaning()!.dataset.meaning).toBe("pending"), { timeout: 5000 });
      expect(stage()!.textContent).toBe(words[lang].unpaused);
    });

    it(`after a restart of the backend, says its pause ended (${lang})`, async () => {
      const fake = await stopped(lang);
      fake.restart();
      await vi.waitFor(() => expect(meaning()!.dataset.meaning).toBe("pending"), { timeout: 5000 });
      expect(stage()!.textContent).toBe(words[lang].unpaused);
      expect(meaning()!.querySelector("button.resume")).toBeNull();
    });

    it(`resumed elsewhere, its count going down, says it is paused no more; counted anew after a model change, it stays paused (${lang})`, async () => {
      const fake = await stopped(lang);
      const id = fake.docs[0]!.id;
      // Another embedding model: every passage waits for it, the paused file's too.
      fake.emit("knowledge.embedding", { docs: [{ doc_id: id, pending: 12 }] });
      await vi.waitFor(() => expect(meaning()!.textContent).toContain(lang === "en" ? "12 of 12" : "구절 12개 중 12개"), { timeout: 5000 });
      expect(meaning()!.dataset.meaning).toBe("paused");
      expect(stage()!.textContent).toBe(words[lang].paused);
      // A batch of it is stored: another window's Resume.
      fake.emit("knowledge.embedding", { docs: [{ doc_id: id, pending: 11 }] });
      await vi.waitFor(() => expect(meaning()!.dataset.meaning).toBe("pending"), { timeout: 5000 });
      expect(stage()!.textContent).toBe(words[lang].unpaused);
    });

    it(`resumed in another window, says its pause ended at once, before a batch of it is stored; paused there again, says so (${lang})`, async () => {
      const fake = await stopped(lang);
      const d = fake.docs[0]!;
      delete d.embed_paused;
      fake.emit("knowledge.embed_pause", { source: d.source, paused: false });
      await vi.waitFor(() => expect(meaning()!.dataset.meaning).toBe("pending"), { timeout: 5000 });
      expect(stage()!.textContent).toBe(words[lang].unpaused);
      expect(meaning()!.querySelector("button.resume")).toBeNull();
      // Stopped again there: paused, with its Resume.
      d.embed_paused = true;
      fake.emit("knowledge.embed_pause", { source: d.source, paused: true });
      await vi.waitFor(() => expect(meaning()!.dataset.meaning).toBe("paused"), { timeout: 5000 });
      expect(meaning()!.querySelector("button.resume")).not.toBeNull();
    });

    it(`removed in another window, says it was removed, not that its pause ended (${lang})`, async () => {
      const fake = await stopped(lang);
      fake["KnowledgeService.Remove"](fake.docs[0]!.id);
      await vi.waitFor(() => expect(stage()!.textContent).toBe(words[lang].removed), { timeout: 5000 });
      expect(meaning()).toBeNull();
    });

    it(`removed while the window was away, says so once it is back (${lang})`, async () => {
      const fake = await stopped(lang);
      fake.docs = [];
      fake.restart();
      await vi.waitFor(() => expect(stage()!.textContent).toBe(words[lang].removed), { timeout: 5000 });
    });
  }
});

