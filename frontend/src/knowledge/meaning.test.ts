// A library document whose meaning is still being indexed in the
// background says so in the Knowledge screen's list, with how many of its
// passages are done, counts them down as the backend embeds them (without
// reloading the list), and then says it is found by its meaning too. In
// English and Korean.
import { afterEach, describe, expect, it, vi } from "vitest";
import { $, $$, cleanup, click, openKnowledge, start } from "../testing/ui";
import { setLang } from "../i18n/i18n.svelte";
import { FakeBackend } from "../testing/fakeBackend";

afterEach(cleanup);

const words = {
  en: {
    pending: (done: string, total: string) => `Found by its words; meaning being indexed — ${done} of ${total} passages`,
    done: "Found by its meaning too",
    paused: (left: string, total: string) => `Meaning indexing paused — ${left} of ${total} passages left · Resume`,
    pausedHelp: "Paused until you resume it, or until Wayfinder next starts",
    resumeLabel: "Resume indexing the meaning of 출장 규정",
  },
  ko: {
    pending: (done: string, total: string) => `키워드로 찾을 수 있습니다. 의미 색인 중 — 구절 ${total}개 중 ${done}개`,
    done: "이제 의미로도 찾습니다",
    paused: (left: string, total: string) => `의미 색인 멈춤 — 구절 ${total}개 중 ${left}개 남음 · 다시 시작`,
    pausedHelp: "다시 시작하거나 Wayfinder를 다음에 열 때까지 멈춥니다",
    resumeLabel: "출장 규정 의미 색인 다시 시작",
  },
} as const;

const meaning = (id: string) => document.querySelector<HTMLElement>(`tr[data-doc='${id}'] .meaning`);

describe("knowledge screen, a document whose meaning is indexed in the background", () => {
  for (const lang of ["en", "ko"] as const) {
    it(`counts its passages down and then says it is found by its meaning too (${lang})`, async () => {
      const say = words[lang];
      const { fake } = await start({ settings: { language: lang } });
      setLang(lang);
      const now = new Date().toISOString();
      fake.docs.push(
        { id: "d1", title: "출장 규정", source: "/data/uploads/출장규정.md", kind: "markdown", size: 10, pages: 0, chunks: 1200, pending: 1188, created_at: now, updated_at: now },
        { id: "d2", title: "회의록", source: "/data/uploads/회의록.md", kind: "markdown", size: 10, pages: 0, chunks: 4, pending: 4, created_at: now, updated_at: now },
        { id: "d3", title: "휴가 규정", source: "/data/uploads/휴가.md", kind: "markdown", size: 10, pages: 0, chunks: 3, created_at: now, updated_at: now },
      );
      click($$(".views button")[0]!);
      await vi.waitFor(() => expect(meaning("d1")?.textContent?.trim()).toBe(say.pending("12", "1,200")), { timeout: 5000 });
      expect(meaning("d1")!.dataset.meaning).toBe("pending");
      // A document embedded all along says nothing of it.
      expect(meaning("d3")).toBeNull();
      const loads = fake.calls.filter((c) => c.method === "Documents").length;

      // The backend stores a batch: the count goes on, in place.
      fake.emit("knowledge.embedding", { docs: [{ doc_id: "d1", pending: 1124 }, { doc_id: "elsewhere", pending: 3 }] });
      await vi.waitFor(() => expect(meaning("d1")!.textContent!.trim()).toBe(say.pending("76", "1,200")), { timeout: 5000 });
      expect(($(`tr[data-doc='d1'] .meaning progress`) as HTMLProgressElement).value).toBe(76);
      // Its last batch: found by its meaning too, said rather than gone.
      fake.emit("knowledge.embedding", { docs: [{ doc_id: "d1", pending: 0 }] });
      await vi.waitFor(() => expect(meaning("d1")!.dataset.meaning).toBe("embedded"), { timeout: 5000 });
      expect(meaning("d1")!.textContent!.trim()).toBe(say.done);
      // The file said to be done as a whole (knowledge.embedded) is too.
      fake.emit("knowledge.embedded", { sources: ["/data/uploads/회의록.md"] });
      await vi.waitFor(() => expect(meaning("d2")!.textContent!.trim()).toBe(say.done), { timeout: 5000 });
      expect(fake.calls.filter((c) => c.method === "Documents").length).toBe(loads);
      expect(meaning("d3")).toBeNull();
    });
  }

  for (const lang of ["en", "ko"] as const) {
    it(`says its meaning indexing is paused after a Stop, with Resume; resumed, counts down and says it is done (${lang})`, async () => {
      const say = words[lang];
      const { fake } = await start({ settings: { language: lang } });
      setLang(lang);
      const now = new Date().toISOString();
      fake.docs.push({ id: "d1", title: "출장 규정", source: "/data/uploads/출장규정.md", kind: "markdown", size: 10, pages: 0, chunks: 1200, pending: 1124, embed_paused: true, created_at: now, updated_at: now });
      click($$(".views button")[0]!);
      const text = () => meaning("d1")!.textContent!.replace(/\s+/g, " ").trim();
      await vi.waitFor(() => expect(meaning("d1")?.dataset.meaning).toBe("paused"), { timeout: 5000 });
      expect(text()).toBe(say.paused("1,124", "1,200"));
      expect(meaning("d1")!.title).toBe(say.pausedHelp);
      expect(meaning("d1")!.querySelector("progress")).toBeNull();
      // Paused, the background embedding leaves it alone.
      fake.embedLaterDone();
      expect(meaning("d1")!.dataset.meaning).toBe("paused");

      const resume = meaning("d1")!.querySelector<HTMLButtonElement>("button.resume")!;
      expect(resume.getAttribute("aria-label")).toBe(say.resumeLabel);
      click(resume);
      await vi.waitFor(() => expect(meaning("d1")!.dataset.meaning).toBe("pending"), { timeout: 5000 });
      expect(fake.calls.filter((c) => c.method === "ResumeEmbedding").map((c) => c.args)).toEqual([["/data/uploads/출장규정.md"]]);
      expect(text()).toBe(say.pending("76", "1,200"));
      fake.emit("knowledge.embedding", { docs: [{ doc_id: "d1", pending: 1000 }] });
      await vi.waitFor(() => expect(text()).toBe(say.pending("200", "1,200")), { timeout: 5000 });
      fake.embedLaterDone();
      await vi.waitFor(() => expect(meaning("d1")!.dataset.meaning).toBe("embedded"), { timeout: 5000 });
      expect(text()).toBe(say.done);
    });
  }

  it("says it is done when a reload finds none of its passages left", async () => {
    const { fake } = await start();
    const now = new Date().toISOString();
    fake.docs.push({ id: "d1", title: "출장 규정", source: "/data/uploads/출장규정.md", kind: "markdown", size: 10, pages: 0, chunks: 40, pending: 40, created_at: now, updated_at: now });
    click($$(".views button")[0]!);
    await vi.waitFor(() => expect(meaning("d1")!.textContent!.trim()).toBe(words.en.pending("0", "40")), { timeout: 5000 });
    delete fake.docs[0]!.pending;
    fake.emit("transport.reconnected", null);
    await vi.waitFor(() => expect(meaning("d1")!.textContent!.trim()).toBe(words.en.done), { timeout: 5000 });
  });

  it("lists a file paused in another window, or added to the library there paused, at once, paused; removed there, it goes", async () => {
    const { fake } = await start();
    await openKnowledge();
    const now = new Date().toISOString();
    // As the backend's AddToLibrary of a paused file, in another window.
    fake.docs.push({ id: "d1", title: "출장 규정", source: "/data/uploads/출장규정.md", kind: "markdown", size: 10, pages: 0, chunks: 40, pending: 30, embed_paused: true, created_at: now, updated_at: now });
    fake.emit("knowledge.embed_pause", { source: "/data/uploads/출장규정.md", paused: true });
    await vi.waitFor(() => expect(meaning("d1")?.dataset.meaning).toBe("paused"), { timeout: 5000 });
    expect(meaning("d1")!.textContent!.replace(/\s+/g, " ").trim()).toBe(words.en.paused("30", "40"));
    fake.docs = [];
    fake.emit("knowledge.embed_pause", { source: "/data/uploads/출장규정.md", paused: false, removed: true });
    await vi.waitFor(() => expect(document.querySelector("tr[data-doc='d1']")).toBeNull(), { timeout: 5000 });
  });
});

describe("knowledge screen, a document waiting for an embedding model that does not answer", () => {
  const off = {
    en: "Found by its words; by its meaning too once an embedding model is set up in Settings and running",
    ko: "키워드로 찾을 수 있습니다. 설정에서 임베딩 모델을 고르고 실행하면 의미로도 찾습니다",
  } as const;
  // It said "meaning being indexed — 0 of 74 passages" with a bar that never moved, with the
  // embedding model missing from Ollama, or none chosen in Settings ("None (keyword search only)").
  const cases = [
    { name: "the model is not installed", lang: "en", embed: { name: "bge-m3", installed: false } },
    { name: "no embedding model is set", lang: "ko", embed: { name: "", installed: false } },
  ] as const;
  for (const c of cases) {
    it(`says it is found by its words and what makes its meaning searchable, with no bar: ${c.name} (${c.lang})`, async () => {
      const fake = new FakeBackend({ settings: { language: c.lang } });
      fake.status.embed_model = { ...fake.status.embed_model, ...c.embed };
      fake.status.error = { code: "model_missing", message: "bge-m3 is not installed" };
      const now = new Date().toISOString();
      fake.docs.push({ id: "d1", title: "출장 규정", source: "/data/uploads/출장규정.md", kind: "markdown", size: 10, pages: 0, chunks: 74, pending: 74, created_at: now, updated_at: now });
      await start({}, fake);
      setLang(c.lang);
      click($$(".views button")[0]!);
      await vi.waitFor(() => expect(meaning("d1")?.dataset.meaning).toBe("off"), { timeout: 5000 });
      expect(meaning("d1")!.textContent!.trim()).toBe(off[c.lang]);
      expect(meaning("d1")!.querySelector("progress")).toBeNull();
      // The model comes: the count is shown again.
      fake.status.embed_model = { name: "bge-m3", installed: true, capabilities: ["embedding"] };
      delete fake.status.error;
      fake.emit("ollama.status", structuredClone(fake.status));
      await vi.waitFor(() => expect(meaning("d1")?.dataset.meaning).toBe("pending"), { timeout: 5000 });
      cleanup();
    });
  }
});

describe("knowledge screen, a document removed in another window", () => {
  it("goes from the list at once, paused or not; a conversation's file removed elsewhere leaves the list as it is", async () => {
    const { fake } = await start();
    const now = new Date().toISOString();
    fake.docs.push(
      { id: "d1", title: "출장 규정", source: "/data/uploads/출장규정.md", kind: "markdown", size: 10, pages: 0, chunks: 40, pending: 30, embed_pending: true, created_at: now, updated_at: now },
      { id: "d2", title: "휴가 규정", source: "/data/uploads/휴가규정.md", kind: "markdown", size: 10, pages: 0, chunks: 4, created_at: now, updated_at: now },
    );
    click($$(".views button")[0]!);
    await vi.waitFor(() => expect(document.querySelector("tr[data-doc='d2']")).not.toBeNull(), { timeout: 5000 });
    // Another window's Remove, as the backend tells it.
    fake["KnowledgeService.Remove"]("d1");
    await vi.waitFor(() => expect(document.querySelector("tr[data-doc='d1']")).toBeNull(), { timeout: 5000 });
    fake.docs = fake.docs.filter((d) => d.id !== "d2"); // gone without an event: the list has no word of it
    fake.emit("knowledge.removed", { doc_ids: ["d2"], sources: ["/data/uploads/.conversations/s1/휴가규정.md"], conversation: "s1" });
    await new Promise((r) => setTimeout(r, 50));
    expect(document.querySelector("tr[data-doc='d2']")).not.toBeNull();
    fake.emit("knowledge.removed", { doc_ids: ["d2"], sources: ["/data/uploads/휴가규정.md"] });
    await vi.waitFor(() => expect(document.querySelector("tr[data-doc='d2']")).toBeNull(), { timeout: 5000 });
  });
});
