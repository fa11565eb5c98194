import { afterEach, describe, expect, it, vi } from "vitest";
import { $, $$, cleanup, click, fakeReaderLayout, fill, openKnowledge, pickDocuments, searchKnowledge, start } from "../testing/ui";
import { progressOf, formatBytes, baseName } from "./progress";
import { toBase64 } from "../api/knowledge";
import { setLang } from "../i18n/i18n.svelte";
import type { DocumentSpan } from "../api/gotypes.gen";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/**
 * fakeLayout gives the reader the layout happy-dom has not got: a view 100 px high over 2,000 px of document, the
 * page label stuck at its top 30 px high, and the hit `height` px high 500 px down once the document is in around it
 * (before that, the hit alone is at the top: a scroll done when the dialog opens does not put it in its place), its
 * first marked word `mark` px below its top, 20 px high.
 */
function fakeLayout(height: number, mark: number): void {
  fakeReaderLayout((el) => {
    const hit = el.closest<HTMLElement>("[data-part=hit]");
    if (!hit) return null;
    const top = hit.dataset.seq === undefined ? 0 : 500;
    if (el === hit) return [top, height];
    return el.matches("mark") ? [top + mark, 20] : null;
  });
}

/** findLeave lists a leave policy titled title and searches for "휴가 15일" until its one hit is shown. */
async function findLeave(fake: Awaited<ReturnType<typeof start>>["fake"], title: string): Promise<void> {
  fake.docs.push({ id: "d1", title, source: "/data/uploads/leave.md", kind: "markdown", size: 10, pages: 0, chunks: 3, created_at: "", updated_at: "" });
  click($$(".views button")[0]!);
  searchKnowledge("휴가 15일");
  await vi.waitFor(() => expect($$(".hit")).toHaveLength(1));
}

/** startKnowledge starts the App and shows its Knowledge screen. */
async function startKnowledge(opts = {}) {
  const ctx = await start(opts);
  await openKnowledge();
  return ctx;
}

describe("knowledge screen", () => {
  it("uploads a picked file with a progress bar and lists it", async () => {
    const { fake } = await startKnowledge();
    await vi.waitFor(() => expect($(".kb").textContent).toContain("No documents yet"));
    pickDocuments([new File([new Uint8Array([37, 80, 68, 70])], "휴가 규정.pdf", { type: "application/pdf" })]);
    await vi.waitFor(() => expect(document.querySelector("table.docs tr[data-doc]")).not.toBeNull());
    expect(fake.calls.find((c) => c.method === "Upload")?.args).toEqual(["휴가 규정.pdf", "JVBERg=="]);
    expect($(".progress [role=progressbar]").getAttribute("aria-valuenow")).toBe("100");
    expect($("table.docs").textContent).toContain("휴가 규정.pdf");
    expect($("table.docs").textContent).toContain("12");
    await vi.waitFor(() => expect($(".progress h2").textContent).toBe("Imported"));
  });

  it("tells an upload the library has already, one that replaced an earlier version, and warnings", async () => {
    const { fake } = await startKnowledge();
    // pick uploads a file and returns its row once it reaches stage.
    const pick = async (name: string, text: string, stage: string) => {
      const rows = () => $$(`.progress li.file[data-stage='${stage}'] .name[title$='${name}']`);
      const before = rows().length;
      pickDocuments([new File([new TextEncoder().encode(text)], name)]);
      await vi.waitFor(() => expect(rows().length).toBe(before + 1));
      return rows()[0]!.closest("li")!; // the newest import is listed first
    };
    await pick("출장 규정.md", "출장비는 하루 10만원", "done");
    const dup = await pick("copy.md", "출장비는 하루 10만원", "duplicate");
    expect(dup.textContent).toContain("Already in your documents as “출장 규정.md”: not added again");
    expect(dup.querySelector("[role=progressbar]")!.getAttribute("aria-valuenow")).toBe("100");
    await vi.waitFor(() => expect(fake.docs).toHaveLength(1));
    const replaced = await pick("출장 규정.md", "숙박비는 하루 8만원", "done");
    expect(replaced.textContent).toContain("Done: replaced the earlier version");
    const warned = await pick("log.txt", "ok", "done");
    expect(warned.querySelector(".warn")!.textContent).toBe("Imported with a warning: 2 unreadable characters were replaced with \uFFFD (line numbers: 3, 7).");
    await vi.waitFor(() => expect($$("table.docs tr[data-doc]")).toHaveLength(2));
  });

  it("says the invalid-characters warning in Korean", async () => {
    const { fake } = await start({ settings: { language: "ko" } });
    setLang("ko");
    await openKnowledge();
    pickDocuments([new File(["ok"], "log.txt")]);
    await vi.waitFor(() => expect(document.querySelector(".progress li.file[data-stage='done'] .warn")).not.toBeNull(), { timeout: 5000 });
    expect($(".progress li.file .warn").textContent).toBe("가져왔지만 확인이 필요합니다: 읽을 수 없는 글자 2개를 \uFFFD로 바꿨습니다(3, 7번째 줄).");
    expect(fake.docs).toHaveLength(1);
    // Nothing is under way any more: the list's heading says what it holds.
    await vi.waitFor(() => expect($(".progress h2").textContent).toBe("가져온 파일"));
  });

  it("stops a slow import's embedding with its Stop button, by keyboard too, in English and Korean", async () => {
    for (const lang of ["en", "ko"] as const) {
      const { fake } = await start({ settings: { language: lang } });
      setLang(lang);
      await openKnowledge();
      pickDocuments([new File(["# big"], "slow-manual.pdf")]);
      await vi.waitFor(() => expect(document.querySelector(".progress li.file[data-stage='embedding'] button.stop")).not.toBeNull(), { timeout: 5000 });
      const stop = $(".progress li.file button.stop") as HTMLButtonElement;
      expect(stop.textContent).toBe(lang === "en" ? "Stop" : "중지");
      expect(stop.getAttribute("aria-label")).toBe(lang === "en" ? "Stop importing slow-manual.pdf" : "slow-manual.pdf 가져오기 중지");
      // A button: Tab reaches it, Enter and Space press it.
      expect(stop.tabIndex).toBe(0);
      stop.focus();
      expect(document.activeElement).toBe(stop);
      click(stop);
      // Stopped while it embeds, the file is in, found by its words; only its embedding stopped.
      await vi.waitFor(() => expect(document.querySelector(".progress li.file[data-stage='done']")).not.toBeNull(), { timeout: 5000 });
      const cancels = fake.calls.filter((c) => c.method === "CancelImport");
      expect(cancels).toHaveLength(1);
      expect(cancels[0]!.args[0]).toMatch(/^imp/);
      expect($(".progress li.file[data-stage='done'] .stage").textContent).toBe(
        lang === "en" ? "Added, found by its words now — indexing its meaning is paused until you resume it in the list" : "추가했습니다. 지금은 키워드로 찾고, 의미 색인은 목록에서 다시 시작할 때까지 멈춥니다",
      );
      expect(document.querySelector(".progress li.file button.stop")).toBeNull();
      await vi.waitFor(() => expect(fake.docs).toHaveLength(1), { timeout: 5000 });
      cleanup();
    }
  });

  it("lists a file as soon as it is in, while it still embeds (a local model takes minutes)", async () => {
    const { fake } = await startKnowledge();
    pickDocuments([new File(["# big"], "slow-handbook.pdf")]);
    await vi.waitFor(() => expect(document.querySelector(".progress li.file[data-stage='embedding']")).not.toBeNull(), { timeout: 5000 });
    await vi.waitFor(() => expect($$("table.docs tr[data-doc]").map((tr) => tr.textContent)).toEqual([expect.stringContaining("slow-handbook.pdf")]), { timeout: 5000 });
    // Still embedding: only the list came early.
    expect(document.querySelector(".progress li.file[data-stage='embedding'] button.stop")).not.toBeNull();
    expect(fake.calls.filter((c) => c.method === "Documents").length).toBeGreaterThanOrEqual(2);
  });

  it("a stopped folder import: the file it was on says nothing was added, the files it never started are one line", async () => {
    const { fake } = await startKnowledge();
    const ev = (file: string, stage: string, i: number) => ({ import_id: "imp-folder", file: `/home/you/notes/${file}`, stage, pages: 0, chunks: 0, embedded: 0, file_index: i, files_total: 4 });
    fake.emit("knowledge.import", { ...ev("a.md", "done", 1), chunks: 3 });
    fake.emit("knowledge.import", ev("b.md", "embedding", 2));
    await vi.waitFor(() => expect(document.querySelector(".progress li.file[data-stage='embedding'] button.stop")).not.toBeNull(), { timeout: 5000 });
    expect($$(".progress button.stop")).toHaveLength(1); // the import's running file, not the one done
    for (const [f, i] of [["b.md", 2], ["c.md", 3], ["d.md", 4]] as const) fake.emit("knowledge.import", ev(f, "stopped", i));
    await vi.waitFor(() => expect(document.querySelector(".progress li.not-started")).not.toBeNull(), { timeout: 5000 });
    expect($$(".progress li.file:not(.not-started)").map((li) => li.getAttribute("data-stage"))).toEqual(["done", "stopped"]);
    expect($(".progress li.not-started").textContent?.trim()).toBe("Stopped before 2 more files: they were not imported");
    expect($$(".progress button.stop")).toHaveLength(0);
    expect($(".progress li.file[data-stage='stopped'] .bar").getAttribute("aria-valuenow")).toBe("0");
  });

  it("says on a file's row that its embedding waits for the answer being written, when the backend says so, and goes on", async () => {
    for (const lang of ["en", "ko"] as const) {
      const { fake } = await startKnowledge({ settings: { language: lang } });
      setLang(lang);
      const ev = (waiting: boolean, embedded: number) => ({ import_id: "imp-long", file: "/home/you/notes/long.md", stage: "embedding", pages: 0, chunks: 128, embedded, file_index: 1, files_total: 1, waiting });
      fake.emit("knowledge.import", ev(false, 64));
      await vi.waitFor(() => expect(document.querySelector(".progress li.file[data-stage='embedding']")).not.toBeNull(), { timeout: 5000 });
      const stage = () => $(".progress li.file[data-stage='embedding'] .stage").textContent;
      expect(stage()).toBe(lang === "en" ? "Indexing · chunks: 128" : "색인하는 중 · 조각 128개");
      fake.emit("knowledge.import", ev(true, 64));
      await vi.waitFor(() => expect(stage()).toBe(lang === "en" ? "Waiting for your question to finish · chunks: 128" : "질문에 답하는 동안 잠시 멈춤 · 조각 128개"), { timeout: 5000 });
      // Its bar keeps where it was, and it can still be stopped.
      expect($(".progress li.file[data-stage='embedding'] .bar").getAttribute("aria-valuenow")).toBe("68");
      expect($(".progress li.file[data-stage='embedding'] button.stop")).toBeTruthy();
      fake.emit("knowledge.import", ev(false, 128));
      await vi.waitFor(() => expect(stage()).toBe(lang === "en" ? "Indexing · chunks: 128" : "색인하는 중 · 조각 128개"), { timeout: 5000 });
      cleanup();
    }
  });

  it("a folder import's Stop button says it stops the whole import, and how many files, in English and Korean", async () => {
    for (const lang of ["en", "ko"] as const) {
      const { fake } = await startKnowledge({ settings: { language: lang } });
      setLang(lang);
      const ev = (file: string, stage: string, i: number, total: number) => ({ import_id: `imp-${total}`, file: `/home/you/notes/${file}`, stage, pages: 0, chunks: 0, embedded: 0, file_index: i, files_total: total });
      fake.emit("knowledge.import", { ...ev("a.md", "done", 1, 3), chunks: 3 });
      fake.emit("knowledge.import", ev("b.md", "embedding", 2, 3));
      await vi.waitFor(() => expect(document.querySelector(".progress li.file[data-stage='embedding'] button.stop")).not.toBeNull(), { timeout: 5000 });
      const stop = $(".progress li.file[data-stage='embedding'] button.stop");
      const label = lang === "en" ? "Stop importing (3 files)" : "가져오기 중지 (파일 3개)";
      expect(stop.getAttribute("aria-label")).toBe(label);
      expect(stop.textContent).toBe(label);
      // One file: its own name, and the short word.
      fake.emit("knowledge.import", ev("only.pdf", "reading", 1, 1));
      await vi.waitFor(() => expect(document.querySelector(".progress li.file[data-stage='reading'] button.stop")).not.toBeNull(), { timeout: 5000 });
      const one = $(".progress li.file[data-stage='reading'] button.stop");
      expect(one.getAttribute("aria-label")).toBe(lang === "en" ? "Stop importing only.pdf" : "only.pdf 가져오기 중지");
      expect(one.textContent).toBe(lang === "en" ? "Stop" : "중지");
      cleanup();
    }
  });

  it("says once, above the rows, that Ollama hung on the embedding and the files are found by their words", async () => {
    for (const lang of ["en", "ko"] as const) {
      const { fake } = await startKnowledge({ settings: { language: lang } });
      setLang(lang);
      for (const [f, i] of [["a.md", 1], ["b.md", 2], ["c.md", 3]] as const) {
        fake.emit("knowledge.import", { import_id: "imp-hung", file: `/home/you/notes/${f}`, stage: "done", pages: 0, chunks: 2, embedded: 0, file_index: i, files_total: 3, embed_later: true });
      }
      await vi.waitFor(() => expect($$(".progress li.file[data-stage='done']")).toHaveLength(3), { timeout: 5000 });
      const notices = $$(".progress .embed-later");
      expect(notices).toHaveLength(1);
      expect(notices[0]!.getAttribute("role")).toBe("status");
      expect(notices[0]!.textContent).toContain(
        lang === "en"
          ? "Ollama did not answer the embedding in time: the files are found by their words now and are embedded later"
          : "Ollama가 임베딩에 제때 답하지 않았습니다. 파일은 지금 키워드로 찾을 수 있고, 임베딩은 나중에",
      );
      expect(notices[0]!.textContent).toContain(lang === "en" ? "restart Ollama or choose a smaller embedding model" : "Ollama를 다시 시작하거나 설정에서 더 작은 임베딩 모델을");
      for (const row of $$(".progress li.file[data-stage='done'] .stage")) {
        expect(row.textContent).toBe(lang === "en" ? "Added, found by its words now — embedded later" : "추가했습니다. 지금은 키워드로 찾을 수 있고, 임베딩은 나중에 합니다");
      }
      // The background embedding catches up on two of them: their rows say
      // so, the third's still says later, and so does the notice.
      fake.emit("knowledge.embedded", { sources: ["/home/you/notes/a.md", "/home/you/notes/b.md"] });
      const now = lang === "en" ? "Added, found by its words and, now, by its meaning: the background embedding is done" : "추가했습니다. 뒤에서 하던 임베딩을 마쳐 이제 의미로도 찾습니다";
      await vi.waitFor(() => expect($$(".progress li.file[data-stage='done'] .stage").map((r) => r.textContent)).toEqual([now, now, expect.stringContaining(lang === "en" ? "embedded later" : "나중에")]), { timeout: 5000 });
      expect($$(".progress .embed-later")).toHaveLength(1);
      fake.emit("knowledge.embedded", { sources: ["/home/you/notes/c.md"] });
      await vi.waitFor(() => expect($$(".progress .embed-later")).toHaveLength(0), { timeout: 5000 });
      cleanup();
    }
  });

  it("says of a folder import every entry not read and why: links out of it, links inside, a pipe, other types", async () => {
    for (const lang of ["en", "ko"] as const) {
      const { fake } = await startKnowledge({ settings: { language: lang } });
      setLang(lang);
      const left = (file: string, code: string, target?: string) => ({ file: `/home/you/notes/${file}`, error: "a link", reason: { code, target } });
      fake.emit("knowledge.import_done", {
        import_id: "imp-links", imported: ["/home/you/notes/a.md"], skipped: [], failed: [], warnings: [], replaced: [], duplicates: [], stopped: [],
        ignored: ["/home/you/notes/photo.png", "/home/you/notes/song.mp3"],
        left_out: [left("escape.md", "link_outside", "/home/you/.ssh/id_ed25519"), left("copy.md", "link_inside", "/home/you/notes/a.md"), left("loop.md", "link_loop"), left("pipe.txt", "not_regular")],
        documents: 1, chunks: 1, pages: 0,
      });
      await vi.waitFor(() => expect(document.querySelector(".report .left-out")).not.toBeNull(), { timeout: 5000 });
      const box = $(".report .left-out");
      expect(box.getAttribute("role")).toBe("status");
      expect(box.querySelector(".title")!.textContent).toBe(lang === "en" ? "Not read from the folder: 4" : "폴더에서 읽지 않은 항목: 4");
      const items = [...box.querySelectorAll(":scope > ul > li")].map((li) => li.textContent);
      expect(items).toHaveLength(4);
      expect(items[0]).toBe(
        lang === "en"
          ? "escape.md: This is a link to /home/you/.ssh/id_ed25519, outside the folder you chose: Wayfinder does not follow it, so nothing outside that folder is read. Add what it points to on its own if you want it."
          : "escape.md: 고른 폴더 밖의 /home/you/.ssh/id_ed25519를 가리키는 링크입니다. 고른 폴더 밖은 읽지 않도록 따라가지 않았습니다. 필요하면 링크가 가리키는 것을 직접 추가하세요.",
      );
      expect(items[1]).toContain(lang === "en" ? "a link to /home/you/notes/a.md, inside the folder you chose" : "고른 폴더 안의 /home/you/notes/a.md를");
      expect(items[2]).toContain(lang === "en" ? "leads back to itself" : "자기 자신으로 돌아오므로");
      expect(items[3]).toContain(lang === "en" ? "not a file but a device, pipe or socket" : "장치, 파이프 또는 소켓");
      expect(box.querySelector("summary")!.textContent).toContain(lang === "en" ? "2 files of other types were left out" : "다른 종류의 파일 2개는 가져오지 않았습니다");
      expect([...box.querySelectorAll("details li")].map((li) => li.textContent)).toEqual(["photo.png", "song.mp3"]);
      cleanup();
    }
  });

  it("shows where a hit comes from: file, record id, page and heading, the file only when the title is not its name", async () => {
    const { fake } = await start({ settings: { language: "ko" } });
    fake.docs.push({ id: "d1", title: "휴가 기록", source: "/data/uploads/records.jsonl", kind: "json", size: 10, pages: 0, chunks: 3, created_at: "", updated_at: "" });
    fake.docs.push({ id: "d2", title: "규정", source: "/home/you/규정.pdf", kind: "pdf", size: 10, pages: 9, chunks: 3, created_at: "", updated_at: "" });
    click($$(".views button")[0]!);
    searchKnowledge("휴가");
    await vi.waitFor(() => expect($$(".hit")).toHaveLength(2));
    const where = $$(".hit-where").map((w) => [...w.querySelectorAll("span")].map((s) => s.textContent));
    expect(where).toEqual([
      ["records.jsonl", "ID r-1024", "연차 휴가"],
      // The PDF is titled by its file's name: the line above says it, the kind beside it says PDF.
      ["2쪽", "연차 휴가"],
    ]);
    expect($$(".hit .open-hit").map((b) => b.getAttribute("title"))).toEqual(["/data/uploads/records.jsonl", "/home/you/규정.pdf"]);
    expect($(".hit-where [data-part=file]").getAttribute("title")).toBe("/data/uploads/records.jsonl");
  });

  it("imports through the native dialogs on the desktop", async () => {
    const { fake } = await startKnowledge({ mode: "desktop" });
    await vi.waitFor(() => expect(document.querySelector(".drop button:nth-child(2)")).not.toBeNull());
    click(".drop button.primary");
    await vi.waitFor(() => expect(fake.calls.find((c) => c.method === "Import")?.args).toEqual([["/home/you/정책.pdf"]]));
  });

  it("removes a document after confirming", async () => {
    const { fake } = await start();
    fake.docs.push({ id: "d1", title: "notes.md", source: "notes.md", kind: "markdown", size: 1536, pages: 0, chunks: 3, created_at: "2026-11-01T00:00:00Z", updated_at: "2026-11-01T00:00:00Z" });
    click($$(".views button")[0]!);
    await vi.waitFor(() => expect(document.querySelector("tr[data-doc='d1']")).not.toBeNull());
    expect($("tr[data-doc='d1']").textContent).toContain("1.5 KB");
    click("tr[data-doc='d1'] button.remove");
    expect(fake.docs).toHaveLength(1);
    click("tr[data-doc='d1'] button.confirm-remove");
    await vi.waitFor(() => expect(document.querySelector("tr[data-doc='d1']")).toBeNull());
    expect(fake.docs).toHaveLength(0);
  });

  it("keeps the focus where a keyboard is when removing: on the question, back on Remove, then on the next row", async () => {
    const { fake } = await start({ settings: { language: "ko" } });
    setLang("ko");
    for (const id of ["d1", "d2"]) fake.docs.push({ id, title: `${id}.md`, source: `${id}.md`, kind: "markdown", size: 10, pages: 0, chunks: 1, created_at: "", updated_at: "" });
    click($$(".views button")[0]!);
    await vi.waitFor(() => expect($$("tr[data-doc]")).toHaveLength(2));
    const active = () => document.activeElement as HTMLElement;
    // Remove pressed: its button is gone, the focus is on the question's answer, not lost to the page.
    click("tr[data-doc='d1'] button.remove");
    await vi.waitFor(() => expect(active().matches("tr[data-doc='d1'] button.confirm-remove")).toBe(true));
    expect(active().textContent).toBe("삭제");
    // Escape takes the question back, the focus back on Remove.
    active().dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true, cancelable: true }));
    await vi.waitFor(() => expect(active().matches("tr[data-doc='d1'] button.remove")).toBe(true));
    expect(document.querySelector("button.confirm-remove")).toBeNull();
    // So does Cancel.
    click("tr[data-doc='d1'] button.remove");
    click("tr[data-doc='d1'] button.cancel-remove");
    await vi.waitFor(() => expect(active().matches("tr[data-doc='d1'] button.remove")).toBe(true));
    // Removed: the focus goes on to the next row's Remove; the last one removed, to the list's heading.
    click("tr[data-doc='d1'] button.remove");
    click("tr[data-doc='d1'] button.confirm-remove");
    await vi.waitFor(() => expect(document.querySelector("tr[data-doc='d1']")).toBeNull());
    await vi.waitFor(() => expect(active().matches("tr[data-doc='d2'] button.remove")).toBe(true));
    click("tr[data-doc='d2'] button.remove");
    click("tr[data-doc='d2'] button.confirm-remove");
    await vi.waitFor(() => expect(active().id).toBe("kb-docs-title"));
    expect(active().textContent).toBe("내 문서");
    expect(fake.docs).toHaveLength(0);
  });

  it("puts the cursor in the search box when the Search tab is picked, and leaves it on the tabs for the arrow keys", async () => {
    await startKnowledge();
    click("#kb-tab-search");
    await vi.waitFor(() => expect(document.activeElement?.id).toBe("kb-search"));
    click("#kb-tab-docs");
    $("#kb-tab-docs").focus();
    $("#kb-tab-docs").dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true, cancelable: true }));
    await vi.waitFor(() => expect($("#kb-tab-search").getAttribute("aria-selected")).toBe("true"));
    await new Promise((r) => setTimeout(r, 50));
    expect(document.activeElement?.id).toBe("kb-tab-search");
  });

  it("searches in Korean and shows document text as text", async () => {
    const { fake } = await start({ settings: { language: "ko" } });
    fake.docs.push({ id: "d1", title: "휴가.pdf", source: "휴가.pdf", kind: "pdf", size: 10, pages: 2, chunks: 3, created_at: "", updated_at: "" });
    click($$(".views button")[0]!);
    searchKnowledge("휴가를");
    await vi.waitFor(() => expect($$(".hit")).toHaveLength(1));
    expect(fake.calls.find((c) => c.method === "Search")?.args).toEqual(["휴가를", 10]);
    expect($(".hit .snippet").textContent).toContain("<img src=x onerror=alert(1)>");
    expect(document.querySelector(".hit img")).toBeNull();
    expect($(".hit").textContent).toContain("2쪽");
    // The Korean query's word is marked without its particle, as text.
    expect($$(".hit .snippet mark").map((m) => m.textContent)).toEqual(["휴가"]);
  });

  it("opens a hit in its whole document: scrolled to it, where it is, the words marked, no markup from the document", async () => {
    const { fake } = await start();
    await findLeave(fake, "Leave policy");
    fakeLayout(20, 0);
    click(".hit button.read-hit");
    await vi.waitFor(() => expect(document.querySelector("dialog.reader[open]")).not.toBeNull());
    // A short document opens whole: its three chunks, the hit among them.
    await vi.waitFor(() => expect($$("dialog.reader [data-seq]").map((e) => e.dataset.seq)).toEqual(["0", "1", "2"]), { timeout: 5000 });
    expect(fake.calls.find((c) => c.method === "Passage")?.args).toEqual(["", "d1:1", "", ""]);
    expect(fake.calls.find((c) => c.method === "Span")?.args).toEqual(["", "d1", 0, 64]);
    const passage = $("dialog.reader [data-testid=reader-passage]");
    expect(passage.dataset.seq).toBe("1");
    expect(passage.textContent).toBe("연차 휴가는 1년에 15일입니다. <img src=x onerror=alert(1)>");
    expect([...passage.querySelectorAll("mark")].map((m) => m.textContent)).toEqual(["휴가", "15일"]);
    // The words are marked in the rest of the document too, as text.
    expect([...$("dialog.reader [data-seq='0']").querySelectorAll("mark")].map((m) => m.textContent)).toEqual(["휴가"]);
    expect(document.querySelector("dialog.reader img")).toBeNull();
    // The chunk after the hit's box starts a line: no indent from the space its repeated words left.
    expect($("dialog.reader [data-seq='2']").textContent).toMatch(/^\S/);
    expect($("dialog.reader [data-edge=start]").textContent).toBe("Start of the document");
    expect($("dialog.reader [data-edge=end]").textContent).toBe("End of the document");
    expect(document.querySelector("dialog.reader button.more")).toBeNull();
    // A document shown whole needs no "how far in".
    expect(document.querySelector("dialog.reader [data-testid=reader-position]")).toBeNull();
    // Where it is: the page and heading, and the view goes to the hit.
    expect($$("dialog.reader .place").map((e) => e.textContent)).toEqual(["page 1 · 연차 휴가"]);
    // A hit 20 px high, centred in the 70 px of the view under the 30 px label: its top 25 px under the label.
    await vi.waitFor(() => expect($("dialog.reader [data-testid=reader-body]").scrollTop).toBe(500 - 30 - 25), { timeout: 5000 });
    expect($("dialog.reader h2").textContent).toBe("Leave policy");
    expect($("dialog.reader .where").textContent).toContain("leave.md");
    click("dialog.reader form button");
    await vi.waitFor(() => expect(document.querySelector("dialog.reader[open]")).toBeNull());
    // The title opens it too.
    click(".hit button.open-hit");
    await vi.waitFor(() => expect(document.querySelector("dialog.reader[open]")).not.toBeNull());
  });

  it("shows the hit whole in its document, the words it repeats of the chunk before taken from that one", async () => {
    const { fake } = await start();
    // Chunk 1 repeats the end of chunk 0 ("연차 휴가는"): the backend's pages show it once, at the end of chunk 0.
    fake.texts["d1:0"] = "휴가 규정의 첫 문단입니다. 연차 휴가는";
    const k = fake as unknown as Record<string, (...a: unknown[]) => DocumentSpan>;
    const span = k["KnowledgeService.Span"]!.bind(fake);
    k["KnowledgeService.Span"] = (...a: unknown[]) => {
      const s = span(...a);
      return { ...s, parts: s.parts!.map((p) => (p.seq === 1 ? { ...p, text: " 1년에 15일입니다. <img src=x onerror=alert(1)>" } : p)) };
    };
    await findLeave(fake, "Leave policy");
    click(".hit button.read-hit");
    await vi.waitFor(() => expect($$("dialog.reader [data-seq]")).toHaveLength(3), { timeout: 5000 });
    // The hit's box holds the words it was found by; the chunk before ends where the hit begins, said once.
    const passage = $("dialog.reader [data-testid=reader-passage]");
    await vi.waitFor(() => expect(passage.textContent).toBe("연차 휴가는 1년에 15일입니다. <img src=x onerror=alert(1)>"));
    expect([...passage.querySelectorAll("mark")].map((m) => m.textContent)).toEqual(["휴가", "15일"]);
    expect($("dialog.reader [data-seq='0']").textContent).toBe("휴가 규정의 첫 문단입니다.");
    expect($("dialog.reader [data-testid=reader-body]").textContent!.match(/연차 휴가는/g)).toHaveLength(1);
  });

  it("opens a hit taller than the view at its first marked word, in Korean", async () => {
    const { fake } = await start({ settings: { language: "ko" } });
    await findLeave(fake, "휴가 규정");
    // The hit 400 px high in a view of 100, its first marked word 250 px down it: from its first line, the word
    // would be out of view.
    fakeLayout(400, 250);
    click(".hit button.read-hit");
    await vi.waitFor(() => expect($$("dialog.reader [data-seq]")).toHaveLength(3), { timeout: 5000 });
    const body = $("dialog.reader [data-testid=reader-body]");
    // The word's line a third of the way down the 70 px under the label: (70 - 20) / 3 below it, rounded.
    await vi.waitFor(() => expect(body.scrollTop).toBe(Math.floor(500 + 250 - 30 - 50 / 3)), { timeout: 5000 });
    const word = 500 + 250 - body.scrollTop;
    expect(word).toBeGreaterThanOrEqual(30);
    expect(word + 20).toBeLessThanOrEqual(100);
  });

  it("pages through a long document in Korean, holding a bounded window of it", async () => {
    const { fake } = await start({ settings: { language: "ko" } });
    fake.docs.push({ id: "big", title: "규정집", source: "/data/uploads/rules.md", kind: "markdown", size: 10, pages: 0, chunks: 500, created_at: "", updated_at: "" });
    click($$(".views button")[0]!);
    searchKnowledge("휴가");
    await vi.waitFor(() => expect($$(".hit")).toHaveLength(1));
    click(".hit button.read-hit");
    const seqs = () => $$("dialog.reader [data-seq]").map((e) => Number(e.dataset.seq));
    // A page around the hit (chunk 1 of 500), not the whole document.
    await vi.waitFor(() => expect(seqs()).toHaveLength(17), { timeout: 5000 });
    expect(seqs()[0]).toBe(0);
    expect($("dialog.reader [data-edge=start]").textContent).toBe("문서의 처음");
    expect($$("dialog.reader .place").map((e) => e.textContent)).toEqual(["1쪽 · 연차 휴가", "2쪽 · 연차 휴가"]);
    // How far into the document: at the hit, chunk 1 of 500.
    expect($("dialog.reader [data-testid=reader-position]").textContent).toBe("문서의 약 0% 지점");
    const later = () => $("dialog.reader button.more[data-more=below]");
    expect(later().textContent).toBe("뒷부분 더 보기");
    for (let i = 0; i < 6; i++) {
      const last = seqs().at(-1)!;
      click(later());
      await vi.waitFor(() => expect(seqs().at(-1)).toBe(last + 16), { timeout: 5000 });
    }
    // 17 + 6 × 16 = 113 chunks read, at most 96 held: the start was let go.
    expect(seqs()).toHaveLength(96);
    expect(seqs()[0]).toBe(113 - 96);
    expect(seqs()).toEqual(Array.from({ length: 96 }, (_, i) => 17 + i));
    expect(document.querySelector("dialog.reader [data-edge=start]")).toBeNull();
    expect(document.querySelector("dialog.reader [data-testid=reader-passage]")).toBeNull();
    // Going back up pages the start in again.
    click("dialog.reader button.more[data-more=above]");
    await vi.waitFor(() => expect(seqs()[0]).toBe(1), { timeout: 5000 });
    expect(seqs()).toHaveLength(96);
    expect(fake.calls.filter((c) => c.method === "Span").at(-1)?.args).toEqual(["", "big", 1, 16]);
  });

  it("makes the reader's scroll bar the whole document's: dragged to the end of its track, the end of a long document comes in", async () => {
    for (const lang of ["en", "ko"] as const) {
      const { fake } = await start({ settings: { language: lang } });
      setLang(lang);
      fake.docs.push({ id: "big", title: "규정집", source: "/data/uploads/rules.md", kind: "markdown", size: 10, pages: 0, chunks: 500, created_at: "", updated_at: "" });
      // Every chunk 40 px high, laid out under the room of the chunks not held above them.
      const roomAbove = () => parseFloat(document.querySelector<HTMLElement>("dialog.reader [data-room=above]")?.style.height || "0");
      fakeReaderLayout((el) => {
        if (el.matches(".held")) return [roomAbove(), 40 * el.querySelectorAll("[data-seq]").length];
        const chunk = el.closest<HTMLElement>("[data-seq]");
        if (chunk !== el) return null;
        const all = [...el.closest(".held")!.querySelectorAll("[data-seq]")];
        return [roomAbove() + 40 * all.indexOf(chunk), 40];
      });
      click($$(".views button")[0]!);
      searchKnowledge("휴가");
      await vi.waitFor(() => expect($$(".hit")).toHaveLength(1));
      click(".hit button.read-hit");
      const seqs = () => $$("dialog.reader [data-seq]").map((e) => Number(e.dataset.seq));
      await vi.waitFor(() => expect(seqs()).toHaveLength(17), { timeout: 5000 });
      // The 483 chunks not held below take the room they would: the scroll bar's track is the whole document.
      await vi.waitFor(() => expect(document.querySelector<HTMLElement>("dialog.reader [data-room=below]")?.style.height).toBe(`${483 * 40}px`));
      expect(document.querySelector("dialog.reader [data-room=above]")).toBeNull();
      // The thumb dragged to the end of its track: the view at the document's last 100 px.
      const body = $("dialog.reader [data-testid=reader-body]");
      body.scrollTop = 500 * 40 - 100;
      body.dispatchEvent(new Event("scroll"));
      // The document's end comes in where the view is, not the next 16 chunks after what was held.
      await vi.waitFor(() => expect(seqs().at(-1)).toBe(499), { timeout: 5000 });
      expect(fake.calls.filter((c) => c.method === "Span").at(-1)?.args).toEqual(["", "big", 483, 17]);
      expect(seqs()[0]).toBe(483);
      expect($("dialog.reader [data-edge=end]").textContent).toBe(lang === "en" ? "End of the document" : "문서의 끝");
      expect(document.querySelector("dialog.reader [data-room=below]")).toBeNull();
      expect(roomAbove()).toBe(483 * 40);
      // The view stays where the thumb was left: chunk 497 (19,900 px down) at its top.
      expect(body.scrollTop).toBe(483 * 40 + 14 * 40);
      await vi.waitFor(() => expect($("dialog.reader [data-testid=reader-position]").textContent).toBe(lang === "en" ? "About 100% into the document" : "문서의 약 100% 지점"));
      // Dragged back to the middle and on to the top while the middle is on its way, where the thumb then stays
      // (no scroll event comes after): the start comes in, not the middle left behind.
      body.scrollTop = 250 * 40;
      body.dispatchEvent(new Event("scroll"));
      body.scrollTop = 0;
      await vi.waitFor(() => expect(seqs()[0]).toBe(0), { timeout: 5000 });
      expect(fake.calls.filter((c) => c.method === "Span").map((c) => c.args[2])).toEqual([0, 483, 242, 0]);
      expect($("dialog.reader [data-edge=start]").textContent).toBe(lang === "en" ? "Start of the document" : "문서의 처음");
      expect(document.querySelector("dialog.reader [data-room=above]")).toBeNull();
      expect(body.scrollTop).toBe(0);
      cleanup();
      vi.restoreAllMocks();
    }
  });

  it("browses the catalog by category", async () => {
    await startKnowledge();
    click("#kb-tab-catalog");
    await vi.waitFor(() => expect($$(".catalog .tool").length).toBe(5));
    click($$(".chip").find((c) => c.textContent === "Video")!);
    await vi.waitFor(() => expect($$(".catalog .tool strong").map((s) => s.textContent)).toEqual(["Vrew", "CapCut"]));
  });
});

describe("import progress", () => {
  const p = (stage: string, chunks = 0, embedded = 0) => ({ import_id: "i", file: "/a/b/c.pdf", stage, pages: 3, chunks, embedded, file_index: 0, files_total: 1 });
  it.each([
    ["reading", 0, 0, 10, false],
    ["chunking", 10, 0, 30, false],
    ["embedding", 10, 5, 68, false],
    ["embedding", 0, 0, 40, false],
    ["done", 10, 10, 100, true],
    ["failed", 0, 0, 100, true],
    ["skipped", 0, 0, 100, true],
    ["duplicate", 0, 0, 100, true],
    ["waiting", 0, 0, 5, false],
    ["stopped", 10, 5, 0, true],
  ])("%s %i/%i → %i%%", (stage, chunks, embedded, percent, finished) => {
    expect(progressOf(p(stage as string, chunks as number, embedded as number))).toMatchObject({ percent, finished });
  });

  it("formats names, sizes and bytes", () => {
    expect(baseName("C:\\docs\\정책.pdf")).toBe("정책.pdf");
    expect(baseName("/home/a/b.md")).toBe("b.md");
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(5 * 1024 * 1024)).toBe("5 MB");
    const big = new Uint8Array(100_000).fill(65);
    expect(atob(toBase64(big))).toHaveLength(100_000);
    expect(toBase64(new TextEncoder().encode("한글"))).toBe(btoa(String.fromCharCode(...new TextEncoder().encode("한글"))));
  });
});
