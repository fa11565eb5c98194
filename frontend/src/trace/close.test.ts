// Hiding the live trace from inside it: its ✕, or Escape with the focus
// anywhere in the panel, hides it and gives the focus to the header's trace
// button (which brings it back) rather than to the page. While a reply
// streams, the same Escape hides only the panel: the reply runs on.
import { afterEach, describe, expect, it, vi } from "vitest";
import { $, $$, cleanup, click, key, send, start } from "../testing/ui";

afterEach(cleanup);

const toggle = () => $("button.trace-toggle");

describe("hiding the trace panel", () => {
  it("on Escape inside it and on its ✕, with the focus on the trace button", async () => {
    await start();
    await send("hello");
    await vi.waitFor(() => expect(document.querySelector("article[data-status='complete']")).not.toBeNull());
    if (!$$("#trace-panel").length) click(toggle());
    await vi.waitFor(() => expect($$("#trace-panel")).toHaveLength(1));
    const hide = $("#trace-panel header button");
    hide.focus();
    key(hide, "Escape");
    await vi.waitFor(() => expect($$("#trace-panel")).toHaveLength(0));
    await vi.waitFor(() => expect(document.activeElement).toBe(toggle()));
    expect(toggle().getAttribute("aria-pressed")).toBe("false");

    click(toggle());
    await vi.waitFor(() => expect($$("#trace-panel")).toHaveLength(1));
    click("#trace-panel header button");
    await vi.waitFor(() => expect($$("#trace-panel")).toHaveLength(0));
    await vi.waitFor(() => expect(document.activeElement).toBe(toggle()));
  });

  it("while a reply streams, from anywhere in it (a click on its steps focuses it), leaving the reply running", async () => {
    const { fake } = await start({ tokenDelayMs: 20, reply: () => "word ".repeat(60) });
    await send("hello");
    await vi.waitFor(() => expect(document.querySelector("article[data-status='streaming']")).not.toBeNull());
    await vi.waitFor(() => expect($$("#trace-panel")).toHaveLength(1));
    // What a click on its steps or drawing does in a browser: the panel takes the focus.
    const panel = $("#trace-panel");
    panel.focus();
    expect(document.activeElement).toBe(panel);
    key(panel, "Escape");
    await vi.waitFor(() => expect($$("#trace-panel")).toHaveLength(0));
    await vi.waitFor(() => expect(document.activeElement).toBe(toggle()));
    expect($("article[data-role='assistant']:last-of-type").dataset.status).toBe("streaming");
    expect(fake.calls.some((c) => c.method === "Stop")).toBe(false);
    await vi.waitFor(() => expect($("article[data-role='assistant']:last-of-type").dataset.status).toBe("complete"), { timeout: 5000 });
  });
});
