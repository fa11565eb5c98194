// A file attached in a chat and added to the library, then removed from the
// library (the Knowledge screen, here or in another window), whether its
// meaning was still being indexed or was indexed: its chat row says it was
// removed, at once, and after the event stream comes back too (it went on
// saying the file was in the library; only a paused file's row followed).
// A file taken out of its conversation in another window leaves this
// window's chips and rows of it at once. In English and Korean.
import { afterEach, describe, expect, it, vi } from "vitest";
import { attach, cleanup, click, start, attachRows as rows, attachRow as row, attachChip as chip, attachStage as stage, removeOnKnowledgeScreen } from "../testing/ui";
import { setLang } from "../i18n/i18n.svelte";

afterEach(cleanup);

const words = {
  en: {
    embedding: "Ready for questions · indexing its meaning",
    stopped: "Ready for questions · found by its words; indexing its meaning is paused — 2 of 4 passages left",
    added: "Added to your library: every conversation finds it by its words and by its meaning",
    addedEmbedding: "Added to your library: every conversation finds it by its words now; its meaning is indexed in the background",
    addedRemoved: "Added to your library, then removed from it: no conversation finds it any more",
  },
  ko: {
    embedding: "지금 질문할 수 있습니다 · 의미를 색인하는 중",
    stopped: "지금 질문할 수 있습니다 · 키워드로 찾습니다. 의미 색인은 멈춰 두었습니다 — 구절 4개 중 2개 남음",
    added: "지식 베이스에 추가했습니다. 이제 모든 대화에서 키워드와 의미로 찾습니다",
    addedEmbedding: "지식 베이스에 추가했습니다. 이제 모든 대화에서 키워드로 찾고, 의미 색인은 뒤에서 이어서 합니다",
    addedRemoved: "지식 베이스에 추가했다가 지웠습니다. 이제 어느 대화에서도 찾지 않습니다",
  },
} as const;


/**
 * added starts the app in lang, attaches a file and adds it to the library:
 * slow, while its meaning is indexed (the fake holds it at its embedding);
 * else once in.
 */
async function added(lang: "en" | "ko", slow: boolean) {
  const { fake } = await start({ settings: { language: lang } });
  setLang(lang);
  const say = words[lang];
  const name = slow ? "slow-report.md" : "규정.md";
  attach([new File(["# 보고서"], name)]);
  if (slow) await vi.waitFor(() => expect(stage().textContent).toBe(say.embedding), { timeout: 5000 });
  else await vi.waitFor(() => expect([!!chip(name), rows().length]).toEqual([true, 0]), { timeout: 5000 });
  await vi.waitFor(() => expect(chip(name)).toBeTruthy(), { timeout: 5000 });
  click(chip(name)!.querySelector<HTMLButtonElement>("button")!);
  await vi.waitFor(() => expect(stage().textContent).toBe(slow ? say.addedEmbedding : say.added), { timeout: 5000 });
  expect(fake.docs.map((d) => d.source)).toEqual([`/data/uploads/${name}`]);
  return { say, fake, id: fake.docs[0]!.id };
}

describe("a file added to the library from a chat, and removed there", () => {
  for (const lang of ["en", "ko"] as const) {
    for (const slow of [true, false]) {
      const how = slow ? "while its meaning is indexed" : "once in";
      it(`added ${how} and removed in another window, says it was removed at once (${lang})`, async () => {
        const { say, fake, id } = await added(lang, slow);
        // The other window's Remove, as the backend: the windows are told.
        fake["KnowledgeService.Remove"](id);
        await vi.waitFor(() => expect(stage().textContent).toBe(say.addedRemoved), { timeout: 5000 });
        expect(rows()).toHaveLength(1);
      });
    }

    it(`added while its meaning is indexed and removed on this window's Knowledge screen, says so back in the chat (${lang})`, async () => {
      const { say, id } = await added(lang, true);
      await removeOnKnowledgeScreen(id);
      await vi.waitFor(() => expect(row().dataset.stage).toBe("library"), { timeout: 5000 });
      expect(stage().textContent).toBe(say.addedRemoved);
    });

    it(`removed while the event stream was away, says so once it is back (${lang})`, async () => {
      const { say, fake } = await added(lang, false);
      fake.docs = []; // removed elsewhere; the event was lost
      fake.emit("transport.reconnected", null);
      await vi.waitFor(() => expect(stage().textContent).toBe(say.addedRemoved), { timeout: 5000 });
    });

    it(`still in the library when the event stream comes back, says it is there (${lang})`, async () => {
      const { say, fake } = await added(lang, false);
      const asked = fake.calls.filter((c) => c.method === "Documents").length;
      fake.emit("transport.reconnected", null);
      await vi.waitFor(() => expect(fake.calls.filter((c) => c.method === "Documents").length).toBeGreaterThan(asked), { timeout: 5000 });
      await new Promise((r) => setTimeout(r, 0));
      expect(stage().textContent).toBe(say.added);
    });
  }
});

describe("a file taken out of its conversation in another window", () => {
  for (const lang of ["en", "ko"] as const) {
    it(`leaves this window's chip and its paused row at once (${lang})`, async () => {
      const { fake } = await start({ settings: { language: lang } });
      setLang(lang);
      attach([new File(["# 큰 보고서"], "slow-report.md")]);
      await vi.waitFor(() => expect(stage().textContent).toBe(words[lang].embedding), { timeout: 5000 });
      click(row().querySelector<HTMLButtonElement>("button.stop")!);
      await vi.waitFor(() => expect(stage().textContent).toBe(words[lang].stopped), { timeout: 5000 });
      await vi.waitFor(() => expect(chip("slow-report.md")).toBeTruthy(), { timeout: 5000 });
      const sid = fake.sessions[0]!.id;
      // The other window's ✕, as the backend: the windows are told.
      fake["KnowledgeService.RemoveAttached"](sid, fake.attached[sid]![0]!.source);
      await vi.waitFor(() => expect([!!chip("slow-report.md"), rows().length]).toEqual([false, 0]), { timeout: 5000 });
    });
  }
});
