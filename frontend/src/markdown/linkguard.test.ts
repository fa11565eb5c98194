// Links in answers: a host the person wrote or a cited source contains
// opens at a click; any other shows its full address and a warning first.
import { afterEach, describe, expect, it, vi } from "vitest";
import { $, $$, cleanup, click, send, start } from "../testing/ui";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const REPLY =
  "Your page [home](https://shop.mysite.example/menu). Vrew: [docs](https://vrew.ai/docs). " +
  "More [here](https://evil.example/collect?key=sk-live-123) and [look-alike](https://mysite.example.evil.example/)";

async function reply() {
  const opened: string[] = [];
  vi.spyOn(window, "open").mockImplementation((url) => {
    opened.push(String(url));
    return null;
  });
  await start({ reply: () => REPLY });
  await send("Check my site mysite.example please");
  // The first reply of a run loads the chat's code: allow a busy machine
  // more than waitFor's default second.
  await vi.waitFor(() => expect($$("article[data-role='assistant']").at(-1)!.getAttribute("data-status")).toBe("complete"), { timeout: 5000 });
  return opened;
}

function link(text: string): HTMLAnchorElement {
  return [...document.querySelectorAll<HTMLAnchorElement>(".md a")].find((a) => a.textContent === text)!;
}

describe("links in answers", () => {
  it("marks only the links to hosts nobody gave", async () => {
    await reply();
    expect($$(".md a.unverified").map((a) => a.textContent)).toEqual(["docs", "here", "look-alike"]);
    expect(link("here").title).toContain("https://evil.example/collect?key=sk-live-123");
  });

  it("opens a host the person wrote at once", async () => {
    const opened = await reply();
    click(link("home"));
    expect(opened).toEqual(["https://shop.mysite.example/menu"]);
    expect(document.querySelector("dialog.link-warning[open]")).toBeNull();
  });

  it("shows the full address and a warning, and opens only when asked", async () => {
    const opened = await reply();
    click(link("here"));
    await vi.waitFor(() => expect(document.querySelector("dialog.link-warning[open]")).not.toBeNull());
    expect($("dialog.link-warning .host").textContent).toBe("evil.example");
    expect($("dialog.link-warning .address").textContent).toBe("https://evil.example/collect?key=sk-live-123");
    expect(document.activeElement).toBe($("dialog.link-warning button.cancel"));
    click("dialog.link-warning button.cancel");
    expect(opened).toEqual([]);
    click(link("look-alike"));
    await vi.waitFor(() => expect($("dialog.link-warning .host").textContent).toBe("mysite.example.evil.example"));
    click("dialog.link-warning button.open-anyway");
    expect(opened).toEqual(["https://mysite.example.evil.example/"]);
  });
});
