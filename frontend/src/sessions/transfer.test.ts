// The sidebar's export and import: one conversation or all, as Markdown or
// JSON, saved by the desktop's dialog or downloaded in the browser; a JSON
// export imported back, and a file that is not one refused with the reason.
import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import App from "../App.svelte";
import { makeServices } from "../services";
import { FakeBackend, type FakeOptions } from "../testing/fakeBackend";
import { setLang } from "../i18n/i18n.svelte";

let app: ReturnType<typeof mount> | null = null;

afterEach(() => {
  if (app) unmount(app);
  app = null;
  document.body.innerHTML = "";
  delete document.body.dataset.ready;
  window.history.replaceState(null, "", "/");
  setLang("en");
  vi.restoreAllMocks();
});

async function start(opts: FakeOptions = {}) {
  const fake = new FakeBackend({ settings: { language: "en" }, ...opts });
  const target = document.createElement("div");
  document.body.appendChild(target);
  app = mount(App, { target, props: { services: makeServices(fake) } });
  await vi.waitFor(() => expect(document.body.dataset.ready).toBe("1"));
  return fake;
}

function $(sel: string): HTMLElement {
  const el = document.querySelector<HTMLElement>(sel);
  if (!el) throw new Error(`no ${sel}`);
  return el;
}

function button(text: string): HTMLButtonElement {
  const b = [...document.querySelectorAll<HTMLButtonElement>("button")].find((x) => x.textContent?.includes(text));
  if (!b) throw new Error(`no button "${text}"`);
  return b;
}

async function converse(text: string) {
  const ta = $("#composer-input") as HTMLTextAreaElement;
  ta.value = text;
  ta.dispatchEvent(new Event("input", { bubbles: true }));
  flushSync();
  ta.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true }));
  await vi.waitFor(() => expect(document.querySelector("article[data-role='assistant'][data-status='complete']")).not.toBeNull());
}

describe("export and import", () => {
  it("saves one conversation as Markdown through the desktop's save dialog", async () => {
    const fake = await start({ mode: "desktop", reply: () => "Use CapCut." });
    fake.saveAs = "/home/you/cafe.md";
    await converse("Make a cafe video");
    await vi.waitFor(() => expect(document.querySelector("button[aria-label^='Export “']")).not.toBeNull());
    $("button[aria-label^='Export “']").click();
    flushSync();
    button("As Markdown").click();
    await vi.waitFor(() => expect($("[data-testid='sessions-notice']").textContent).toContain("Saved /home/you/cafe.md"));
    const call = fake.calls.find((c) => c.method === "Export");
    expect(call?.args).toEqual([["s-1"], "md", "en"]);
    expect(fake.savedFiles[0]?.content).toContain("Use CapCut.");
  });

  it("downloads every conversation as JSON in the browser, in the UI's language", async () => {
    setLang("ko");
    const fake = await start({ settings: { language: "ko" }, reply: () => "좋아요." });
    await converse("안녕");
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    URL.createObjectURL = vi.fn(() => "blob:x");
    URL.revokeObjectURL = vi.fn();
    button("내보내기와 가져오기").click();
    flushSync();
    button("모든 대화를 JSON으로 내보내기").click();
    await vi.waitFor(() => expect($("[data-testid='sessions-notice']").textContent).toContain("wayfinder-conversations.json에 저장했습니다"));
    expect(clicked).toHaveBeenCalled();
    expect(fake.calls.find((c) => c.method === "Export")?.args).toEqual([[], "json", "ko"]);
  });

  it("imports a JSON export, says how many, and opens the first; refuses what is not one", async () => {
    const fake = await start();
    const exported = JSON.stringify({
      format: "wayfinder.conversations",
      version: 1,
      conversations: [
        {
          id: "imp-1", title: "Imported trip", created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z",
          messages: [{ id: "m1", role: "user", content: "Plan a trip", status: "complete", created_at: "2026-01-01T00:00:00Z" }],
        },
      ],
    });
    const input = $("[data-testid='import-conversations']") as HTMLInputElement;
    const pick = (file: File) => {
      Object.defineProperty(input, "files", { value: [file], configurable: true });
      input.dispatchEvent(new Event("change", { bubbles: true }));
    };
    pick(new File([exported], "trip.json", { type: "application/json" }));
    await vi.waitFor(() => expect($("[data-testid='sessions-notice'] span").textContent).toBe("Imported 1 conversation."));
    await vi.waitFor(() => expect($("article[data-role='user']").textContent).toContain("Plan a trip"));
    expect($(".sidebar").textContent).toContain("Imported trip");
    expect(fake.calls.filter((c) => c.method === "Import")).toHaveLength(1);

    pick(new File(["# notes"], "notes.md", { type: "text/markdown" }));
    await vi.waitFor(() => expect($(".toast.error").textContent).toContain("This file is not a Wayfinder conversation export, so nothing was imported."));
  });
});
