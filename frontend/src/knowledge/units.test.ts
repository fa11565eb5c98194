// A presentation's pages are slides wherever the window shows a page
// number or count: the documents table, a search hit, the reader's labels,
// the import's progress, a reply's sources and the cited source's dialog —
// in English and Korean. A PDF's stay pages, and a source saved before
// units were kept (no unit) is a page.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Message } from "../api/gotypes.gen";
import { setLang } from "../i18n/i18n.svelte";
import { FakeBackend } from "../testing/fakeBackend";
import { $, $$, cleanup, click, openKnowledge, pickDocuments, searchKnowledge, start } from "../testing/ui";
import { pageCount, pageLabel, pageShort } from "./units";

afterEach(() => {
  cleanup();
  setLang("en");
});

const T = "2026-11-27T09:00:00Z";

describe("the words for a page or a slide", () => {
  it.each([
    ["en", "slide", "slide 3", "slide 3", "12 slides", "1 slide"],
    ["en", "page", "page 3", "p. 3", "12 pages", "1 page"],
    ["en", undefined, "page 3", "p. 3", "12 pages", "1 page"],
    ["ko", "slide", "슬라이드 3", "슬라이드 3", "슬라이드 12장", "슬라이드 1장"],
    ["ko", "page", "3쪽", "3쪽", "12쪽", "1쪽"],
  ] as const)("%s, unit %s", (lang, unit, label, short, count, one) => {
    setLang(lang);
    expect(pageLabel(3, unit)).toBe(label);
    expect(pageShort(3, unit)).toBe(short);
    expect(pageCount(12, unit)).toBe(count);
    expect(pageCount(1, unit)).toBe(one);
  });
});

describe("the Knowledge screen", () => {
  it.each([
    ["en", "Length", "4 slides", "9 pages", "slide 2", "slide 1 · 연차 휴가"],
    ["ko", "분량", "슬라이드 4장", "9쪽", "슬라이드 2", "슬라이드 1 · 연차 휴가"],
  ])("in %s, counts and names a deck's slides: the table, a hit, the reader", async (lang, column, deckLength, pdfLength, hitPlace, readerPlace) => {
    const { fake } = await start({ settings: { language: lang } });
    setLang(lang as "en" | "ko");
    fake.docs.push({ id: "deck", title: "학칙", source: "/home/you/학칙.pptx", kind: "pptx", size: 10, pages: 4, unit: "slide", chunks: 3, created_at: T, updated_at: T });
    fake.docs.push({ id: "pdf", title: "규정", source: "/home/you/규정.pdf", kind: "pdf", size: 10, pages: 9, unit: "page", chunks: 3, created_at: T, updated_at: T });
    click($$(".views button")[0]!);
    await vi.waitFor(() => expect($$("table.docs tr[data-doc]")).toHaveLength(2), { timeout: 5000 });
    const headings = $$("table.docs th").map((th) => th.textContent);
    const col = headings.indexOf(column);
    expect(col, `headings ${headings.join(", ")}`).toBeGreaterThan(0);
    expect($$("tr[data-doc='deck'] td")[col]!.textContent).toBe(deckLength);
    expect($$("tr[data-doc='pdf'] td")[col]!.textContent).toBe(pdfLength);

    searchKnowledge("휴가");
    await vi.waitFor(() => expect($$(".hit")).toHaveLength(2), { timeout: 5000 });
    const deckHit = $$(".hit").find((h) => h.textContent!.includes("학칙.pptx"))!;
    expect($("[data-part=page]", deckHit).textContent).toBe(hitPlace);
    click($("button.read-hit", deckHit));
    await vi.waitFor(() => expect($$("dialog.reader .place").map((e) => e.textContent)[0]).toBe(readerPlace), { timeout: 5000 });
    expect($("dialog.reader").textContent).not.toMatch(/page 1|1쪽/);
  });

  it("says how many slides an import read", async () => {
    const { fake } = await start({ settings: { language: "ko" } });
    setLang("ko");
    await openKnowledge();
    pickDocuments([new File([new Uint8Array([80, 75, 3, 4])], "발표.pptx")]);
    await vi.waitFor(() => expect(document.querySelector(".progress li.file[data-stage='done']")).not.toBeNull(), { timeout: 5000 });
    expect($(".progress li.file[data-stage='done']").textContent).toContain("슬라이드 4장");
    expect($(".progress li.file[data-stage='done']").textContent).not.toContain("4쪽");
    await vi.waitFor(() => expect(fake.docs).toHaveLength(1), { timeout: 5000 });
  });
});

describe("a reply's sources", () => {
  function seeded(lang: string): FakeBackend {
    const fake = new FakeBackend({ settings: { language: lang } });
    fake.docs.push({ id: "deck", title: "메뉴 소개", source: "/data/uploads/menu.pptx", kind: "pptx", size: 10, pages: 5, unit: "slide", chunks: 30, created_at: T, updated_at: T });
    fake.sessions.push({ id: "s1", title: "메뉴", created_at: T, updated_at: T, message_count: 2, pending_approval: false, model: "" });
    const reply: Message = {
      id: "a1", session_id: "s1", role: "assistant", content: "여름 음료 [1], 휴가 [2].", status: "complete", created_at: T,
      result: {
        response: "", session_id: "s1", tools_used: ["retrieve_docs"], llm_calls: 1, prompt_tokens: 1, completion_tokens: 1, execution_ms: 5,
        sources: [
          { id: "deck:1", title: "메뉴 소개", source: "/data/uploads/menu.pptx", page: 4, unit: "slide", snippet: "연차 휴가는 1년에 15일입니다. <img src=x onerror=alert(1)>", score: 0.8 },
          // Saved before units were kept: a page.
          { id: "gone:2", title: "Old handbook", source: "/data/uploads/old.pdf", page: 7, snippet: "Sick leave is paid.", score: 0.5 },
        ],
      },
    };
    fake.messages.set("s1", [{ id: "u1", session_id: "s1", role: "user", content: "메뉴?", status: "complete", created_at: T }, reply]);
    return fake;
  }

  it.each([
    ["en", ["[1] 메뉴 소개 · slide 4", "[2] Old handbook · page 7"], "menu.pptx · slide 4", "slide 1 · 연차 휴가"],
    ["ko", ["[1] 메뉴 소개 · 슬라이드 4", "[2] Old handbook · 7쪽"], "menu.pptx · 슬라이드 4", "슬라이드 1 · 연차 휴가"],
  ])("in %s, are cited by their slide, under the reply and in the source's reader", { timeout: 20_000 }, async (lang, listed, where, place) => {
    await start({}, seeded(lang));
    click("nav li button.open");
    await vi.waitFor(() => expect($$(".md button.cite")).toHaveLength(2), { timeout: 5000 });
    const reply = $$("article[data-role='assistant']").at(-1)!;
    expect([...reply.querySelectorAll<HTMLElement>(".cited li")].map((l) => l.textContent!.trim())).toEqual(listed);
    click($$(".md button.cite")[0]!);
    await vi.waitFor(() => expect(document.querySelector("dialog.source[open]")).not.toBeNull(), { timeout: 5000 });
    const dialog = $("dialog.source");
    expect($(".where", dialog).textContent).toBe(where);
    await vi.waitFor(() => expect([...dialog.querySelectorAll(".place")].map((e) => e.textContent)[0]).toBe(place), { timeout: 5000 });
  });
});
