// A conversation's file added to the library in another window (a second
// browser tab of serve, the desktop window beside one): this window, with
// the same conversation open, makes the same row and drops the file's
// chip at once, from the backend's event (knowledge.added), where it
// showed neither until it was reloaded. The window that added it makes one
// row, though the event may come before the answer. In English and Korean.
import { afterEach, describe, expect, it, vi } from "vitest";
import { attach, cleanup, click, start, attachRows as rows, attachRow as row, attachChip as chip, attachStage as stage } from "../testing/ui";
import { setLang } from "../i18n/i18n.svelte";

afterEach(cleanup);

const words = {
  en: {
    embedding: "Ready for questions · indexing its meaning",
    added: "Added to your library: every conversation finds it by its words and by its meaning",
    addedEmbedding: "Added to your library: every conversation finds it by its words now; its meaning is indexed in the background",
  },
  ko: {
    embedding: "지금 질문할 수 있습니다 · 의미를 색인하는 중",
    added: "지식 베이스에 추가했습니다. 이제 모든 대화에서 키워드와 의미로 찾습니다",
    addedEmbedding: "지식 베이스에 추가했습니다. 이제 모든 대화에서 키워드로 찾고, 의미 색인은 뒤에서 이어서 합니다",
  },
} as const;

describe("a file added to the library in another window", () => {
  for (const lang of ["en", "ko"] as const) {
    const say = words[lang];
    for (const slow of [false, true]) {
      const how = slow ? "while its meaning is indexed" : "once in";
      it(`added ${how}, makes its row here and drops its chip at once (${lang})`, async () => {
        const { fake } = await start({ settings: { language: lang } });
        setLang(lang);
        const name = slow ? "slow-report.md" : "규정.md";
        attach([new File(["# 보고서"], name)]);
        if (slow) await vi.waitFor(() => expect(stage().textContent).toBe(say.embedding), { timeout: 5000 });
        else await vi.waitFor(() => expect([!!chip(name), rows().length]).toEqual([true, 0]), { timeout: 5000 });
        await vi.waitFor(() => expect(chip(name)).toBeTruthy(), { timeout: 5000 });
        const sid = fake.sessions[0]!.id;

        // The other window's Add to library, as the backend: the windows are told.
        const added = await fake["KnowledgeService.AddToLibrary"](sid, fake.attached[sid]![0]!.source);
        await vi.waitFor(() => expect(chip(name)).toBeFalsy(), { timeout: 5000 });
        expect(rows()).toHaveLength(1); // its progress row made way
        expect(row().dataset.stage).toBe("library");
        expect(stage().textContent).toBe(slow ? say.addedEmbedding : say.added);
        // Its row is the record's: dismissed here, the backend forgets it.
        click(row().querySelector<HTMLButtonElement>("button.link:last-child")!);
        await vi.waitFor(() => expect(fake.calls.filter((c) => c.method === "DismissAdded").map((c) => c.args)).toEqual([[sid, added.id]]), { timeout: 5000 });
      });
    }

    it(`added in this window, makes one row though the event comes before the answer (${lang})`, async () => {
      const { fake } = await start({ settings: { language: lang } });
      setLang(lang);
      attach([new File(["# 보고서"], "규정.md")]);
      await vi.waitFor(() => expect(chip("규정.md")).toBeTruthy(), { timeout: 5000 });
      let told = 0;
      fake.on("knowledge.added", () => told++);
      click(chip("규정.md")!.querySelector<HTMLButtonElement>("button")!);
      await vi.waitFor(() => expect(row().dataset.stage).toBe("library"), { timeout: 5000 });
      await vi.waitFor(() => expect(chip("규정.md")).toBeFalsy(), { timeout: 5000 });
      expect(told).toBe(1);
      expect(rows()).toHaveLength(1);
      expect(stage().textContent).toBe(say.added);
    });

    it(`of a conversation left here for another, shows its row when it is opened again (${lang})`, async () => {
      const { fake } = await start({ settings: { language: lang } });
      setLang(lang);
      attach([new File(["# 보고서"], "규정.md")]);
      await vi.waitFor(() => expect(chip("규정.md")).toBeTruthy(), { timeout: 5000 });
      const sid = fake.sessions[0]!.id;
      click(".sidebar button.new");
      await vi.waitFor(() => expect(chip("규정.md")).toBeFalsy(), { timeout: 5000 });
      await fake["KnowledgeService.AddToLibrary"](sid, fake.attached[sid]![0]!.source);
      await new Promise((r) => setTimeout(r, 0));
      expect(rows()).toHaveLength(0); // not in the conversation shown
      click(".sidebar li button.open");
      await vi.waitFor(() => expect(rows()).toHaveLength(1), { timeout: 5000 });
      expect(stage().textContent).toBe(say.added);
      expect(chip("규정.md")).toBeFalsy();
    });
  }
});
