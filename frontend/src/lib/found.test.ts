// Rough edges from issue 21's "Found" list, on the whole App.
import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import ErrorBanner from "./ErrorBanner.svelte";
import { inlineCode, breakable } from "./inlineCode";
import { $, $$, cleanup, click, send, start } from "../testing/ui";

afterEach(cleanup);

describe("an error's hint", () => {
  it("shows `commands` as code, without the backticks", () => {
    const target = document.createElement("div");
    document.body.appendChild(target);
    const c = mount(ErrorBanner, { target, props: { error: { code: "ollama_unreachable", message: "down", hint: "Start Ollama (run `ollama serve`, or open the Ollama app)." } } });
    flushSync();
    const hint = target.querySelector(".hint")!;
    expect(hint.textContent).not.toContain("`");
    expect(hint.querySelector("code")?.textContent).toBe("ollama serve");
    unmount(c);
  });
  it.each([
    ["no code", [{ text: "no code", code: false }]],
    ["run `a` then `b`", [{ text: "run ", code: false }, { text: "a", code: true }, { text: " then ", code: false }, { text: "b", code: true }]],
    ["an unpaired ` stays", [{ text: "an unpaired ` stays", code: false }]],
  ])("%s", (text, want) => expect(inlineCode(text)).toEqual(want));
});

describe("Knowledge file names", () => {
  it("wrap after separators, not mid-word", async () => {
    expect(breakable("quarterly_sales-report.v2.pdf")).toEqual(["quarterly_", "sales-", "report.", "v2.", "pdf"]);
    const ctx = await start();
    const now = new Date().toISOString();
    ctx.fake.docs.push({ id: "d1", source: "/tmp/quarterly_sales-report.v2.pdf", title: "", kind: "pdf", chunks: 3, pages: 1, size: 10, created_at: now, updated_at: now });
    click($$(".views button")[0]!);
    await vi.waitFor(() => expect(document.querySelector("table.docs td.title")).not.toBeNull());
    const cell = $("table.docs td.title");
    expect(cell.querySelectorAll("wbr").length).toBeGreaterThanOrEqual(4);
    expect(cell.textContent).toContain("quarterly_sales-report.v2.pdf");
  });
});

describe("Send while a plan waits", () => {
  it("says why it is disabled", async () => {
    await start({ complex: () => true });
    await send("Make a YouTube Shorts video");
    await vi.waitFor(() => expect(document.querySelector("dialog.plan")).not.toBeNull());
    expect(($("button.send") as HTMLButtonElement).disabled).toBe(true);
    expect($("#composer-help").textContent).toBe("Sending waits for the plan: approve it, change it or cancel it first.");
    expect($("button.send").getAttribute("title")).toBe("Sending waits for the plan: approve it, change it or cancel it first.");
  });
});
