// Save and resend of a conversation's only message: the backend titles
// the conversation after the new words (store.StartTurn) and says so with
// chat.sessions, on which the sidebar reloads its list; a title the person
// chose stays. The window needs nothing more than the event it already
// gets.
import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import App from "../App.svelte";
import { makeServices } from "../services";
import { FakeBackend } from "../testing/fakeBackend";
import { setLang } from "../i18n/i18n.svelte";

let app: ReturnType<typeof mount> | null = null;

afterEach(() => {
  if (app) unmount(app);
  app = null;
  document.body.innerHTML = "";
  delete document.body.dataset.ready;
  window.history.replaceState(null, "", "/");
  setLang("en");
});

async function start() {
  const fake = new FakeBackend({ settings: { language: "ko" } });
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

const titles = () => [...document.querySelectorAll(".sidebar .title")].map((e) => e.textContent?.trim());

async function send(text: string) {
  const ta = $("#composer-input") as HTMLTextAreaElement;
  ta.value = text;
  ta.dispatchEvent(new Event("input", { bubbles: true }));
  flushSync();
  ta.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true }));
  await vi.waitFor(() => expect(document.querySelector("article[data-role='assistant'][data-status='complete']")).not.toBeNull());
}

async function edit(text: string) {
  $("button.edit-last").click();
  flushSync();
  const box = $("article[data-role='user'] textarea") as HTMLTextAreaElement;
  box.value = text;
  box.dispatchEvent(new Event("input", { bubbles: true }));
  flushSync();
  $("button.save-edit").click();
  await vi.waitFor(() => expect(document.querySelector("article[data-role='user'] .user-text")?.textContent).toBe(text));
  await vi.waitFor(() => expect(document.querySelector("article[data-role='assistant'][data-status='complete']")).not.toBeNull());
}

describe("editing the only message", () => {
  it("titles the conversation after the new words in the sidebar", async () => {
    await start();
    await send("서울 인구는?");
    await vi.waitFor(() => expect(titles()).toEqual(["서울 인구는?"]));
    await edit("부산 인구는?");
    await vi.waitFor(() => expect(titles()).toEqual(["부산 인구는?"]));
  });

  it("keeps a title the person chose", async () => {
    const fake = await start();
    await send("서울 인구는?");
    await vi.waitFor(() => expect(titles()).toEqual(["서울 인구는?"]));
    const sid = fake.sessions[0]!.id;
    fake["ChatService.Rename"](sid, "인구 조사");
    fake.emit("chat.sessions", { session_id: sid });
    await vi.waitFor(() => expect(titles()).toEqual(["인구 조사"]));
    await edit("부산 인구는?");
    expect(titles()).toEqual(["인구 조사"]);
  });
});
