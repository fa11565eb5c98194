// The Knowledge screen's row of a file waiting for its turn names the file
// being read, and the next as that import goes on, in English and Korean.
import { afterEach, describe, expect, it, vi } from "vitest";
import { $, $$, cleanup, click, start } from "../testing/ui";
import { setLang } from "../i18n/i18n.svelte";

afterEach(cleanup);

describe("knowledge screen, a file waiting for its turn", () => {
  for (const c of [
    { lang: "en" as const, first: "Waiting for 연간 보고서.pdf to finish reading", next: "Waiting for notes.md to finish reading" },
    { lang: "ko" as const, first: "연간 보고서.pdf 읽기가 끝나기를 기다리는 중", next: "notes.md 읽기가 끝나기를 기다리는 중" },
  ]) {
    it(`names the file it waits for (${c.lang})`, async () => {
      const { fake } = await start({ settings: { language: c.lang } });
      setLang(c.lang);
      click($$(".views button")[0]!);
      await vi.waitFor(() => expect(document.querySelector("#kb-title")).not.toBeNull(), { timeout: 5000 });
      fake.waitsFor = ["연간 보고서.pdf", "notes.md"];
      const input = $("#kb-file-input") as HTMLInputElement;
      Object.defineProperty(input, "files", { value: [new File(["# 회의록"], "회의록.md")], configurable: true });
      input.dispatchEvent(new Event("change", { bubbles: true }));
      const stage = () => $(".progress li.file .stage").textContent;
      await vi.waitFor(() => expect(stage()).toBe(c.first), { timeout: 5000 });
      fake.goOn();
      await vi.waitFor(() => expect(stage()).toBe(c.next), { timeout: 5000 });
      fake.goOn();
      await vi.waitFor(() => expect($(".progress li.file").dataset.stage).toBe("done"), { timeout: 5000 });
    });
  }
});
