// "Add to library" on a conversation's file whose new version is still
// being read says what it waits for ("Adds it once the new version is
// read…", its tooltip naming the file), the backend adds the new version
// once it is in, and the row that says where the file went says that its
// meaning is indexed in the background there, then that it is done. In
// English and Korean.
import { afterEach, describe, expect, it, vi } from "vitest";
import { $, attach, cleanup, click, start, attachRows as rows, attachChip as chip } from "../testing/ui";
import { setLang } from "../i18n/i18n.svelte";

afterEach(cleanup);

const words = {
  en: {
    waiting: "Waiting for 연간 보고서.pdf to finish reading",
    button: "Adds it once the new version is read…",
    help: "The new version of 규정.md is being read; it joins the library once it is in",
    embedding: "Added to your library: every conversation finds it by its words now; its meaning is indexed in the background",
    embedded: "Added to your library: every conversation finds it by its words and by its meaning",
  },
  ko: {
    waiting: "연간 보고서.pdf 읽기가 끝나기를 기다리는 중",
    button: "새 버전을 다 읽으면 추가합니다…",
    help: "규정.md의 새 버전을 읽는 중입니다. 다 읽으면 지식 베이스에 추가합니다",
    embedding: "지식 베이스에 추가했습니다. 이제 모든 대화에서 키워드로 찾고, 의미 색인은 뒤에서 이어서 합니다",
    embedded: "지식 베이스에 추가했습니다. 이제 모든 대화에서 키워드와 의미로 찾습니다",
  },
} as const;

const libraryButton = (name: string) => chip(name)!.querySelector<HTMLButtonElement>("button")!;

describe("Add to library while a new version of the file is read", () => {
  for (const lang of ["en", "ko"] as const) {
    it(`says what it waits for, adds the new version once it is in, and then that its meaning is indexed (${lang})`, async () => {
      const say = words[lang];
      const { fake } = await start({ settings: { language: lang } });
      setLang(lang);
      attach([new File(["# 규정 v1"], "규정.md")]);
      await vi.waitFor(() => expect([!!chip("규정.md"), rows().length]).toEqual([true, 0]), { timeout: 5000 });
      // A new version, behind another import being read.
      fake.waitsFor = ["연간 보고서.pdf"];
      attach([new File(["# 규정 v2"], "규정.md")]);
      await vi.waitFor(() => expect(rows()[0]?.querySelector(".stage")?.textContent).toBe(say.waiting), { timeout: 5000 });

      click(libraryButton("규정.md"));
      await vi.waitFor(() => expect(libraryButton("규정.md").textContent).toBe(say.button), { timeout: 5000 });
      expect(libraryButton("규정.md").title).toBe(say.help);
      expect(libraryButton("규정.md").disabled).toBe(true);
      expect(fake.docs).toHaveLength(0);

      fake.goOn(); // the new version is read, and in
      await vi.waitFor(() => expect(rows().map((r) => r.dataset.stage)).toEqual(["library"]), { timeout: 5000 });
      expect(rows()[0]!.querySelector(".stage")!.textContent).toBe(say.embedding);
      expect(chip("규정.md")).toBeUndefined();
      expect(fake.docs.map((d) => d.source)).toEqual(["/data/uploads/규정.md"]);

      // The background embedding is done, in the library.
      fake.embedLaterDone();
      await vi.waitFor(() => expect(rows()[0]!.querySelector(".stage")!.textContent).toBe(say.embedded), { timeout: 5000 });
      expect($("[data-testid='attachments'] .pending .stage.note.embedded")).toBeTruthy();
    });
  }
});
