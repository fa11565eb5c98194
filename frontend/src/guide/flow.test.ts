// From an approved plan to the guide: recommendation cards, numbered
// citations that open the source, the live trace with the drawing, export
// (download in the browser, save dialog on the desktop), regenerate and
// edit-and-resend.
import { afterEach, describe, expect, it, vi } from "vitest";
import { $, $$, cleanup, click, fill, key, send, start } from "../testing/ui";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

async function guide(opts = {}) {
  const ctx = await start({ complex: () => true, ...opts });
  await send("Make a YouTube Shorts video");
  // The first guide of a run also loads the dialog's and the cards' code:
  // on a busy machine that takes more than waitFor's default second.
  await vi.waitFor(() => expect(document.querySelector("dialog.plan")).not.toBeNull(), { timeout: 5000 });
  click("dialog.plan button.approve");
  await vi.waitFor(() => expect($$("article[data-status='complete'] .card")).toHaveLength(3), { timeout: 5000 });
  return ctx;
}

describe("guide", () => {
  it("shows one card per sub-task and citations that open their source", async () => {
    await guide();
    const cards = $$(".card");
    expect(cards.map((c) => $(".tool", c).textContent)).toEqual(["ChatGPT", "Vrew", "Canva"]);
    expect($(".step", cards[0]!).textContent).toContain("Write the script");
    expect(cards[1]!.textContent).toContain("CapCut");
    const cites = $$(".md button.cite");
    expect(cites.map((b) => b.textContent)).toEqual(["[1]", "[2]", "[3]"]);
    click(cites[1]!);
    expect($("#source-title").textContent).toContain("Vrew");
    expect($("dialog.source [data-part='hit']").textContent).toContain("automatic Korean subtitles");
  });

  it("lit the running node and kept the steps for the details", async () => {
    await guide();
    expect($$(".trace svg [data-node]")).toHaveLength(14);
    expect($$(".trace .visited").map((g) => g.dataset.node)).toEqual(expect.arrayContaining(["recommend", "evaluate", "guide"]));
    expect($(".trace .state").textContent).toContain("Finished");
    expect($$("[data-testid=trace-steps] li").map((l) => l.dataset.kind)).toContain("evaluation_result");
    const details = $$("article[data-role='assistant']").at(-1)!.querySelector("details")!;
    expect(details.querySelector("[title='retrieve_docs']")?.textContent).toBe("Document search");
    // Each step reads with a space around its separators (Svelte drops the
    // one a block starts with, so "Recommend— Finding" was shown).
    const steps = [...details.querySelectorAll<HTMLElement>("ol.steps li")].map((l) => l.textContent);
    expect(steps[0]).toBe("Thinking · Recommend — Finding a tool for step 1: Write the script");
    expect(steps).toContain("Tool · Document search — search for: ChatGPT");
  });

  it("lists the cited passages as sources and keeps the uncited ones under Details", async () => {
    await guide();
    const reply = $$("article[data-role='assistant']").at(-1)!;
    expect([...reply.querySelectorAll<HTMLElement>(".cited li")].map((l) => l.textContent!.trim())).toEqual(["[1] ChatGPT", "[2] Vrew", "[3] Canva"]);
    expect($(".cited", reply).textContent).not.toContain("Leave policy");
    const retrieved = [...reply.querySelectorAll<HTMLElement>("details .retrieved li")];
    expect(retrieved.map((l) => l.textContent)).toEqual(["Leave policy · page 3"]);
    click($("button", retrieved[0]!));
    expect($("#source-title").textContent).toBe("Leave policy");
    expect($("dialog.source .uncited").textContent).toContain("did not cite");
    // The cards' links go to the cited sources' sites: no warning.
    expect(reply.querySelectorAll(".card .link.unverified")).toHaveLength(0);
    // Each card's chip opens the passage about its own tool.
    const cards = [...reply.querySelectorAll<HTMLElement>(".card")];
    click($("button.cite", cards[1]!));
    expect($("#source-title").textContent).toContain("Vrew");
  });

  it("downloads the Markdown in the browser", async () => {
    const created: Blob[] = [];
    vi.spyOn(URL, "createObjectURL").mockImplementation((b) => {
      created.push(b as Blob);
      return "blob:x";
    });
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    await guide();
    click($$("button.export").at(-1)!);
    await vi.waitFor(() => expect(clicks).toEqual(["Café-Shorts-guide.md"]));
    const text = await created[0]!.text();
    expect(text).toMatch(/^# Café Shorts guide/);
    expect(text).toContain("| Write the script | ChatGPT |");
    expect(text.match(/## Sources/g)).toHaveLength(1);
    expect(text.match(/ChatGPT — </g)).toHaveLength(1);
    expect(text).not.toContain("Leave policy");
    await vi.waitFor(() => expect($("p.notice").textContent).toContain("Café-Shorts-guide.md"));
  });

  it("uses the native save dialog on the desktop", async () => {
    const { fake } = await guide({ mode: "desktop" });
    await vi.waitFor(() => expect(fake.calls.some((c) => c.method === "Info")).toBe(true));
    click($$("button.export").at(-1)!);
    await vi.waitFor(() => expect(fake.savedFiles).toHaveLength(1));
    expect(fake.savedFiles[0]!.name).toBe("Café-Shorts-guide.md");
    expect(fake.savedFiles[0]!.content).toContain("Vrew");
    await vi.waitFor(() => expect($("p.notice").textContent).toContain("/home/you/Documents/guide.md"));
  });
});

describe("regenerate and edit the last message", () => {
  it("regenerates the last reply in place", async () => {
    let n = 0;
    const { fake } = await start({ reply: () => `answer ${++n}` });
    await send("hello");
    await vi.waitFor(() => expect(document.querySelector("button.regenerate")).not.toBeNull());
    click("button.regenerate");
    await vi.waitFor(() => expect($$("article[data-role='assistant']").at(-1)!.textContent).toContain("answer 2"));
    expect($$("article")).toHaveLength(2);
    expect(fake.calls.some((c) => c.method === "Regenerate")).toBe(true);
  });

  it("edits and resends the last message; Escape keeps the old one", async () => {
    const { fake } = await start();
    await send("helo");
    await vi.waitFor(() => expect(document.querySelector("button.edit-last")).not.toBeNull());
    click("button.edit-last");
    const box = $("article[data-role='user'] textarea");
    fill(box, "hello again");
    key(box, "Escape");
    expect($("article[data-role='user']").textContent).toContain("helo");
    click("button.edit-last");
    fill("article[data-role='user'] textarea", "hello again");
    click("button.save-edit");
    await vi.waitFor(() => expect($$("article[data-role='user'] .user-text").map((a) => a.textContent)).toEqual(["hello again"]));
    expect(fake.calls.find((c) => c.method === "EditLast")?.args).toEqual(["s-1", "hello again"]);
    await vi.waitFor(() => expect($$("article[data-role='assistant']").at(-1)!.textContent).toContain("hello again"));
    expect($$("article")).toHaveLength(2);
  });
});
