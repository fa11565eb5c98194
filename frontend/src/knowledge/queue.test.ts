// The Knowledge screen's row of a file waiting for its turn names the file
// being read, and the next as that import goes on, in English and Korean;
// a duplicate upload is said at once and leaves the file embedding in line
// embedding.
import { afterEach, describe, expect, it, vi } from "vitest";
import { $, $$, cleanup, openKnowledge, pickDocuments, start } from "../testing/ui";
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
      await openKnowledge();
      fake.waitsFor = ["연간 보고서.pdf", "notes.md"];
      pickDocuments([new File(["# 회의록"], "회의록.md")]);
      const stage = () => $(".progress li.file .stage").textContent;
      await vi.waitFor(() => expect(stage()).toBe(c.first), { timeout: 5000 });
      fake.goOn();
      await vi.waitFor(() => expect(stage()).toBe(c.next), { timeout: 5000 });
      fake.goOn();
      await vi.waitFor(() => expect($(".progress li.file").dataset.stage).toBe("done"), { timeout: 5000 });
    });
  }
});

describe("knowledge screen, a duplicate upload while a file embeds", () => {
  it("is said at once and does not hand the other file's embedding on", async () => {
    const { fake } = await start({ settings: { language: "ko" } });
    setLang("ko");
    await openKnowledge();
    const pick = (name: string, text: string) => pickDocuments([new File([text], name)]);
    const row = (name: string) => $$(".progress li.file").find((li) => li.querySelector(".name")!.textContent === name);
    pick("규정.md", "# 규정\n\n출장비는 하루 10만원");
    await vi.waitFor(() => expect(row("규정.md")?.dataset.stage).toBe("done"), { timeout: 5000 });
    pick("slow-보고서.md", "# 큰 보고서");
    await vi.waitFor(() => expect(row("slow-보고서.md")?.dataset.stage).toBe("embedding"), { timeout: 5000 });
    pick("사본.md", "# 규정\n\n출장비는 하루 10만원");
    await vi.waitFor(() => expect(row("사본.md")?.dataset.stage).toBe("duplicate"), { timeout: 5000 });
    // The other file still embeds in line: nothing handed it on.
    expect(row("slow-보고서.md")!.dataset.stage).toBe("embedding");
    expect(Object.keys(fake.held)).toHaveLength(1);
  });
});
