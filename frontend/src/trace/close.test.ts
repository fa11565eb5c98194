// Hiding the live trace from inside it: its ✕, or Escape with the focus
// anywhere in the panel, hides it and gives the focus to the header's trace
// button (which brings it back) rather than to the page.
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
});
