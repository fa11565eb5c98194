// Closing Settings, or a conversation's own settings, with changes not
// saved (Escape, or Cancel at the foot of a long dialog) asks before it
// throws them away, in English and Korean; with nothing changed it closes
// at once, as before.
import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync } from "svelte";
import { $, cleanup, click, fill, openSettings, send, start, toggle } from "../testing/ui";

afterEach(cleanup);

const dialog = () => document.querySelector<HTMLDialogElement>("dialog[open]");

/** escape does what the browser does on Escape in a modal dialog: a cancelable "cancel", then close unless it was prevented. */
function escape(): void {
  const d = dialog()!;
  const ev = new Event("cancel", { cancelable: true });
  d.dispatchEvent(ev);
  if (!ev.defaultPrevented) d.close();
  flushSync();
}

describe("Settings with changes not saved", () => {
  it("closes at once when nothing changed", async () => {
    await start();
    await openSettings();
    escape();
    await vi.waitFor(() => expect(dialog()).toBeNull(), { timeout: 5000 });
    await openSettings();
    click("dialog[open] footer .cancel");
    await vi.waitFor(() => expect(dialog()).toBeNull(), { timeout: 5000 });
  });

  it("asks on Escape and on Cancel, keeps editing, and discards only when told", async () => {
    const { fake } = await start();
    await openSettings();
    fill("#set-tune-prompt", "Answer in three sentences at most.");

    escape();
    expect(dialog(), "Escape does not throw the prompt away").not.toBeNull();
    expect($("dialog[open] .discard").textContent).toContain("Discard your changes?");
    expect($("dialog[open] .discard").textContent).toContain("What you changed here is not saved yet.");
    await vi.waitFor(() => expect(document.activeElement?.classList.contains("keep")).toBe(true), { timeout: 5000 });
    // A second Escape goes back to the form, as Keep editing does.
    escape();
    expect(dialog()).not.toBeNull();
    expect(document.querySelector("dialog[open] .discard")).toBeNull();
    expect(($("#set-tune-prompt") as HTMLTextAreaElement).value).toBe("Answer in three sentences at most.");

    click("dialog[open] footer .cancel");
    click("dialog[open] .discard .keep");
    expect(($("#set-tune-prompt") as HTMLTextAreaElement).value).toBe("Answer in three sentences at most.");

    // Changed back as it was, nothing is lost by closing.
    fill("#set-tune-prompt", "");
    click("dialog[open] footer .cancel");
    await vi.waitFor(() => expect(dialog()).toBeNull(), { timeout: 5000 });

    await openSettings();
    fill("#set-tune-prompt", "Answer in three sentences at most.");
    click("dialog[open] footer .cancel");
    click("dialog[open] .discard .discard-yes");
    await vi.waitFor(() => expect(dialog()).toBeNull(), { timeout: 5000 });
    expect(fake.settings.system_prompt).toBe("");
    await openSettings();
    expect(($("#set-tune-prompt") as HTMLTextAreaElement).value).toBe("");
  });

  it("asks in Korean", async () => {
    await start({ settings: { language: "ko" } });
    await openSettings();
    fill("#set-tune-prompt", "짧게 답해 주세요.");
    escape();
    expect(dialog()).not.toBeNull();
    expect($("dialog[open] .discard").textContent).toContain("바꾼 내용을 버릴까요?");
    expect($("dialog[open] .discard").textContent).toContain("여기서 바꾼 설정은 아직 저장하지 않았습니다.");
    expect($("dialog[open] .discard .keep").textContent).toBe("계속 수정");
    expect($("dialog[open] .discard .discard-yes").textContent).toBe("저장하지 않고 닫기");
  });

  it("saving closes without asking", async () => {
    const { fake } = await start();
    await openSettings();
    fill("#set-tune-prompt", "Be brief.");
    click("dialog[open] footer button[type='submit']");
    await vi.waitFor(() => expect(fake.settings.system_prompt).toBe("Be brief."), { timeout: 5000 });
    await vi.waitFor(() => expect(dialog()).toBeNull(), { timeout: 5000 });
  });
});

describe("a conversation's own settings with changes not saved", () => {
  async function openConversationSettings(language: "en" | "ko") {
    const ctx = await start({ settings: { language, system_prompt: "Be kind." } });
    await send("hello");
    await vi.waitFor(() => expect(document.querySelector("[data-testid='conv-settings']")).not.toBeNull(), { timeout: 5000 });
    click("[data-testid='conv-settings']");
    await vi.waitFor(() => expect(document.querySelector("dialog[open] #conv-tune-prompt")).not.toBeNull(), { timeout: 5000 });
    return ctx;
  }
  const ownPrompt = () => $("#conv-tune-prompt").parentElement!.querySelector("input[type='checkbox']") as HTMLInputElement;

  it("closes at once when nothing changed", async () => {
    await openConversationSettings("en");
    escape();
    await vi.waitFor(() => expect(dialog()).toBeNull(), { timeout: 5000 });
  });

  it("asks before dropping a prompt just written, in Korean", async () => {
    const { fake } = await openConversationSettings("ko");
    toggle(ownPrompt(), true);
    fill("#conv-tune-prompt", "해적처럼 말해.");
    escape();
    expect(dialog()).not.toBeNull();
    expect($("dialog[open] .discard").textContent).toContain("바꾼 내용을 버릴까요?");
    click("dialog[open] .discard .keep");
    expect(($("#conv-tune-prompt") as HTMLTextAreaElement).value).toBe("해적처럼 말해.");
    click("dialog[open] footer .cancel");
    click("dialog[open] .discard .discard-yes");
    await vi.waitFor(() => expect(dialog()).toBeNull(), { timeout: 5000 });
    expect(fake.calls.some((c) => c.method === "SetSettings")).toBe(false);
  });
});

// Both dialogs share one DiscardGuard (lib/discard.svelte.ts): the same walk
// through the question, in each dialog and each language.
describe("the discard question, the same in both dialogs", () => {
  const dialogs = {
    settings: { open: async () => void (await openSettings()), field: "#set-tune-prompt" },
    conversation: {
      open: async () => {
        await send("hello");
        await vi.waitFor(() => expect(document.querySelector("[data-testid='conv-settings']")).not.toBeNull(), { timeout: 5000 });
        click("[data-testid='conv-settings']");
        await vi.waitFor(() => expect(document.querySelector("dialog[open] #conv-tune-prompt")).not.toBeNull(), { timeout: 5000 });
        toggle($("#conv-tune-prompt").parentElement!.querySelector("input[type='checkbox']") as HTMLInputElement, true);
      },
      field: "#conv-tune-prompt",
    },
  };
  const words = { en: ["Discard your changes?", "Keep editing"], ko: ["바꾼 내용을 버릴까요?", "계속 수정"] };
  const focused = (cls: string) => document.activeElement?.classList.contains(cls) ?? false;

  for (const [name, d] of Object.entries(dialogs)) {
    for (const language of ["en", "ko"] as const) {
      it(`${name} (${language}): asks, keeps the focus where the next key is safe, goes back, discards when told`, async () => {
        await start({ settings: { language, system_prompt: "Be kind." } });
        await d.open();
        fill(d.field, "Answer like a pirate.");

        escape();
        expect($("dialog[open] .discard").textContent).toContain(words[language][0]);
        expect($("dialog[open] .discard .keep").textContent).toBe(words[language][1]);
        await vi.waitFor(() => expect(focused("keep")).toBe(true), { timeout: 5000 });
        // A second Escape goes back to the form, the focus on Cancel.
        escape();
        expect(document.querySelector("dialog[open] .discard")).toBeNull();
        await vi.waitFor(() => expect(focused("cancel")).toBe(true), { timeout: 5000 });
        // Cancel asks too; Keep editing also goes back to Cancel.
        click("dialog[open] footer .cancel");
        await vi.waitFor(() => expect(focused("keep")).toBe(true), { timeout: 5000 });
        click("dialog[open] .discard .keep");
        await vi.waitFor(() => expect(focused("cancel")).toBe(true), { timeout: 5000 });
        expect(($(d.field) as HTMLTextAreaElement).value).toBe("Answer like a pirate.");

        click("dialog[open] footer .cancel");
        click("dialog[open] .discard .discard-yes");
        await vi.waitFor(() => expect(dialog()).toBeNull(), { timeout: 5000 });
        // Opened again, it starts without the question.
        await (name === "settings" ? openSettings() : (click("[data-testid='conv-settings']"), Promise.resolve()));
        await vi.waitFor(() => expect(document.querySelector("dialog[open] footer .cancel")).not.toBeNull(), { timeout: 5000 });
        expect(document.querySelector("dialog[open] .discard")).toBeNull();
      });
    }
  }
});
