// A numbered citation opens its source in the Knowledge reader: the whole
// document, scrolled to the cited chunk, which is labelled as the one
// cited; the dialog keeps its [n], file, page and heading and the
// http(s)-only link. A file attached to the conversation opens whole too,
// from that conversation only. A source whose document was removed since
// opens on the cited passage with a line saying so, never an error; one
// whose document was imported again and says otherwise there now shows
// the passage as cited first, then the document now; a web page's opens
// as before.
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import type { Message, Source } from "../api/gotypes.gen";
import { setLang } from "../i18n/i18n.svelte";
import { FakeBackend } from "../testing/fakeBackend";
import { $, $$, cleanup, click, fakeReaderLayout, start } from "../testing/ui";
import { changedSince, citedPassage, whyUnread } from "./source";

afterEach(() => {
  cleanup();
  setLang("en");
  vi.restoreAllMocks();
});

const T = "2026-11-26T22:00:00Z";

const SOURCES: Source[] = [
  { id: "d1:1", title: "Leave policy", source: "/data/uploads/leave.md", page: 1, heading: "연차 휴가", snippet: "연차 휴가는 1년에 15일입니다. <img src=x onerror=alert(1)>", score: 0.8, url: "javascript:alert(1)" },
  { id: "gone:4", title: "Old handbook", source: "/data/uploads/old.pdf", page: 7, snippet: "Sick leave is paid.", score: 0.5 },
  { id: "d9:0", title: "notes.md", source: "/data/uploads/.conversations/s1/notes.md", snippet: "Bring the receipts.", score: 0.4 },
  { id: "https://example.com/leave", title: "Leave on the web", source: "web", url: "https://example.com/leave", snippet: "A page about leave.", score: 0.3 },
];

function seeded(lang = "en"): FakeBackend {
  const fake = new FakeBackend({ settings: { language: lang } });
  fake.docs.push({ id: "d1", title: "Leave policy", source: "/data/uploads/leave.md", kind: "markdown", size: 10, pages: 3, chunks: 30, created_at: T, updated_at: T });
  // The reply's [3] is a file attached to this conversation.
  fake.attached.s1 = [{ id: "d9", title: "notes.md", source: "/data/uploads/.conversations/s1/notes.md", kind: "markdown", size: 10, pages: 0, chunks: 3, created_at: T, updated_at: T }];
  fake.texts["d9:0"] = "Bring the receipts.";
  fake.sessions.push({ id: "s1", title: "휴가", created_at: T, updated_at: T, message_count: 2, pending_approval: false, model: "" });
  const reply: Message = {
    id: "a1", session_id: "s1", role: "assistant", content: "15 days [1], sick leave [2], receipts [3], the web [4].", status: "complete", created_at: T,
    result: { response: "", session_id: "s1", tools_used: ["retrieve_docs"], sources: SOURCES,
      retrieved: [{ id: "d1:1", title: "Leave policy", source: "/data/uploads/leave.md", snippet: "연차 휴가는 1년에 15일입니다.", score: 0.1 }], llm_calls: 1, prompt_tokens: 1, completion_tokens: 1, execution_ms: 5 },
  };
  fake.messages.set("s1", [{ id: "u1", session_id: "s1", role: "user", content: "How much leave?", status: "complete", created_at: T }, reply]);
  return fake;
}

/**
 * fakeLayout gives the reader the layout happy-dom has not got: a view 100 px high over 2,000 px of document, the page
 * label stuck at its top 30 px high, the label "Cited as [n]" 500 px down and the cited chunk under it, 60 px: longer
 * than the view left under the page label, so the reader puts its start (the label) right under that label.
 */
function fakeLayout(): void {
  fakeReaderLayout((el) => (el.matches("[data-testid=reader-cited]") ? [500, 20] : el.matches("[data-part=hit]") ? [520, 60] : null));
}

/** openReply starts the window on fake and opens its conversation, the reply's four citations shown. */
async function openReply(fake: FakeBackend): Promise<FakeBackend> {
  await start({}, fake);
  click("nav li button.open");
  await vi.waitFor(() => expect($$(".md button.cite")).toHaveLength(4), { timeout: 5000 });
  return fake;
}

async function openCite(n: number): Promise<HTMLElement> {
  click($$(".md button.cite")[n - 1]!);
  await vi.waitFor(() => expect(document.querySelector("dialog.source[open]")).not.toBeNull(), { timeout: 5000 });
  return $("dialog.source");
}

/** openWhole opens citation n and waits until its document's 30 chunks are in the reader. */
async function openWhole(n: number): Promise<HTMLElement> {
  const dialog = await openCite(n);
  await vi.waitFor(() => expect(dialog.querySelectorAll("[data-seq]")).toHaveLength(30), { timeout: 5000 });
  return dialog;
}

describe("a cited source in the reader", () => {
  it("opens the whole document at the cited chunk, labelled as cited, with what the dialog showed", { timeout: 20_000 }, async () => {
    fakeLayout();
    const fake = await openReply(seeded());
    // The document is in whole (30 chunks), not just the passage.
    const dialog = await openWhole(1);
    // Asked from the reply's conversation, with the file it was cited from.
    expect(fake.calls.find((c) => c.method === "Passage")?.args).toEqual(["s1", "d1:1", "/data/uploads/leave.md", SOURCES[0]!.snippet]);
    expect(fake.calls.find((c) => c.method === "Span")?.args).toEqual(["s1", "d1", 0, 64]);
    const cited = $("[data-part='hit']", dialog);
    expect(cited.dataset.seq).toBe("1");
    expect(cited.classList.contains("cited")).toBe(true);
    expect(cited.textContent).toBe("연차 휴가는 1년에 15일입니다. <img src=x onerror=alert(1)>");
    expect(dialog.querySelector("img")).toBeNull();
    // Exactly one chunk is the cited one, and its label says which [n].
    expect(dialog.querySelectorAll("[data-part='hit']")).toHaveLength(1);
    expect($("[data-testid=reader-cited]", dialog).textContent).toBe("Cited as [1]");
    // Scrolled to the cited label, not to the chunk under it, the label right under the page label stuck at the top.
    const body = $("[data-testid=reader-body]", dialog);
    expect(500 - body.scrollTop).toBeGreaterThanOrEqual(30);
    expect(500 - body.scrollTop).toBeLessThan(32);
    // What the dialog showed before: [n], the title, the file, page and heading.
    expect($("#source-title").textContent).toBe("[1] Leave policy");
    expect($(".where", dialog).textContent).toBe("leave.md · page 1 · 연차 휴가");
    expect(dialog.querySelector("[data-testid=reader-note]")).toBeNull();
    expect(dialog.querySelector("[data-testid=reader-was]")).toBeNull();
    // A javascript: link is never offered.
    expect(dialog.querySelector("button.link")).toBeNull();
    // The rest of the document pages like the reader: the end is there, the start too.
    expect(dialog.querySelector("[data-edge=start]")).not.toBeNull();
    expect(dialog.querySelector("[data-edge=end]")).not.toBeNull();
  });

  it("says a removed document was removed, and shows the passage as cited", { timeout: 20_000 }, async () => {
    await openReply(seeded());
    const dialog = await openCite(2);
    await vi.waitFor(() => expect($("[data-testid=reader-note]", dialog).textContent).toContain("no longer in the library"), { timeout: 5000 });
    expect($("[data-part='hit']", dialog).textContent).toBe("Sick leave is paid.");
    expect($("[data-testid=reader-cited]", dialog).textContent).toBe("Cited as [2]");
    expect($("#source-title").textContent).toBe("[2] Old handbook");
    expect($(".where", dialog).textContent).toBe("old.pdf · page 7");
    expect(dialog.textContent).not.toMatch(/document_not_found|knowledge base\./);
  });

  it("opens a file attached to the conversation whole, like a library document, in Korean too", { timeout: 20_000 }, async () => {
    const fake = await openReply(seeded("ko"));
    const dialog = await openCite(3);
    await vi.waitFor(() => expect(dialog.querySelectorAll("[data-seq]")).toHaveLength(3), { timeout: 5000 });
    expect(fake.calls.find((c) => c.method === "Span")?.args).toEqual(["s1", "d9", 0, 64]);
    const cited = $("[data-part='hit']", dialog);
    expect(cited.dataset.seq).toBe("0");
    expect(cited.textContent).toBe("Bring the receipts.");
    expect($("[data-testid=reader-cited]", dialog).textContent).toBe("인용한 구절 [3]");
    expect($(".where", dialog).textContent).toBe("notes.md");
    expect(dialog.querySelector("[data-testid=reader-note]")).toBeNull();
    expect(dialog.querySelector("[data-edge=end]")).not.toBeNull();
  });

  it("never opens another conversation's file: the passage as cited, and why", { timeout: 20_000 }, async () => {
    const fake = seeded();
    // The file is s0's: the backend does not find it for s1.
    fake.attached = { s0: fake.attached.s1! };
    await openReply(fake);
    const dialog = await openCite(3);
    await vi.waitFor(() => expect($("[data-testid=reader-note]", dialog).textContent).toContain("no longer there"), { timeout: 5000 });
    expect(fake.calls.find((c) => c.method === "Passage")?.args[0]).toBe("s1");
    expect(fake.calls.filter((c) => c.method === "Span")).toEqual([]);
    expect(dialog.querySelectorAll("[data-seq]")).toHaveLength(0);
    expect($("[data-part='hit']", dialog).textContent).toBe("Bring the receipts.");
  });

  it.each([
    ["en", "changed since the reply", "Cited as [1]", "The closest passage in the document now"],
    ["ko", "답변 뒤에 이 문서가 바뀌었습니다", "인용한 구절 [1]", "지금 문서에서 가장 비슷한 구절"],
  ])("says a document imported again since changed, shows the passage as cited, then the closest passage now (%s)", { timeout: 20_000 }, async (lang, note, label, now) => {
    const fake = seeded(lang);
    // Imported again: a new id for the same file, other words at the cited place.
    fake.docs[0]!.id = "d1b";
    fake.texts["d1b:1"] = "연차 휴가는 1년에 20일입니다.";
    await openReply(fake);
    const dialog = await openWhole(1);
    expect($("[data-testid=reader-note]", dialog).textContent).toContain(note);
    // First the passage as cited, under its label ...
    const was = $("[data-testid=reader-was]", dialog);
    expect($("[data-part='was']", was).textContent).toBe("연차 휴가는 1년에 15일입니다. <img src=x onerror=alert(1)>");
    expect($("[data-testid=reader-cited]", dialog).textContent).toBe(label);
    expect(dialog.querySelectorAll("[data-testid=reader-cited]")).toHaveLength(1);
    expect(was.compareDocumentPosition($("[data-testid=reader-body]", dialog)) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    // ... then the document as it is now, its chunk at that place labelled so.
    const hit = $("[data-part='hit']", $("[data-testid=reader-body]", dialog));
    expect(hit.dataset.seq).toBe("1");
    expect(hit.textContent).toBe("연차 휴가는 1년에 20일입니다.");
    expect(hit.classList.contains("cited")).toBe(false);
    expect($("[data-testid=reader-now]", dialog).textContent).toBe(now);
    expect(dialog.querySelector("img")).toBeNull();
  });

  it.each([
    ["en", "no longer in this document", "Cited as [1]", "The same place in the document now"],
    ["ko", "이제 이 문서에 없습니다", "인용한 구절 [1]", "지금 문서의 같은 자리"],
  ])("says when the passage cited is no longer in the document imported again, and shows the same place now (%s)", { timeout: 20_000 }, async (lang, note, label, now) => {
    const fake = seeded(lang);
    fake.docs[0]!.id = "d1b";
    fake.texts["d1b:1"] = "병가는 따로 정합니다.";
    await openReply(fake);
    const dialog = await openWhole(1);
    expect($("[data-testid=reader-note]", dialog).textContent).toContain(note);
    expect($("[data-part='was']", dialog).textContent).toBe("연차 휴가는 1년에 15일입니다. <img src=x onerror=alert(1)>");
    expect($("[data-testid=reader-cited]", dialog).textContent).toBe(label);
    const hit = $("[data-part='hit']", $("[data-testid=reader-body]", dialog));
    expect([hit.dataset.seq, hit.textContent]).toEqual(["1", "병가는 따로 정합니다."]);
    expect($("[data-testid=reader-now]", dialog).textContent).toBe(now);
  });

  it("opens the passage cited where it is now in a document imported again with text added before it, with no line", { timeout: 20_000 }, async () => {
    const fake = seeded();
    fake.docs[0]!.id = "d1b";
    fake.texts["d1b:1"] = "새로 넣은 문단입니다.";
    fake.texts["d1b:4"] = "연차 휴가는 1년에 15일입니다. <img src=x onerror=alert(1)>";
    await openReply(fake);
    const dialog = await openWhole(1);
    const hit = $("[data-part='hit']", dialog);
    expect([hit.dataset.seq, hit.textContent, hit.classList.contains("cited")]).toEqual(["4", "연차 휴가는 1년에 15일입니다. <img src=x onerror=alert(1)>", true]);
    expect($("[data-testid=reader-cited]", dialog).textContent).toBe("Cited as [1]");
    expect(dialog.querySelector("[data-testid=reader-note]")).toBeNull();
    expect(dialog.querySelector("[data-testid=reader-was]")).toBeNull();
    expect(fake.calls.find((c) => c.method === "Passage")?.args).toEqual(["s1", "d1:1", "/data/uploads/leave.md", SOURCES[0]!.snippet]);
  });

  it("opens the passage cited, unchanged, in a chunk that holds more of the document now, with no line", { timeout: 20_000 }, async () => {
    const fake = seeded();
    fake.docs[0]!.id = "d1b";
    // Imported again and cut at other places: the passage is whole in chunk 3, after the end of a new paragraph.
    fake.texts["d1b:1"] = "새로 넣은 문단입니다.";
    fake.texts["d1b:3"] = "새 문단의 끝입니다. 연차 휴가는 1년에 15일입니다. <img src=x onerror=alert(1)>";
    await openReply(fake);
    const dialog = await openWhole(1);
    const hit = $("[data-part='hit']", dialog);
    expect([hit.dataset.seq, hit.classList.contains("cited")]).toEqual(["3", true]);
    expect(dialog.querySelector("[data-testid=reader-note]")).toBeNull();
    expect(dialog.querySelector("[data-testid=reader-was]")).toBeNull();
  });

  it("shows no such line when the document was imported again unchanged at the cited place", { timeout: 20_000 }, async () => {
    const fake = seeded();
    fake.docs[0]!.id = "d1b";
    await openReply(fake);
    const dialog = await openWhole(1);
    expect(fake.calls.find((c) => c.method === "Span")?.args).toEqual(["s1", "d1b", 0, 64]);
    expect(dialog.querySelector("[data-testid=reader-note]")).toBeNull();
    expect(dialog.querySelector("[data-testid=reader-was]")).toBeNull();
    expect($("[data-part='hit']", dialog).classList.contains("cited")).toBe(true);
  });

  it("shows a web page's passage as before: no document asked for, its link offered", { timeout: 20_000 }, async () => {
    const fake = await openReply(seeded());
    const dialog = await openCite(4);
    expect($("[data-part='hit']", dialog).textContent).toBe("A page about leave.");
    expect($("button.link", dialog).textContent).toBe("Open the link");
    expect(fake.calls.filter((c) => c.method === "Passage" || c.method === "Span")).toEqual([]);
    expect(dialog.querySelector("[data-testid=reader-note]")).toBeNull();
  });
});

describe("an uncited passage under Details", () => {
  it("opens in its document too, said to be given and not cited", { timeout: 20_000 }, async () => {
    await openReply(seeded());
    click("article[data-role='assistant'] details summary");
    click($("article[data-role='assistant'] details .retrieved li button"));
    await vi.waitFor(() => expect(document.querySelectorAll("dialog.source[open] [data-seq]")).toHaveLength(30), { timeout: 5000 });
    const dialog = $("dialog.source");
    expect($("#source-title").textContent).toBe("Leave policy");
    expect($(".uncited", dialog).textContent).toContain("did not cite");
    expect($("[data-testid=reader-cited]", dialog).textContent).toBe("The passage the reply was given");
    expect($("[data-part='hit']", dialog).dataset.seq).toBe("1");
  });
});

describe("citedPassage", () => {
  it.each([
    ["0193a2b4-aaaa-7bbb-8ccc-0123456789ab:12", true],
    ["d1:0", true],
    ["https://example.com/a:1", false],
    ["zim:wikipedia_en:A/Leave", false],
    ["wikipedia:en:1984", false],
    ["catalog:vrew", false],
    ["", false],
  ])("%s is a library chunk: %s", (id, want) => expect(citedPassage(id)).toBe(want));
});

describe("changedSince", () => {
  it.each([
    ["the same", "Leave is 15 days.", "Leave is 15 days.", false],
    ["other spacing", "Leave is\n15 days. ", "  Leave is 15 days.", false],
    ["Korean composed otherwise", "연차 휴가".normalize("NFD"), "연차 휴가", false],
    ["other words", "Leave is 15 days.", "Leave is 20 days.", true],
    ["cut, the start the same", "Leave is 15 …", "Leave is 15 days, and more.", false],
    ["cut, the start another", "Leave is 15 …", "Leave is 20 days, and more.", true],
    ["nothing cited", "", "Leave is 20 days.", false],
  ])("%s", (_, cited, now, want) => expect(changedSince(cited, now)).toBe(want));
});

describe("whyUnread", () => {
  it.each([
    ["document_not_found", "/data/uploads/old.pdf", "removed"],
    ["document_not_found", "/data/uploads/.conversations/s1/a.md", "attached"],
    ["document_not_found", "C:\\Users\\me\\AppData\\Roaming\\Wayfinder\\uploads\\.conversations\\s1\\a.md", "attached"],
    ["not_found", "/data/uploads/old.pdf", "removed"],
    ["internal", "/data/uploads/old.pdf", "failed"],
  ])("%s for %s is %s", (code, source, want) => expect(whyUnread(code, source)).toBe(want));
});
