// A file attached while another import is being read waits for its turn,
// and its row says for which file: "Waiting for X to finish reading", and
// the next one as that import goes on to it, in English and Korean.
import { afterEach, describe, expect, it, vi } from "vitest";
import { $, attach, cleanup, start } from "../testing/ui";
import { setLang } from "../i18n/i18n.svelte";

afterEach(cleanup);

const stage = () => $("[data-testid='attachments'] .pending li .stage").textContent;

describe("a file waiting for its turn", () => {
  for (const c of [
    { lang: "en" as const, first: "Waiting for 연간 보고서.pdf to finish reading", next: "Waiting for notes.md to finish reading" },
    { lang: "ko" as const, first: "연간 보고서.pdf 읽기가 끝나기를 기다리는 중", next: "notes.md 읽기가 끝나기를 기다리는 중" },
  ]) {
    it(`names the file it waits for, and the next as that import goes on (${c.lang})`, async () => {
      const { fake } = await start({ settings: { language: c.lang } });
      setLang(c.lang);
      fake.waitsFor = ["연간 보고서.pdf", "notes.md"];
      attach([new File(["# 회의록"], "회의록.md")]);
      await vi.waitFor(() => expect(stage()).toBe(c.first), { timeout: 5000 });
      fake.goOn();
      await vi.waitFor(() => expect(stage()).toBe(c.next), { timeout: 5000 });
      fake.goOn();
      await vi.waitFor(() => expect($("[data-testid='attachments'] .files li").textContent).toContain("회의록.md"), { timeout: 5000 });
    });
  }
});
