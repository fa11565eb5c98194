// The 📎 in the desktop window opens the native dialog (titled in the
// app's language, showing the documents Wayfinder reads) and attaches the
// chosen files by their paths, with no upload bound; the webview's own
// chooser showed every file and handed the page each one's content to
// send back in base64, refused past 64 MB. The browser keeps its input.
import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync } from "svelte";
import { $, $$, attachChip, attachRow, attachRows, cleanup, click, start } from "../testing/ui";
import { FakeBackend } from "../testing/fakeBackend";

const elementFromPoint = document.elementFromPoint;
afterEach(() => {
  vi.restoreAllMocks();
  document.elementFromPoint = elementFromPoint;
  cleanup();
});

/** dropOnBox drops files on the message box as the page sees it: their contents. */
function dropOnBox(files: File[]): void {
  const drop = new Event("drop", { bubbles: true, cancelable: true });
  Object.defineProperty(drop, "dataTransfer", { value: { types: ["Files"], files } });
  $("form.composer").dispatchEvent(drop);
  flushSync();
}

/** at makes the window's drops by path land on el (jsdom lays nothing out). */
function at(el: Element): void {
  document.elementFromPoint = () => el;
}

const calls = (fake: { calls: { method: string }[] }, method: string) => fake.calls.filter((c) => c.method === method);

describe("the paperclip", () => {
  it("in the desktop window attaches the files chosen in the native dialog by their paths", async () => {
    const { fake } = await start({ mode: "desktop" });
    fake.chosenAttachments = ["/home/you/보고서/연간 보고서.pdf", "/home/you/setup.exe"];
    const picked = vi.spyOn(HTMLInputElement.prototype, "click");
    click("[data-testid='attach-files']");
    await vi.waitFor(() => expect(calls(fake, "AttachPath")).toHaveLength(2), { timeout: 5000 });
    const sid = fake.sessions[0]!.id;
    expect(calls(fake, "ChooseAttachments")).toHaveLength(1);
    expect(fake.calls.filter((c) => c.method === "AttachPath").map((c) => c.args)).toEqual([
      [sid, "/home/you/보고서/연간 보고서.pdf"],
      [sid, "/home/you/setup.exe"],
    ]);
    // Nothing went through the page: no file input, no content sent.
    expect(picked).not.toHaveBeenCalled();
    expect(document.querySelector("[data-testid='attach-input']")).toBeNull();
    expect(calls(fake, "Attach")).toHaveLength(0);
    // Each has its row, as an upload has: one comes in, one fails saying why.
    await vi.waitFor(() => expect(attachChip("연간 보고서.pdf")).toBeTruthy(), { timeout: 5000 });
    await vi.waitFor(() => expect(attachRow().textContent).toContain("setup.exe"), { timeout: 5000 });
    expect(attachRows()).toHaveLength(1);
    expect(attachRow().textContent).toContain("This kind of file is not supported");
  });

  it("in the desktop window, a cancelled dialog attaches nothing and starts no conversation", async () => {
    const { fake } = await start({ mode: "desktop" });
    fake.chosenAttachments = [];
    click("[data-testid='attach-files']");
    await vi.waitFor(() => expect(calls(fake, "ChooseAttachments")).toHaveLength(1), { timeout: 5000 });
    await new Promise((r) => setTimeout(r, 50));
    expect(calls(fake, "Create")).toHaveLength(0);
    expect(calls(fake, "AttachPath")).toHaveLength(0);
    expect($$("[data-testid='attachments'] li")).toHaveLength(0);
  });

  it("in the browser opens the page's file input, which takes the documents Wayfinder reads", async () => {
    const { fake } = await start({ mode: "serve" });
    const picked = vi.spyOn(HTMLInputElement.prototype, "click").mockImplementation(() => {});
    click("[data-testid='attach-files']");
    expect(picked).toHaveBeenCalledTimes(1);
    expect(picked.mock.contexts[0]).toBe($("[data-testid='attach-input']"));
    expect(($("[data-testid='attach-input']") as HTMLInputElement).accept).toContain(".pdf");
    await new Promise((r) => setTimeout(r, 50));
    expect(calls(fake, "ChooseAttachments")).toHaveLength(0);
  });
});

// Files dropped on the desktop window's message box come by their paths
// too: a 200 MB PDF attaches, where its content would be refused past
// 64 MB (and copied into the page first).
describe("files dropped on the message box", () => {
  const big = () => new File(["%PDF-1.7"], "큰 보고서.pdf");

  it("in the desktop window attach by the paths the window tells, not by content", async () => {
    const { fake } = await start({ mode: "desktop" });
    at($("#composer-input"));
    dropOnBox([big()]);
    fake.dropPaths(400, 700, ["/home/you/큰 보고서.pdf"]);
    await vi.waitFor(() => expect(calls(fake, "AttachPath")).toHaveLength(1), { timeout: 5000 });
    expect(fake.calls.find((c) => c.method === "AttachPath")!.args).toEqual([fake.sessions[0]!.id, "/home/you/큰 보고서.pdf"]);
    await vi.waitFor(() => expect(attachChip("큰 보고서.pdf")).toBeTruthy(), { timeout: 5000 });
    // The page's own drop of the same files sends nothing.
    await new Promise((r) => setTimeout(r, 700));
    expect(calls(fake, "Attach")).toHaveLength(0);
  });

  it("in the desktop window, paths told before the page's drop are the drop's too", async () => {
    const { fake } = await start({ mode: "desktop" });
    at($("#composer-input"));
    fake.dropPaths(400, 700, ["/home/you/큰 보고서.pdf"]);
    dropOnBox([big()]);
    await vi.waitFor(() => expect(calls(fake, "AttachPath")).toHaveLength(1), { timeout: 5000 });
    await new Promise((r) => setTimeout(r, 700));
    expect(calls(fake, "Attach")).toHaveLength(0);
  });

  it("in the desktop window, files dropped elsewhere are not attached", async () => {
    const { fake } = await start({ mode: "desktop" });
    at($(".sidebar"));
    fake.dropPaths(40, 300, ["/home/you/큰 보고서.pdf"]);
    await new Promise((r) => setTimeout(r, 100));
    expect(calls(fake, "AttachPath")).toHaveLength(0);
    expect(calls(fake, "Create")).toHaveLength(0);
  });

  it("in the desktop window, a drop whose paths never come sends the contents", async () => {
    const { fake } = await start({ mode: "desktop" });
    dropOnBox([new File(["# 회의록"], "회의록.md")]);
    await vi.waitFor(() => expect(calls(fake, "Attach")).toHaveLength(1), { timeout: 5000 });
    expect(calls(fake, "AttachPath")).toHaveLength(0);
  });

  it("in the browser send the contents at once, and no path is taken", async () => {
    const { fake } = await start({ mode: "serve" });
    at($("#composer-input"));
    dropOnBox([new File(["# 회의록"], "회의록.md")]);
    fake.dropPaths(400, 700, ["/home/you/회의록.md"]);
    await vi.waitFor(() => expect(calls(fake, "Attach")).toHaveLength(1), { timeout: 300 });
    await new Promise((r) => setTimeout(r, 100));
    expect(calls(fake, "AttachPath")).toHaveLength(0);
  });

  it("in the desktop window, a drop still waiting for its paths is not sent to the conversation opened within the half second", async () => {
    const T = "2026-11-27T22:00:00Z";
    const fake = new FakeBackend({ settings: { language: "en" }, mode: "desktop" });
    for (const [id, title] of [["s1", "출장 규정"], ["s2", "회의록"]] as const) {
      fake.sessions.push({ id, title, created_at: T, updated_at: T, message_count: 0, pending_approval: false, model: "" });
    }
    await start({}, fake);
    click($$(".sidebar li button.open").find((b) => b.textContent!.includes("출장 규정"))!);
    await vi.waitFor(() => expect($(".sidebar li button.open[aria-current=page]").textContent).toContain("출장 규정"));
    dropOnBox([new File(["# 회의록"], "회의록.md")]);
    click($$(".sidebar li button.open").find((b) => b.textContent!.includes("회의록"))!);
    await vi.waitFor(() => expect($(".sidebar li button.open[aria-current=page]").textContent).toContain("회의록"));
    await new Promise((r) => setTimeout(r, 700));
    expect(calls(fake, "Attach")).toHaveLength(0);
    expect(calls(fake, "AttachPath")).toHaveLength(0);
  });
});
