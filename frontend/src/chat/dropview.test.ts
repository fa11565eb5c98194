// A file dropped anywhere on the chat view (the messages, the empty
// conversation, the box) attaches to the conversation, where only the
// message box took it and a file dropped on the messages did nothing; the
// view shows it can take the files held over it, in both languages.
import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync } from "svelte";
import { $, cleanup, start } from "../testing/ui";

const elementFromPoint = document.elementFromPoint;
afterEach(() => {
  vi.restoreAllMocks();
  document.elementFromPoint = elementFromPoint;
  cleanup();
});

/** dragEvent fires a drag of files on el as the page sees it. */
function dragEvent(el: Element, type: string, files: File[] = []): void {
  const e = new Event(type, { bubbles: true, cancelable: true });
  Object.defineProperty(e, "dataTransfer", { value: { types: ["Files"], files } });
  el.dispatchEvent(e);
  flushSync();
}

const calls = (fake: { calls: { method: string; args: unknown[] }[] }, method: string) => fake.calls.filter((c) => c.method === method);

describe("files dropped on the chat view, off the message box", () => {
  it("in the desktop window attach by the paths the window tells", async () => {
    const { fake } = await start({ mode: "desktop" });
    const messages = $(".scroller");
    document.elementFromPoint = () => messages;
    dragEvent(messages, "drop", [new File(["%PDF-1.7"], "큰 보고서.pdf")]);
    fake.dropPaths(400, 300, ["/home/you/큰 보고서.pdf"]);
    await vi.waitFor(() => expect(calls(fake, "AttachPath")).toHaveLength(1), { timeout: 5000 });
    expect(calls(fake, "AttachPath")[0]!.args).toEqual([fake.sessions[0]!.id, "/home/you/큰 보고서.pdf"]);
    await new Promise((r) => setTimeout(r, 700));
    expect(calls(fake, "Attach")).toHaveLength(0);
  });

  it("in the browser send their contents", async () => {
    const { fake } = await start({ mode: "serve" });
    dragEvent($(".scroller"), "drop", [new File(["# 회의록"], "회의록.md")]);
    await vi.waitFor(() => expect(calls(fake, "Attach")).toHaveLength(1), { timeout: 300 });
  });

  for (const [lang, says] of [
    ["en", "Drop files to start a conversation with them"],
    ["ko", "여기에 놓으면 이 파일로 새 대화를 시작합니다"],
  ] as const) {
    it(`held over the messages, light up the view and say where they go (${lang})`, async () => {
      await start({ mode: "desktop", settings: { language: lang } });
      dragEvent($(".scroller"), "dragover");
      expect($("[data-testid=chat-view]").classList.contains("dragging")).toBe(true);
      expect($("form.composer .drop[role=status]").textContent).toBe(says);
      dragEvent($("[data-testid=chat-view]"), "dragleave");
      expect($("[data-testid=chat-view]").classList.contains("dragging")).toBe(false);
      expect(document.querySelector("form.composer .drop")).toBeNull();
    });
  }

  it("text dragged into the box is left to the browser", async () => {
    const { fake } = await start({ mode: "serve" });
    const e = new Event("drop", { bubbles: true, cancelable: true });
    Object.defineProperty(e, "dataTransfer", { value: { types: ["text/plain"], files: [] } });
    $("#composer-input").dispatchEvent(e);
    expect(e.defaultPrevented).toBe(false);
    await new Promise((r) => setTimeout(r, 50));
    expect(calls(fake, "Attach")).toHaveLength(0);
  });
});
