// Files in chat once they are found by their words, before a local model
// has embedded them: the conversation is named after the file and shows
// questions about it then, not minutes later; a question sent meanwhile
// titles it for good. A file Ollama did not embed in time says on its row
// what that means, and a file whose embedding waits for the answer being
// written says so, as the backend reports it.
import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync } from "svelte";
import { $, $$, attach, cleanup, click, fill, start } from "../testing/ui";
import { setLang } from "../i18n/i18n.svelte";

afterEach(cleanup);

const words = {
  en: {
    empty: "Ask about your files",
    summary: "Summarise slow-보고서.md in a few bullet points",
    embedding: "Ready for questions · indexing its meaning",
    waiting: "Ready for questions · waiting for your question to finish",
    later: "Ready for questions · found by its words now; Ollama did not answer in time, so search by meaning comes later, in the background",
    dismiss: "Dismiss",
  },
  ko: {
    empty: "첨부한 파일에 대해 물어보세요",
    summary: "slow-보고서.md 내용을 몇 줄로 요약해 줘",
    embedding: "지금 질문할 수 있습니다 · 의미를 색인하는 중",
    waiting: "지금 질문할 수 있습니다 · 질문에 답하는 동안 잠시 멈춤",
    later: "지금 질문할 수 있습니다 · 지금은 키워드로 찾습니다. Ollama가 제때 답하지 않아 의미 검색은 나중에 뒤에서 준비합니다",
    dismiss: "닫기",
  },
} as const;

describe("a file in chat found by its words before its embedding ends", () => {
  it("names the conversation and shows questions about the file while it embeds; a question sent then titles it, and the import's end keeps that title", async () => {
    for (const lang of ["en", "ko"] as const) {
      const { fake } = await start({ settings: { language: lang } });
      setLang(lang);
      attach([new File(["# 큰 파일"], "slow-보고서.md")]);
      await vi.waitFor(() => expect(document.querySelector("[data-testid='attachments'] .pending li[data-stage='embedding']")).not.toBeNull(), { timeout: 5000 });
      // Named after it in the list and the header, while it embeds.
      await vi.waitFor(() => expect($(".sidebar li .title").textContent).toBe("📎slow-보고서.md"), { timeout: 5000 });
      expect($(".topbar .title").textContent).toBe("slow-보고서.md");
      // Its questions, not the general examples.
      await vi.waitFor(() => expect($("#empty-title").textContent).toBe(words[lang].empty), { timeout: 5000 });
      expect($$(".empty .files li").map((li) => li.textContent)).toEqual(["📎 slow-보고서.md"]);
      click($$(".empty .example")[0]!);
      expect(($("#composer-input") as HTMLTextAreaElement).value).toBe(words[lang].summary);
      expect(($("button.send") as HTMLButtonElement).disabled).toBe(false);
      fill("#composer-input", "출장비 규정?");
      click("button.send");
      await vi.waitFor(() => expect($(".sidebar li .title").textContent).toBe("출장비 규정?"), { timeout: 5000 });
      // Its embedding stops (or ends): the conversation keeps the question's title.
      const lists = fake.calls.filter((c) => c.method === "ListSessions").length;
      click("[data-testid='attachments'] .pending li button.stop");
      await vi.waitFor(() => expect($("[data-testid='attachments'] .files li").textContent).toContain("slow-보고서.md"), { timeout: 5000 });
      await vi.waitFor(() => expect(fake.calls.filter((c) => c.method === "ListSessions").length).toBeGreaterThan(lists), { timeout: 5000 });
      flushSync();
      expect($(".sidebar li .title").textContent).toBe("출장비 규정?");
      expect($(".topbar .title").textContent).toBe("출장비 규정?");
      cleanup();
    }
  });

  it("says on the row when its embedding waits for the answer being written, and when it goes on, as the backend's progress says", async () => {
    for (const lang of ["en", "ko"] as const) {
      const { fake } = await start({ settings: { language: lang } });
      setLang(lang);
      attach([new File(["# 큰 파일"], "slow-보고서.md")]);
      await vi.waitFor(() => expect(document.querySelector("[data-testid='attachments'] .pending li[data-stage='embedding']")).not.toBeNull(), { timeout: 5000 });
      const stage = () => $("[data-testid='attachments'] .pending li .stage").textContent;
      expect(stage()).toBe(words[lang].embedding);
      const sid = fake.sessions[0]!.id;
      const id = Object.keys(fake.held)[0]!;
      const ev = (waiting: boolean) => ({ import_id: id, file: "slow-보고서.md", stage: "embedding", pages: 0, chunks: 4, embedded: 2, file_index: 1, files_total: 1, conversation: sid, waiting });
      fake.emit("knowledge.import", ev(true));
      await vi.waitFor(() => expect(stage()).toBe(words[lang].waiting), { timeout: 5000 });
      // Still a file on its way: its bar and its Stop button stay.
      expect($("[data-testid='attachments'] .pending li progress")).toBeTruthy();
      expect($("[data-testid='attachments'] .pending li button.stop")).toBeTruthy();
      fake.emit("knowledge.import", ev(false));
      await vi.waitFor(() => expect(stage()).toBe(words[lang].embedding), { timeout: 5000 });
      cleanup();
    }
  });

  it("says in words that a file Ollama did not embed in time is found by its words now and by its meaning later, without a bar that looks stuck", async () => {
    for (const lang of ["en", "ko"] as const) {
      const { fake } = await start({ settings: { language: lang } });
      setLang(lang);
      attach([new File(["# 메모"], "hung-메모.md")]);
      await vi.waitFor(() => expect($("[data-testid='attachments'] .files li").textContent).toContain("hung-메모.md"), { timeout: 5000 });
      const row = $("[data-testid='attachments'] .pending li[data-stage='done']");
      expect(row.querySelector(".name")!.textContent).toContain("hung-메모.md");
      expect(row.querySelector(".stage")!.textContent).toBe(words[lang].later);
      expect(row.querySelector("progress")).toBeNull();
      expect(row.querySelector("button.stop")).toBeNull();
      // It holds nothing up, and the conversation asks about it.
      fill("#composer-input", "요약해 줘");
      expect(($("button.send") as HTMLButtonElement).disabled).toBe(false);
      expect($("#empty-title").textContent).toBe(words[lang].empty);
      await vi.waitFor(() => expect($(".sidebar li .title").textContent).toBe("📎hung-메모.md"), { timeout: 5000 });
      // Said until dismissed; the file stays.
      click(row.querySelector<HTMLElement>(`button[aria-label='${words[lang].dismiss}']`)!);
      expect(document.querySelector("[data-testid='attachments'] .pending li")).toBeNull();
      expect($("[data-testid='attachments'] .files li").textContent).toContain("hung-메모.md");
      expect(fake.calls.filter((c) => c.method === "Attach")).toHaveLength(1);
      cleanup();
    }
  });
});
