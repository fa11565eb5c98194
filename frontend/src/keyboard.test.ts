// The window's keyboard shortcuts (issue 21 point 9), on the whole App with
// the in-memory FakeBackend: switching conversations with Ctrl+↑/↓ and the
// Ctrl+K palette, focusing the search, copying the last answer,
// regenerating, hiding the sidebar, and the help overlay that lists them.
import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import App from "./App.svelte";
import { makeServices } from "./services";
import { FakeBackend, type FakeOptions } from "./testing/fakeBackend";
import { setLang } from "./i18n/i18n.svelte";
import { actionOf } from "./lib/keys";

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
  return { fake };
}

const $ = (sel: string) => {
  const el = document.querySelector<HTMLElement>(sel);
  if (!el) throw new Error(`no ${sel}`);
  return el;
};

function key(el: Element | Window, k: string, extra: KeyboardEventInit = {}) {
  el.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true, ...extra }));
  flushSync();
}

async function chatAbout(text: string) {
  key(window, "n", { ctrlKey: true, code: "KeyN" });
  const ta = $("#composer-input") as HTMLTextAreaElement;
  ta.value = text;
  ta.dispatchEvent(new Event("input", { bubbles: true }));
  flushSync();
  key(ta, "Enter");
  // Generous waits: the suite runs on a machine shared with other builds.
  const slow = { timeout: 10_000 };
  await vi.waitFor(() => expect(document.querySelector("article[data-role='assistant'][data-status='complete']")).not.toBeNull(), slow);
  await vi.waitFor(() => expect([...document.querySelectorAll("nav li .title")].map((e) => e.textContent)).toContain(text), slow);
  // Distinct update times keep the sidebar's order fixed.
  await new Promise((r) => setTimeout(r, 5));
}

const openTitle = () => document.querySelector("nav li [aria-current='page'] .title")?.textContent;

describe("keyboard", { timeout: 30_000 }, () => {
  it("Ctrl+↓ and Ctrl+↑ move through the conversations in the sidebar's order", async () => {
    await start();
    await chatAbout("older one");
    await chatAbout("newer one");
    expect(openTitle()).toBe("newer one");
    key($("#composer-input"), "ArrowDown", { ctrlKey: true });
    await vi.waitFor(() => expect(openTitle()).toBe("older one"));
    expect(document.querySelector("article[data-role='user']")?.textContent).toContain("older one");
    key(window, "ArrowDown", { ctrlKey: true }); // the last one: stays
    expect(openTitle()).toBe("older one");
    key(window, "ArrowUp", { ctrlKey: true });
    await vi.waitFor(() => expect(openTitle()).toBe("newer one"));
  });

  it("Ctrl+K opens a palette that finds a conversation and opens it with Enter", async () => {
    await start();
    await chatAbout("budget for the trip");
    await chatAbout("video editing");
    key(window, "k", { ctrlKey: true, code: "KeyK" });
    const dialog = $("dialog.palette") as HTMLDialogElement;
    expect(dialog.open).toBe(true);
    await vi.waitFor(() => expect(dialog.querySelectorAll("[role=option]")).toHaveLength(2));
    const input = dialog.querySelector("input")!;
    expect(document.activeElement).toBe(input);
    input.value = "budget";
    input.dispatchEvent(new Event("input", { bubbles: true }));
    await vi.waitFor(() => expect([...dialog.querySelectorAll("[role=option] .name")].map((o) => o.textContent?.trim())).toEqual(["budget for the trip"]));
    key(input, "Enter");
    expect(dialog.open).toBe(false);
    await vi.waitFor(() => expect(openTitle()).toBe("budget for the trip"));
    // Typing goes on in the conversation opened: the message box has the focus.
    await vi.waitFor(() => expect(document.activeElement?.id).toBe("composer-input"));
  });

  it("Ctrl+Shift+F focuses the conversation search, also with the sidebar hidden (Ctrl+B)", async () => {
    await start();
    key(window, "b", { ctrlKey: true, code: "KeyB" });
    expect(document.querySelector("nav #session-search")).toBeNull();
    expect($("button.sidebar-toggle").getAttribute("aria-pressed")).toBe("false");
    key(window, "F", { ctrlKey: true, shiftKey: true, code: "KeyF" });
    await vi.waitFor(() => expect(document.activeElement?.id).toBe("session-search"));
  });

  it("Ctrl+Shift+C copies the last answer and says so", async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    await start({ reply: () => "Use **CapCut** for subtitles." });
    key(window, "C", { ctrlKey: true, shiftKey: true, code: "KeyC" });
    await vi.waitFor(() => expect($(".toast.notice").textContent).toBe("There is no finished answer to copy yet."));
    await chatAbout("which editor?");
    key(window, "C", { ctrlKey: true, shiftKey: true, code: "KeyC" });
    await vi.waitFor(() => expect(writeText).toHaveBeenCalledWith("Use **CapCut** for subtitles."));
    await vi.waitFor(() => expect($(".toast.notice").textContent).toBe("Copied the last answer."));
  });

  it("Alt+R regenerates the last answer, keeping the first as a variant", async () => {
    let n = 0;
    const { fake } = await start({ reply: () => `answer ${++n}` });
    await chatAbout("a name for my café");
    key($("#composer-input"), "r", { altKey: true, code: "KeyR" });
    await vi.waitFor(() => expect(fake.calls.filter((c) => c.method === "Regenerate")).toHaveLength(1));
    await vi.waitFor(() => expect($("article[data-role='assistant'] .variants .count").textContent).toBe("2/2"));
  });

  it("the help overlay lists every shortcut, in English and in Korean", async () => {
    await start();
    key(window, "?", { shiftKey: true });
    const rows = () => [...document.querySelectorAll("dialog[open] tr")].map((r) => r.textContent ?? "");
    expect(rows()).toEqual(
      expect.arrayContaining([
        "Ctrl+KFind a conversation and open it",
        "Ctrl+↑ / Ctrl+↓Previous / next conversation",
        "Ctrl+Shift+FSearch conversations",
        "Shift+EscGo to the message box",
        "Ctrl+Shift+CCopy the last answer",
        "Alt+RRegenerate the last answer",
      ]),
    );
    setLang("ko");
    flushSync();
    expect(rows()).toEqual(expect.arrayContaining(["Ctrl+K대화 찾아서 열기", "Ctrl+Shift+C마지막 답변 복사", "Alt+R마지막 답변 다시 생성"]));
  });
});

describe("actionOf", () => {
  const ev = (k: string, init: KeyboardEventInit = {}, target?: HTMLElement) => {
    const e = new KeyboardEvent("keydown", { key: k, ...init });
    if (target) Object.defineProperty(e, "target", { value: target });
    return e;
  };
  it.each([
    ["Ctrl+K", ev("k", { ctrlKey: true, code: "KeyK" }), "palette"],
    ["Ctrl+K with a Korean input method (ㅏ)", ev("ㅏ", { ctrlKey: true, code: "KeyK" }), "palette"],
    ["⌘K", ev("k", { metaKey: true, code: "KeyK" }), "palette"],
    ["Ctrl+Shift+K is not the palette", ev("K", { ctrlKey: true, shiftKey: true, code: "KeyK" }), null],
    ["plain k is text", ev("k", { code: "KeyK" }), null],
    ["? outside a text field", ev("?", { shiftKey: true }), "help"],
    ["? typed in the message box", ev("?", { shiftKey: true }, document.createElement("textarea")), null],
    ["Alt+R", ev("r", { altKey: true, code: "KeyR" }), "regenerate"],
    ["Ctrl+R is the browser's", ev("r", { ctrlKey: true, code: "KeyR" }), null],
  ])("%s", (_, e, want) => expect(actionOf(e)).toBe(want));
});
