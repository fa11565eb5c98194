// Files dropped on the Knowledge screen's drop zone in the desktop window
// are imported by the paths the window tells (KnowledgeService.Import, as
// "Add files" does), where the page read each one's content and sent it
// back in base64, refused past 64 MB. Only where no paths come are the
// contents sent; the browser keeps its uploads.
import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync } from "svelte";
import { $, $$, cleanup, click, openKnowledge, start } from "../testing/ui";
import { setLang } from "../i18n/i18n.svelte";

const elementFromPoint = document.elementFromPoint;
afterEach(() => {
  vi.restoreAllMocks();
  document.elementFromPoint = elementFromPoint;
  cleanup();
});

/** dropOnZone drops files on the drop zone as the page sees it: their contents. */
function dropOnZone(files: File[]): void {
  const drop = new Event("drop", { bubbles: true, cancelable: true });
  Object.defineProperty(drop, "dataTransfer", { value: { types: ["Files"], files } });
  $("[data-testid=dropzone]").dispatchEvent(drop);
  flushSync();
}

/** drag fires a drag of files of type (dragover, dragleave) on el. */
function drag(el: Element, type: string): void {
  const e = new Event(type, { bubbles: true, cancelable: true });
  Object.defineProperty(e, "dataTransfer", { value: { types: ["Files"], files: [] } });
  el.dispatchEvent(e);
  flushSync();
}

/** dropOn drops files on el as the page sees it: their contents. */
function dropOn(el: Element, files: File[]): void {
  const drop = new Event("drop", { bubbles: true, cancelable: true });
  Object.defineProperty(drop, "dataTransfer", { value: { types: ["Files"], files } });
  el.dispatchEvent(drop);
  flushSync();
}

/** at makes the window's drops by path land on el (happy-dom lays nothing out). */
function at(el: Element): void {
  document.elementFromPoint = () => el;
}

const calls = (fake: { calls: { method: string; args: unknown[] }[] }, method: string) => fake.calls.filter((c) => c.method === method);
const big = () => new File(["%PDF-1.7"], "큰 보고서.pdf");
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** huge is a file of mb megabytes as the page sees it (its size only: nothing is read past 64 MB). */
function huge(name: string, mb: number): File {
  const f = new File(["%PDF-1.7"], name);
  Object.defineProperty(f, "size", { value: mb * 1048576 });
  return f;
}

async function startKnowledge(mode: string, language = "en") {
  const ctx = await start({ mode, settings: { language } });
  setLang(language as "en" | "ko");
  await openKnowledge();
  await vi.waitFor(() => expect($("[data-testid=dropzone]")).toBeTruthy());
  return ctx;
}

describe("files dropped on the Knowledge screen", () => {
  for (const [name, pathsFirst] of [
    ["paths told after the page's drop", false],
    ["paths told before the page's drop", true],
  ] as const) {
    it(`in the desktop window are imported by path, not uploaded (${name})`, async () => {
      const { fake } = await startKnowledge("desktop");
      at($("[data-testid=dropzone] .drop-title"));
      if (pathsFirst) fake.dropPaths(300, 200, ["/home/you/큰 보고서.pdf", "/home/you/notes"]);
      dropOnZone([big()]);
      if (!pathsFirst) fake.dropPaths(300, 200, ["/home/you/큰 보고서.pdf", "/home/you/notes"]);
      await vi.waitFor(() => expect(calls(fake, "Import")).toHaveLength(1), { timeout: 5000 });
      expect(calls(fake, "Import")[0]!.args).toEqual([["/home/you/큰 보고서.pdf", "/home/you/notes"]]);
      await vi.waitFor(() => expect($(".progress").textContent).toContain("큰 보고서.pdf"), { timeout: 5000 });
      // The page's own drop of the same files sends nothing.
      await wait(700);
      expect(calls(fake, "Upload")).toHaveLength(0);
    });
  }

  it("in the desktop window, files dropped elsewhere are not imported", async () => {
    const { fake } = await startKnowledge("desktop");
    at($(".sidebar"));
    fake.dropPaths(40, 300, ["/home/you/큰 보고서.pdf"]);
    await wait(100);
    expect(calls(fake, "Import")).toHaveLength(0);
  });

  it("in the desktop window, a drop whose paths never come is uploaded", async () => {
    const { fake } = await startKnowledge("desktop");
    dropOnZone([new File(["# 회의록"], "회의록.md")]);
    await vi.waitFor(() => expect(calls(fake, "Upload")).toHaveLength(1), { timeout: 5000 });
    expect(calls(fake, "Import")).toHaveLength(0);
  });

  it.each([
    ["desktop", "en", "The file is too large to upload.", "연간 보고서.pdf is 70 MB; a dropped file is copied in only up to 64 MB.", "Add it with “Add files…”: it is then read from the disk, whatever its size."],
    ["desktop", "ko", "파일이 너무 커서 올릴 수 없습니다.", "연간 보고서.pdf 파일은 70 MB입니다. 끌어다 놓은 파일은 64 MB까지만 복사해 넣을 수 있습니다.", "“파일 추가…”로 추가하세요. 그러면 크기와 상관없이 디스크에서 바로 읽습니다."],
    ["serve", "en", "The file is too large to upload.", "연간 보고서.pdf is 70 MB; files up to 64 MB can be uploaded.", "Import it from the desktop window, which reads files from the disk, or split it."],
    ["serve", "ko", "파일이 너무 커서 올릴 수 없습니다.", "연간 보고서.pdf 파일은 70 MB입니다. 64 MB까지 올릴 수 있습니다.", "파일을 디스크에서 바로 읽는 데스크톱 창에서 가져오거나, 파일을 나누세요."],
  ])("a dropped file over 64 MB that cannot be sent says why and what to do instead (%s, %s)", async (mode, language, title, detail, hint) => {
    const { fake } = await startKnowledge(mode, language);
    // In the desktop window its paths never came: only then are its contents sent.
    dropOnZone([huge("연간 보고서.pdf", 70), new File(["# 회의록"], "회의록.md")]);
    await vi.waitFor(() => expect(document.querySelector(".progress li.file[data-state=failed] .banner")).not.toBeNull(), { timeout: 5000 });
    const banner = $(".progress li.file[data-state=failed] .banner");
    expect(banner.querySelector(".title")!.textContent).toBe(title);
    expect(banner.querySelector(".detail")!.textContent).toBe(detail);
    expect(banner.querySelector(".hint")!.textContent).toBe(hint);
    // The file under the bound goes in; the large one is never sent.
    await vi.waitFor(() => expect(calls(fake, "Upload")).toHaveLength(1), { timeout: 5000 });
    expect(calls(fake, "Upload")[0]!.args[0]).toBe("회의록.md");
    expect($$(".progress li.file[data-state=failed]")).toHaveLength(1);
  });

  it("in the browser is uploaded at once, and no path is taken", async () => {
    const { fake } = await startKnowledge("serve");
    at($("[data-testid=dropzone] .drop-title"));
    dropOnZone([new File(["# 회의록"], "회의록.md")]);
    fake.dropPaths(300, 200, ["/home/you/회의록.md"]);
    await vi.waitFor(() => expect(calls(fake, "Upload")).toHaveLength(1), { timeout: 300 });
    await wait(100);
    expect(calls(fake, "Import")).toHaveLength(0);
  });

  it("in the desktop window, a drop still waiting for its paths when the screen is left is not uploaded, nor are paths told after", async () => {
    const { fake } = await startKnowledge("desktop");
    dropOnZone([new File(["# 회의록"], "회의록.md")]);
    click(".sidebar button.new");
    await vi.waitFor(() => expect(document.querySelector("#kb-title")).toBeNull());
    at($("#composer-input"));
    fake.dropPaths(300, 200, ["/home/you/회의록.md"]);
    await wait(700);
    expect(calls(fake, "Upload")).toHaveLength(0);
    expect(calls(fake, "Import")).toHaveLength(0);
  });

  it("in the desktop window, files dropped anywhere on the screen are imported by path", async () => {
    const { fake } = await startKnowledge("desktop");
    const title = $("#kb-title");
    at(title);
    dropOn(title, [big()]);
    fake.dropPaths(300, 40, ["/home/you/큰 보고서.pdf"]);
    await vi.waitFor(() => expect(calls(fake, "Import")).toHaveLength(1), { timeout: 5000 });
    await wait(700);
    expect(calls(fake, "Upload")).toHaveLength(0);
  });

  it("in the browser, files dropped anywhere on the screen are uploaded", async () => {
    const { fake } = await startKnowledge("serve");
    dropOn($("#kb-title"), [new File(["# 회의록"], "회의록.md")]);
    await vi.waitFor(() => expect(calls(fake, "Upload")).toHaveLength(1), { timeout: 300 });
  });

  it("files held over the screen light up the drop zone, until they leave the screen", async () => {
    await startKnowledge("serve");
    drag($("#kb-title"), "dragover");
    expect($("[data-testid=dropzone]").classList.contains("dragging")).toBe(true);
    drag($("[data-testid=knowledge-screen]"), "dragleave");
    expect($("[data-testid=dropzone]").classList.contains("dragging")).toBe(false);
  });

  it("text dragged into the search box is left to the browser", async () => {
    const { fake } = await startKnowledge("serve");
    const e = new Event("drop", { bubbles: true, cancelable: true });
    Object.defineProperty(e, "dataTransfer", { value: { types: ["text/plain"], files: [] } });
    $("#kb-title").dispatchEvent(e);
    expect(e.defaultPrevented).toBe(false);
    await wait(50);
    expect(calls(fake, "Upload")).toHaveLength(0);
  });
});
