// A file whose embedding the person stopped in a chat is paused until its
// Resume or the next start of Wayfinder, and every place that shows it
// says so: added to the library, its row still says it is paused, with
// what is left and a Resume of its own, and the Knowledge screen lists it
// paused too; a restart of the backend while the window stays (serve
// mode) ends the pause, and the rows say that its meaning is indexed now
// rather than "paused". In English and Korean.
import { afterEach, describe, expect, it, vi } from "vitest";
import { $$, attach, cleanup, click, start, attachRows as rows, attachRow as row, attachChip as chip, attachStage as stage, removeOnKnowledgeScreen } from "../testing/ui";
import { setLang } from "../i18n/i18n.svelte";

afterEach(cleanup);

const words = {
  en: {
    embedding: "Ready for questions · indexing its meaning",
    stopped: "Ready for questions · found by its words; indexing its meaning is paused — 2 of 4 passages left",
    unpaused: "Ready for questions · found by its words; its pause ended, so its meaning is being indexed in the background",
    unpausedHelp: "Wayfinder restarted, which ends a pause, or it was resumed in another window",
    embedded: "Ready for questions · now found by its meaning too: the background embedding is done",
    addedPaused: "Added to your library: every conversation finds it by its words now; indexing its meaning is paused — 2 of 4 passages left",
    addedEmbedding: "Added to your library: every conversation finds it by its words now; its meaning is indexed in the background",
    addedEmbedded: "Added to your library: every conversation finds it by its words and by its meaning",
    pausedHelp: "Paused until you resume it, or until Wayfinder next starts",
    resume: "Resume",
    resumeLabel: "Resume indexing the meaning of slow-report.md",
    listPaused: "Meaning indexing paused — 2 of 4 passages left · Resume",
    addedRemoved: "Added to your library, then removed from it: no conversation finds it any more",
  },
  ko: {
    embedding: "지금 질문할 수 있습니다 · 의미를 색인하는 중",
    stopped: "지금 질문할 수 있습니다 · 키워드로 찾습니다. 의미 색인은 멈춰 두었습니다 — 구절 4개 중 2개 남음",
    unpaused: "지금 질문할 수 있습니다 · 키워드로 찾습니다. 멈춤이 풀려 의미 색인을 뒤에서 이어서 합니다",
    unpausedHelp: "Wayfinder를 다시 열면 멈춤이 풀립니다. 다른 창에서 다시 시작했을 수도 있습니다",
    embedded: "지금 질문할 수 있습니다 · 이제 의미로도 찾습니다. 뒤에서 하던 임베딩을 마쳤습니다",
    addedPaused: "지식 베이스에 추가했습니다. 이제 모든 대화에서 키워드로 찾고, 의미 색인은 멈춰 두었습니다 — 구절 4개 중 2개 남음",
    addedEmbedding: "지식 베이스에 추가했습니다. 이제 모든 대화에서 키워드로 찾고, 의미 색인은 뒤에서 이어서 합니다",
    addedEmbedded: "지식 베이스에 추가했습니다. 이제 모든 대화에서 키워드와 의미로 찾습니다",
    pausedHelp: "다시 시작하거나 Wayfinder를 다음에 열 때까지 멈춥니다",
    resume: "다시 시작",
    resumeLabel: "slow-report.md 의미 색인 다시 시작",
    listPaused: "의미 색인 멈춤 — 구절 4개 중 2개 남음 · 다시 시작",
    addedRemoved: "지식 베이스에 추가했다가 지웠습니다. 이제 어느 대화에서도 찾지 않습니다",
  },
} as const;


/** stoppedFile starts the app in lang, attaches a file the fake holds at its embedding, and stops it there. */
async function stoppedFile(lang: "en" | "ko") {
  const { fake } = await start({ settings: { language: lang } });
  setLang(lang);
  const say = words[lang];
  attach([new File(["# 큰 보고서"], "slow-report.md")]);
  await vi.waitFor(() => expect(stage().textContent).toBe(say.embedding), { timeout: 5000 });
  click(row().querySelector<HTMLButtonElement>("button.stop")!);
  await vi.waitFor(() => expect(row().dataset.meaning).toBe("stopped"), { timeout: 5000 });
  await vi.waitFor(() => expect(stage().textContent).toBe(say.stopped), { timeout: 5000 });
  return { say, fake };
}

describe("a file whose embedding the person stopped", () => {
  for (const lang of ["en", "ko"] as const) {
    it(`added to the library, stays paused there and says so, with a Resume of its own (${lang})`, async () => {
      const { say, fake } = await stoppedFile(lang);
      await vi.waitFor(() => expect(chip("slow-report.md")).toBeTruthy(), { timeout: 5000 });
      click(chip("slow-report.md")!.querySelector<HTMLButtonElement>("button")!);
      await vi.waitFor(() => expect(row().dataset.stage).toBe("library"), { timeout: 5000 });
      await vi.waitFor(() => expect(rows()).toHaveLength(1), { timeout: 5000 });
      expect(stage().textContent).toBe(say.addedPaused);
      expect(stage().title).toBe(say.pausedHelp);
      // Still paused: the background embedding leaves it alone.
      fake.embedLaterDone();
      await new Promise((r) => setTimeout(r, 0));
      expect(stage().textContent).toBe(say.addedPaused);

      const resume = row().querySelector<HTMLButtonElement>("button.resume")!;
      expect(resume.textContent).toBe(say.resume);
      expect(resume.getAttribute("aria-label")).toBe(say.resumeLabel);
      click(resume);
      await vi.waitFor(() => expect(stage().textContent).toBe(say.addedEmbedding), { timeout: 5000 });
      expect(row().querySelector("button.resume")).toBeNull();
      expect(fake.calls.filter((c) => c.method === "ResumeEmbedding").map((c) => c.args)).toEqual([["/data/uploads/slow-report.md"]]);
      fake.embedLaterDone();
      await vi.waitFor(() => expect(stage().textContent).toBe(say.addedEmbedded), { timeout: 5000 });
    });

    it(`added to the library paused, is listed paused in the Knowledge screen, and its chat row follows a Resume there (${lang})`, async () => {
      const { say, fake } = await stoppedFile(lang);
      await vi.waitFor(() => expect(chip("slow-report.md")).toBeTruthy(), { timeout: 5000 });
      click(chip("slow-report.md")!.querySelector<HTMLButtonElement>("button")!);
      await vi.waitFor(() => expect(stage().textContent).toBe(say.addedPaused), { timeout: 5000 });
      expect(fake.docs.map((d) => [d.source, d.embed_paused, d.pending])).toEqual([["/data/uploads/slow-report.md", true, 2]]);
      const id = fake.docs[0]!.id;

      click($$(".views button")[0]!);
      const meaning = () => document.querySelector<HTMLElement>(`tr[data-doc='${id}'] .meaning`);
      await vi.waitFor(() => expect(meaning()?.dataset.meaning).toBe("paused"), { timeout: 5000 });
      expect(meaning()!.textContent!.replace(/\s+/g, " ").trim()).toBe(say.listPaused);
      click(meaning()!.querySelector<HTMLButtonElement>("button.resume")!);
      await vi.waitFor(() => expect(meaning()!.dataset.meaning).toBe("pending"), { timeout: 5000 });
      // Its first batch is stored: the chat's row asks the library again, and follows.
      fake.emit("knowledge.embedding", { docs: [{ doc_id: id, pending: 1 }] });
      click(".sidebar li button.open");
      await vi.waitFor(() => expect(stage().textContent).toBe(say.addedEmbedding), { timeout: 5000 });
      expect(row().querySelector("button.resume")).toBeNull();
      expect(fake.calls.filter((c) => c.method === "ResumeEmbedding")).toHaveLength(1);
    });

    it(`paused, says its meaning is indexed again once a restart of the backend ended the pause (${lang})`, async () => {
      const { say, fake } = await stoppedFile(lang);
      fake.restart();
      await vi.waitFor(() => expect(row().dataset.meaning).toBe("unpaused"), { timeout: 5000 });
      expect(stage().textContent).toBe(say.unpaused);
      expect(stage().title).toBe(say.unpausedHelp);
      expect(row().querySelector("button.resume")).toBeNull();
      fake.embedLaterDone();
      await vi.waitFor(() => expect(row().dataset.meaning).toBe("embedded"), { timeout: 5000 });
      expect(stage().textContent).toBe(say.embedded);
    });

    it(`added to the library paused, says its meaning is indexed there once a restart ended the pause (${lang})`, async () => {
      const { say, fake } = await stoppedFile(lang);
      await vi.waitFor(() => expect(chip("slow-report.md")).toBeTruthy(), { timeout: 5000 });
      click(chip("slow-report.md")!.querySelector<HTMLButtonElement>("button")!);
      await vi.waitFor(() => expect(stage().textContent).toBe(say.addedPaused), { timeout: 5000 });
      fake.restart();
      await vi.waitFor(() => expect(stage().textContent).toBe(say.addedEmbedding), { timeout: 5000 });
      expect(row().querySelector("button.resume")).toBeNull();
      fake.embedLaterDone();
      await vi.waitFor(() => expect(stage().textContent).toBe(say.addedEmbedded), { timeout: 5000 });
    });

    it(`attached again, is read anew: its old row, which said it was paused, goes (${lang})`, async () => {
      const { say } = await stoppedFile(lang);
      attach([new File(["# 큰 보고서, 새 판"], "slow-report.md")]);
      await vi.waitFor(() => expect(rows()).toHaveLength(1), { timeout: 5000 });
      await vi.waitFor(() => expect(stage().textContent).toBe(say.embedding), { timeout: 5000 });
      expect(row().dataset.meaning).toBeUndefined();
    });

    it(`paused when another embedding model is picked, says all its passages are left (${lang})`, async () => {
      const { say, fake } = await stoppedFile(lang);
      const sid = Object.keys(fake.attached)[0]!;
      const doc = fake.attached[sid]![0]!;
      // As the backend after a model change: every passage waits for the new model.
      Object.assign(doc, { pending: 4 });
      fake.emit("knowledge.embedding", { docs: [{ doc_id: doc.id, pending: 4 }] });
      await vi.waitFor(() => expect(stage().textContent).toBe(say.stopped.replace("2", "4")), { timeout: 5000 });
      expect(row().dataset.meaning).toBe("stopped");
    });

    it(`resumed in another window, its count going down, says its pause ended (${lang})`, async () => {
      const { say, fake } = await stoppedFile(lang);
      const doc = fake.attached[Object.keys(fake.attached)[0]!]![0]!;
      // The other window's Resume, as the backend: paused no more, a batch stored.
      Object.assign(doc, { embed_paused: false, pending: 1 });
      fake.emit("knowledge.embedding", { docs: [{ doc_id: doc.id, pending: 1 }] });
      await vi.waitFor(() => expect(row().dataset.meaning).toBe("unpaused"), { timeout: 5000 });
      expect(stage().textContent).toBe(say.unpaused);
      expect(row().querySelector("button.resume")).toBeNull();
    });

    it(`resumed in another window, says its pause ended at once, before a batch of it is stored (${lang})`, async () => {
      const { say, fake } = await stoppedFile(lang);
      const doc = fake.attached[Object.keys(fake.attached)[0]!]![0]!;
      // The other window's Resume, as the backend: paused no more, and told so.
      delete doc.embed_paused;
      fake.emit("knowledge.embed_pause", { source: doc.source, paused: false });
      await vi.waitFor(() => expect(row().dataset.meaning).toBe("unpaused"), { timeout: 5000 });
      expect(stage().textContent).toBe(say.unpaused);
      expect(row().querySelector("button.resume")).toBeNull();
    });

    it(`added to the library paused and resumed in another window, says its meaning is indexed there at once (${lang})`, async () => {
      const { say, fake } = await stoppedFile(lang);
      await vi.waitFor(() => expect(chip("slow-report.md")).toBeTruthy(), { timeout: 5000 });
      click(chip("slow-report.md")!.querySelector<HTMLButtonElement>("button")!);
      await vi.waitFor(() => expect(stage().textContent).toBe(say.addedPaused), { timeout: 5000 });
      delete fake.docs[0]!.embed_paused;
      fake.emit("knowledge.embed_pause", { source: "/data/uploads/slow-report.md", paused: false });
      await vi.waitFor(() => expect(stage().textContent).toBe(say.addedEmbedding), { timeout: 5000 });
      expect(row().querySelector("button.resume")).toBeNull();
    });

    it(`added to the library paused and removed on the Knowledge screen, says it was removed from the library at once (${lang})`, async () => {
      const { say, fake } = await stoppedFile(lang);
      await vi.waitFor(() => expect(chip("slow-report.md")).toBeTruthy(), { timeout: 5000 });
      click(chip("slow-report.md")!.querySelector<HTMLButtonElement>("button")!);
      await vi.waitFor(() => expect(stage().textContent).toBe(say.addedPaused), { timeout: 5000 });
      const id = fake.docs[0]!.id;
      await removeOnKnowledgeScreen(id);
      await vi.waitFor(() => expect(row().dataset.stage).toBe("library"), { timeout: 5000 });
      expect(stage().textContent).toBe(say.addedRemoved);
      expect(row().querySelector("button.resume")).toBeNull();
    });
  }
});
