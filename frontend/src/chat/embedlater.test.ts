// A file Ollama did not embed in time is found by its words, and its row
// says its search by meaning comes later. When the backend's background
// embedding has caught up (knowledge.embedded) the row says it is found
// by its meaning too, rather than going stale; and a conversation opened
// again (a reload) shows a file still pending as the window that attached
// it did, from the attachments' embed_pending.
import { afterEach, describe, expect, it, vi } from "vitest";
import { $, attach, cleanup, click, fill, start, stop } from "../testing/ui";
import { FakeBackend } from "../testing/fakeBackend";
import { setLang } from "../i18n/i18n.svelte";

afterEach(cleanup);

const words = {
  en: {
    later: "Ready for questions · found by its words now; Ollama did not answer in time, so search by meaning comes later, in the background",
    pending: "Ready for questions · found by its words now; search by meaning comes later, in the background",
    embedded: "Ready for questions · now found by its meaning too: the background embedding is done",
    dismiss: "Dismiss",
  },
  ko: {
    later: "지금 질문할 수 있습니다 · 지금은 키워드로 찾습니다. Ollama가 제때 답하지 않아 의미 검색은 나중에 뒤에서 준비합니다",
    pending: "지금 질문할 수 있습니다 · 지금은 키워드로 찾습니다. 의미 검색은 나중에 뒤에서 준비합니다",
    embedded: "지금 질문할 수 있습니다 · 이제 의미로도 찾습니다. 뒤에서 하던 임베딩을 마쳤습니다",
    dismiss: "닫기",
  },
} as const;

const rows = () => [...document.querySelectorAll<HTMLElement>("[data-testid='attachments'] .pending li")];
const note = () => $("[data-testid='attachments'] .pending li[data-meaning]");

describe("the row of a file whose embedding went to the background", () => {
  it("says it is found by its meaning too once the backend's background embedding is done, and stays until dismissed", async () => {
    for (const lang of ["en", "ko"] as const) {
      const { fake } = await start({ settings: { language: lang } });
      setLang(lang);
      attach([new File(["# 메모"], "hung-메모.md")]);
      await vi.waitFor(() => expect(note().dataset.meaning).toBe("later"), { timeout: 5000 });
      // The list has it, still pending: the row does not say it is done.
      await vi.waitFor(() => expect($("[data-testid='attachments'] .files li").textContent).toContain("hung-메모.md"), { timeout: 5000 });
      expect(note().querySelector(".stage")!.textContent).toBe(words[lang].later);
      const loads = fake.calls.filter((c) => c.method === "Attached").length;

      fake.embedLaterDone();
      await vi.waitFor(() => expect(note().dataset.meaning).toBe("embedded"), { timeout: 5000 });
      expect(fake.calls.filter((c) => c.method === "Attached").length).toBeGreaterThan(loads);
      const row = note();
      expect(row.querySelector(".stage")!.textContent).toBe(words[lang].embedded);
      expect(row.querySelector(".name")!.textContent).toContain("hung-메모.md");
      expect(row.querySelector("progress")).toBeNull();
      expect(row.querySelector("button.stop")).toBeNull();
      expect(rows()).toHaveLength(1);
      // It holds nothing up.
      fill("#composer-input", "요약해 줘");
      expect(($("button.send") as HTMLButtonElement).disabled).toBe(false);
      click(row.querySelector<HTMLElement>(`button[aria-label='${words[lang].dismiss}']`)!);
      expect(rows()).toHaveLength(0);
      expect($("[data-testid='attachments'] .files li").textContent).toContain("hung-메모.md");
      cleanup();
    }
  });

  it("is shown again in a conversation opened again while the file's embedding is pending, and then says it is done", async () => {
    for (const lang of ["en", "ko"] as const) {
      const { fake } = await start({ settings: { language: lang } });
      setLang(lang);
      attach([new File(["# 메모"], "hung-메모.md"), new File(["# 보고서"], "보고서.md")]);
      await vi.waitFor(() => expect(note().dataset.meaning).toBe("later"), { timeout: 5000 });
      const sid = fake.sessions[0]!.id;
      await vi.waitFor(() => expect(fake.attached[sid]).toHaveLength(2), { timeout: 5000 });

      // The window is reloaded: its rows were in the window only.
      stop();
      window.history.replaceState(null, "", `/#s=${sid}`);
      const again = new FakeBackend({ settings: { language: lang } });
      again.sessions = fake.sessions;
      again.attached = fake.attached;
      await start({}, again);
      setLang(lang);
      // The pending file has its note (why it is pending is not known any
      // more); the file embedded in line has none.
      await vi.waitFor(() => expect(note().dataset.meaning).toBe("pending"), { timeout: 5000 });
      expect(rows()).toHaveLength(1);
      expect(note().querySelector(".name")!.textContent).toContain("hung-메모.md");
      expect(note().querySelector(".stage")!.textContent).toBe(words[lang].pending);
      expect(note().querySelector("progress")).toBeNull();
      fill("#composer-input", "요약해 줘");
      expect(($("button.send") as HTMLButtonElement).disabled).toBe(false);

      again.embedLaterDone();
      await vi.waitFor(() => expect(note().dataset.meaning).toBe("embedded"), { timeout: 5000 });
      expect(note().querySelector(".stage")!.textContent).toBe(words[lang].embedded);
      click(note().querySelector<HTMLElement>(`button[aria-label='${words[lang].dismiss}']`)!);
      expect(rows()).toHaveLength(0);
      cleanup();
    }
  });

  it("says what makes its meaning searchable while no embedding model answers, not that it comes later", async () => {
    const off = {
      en: "Ready for questions · found by its words; by its meaning too once an embedding model is set up in Settings and running",
      ko: "지금 질문할 수 있습니다 · 키워드로 찾습니다. 설정에서 임베딩 모델을 고르고 실행하면 의미로도 찾습니다",
    } as const;
    for (const lang of ["en", "ko"] as const) {
      const { fake } = await start({ settings: { language: lang } });
      setLang(lang);
      attach([new File(["# 메모"], "hung-메모.md")]);
      await vi.waitFor(() => expect(note().dataset.meaning).toBe("later"), { timeout: 5000 });
      const sid = fake.sessions[0]!.id;
      await vi.waitFor(() => expect(fake.attached[sid]).toHaveLength(1), { timeout: 5000 });

      // Reloaded, with the embedding model gone from Ollama (or None chosen in Settings).
      stop();
      window.history.replaceState(null, "", `/#s=${sid}`);
      const again = new FakeBackend({ settings: { language: lang } });
      again.sessions = fake.sessions;
      again.attached = fake.attached;
      again.status.embed_model = { ...again.status.embed_model, installed: false };
      again.status.error = { code: "model_missing", message: "bge-m3 is not installed" };
      await start({}, again);
      setLang(lang);
      await vi.waitFor(() => expect(note().dataset.meaning).toBe("pending"), { timeout: 5000 });
      await vi.waitFor(() => expect(note().querySelector(".stage")!.textContent).toBe(off[lang]), { timeout: 5000 });
      // The model comes back: its meaning comes later, in the background, again.
      again.status.embed_model = { ...again.status.embed_model, installed: true };
      delete again.status.error;
      again.emit("ollama.status", structuredClone(again.status));
      await vi.waitFor(() => expect(note().querySelector(".stage")!.textContent).toBe(words[lang].pending), { timeout: 5000 });
      cleanup();
    }
  });

  it("once dismissed, is not made again when the conversation's files are loaded again", async () => {
    const { fake } = await start({ settings: { language: "en" } });
    attach([new File(["# 메모"], "hung-메모.md")]);
    await vi.waitFor(() => expect(note().dataset.meaning).toBe("later"), { timeout: 5000 });
    click(note().querySelector<HTMLElement>("button[aria-label='Dismiss']")!);
    expect(rows()).toHaveLength(0);
    // Another file of the conversation comes in: its files are loaded again.
    const loads = fake.calls.filter((c) => c.method === "Attached").length;
    attach([new File(["# 보고서"], "보고서.md")]);
    await vi.waitFor(() => expect(fake.calls.filter((c) => c.method === "Attached").length).toBeGreaterThan(loads), { timeout: 5000 });
    await vi.waitFor(() => expect(rows()).toHaveLength(0), { timeout: 5000 });
    expect(document.querySelector("[data-testid='attachments'] .pending li[data-meaning]")).toBeNull();
  });
});
