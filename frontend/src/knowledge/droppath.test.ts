// Files dropped on the Knowledge screen's drop zone in the desktop window
// are imported by the paths the window tells (KnowledgeService.Import, as
// "Add files" does), where the page read each one's content and sent it
// back in base64, refused past 64 MB. Only where no paths come are the
// contents sent; the browser keeps its uploads.
import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync } from "svelte";
import { $, cleanup, click, openKnowledge, start } from "../testing/ui";

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

/** at makes the window's drops by path land on el (happy-dom lays nothing out). */
function at(el: Element): void {
  document.elementFromPoint = () => el;
}

const calls = (fake: { calls: { method: string; args: unknown[] }[] }, method: string) => fake.calls.filter((c) => c.method === method);
const big = () => new File(["%PDF-1.7"], "큰 보고서.pdf");
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function startKnowledge(mode: string) {
  const ctx = await start({ mode });
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
});
