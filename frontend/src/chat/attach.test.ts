// Files in chat: attached or dropped on the message box they go into the
// open conversation's own knowledge with a progress row each; the
// conversation lists its files, and one can join the whole library. In a
// new chat, attaching starts a conversation for the files (the first
// message then titles it), and sending waits until they are found by
// their words (their embedding may go on).
import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync } from "svelte";
import { $, $$, attach, cleanup, click, fill, send, start } from "../testing/ui";
import { setLang } from "../i18n/i18n.svelte";

afterEach(cleanup);

describe("files in chat", () => {
  it("attaches in a new chat: a conversation starts with the files, sending waits for them, the first message titles it", async () => {
    const { fake } = await start({ stepDelayMs: 250 });
    const b = $("[data-testid='attach-files']") as HTMLButtonElement;
    expect(b.disabled).toBe(false);
    expect(b.title).toBe("Attach files: a new conversation starts with them");
    fill("#composer-input", "이 규정을 요약해 줘");
    attach([new File(["# 출장 규정\n\n10만원"], "출장규정.md")]);
    await vi.waitFor(() => expect(fake.calls.filter((c) => c.method === "Attach")).toHaveLength(1), { timeout: 5000 });
    const sid = fake.sessions[0]!.id;
    expect(fake.calls.filter((c) => c.method === "Create")).toHaveLength(1);
    expect(fake.calls.find((c) => c.method === "Attach")!.args.slice(0, 2)).toEqual([sid, "출장규정.md"]);
    // While the file is on its way in, sending waits, and says why.
    await vi.waitFor(() => expect($$("[data-testid='attachments'] .pending li")).toHaveLength(1), { timeout: 5000 });
    expect(($("button.send") as HTMLButtonElement).disabled).toBe(true);
    expect($("#composer-help").textContent).toBe("Sending waits until the attached files are in, so that the answer can use them.");
    // The draft typed before attaching is kept.
    expect(($("#composer-input") as HTMLTextAreaElement).value).toBe("이 규정을 요약해 줘");
    await vi.waitFor(() => expect($("[data-testid='attachments'] .files li").textContent).toContain("출장규정.md"), { timeout: 5000 });
    await vi.waitFor(() => expect(($("button.send") as HTMLButtonElement).disabled).toBe(false), { timeout: 5000 });
    click("button.send");
    await vi.waitFor(() => expect(fake.calls.filter((c) => c.method === "Send")).toHaveLength(1), { timeout: 5000 });
    // The message goes into that conversation, not a new one, which it titles.
    expect(fake.calls.find((c) => c.method === "Send")!.args[0]).toBe(sid);
    expect(fake.sessions).toHaveLength(1);
    await vi.waitFor(() => expect($(".sidebar li .title").textContent).toBe("이 규정을 요약해 줘"), { timeout: 5000 });
    expect($("[data-testid='attachments'] .files li").textContent).toContain("출장규정.md");
  });

  it("a conversation left after attaching is named after its files and shows them again; one left with nothing is not kept", async () => {
    const { fake } = await start();
    attach([new File(["# 출장 규정\n\n10만원"], "출장규정.md"), new File(["# 회의록"], "회의록.md")]);
    await vi.waitFor(() => expect($$("[data-testid='attachments'] .files li")).toHaveLength(2), { timeout: 5000 });
    const sid = fake.sessions[0]!.id;
    // Named after its files in the list and the header, marked as such.
    await vi.waitFor(() => expect($(".sidebar li .title").textContent).toBe("📎출장규정.md and 회의록.md"), { timeout: 5000 });
    expect($(".sidebar li .title .clip").title).toBe("Named after its attached files until you write to it");
    // Renaming it starts from that name.
    click(".sidebar li button[aria-label='Rename “출장규정.md and 회의록.md”']");
    await vi.waitFor(() => expect(($(".sidebar input.rename") as HTMLInputElement).value).toBe("출장규정.md and 회의록.md"), { timeout: 5000 });
    $(".sidebar input.rename").dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true, cancelable: true }));
    flushSync();
    expect(fake.calls.some((c) => c.method === "Rename")).toBe(false);
    // Left for a new chat, it stays, with its files.
    click(".sidebar button.new");
    await vi.waitFor(() => expect($("#empty-title").textContent).toBe("What would you like to get done?"), { timeout: 5000 });
    expect(fake.calls.some((c) => c.method === "Delete")).toBe(false);
    // Opened again: its files and questions about them, not the general examples.
    click(".sidebar li button.open");
    await vi.waitFor(() => expect($("#empty-title").textContent).toBe("Ask about your files"), { timeout: 5000 });
    expect($$(".empty .files li").map((li) => li.textContent)).toEqual(["📎 출장규정.md", "📎 회의록.md"]);
    click($$(".empty .example")[0]!);
    expect(($("#composer-input") as HTMLTextAreaElement).value).toBe("Summarise the attached files in a few bullet points");

    // A new chat whose only file could not be read keeps nothing once left.
    click(".sidebar button.new");
    await vi.waitFor(() => expect($("#empty-title").textContent).toBe("What would you like to get done?"), { timeout: 5000 });
    attach([new File(["MZ"], "setup.exe")]);
    await vi.waitFor(() => expect($("[data-testid='attachments'] .pending li[data-stage='failed']")).toBeTruthy(), { timeout: 5000 });
    const bare = fake.sessions.find((s) => s.id !== sid)!.id;
    await vi.waitFor(() => expect($$(".sidebar li")).toHaveLength(2), { timeout: 5000 });
    click(".sidebar button.new");
    await vi.waitFor(() => expect(fake.calls.filter((c) => c.method === "Delete").map((c) => c.args[0])).toEqual([bare]), { timeout: 5000 });
    await vi.waitFor(() => expect($$(".sidebar li .title").map((e) => e.textContent)).toEqual(["📎출장규정.md and 회의록.md"]), { timeout: 5000 });
    // No undo offered for it: nothing was in it.
    expect(document.body.textContent).not.toContain("Undo");
  }, 30_000);

  it("does not keep a conversation left while its only file was on its way in, once that file is refused", async () => {
    const { fake } = await start({ stepDelayMs: 400 });
    attach([new File(["MZ"], "setup.exe")]);
    await vi.waitFor(() => expect($$("[data-testid='attachments'] .pending li")).toHaveLength(1), { timeout: 5000 });
    const sid = fake.sessions[0]!.id;
    click(".sidebar button.new");
    // Still on its way in when left: kept for now.
    expect(fake.calls.some((c) => c.method === "Delete")).toBe(false);
    await vi.waitFor(() => expect(fake.calls.filter((c) => c.method === "Delete").map((c) => c.args[0])).toEqual([sid]), { timeout: 5000 });
    await vi.waitFor(() => expect($$(".sidebar li")).toHaveLength(0), { timeout: 5000 });
  }, 20_000);

  it("takes files dropped on a new chat, in Korean", async () => {
    const { fake } = await start({ settings: { language: "ko" } });
    setLang("ko");
    expect(($("[data-testid='attach-files']") as HTMLButtonElement).title).toBe("파일 첨부: 이 파일로 새 대화를 시작합니다");
    const form = $("form.composer");
    const dt = { types: ["Files"], files: [new File(["{}"], "data.json")] } as unknown as DataTransfer;
    const over = new Event("dragover", { bubbles: true, cancelable: true });
    Object.defineProperty(over, "dataTransfer", { value: dt });
    form.dispatchEvent(over);
    flushSync();
    expect($("form.composer .drop").textContent).toBe("여기에 놓으면 이 파일로 새 대화를 시작합니다");
    const drop = new Event("drop", { bubbles: true, cancelable: true });
    Object.defineProperty(drop, "dataTransfer", { value: dt });
    form.dispatchEvent(drop);
    flushSync();
    await vi.waitFor(() => expect($("[data-testid='attachments'] .files li").textContent).toContain("data.json"), { timeout: 5000 });
    expect(fake.calls.filter((c) => c.method === "Create").map((c) => c.args)).toEqual([[""]]);
    expect(fake.calls.find((c) => c.method === "Attach")!.args[0]).toBe(fake.sessions[0]!.id);
    // Named after its file until a message titles it, not "새 대화".
    await vi.waitFor(() => expect($(".sidebar li .title").textContent).toBe("📎data.json"), { timeout: 5000 });
    expect($(".sidebar li .title .clip").title).toBe("첫 메시지를 쓰기 전까지 첨부한 파일 이름을 제목으로 씁니다");
    expect($("#empty-title").textContent).toBe("첨부한 파일에 대해 물어보세요");
    expect($$(".empty .example").map((b) => b.textContent)).toEqual(["data.json 내용을 몇 줄로 요약해 줘", "data.json의 핵심 내용은 뭐야?"]);
  });

  it("does not keep Send waiting for a file whose end was missed while the event stream was away", async () => {
    const { fake } = await start({ stepDelayMs: 60_000 });
    fill("#composer-input", "요약해 줘");
    attach([new File(["# 규정"], "규정.md")]);
    await vi.waitFor(() => expect($$("[data-testid='attachments'] .pending li")).toHaveLength(1), { timeout: 5000 });
    expect(($("button.send") as HTMLButtonElement).disabled).toBe(true);
    // The import ended while the stream was down: its events never came.
    const sid = fake.sessions[0]!.id;
    const now = new Date().toISOString();
    fake.attached[sid] = [{ id: "doc-x", title: "규정.md", source: `/data/uploads/.conversations/${sid}/규정.md`, kind: "markdown", size: 8, pages: 0, chunks: 1, created_at: now, updated_at: now }];
    fake.emit("transport.reconnected", null);
    await vi.waitFor(() => expect(document.querySelector("[data-testid='attachments'] .pending")).toBeNull(), { timeout: 5000 });
    expect($("[data-testid='attachments'] .files li").textContent).toContain("규정.md");
    expect(($("button.send") as HTMLButtonElement).disabled).toBe(false);
  });

  it("says why a file was refused in Korean", async () => {
    await start({ settings: { language: "ko" } });
    setLang("ko");
    attach([new File(["MZ"], "setup.exe"), new File(["x".repeat(10)], "big.md")]);
    await vi.waitFor(() => expect($("[data-testid='attachments'] .pending li[data-stage='failed']").textContent).toContain("setup.exe: 지원하지 않는 종류의 파일입니다. Wayfinder는 PDF, Word(.docx), PowerPoint(.pptx), Excel(.xlsx), 한글(.hwp, .hwpx), OpenDocument(.odt, .ods, .odp), RTF, 웹 페이지(HTML), EPUB 전자책, 마크다운, 텍스트, CSV, JSON, JSON Lines 파일을 읽습니다."), { timeout: 5000 });
    expect($("[data-testid='attachments']").textContent).not.toContain("not supported");
  });

  it("attaches files with a progress row each, lists them, refuses what it cannot read, and adds one to the library", async () => {
    // Slow enough steps that both rows are still on their way when looked at, on a loaded machine too.
    const { fake } = await start({ stepDelayMs: 250 });
    await send("hello");
    await vi.waitFor(() => expect($("[data-testid='attach-files']").title).toBe("Attach files to this conversation"));
    attach([new File(["# 출장 규정\n\n10만원"], "출장규정.md"), new File(["MZ"], "setup.exe")]);
    // Each file has its own row while it is on its way.
    await vi.waitFor(() => expect($$("[data-testid='attachments'] .pending li").length).toBe(2), { timeout: 5000 });
    await vi.waitFor(() => expect($("[data-testid='attachments'] .files li").textContent).toContain("출장규정.md"), { timeout: 5000 });
    await vi.waitFor(() => expect($("[data-testid='attachments'] .pending li[data-stage='failed']").textContent).toContain("setup.exe: This kind of file is not supported: Wayfinder reads PDF, Word (.docx), PowerPoint (.pptx), Excel (.xlsx), Hancom (.hwp, .hwpx), OpenDocument (.odt, .ods, .odp), RTF, web pages (HTML), EPUB books, Markdown, text, CSV, JSON and JSON Lines files."), { timeout: 5000 });
    // (The file is listed once it is found by its words; its row goes when it is in.)
    await vi.waitFor(() => expect($$("[data-testid='attachments'] .pending li")).toHaveLength(1), { timeout: 5000 });
    expect(fake.calls.filter((c) => c.method === "Attach").map((c) => [c.args[0], c.args[1]])).toEqual([["s-1", "출장규정.md"], ["s-1", "setup.exe"]]);
    expect($("[data-testid='attachments']").textContent).toContain("Only this conversation searches these files.");
    // The library does not list it until it is added, nor show its import.
    expect(fake.docs).toHaveLength(0);
    click(".views button");
    await vi.waitFor(() => expect(document.querySelector("#kb-title")).not.toBeNull());
    expect(document.body.textContent).not.toContain("출장규정.md");
    click(".sidebar li button.open");
    await vi.waitFor(() => expect(document.querySelector("[data-testid='attachments'] .files li")).not.toBeNull());
    click([...$$("[data-testid='attachments'] .files button")].find((b) => b.textContent === "Add to library")!);
    await vi.waitFor(() => expect(fake.docs.map((d) => d.source)).toEqual(["/data/uploads/출장규정.md"]));
    await vi.waitFor(() => expect(document.querySelector("[data-testid='attachments'] .files")).toBeNull());
    // Where its chip was, a row says where it went, until dismissed.
    expect($("[data-testid='attachments'] .pending li[data-stage='library']").textContent).toContain("출장규정.md");
    expect($("[data-testid='attachments'] .pending li[data-stage='library'] .stage").textContent).toBe("Added to your library: every conversation finds it by its words and by its meaning");
    click("[data-testid='attachments'] .pending li[data-stage='library'] button");
    // The failed row goes when dismissed.
    click("[data-testid='attachments'] .pending li button");
    expect(document.querySelector("[data-testid='attachments']")).toBeNull();
  });

  // The browser sends a file's content in base64, bounded at 64 MB: a
  // larger one is refused in its row before it is read, and the file
  // after it still goes.
  it("refuses in its row a file past the upload bound, sends none of it, and sends the next", async () => {
    const { fake } = await start();
    const big = new File(["%PDF-1.7"], "큰 보고서.pdf");
    Object.defineProperty(big, "size", { value: 65 * 1048576 });
    attach([big, new File(["# 메모"], "메모.md")]);
    await vi.waitFor(() => expect(fake.calls.filter((c) => c.method === "Attach").map((c) => c.args[1])).toEqual(["메모.md"]), { timeout: 5000 });
    const refused = $$("[data-testid='attachments'] .pending li").find((li) => li.textContent!.includes("큰 보고서.pdf"));
    expect(refused?.textContent).toContain("큰 보고서.pdf is 65 MB; files up to 64 MB can be attached.");
  });

  it("takes dropped files", async () => {
    const { fake } = await start();
    await send("hello");
    await vi.waitFor(() => expect($("[data-testid='attach-files']").title).toBe("Attach files to this conversation"));
    const form = $("form.composer");
    const files = [new File(["{}"], "data.json")];
    const dt = { types: ["Files"], files } as unknown as DataTransfer;
    const over = new Event("dragover", { bubbles: true, cancelable: true });
    Object.defineProperty(over, "dataTransfer", { value: dt });
    form.dispatchEvent(over);
    flushSync();
    expect($("form.composer .drop").textContent).toBe("Drop files to attach them to this conversation");
    const drop = new Event("drop", { bubbles: true, cancelable: true });
    Object.defineProperty(drop, "dataTransfer", { value: dt });
    form.dispatchEvent(drop);
    flushSync();
    await vi.waitFor(() => expect($("[data-testid='attachments'] .files li").textContent).toContain("data.json"));
    expect(fake.calls.find((c) => c.method === "Attach")!.args[1]).toBe("data.json");
  });

  it("sends while a file embeds (it is found by its words already), and stops it: it stays attached, and its row says so", async () => {
    const { fake } = await start({ settings: { language: "ko" } });
    setLang("ko");
    attach([new File(["# 큰 파일"], "slow-보고서.md")]);
    await vi.waitFor(() => expect(document.querySelector("[data-testid='attachments'] .pending li[data-stage='embedding'] button.stop")).not.toBeNull(), { timeout: 5000 });
    const stop = $("[data-testid='attachments'] .pending li button.stop") as HTMLButtonElement;
    expect(stop.textContent).toBe("중지");
    expect(stop.getAttribute("aria-label")).toBe("slow-보고서.md 의미 색인 중지");
    // Embedding takes minutes with a local model; the file is in already.
    expect($("[data-testid='attachments'] .pending li .stage").textContent).toBe("지금 질문할 수 있습니다 · 의미를 색인하는 중");
    fill("#composer-input", "요약해 줘");
    expect(($("button.send") as HTMLButtonElement).disabled).toBe(false);
    expect($("#composer-help").textContent).not.toContain("첨부한 파일을 다 가져온 뒤에");
    click(stop);
    expect(fake.calls.filter((c) => c.method === "CancelImport")).toHaveLength(1);
    await vi.waitFor(() => expect($("[data-testid='attachments'] .files li").textContent).toContain("slow-보고서.md"), { timeout: 5000 });
    // Its row stays, saying what became of it (attachlibrary.test.ts).
    await vi.waitFor(() => expect($("[data-testid='attachments'] .pending li").dataset.meaning).toBe("stopped"), { timeout: 5000 });
    await vi.waitFor(() => expect(($("button.send") as HTMLButtonElement).disabled).toBe(false), { timeout: 5000 });
    expect(fake.attached[fake.sessions[0]!.id] ?? []).toHaveLength(1);
  });

  for (const c of [
    { lang: "en" as const, first: "slow-report.md", second: "notes.md", row: "Ready for questions · found by its words now; its meaning is indexed in the background so that your next file could be read at once" },
    { lang: "ko" as const, first: "slow-보고서.md", second: "회의록.md", row: "지금 질문할 수 있습니다 · 지금은 키워드로 찾습니다. 다음 파일을 바로 읽도록 의미 색인은 뒤에서 이어서 합니다" },
  ]) {
    it(`a second file attached while the first embeds does not wait for it: the first's row says its meaning comes in the background (${c.lang})`, async () => {
      const { fake } = await start({ settings: { language: c.lang } });
      setLang(c.lang);
      attach([new File(["# 큰 파일"], c.first)]);
      await vi.waitFor(() => expect(document.querySelector("[data-testid='attachments'] .pending li[data-stage='embedding']")).not.toBeNull(), { timeout: 5000 });
      attach([new File(["# 두 번째"], c.second)]);
      // Both are in, found by their words, and sending does not wait.
      await vi.waitFor(() => expect($$("[data-testid='attachments'] .files li").map((li) => li.textContent).join()).toContain(c.second), { timeout: 5000 });
      expect($("[data-testid='attachments'] .files").textContent).toContain(c.first);
      const row = $$("[data-testid='attachments'] .pending li").find((li) => li.textContent!.includes(c.first))!;
      expect(row.dataset.meaning).toBe("handedOn");
      expect(row.querySelector(".stage")!.textContent).toBe(c.row);
      fill("#composer-input", "둘 다 요약해 줘");
      await vi.waitFor(() => expect(($("button.send") as HTMLButtonElement).disabled).toBe(false), { timeout: 5000 });
      expect(fake.calls.filter((c) => c.method === "CancelImport")).toHaveLength(0);
    });
  }
});
