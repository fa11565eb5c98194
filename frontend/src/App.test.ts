// Component tests: the whole App on the in-memory FakeBackend, driven the
// way a person would (typing, Enter, clicks, shortcuts).
import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import App from "./App.svelte";
import { makeServices } from "./services";
import { FakeBackend, type FakeOptions } from "./testing/fakeBackend";
import { setLang } from "./i18n/i18n.svelte";

let app: ReturnType<typeof mount> | null = null;

afterEach(() => {
  if (app) unmount(app);
  app = null;
  document.body.innerHTML = "";
  delete document.body.dataset.ready;
  window.history.replaceState(null, "", "/");
  setLang("en");
});

async function start(opts: FakeOptions = {}) {
  const fake = new FakeBackend({ settings: { language: "en" }, ...opts });
  const target = document.createElement("div");
  document.body.appendChild(target);
  app = mount(App, { target, props: { services: makeServices(fake) } });
  await vi.waitFor(() => expect(document.body.dataset.ready).toBe("1"));
  return { fake, target };
}

function $(sel: string): HTMLElement {
  const el = document.querySelector<HTMLElement>(sel);
  if (!el) throw new Error(`no ${sel}`);
  return el;
}

function type(text: string) {
  const ta = $("#composer-input") as HTMLTextAreaElement;
  ta.value = text;
  ta.dispatchEvent(new Event("input", { bubbles: true }));
  flushSync();
}

function key(el: Element | Window, k: string, extra: KeyboardEventInit = {}) {
  el.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true, ...extra }));
  flushSync();
}

describe("App", () => {
  it("signals ready, checks a binding round trip, and shows three examples", async () => {
    const { fake } = await start();
    await vi.waitFor(() => expect(fake.calls.some((c) => c.service === "SettingsService" && c.method === "Info")).toBe(true));
    expect(document.querySelectorAll(".example")).toHaveLength(3);
    expect($("#empty-title").textContent).toBe("What would you like to get done?");
  });

  it("speaks Korean when the settings say so", async () => {
    await start({ settings: { language: "ko" } });
    expect($("#empty-title").textContent).toBe("무엇을 도와드릴까요?");
    expect(document.documentElement.lang).toBe("ko");
  });

  it("sends on Enter, not on Shift+Enter, and streams the reply in", async () => {
    const { fake } = await start({ reply: () => "Use **CapCut**.\n\n```sh\necho hi\n```" });
    const send = $("button.send") as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    type("   ");
    expect(send.disabled).toBe(true);
    type("Make a video");
    expect(send.disabled).toBe(false);
    key($("#composer-input"), "Enter", { shiftKey: true });
    expect(fake.calls.filter((c) => c.method === "Send")).toHaveLength(0);
    key($("#composer-input"), "Enter");
    await vi.waitFor(() => expect(document.querySelector("article[data-role='assistant'][data-status='complete']")).not.toBeNull());
    expect($("article[data-role='user']").textContent).toContain("Make a video");
    expect($("article[data-role='assistant'] strong").textContent).toBe("CapCut");
    expect($("article[data-role='assistant'] .code-wrap button.copy-code").textContent).toBe("Copy");
    expect(($("#composer-input") as HTMLTextAreaElement).value).toBe("");
    expect(window.location.hash).toBe("#s=s-1");
  });

  it("explains an over-long paste and keeps the text", async () => {
    const { fake } = await start();
    const big = "가".repeat(100_001);
    type(big);
    expect($("#composer-limit").textContent).toContain("100,001");
    expect(($("button.send") as HTMLButtonElement).disabled).toBe(true);
    key($("#composer-input"), "Enter");
    expect(fake.calls.filter((c) => c.method === "Send")).toHaveLength(0);
    expect(($("#composer-input") as HTMLTextAreaElement).value).toBe(big);
  });

  it("shows a refused send with its hint and keeps the text", async () => {
    const { fake } = await start();
    fake["ChatService.Send"] = () => {
      throw new (class extends Error {})('{"code":"busy","message":"a turn is running","hint":"wait for it"}');
    };
    type("second question");
    key($("#composer-input"), "Enter");
    await vi.waitFor(() => expect(document.querySelector("[role=alert]")).not.toBeNull());
    expect($("[role=alert]").textContent).toContain("Wayfinder is still answering in this conversation.");
    // The hint is the catalog's, in the window's language, not the backend's English.
    expect($("[role=alert]").textContent).toContain("Wait for the reply to finish, or press Stop.");
    expect($("[role=alert]").textContent).not.toContain("wait for it");
    expect(($("#composer-input") as HTMLTextAreaElement).value).toBe("second question");
  });

  it("shows a failed turn with its translated message and hint, keeps the text, and retries", async () => {
    const { fake } = await start({
      settings: { language: "ko" },
      reply: () => "A partial answer that is cut off half way through",
      failWith: { code: "stream_dropped", message: "connection lost", hint: "ollama serve" },
    });
    type("긴 질문");
    key($("#composer-input"), "Enter");
    await vi.waitFor(() => expect(document.querySelector("article[data-status='error'] [role=alert]")).not.toBeNull());
    const banner = $("article[data-status='error'] [role=alert]");
    expect(banner.textContent).toContain("응답이 끝나기 전에 끊겼습니다.");
    expect(banner.textContent).toContain("Ollama가 아직 실행 중인지 확인한 뒤(ollama ps) 메시지를 다시 보내세요.");
    expect(banner.querySelector(".hint code")!.textContent).toBe("ollama ps");
    expect($("article[data-status='error'] .md").textContent).toContain("A partial answer");
    expect($("article[data-role='user']").textContent).toContain("긴 질문");
    // The last turn is asked again in its place, with the same words.
    (banner.querySelector("button") as HTMLButtonElement).click();
    await vi.waitFor(() => expect(fake.calls.filter((c) => c.method === "EditLast")).toHaveLength(1));
    expect(fake.calls.find((c) => c.method === "EditLast")!.args).toEqual(["s-1", "긴 질문"]);
    expect(fake.calls.filter((c) => c.method === "Send")).toHaveLength(1);
  });

  it("renames, deletes and undoes a delete from the sidebar", async () => {
    const { fake } = await start();
    type("first chat");
    key($("#composer-input"), "Enter");
    await vi.waitFor(() => expect(document.querySelectorAll("nav li")).toHaveLength(1));
    ($("nav li button[title='Rename']") as HTMLButtonElement).click();
    flushSync();
    const input = $("nav li input.rename") as HTMLInputElement;
    input.value = "회의 준비";
    input.dispatchEvent(new Event("input", { bubbles: true }));
    key(input, "Enter");
    await vi.waitFor(() => expect($("nav li .title").textContent).toBe("회의 준비"));
    expect(fake.sessions[0]!.title).toBe("회의 준비");

    ($("nav li button[title='Delete']") as HTMLButtonElement).click();
    await vi.waitFor(() => expect(document.querySelector(".toast")).not.toBeNull());
    expect(document.querySelectorAll("nav li")).toHaveLength(0);
    expect($(".toast").textContent).toContain("회의 준비");
    ($(".toast button") as HTMLButtonElement).click();
    await vi.waitFor(() => expect(document.querySelectorAll("nav li")).toHaveLength(1));
    expect(fake.calls.map((c) => c.method)).toContain("Restore");
  });

  it("Ctrl+N starts a new chat and Shift+Esc focuses the box", async () => {
    await start();
    type("hello");
    key($("#composer-input"), "Enter");
    await vi.waitFor(() => expect(document.querySelector("article[data-status='complete']")).not.toBeNull());
    key(window, "n", { ctrlKey: true });
    await vi.waitFor(() => expect(document.querySelector("#empty-title")).not.toBeNull());
    ($("#session-search") as HTMLInputElement).focus();
    key(window, "Escape", { shiftKey: true });
    await vi.waitFor(() => expect(document.activeElement?.id).toBe("composer-input"));
  });
});
