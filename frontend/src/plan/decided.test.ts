// After a plan is decided (issue 21): its card in the chat stops asking,
// shows the plan as approved and how the work goes, with the steps as the
// person approved them, also after the conversation is opened again; the
// sidebar's "waiting" goes at once; and Wayfinder's own lines written in
// English read in Korean after the person switches the language.
import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync } from "svelte";
import { FakeBackend } from "../testing/fakeBackend";
import { setLang } from "../i18n/i18n.svelte";
import { $, $$, cleanup, click, fill, send, start, stop } from "../testing/ui";

afterEach(cleanup);

const complex = { complex: (text: string) => text.startsWith("Make") };
const planCard = () => $("article[data-role='assistant'] .plan-card");
const cardTitles = () => $$("article[data-role='assistant'] .plan-card li").map((li) => li.textContent);
const planText = () => $("article[data-role='assistant'] .bubble").textContent ?? "";

async function approveEdited() {
  const ctx = await start({ ...complex });
  await send("Make a YouTube Shorts video");
  await vi.waitFor(() => expect(document.querySelector("dialog.plan")).not.toBeNull());
  expect(planText()).toContain("approve, edit or revise it");
  expect($("nav li [data-pending]").textContent).toBe("waiting for you");
  fill("dialog.plan li[data-step='1'] input.title", "Cut the clips");
  click("dialog.plan li[data-step='2'] button.remove");
  click("dialog.plan button.approve");
  await vi.waitFor(() => expect(document.querySelector("dialog.plan")).toBeNull());
  return ctx;
}

describe("a decided plan", () => {
  it("stops asking at once, shows the approved steps and the work's state", async () => {
    const { fake } = await approveEdited();
    // At once: no waiting in the sidebar nor on the card, while the guide is written.
    await vi.waitFor(() => expect(document.querySelector("nav li [data-pending]")).toBeNull(), { timeout: 5000 });
    expect(planText()).not.toContain("approve, edit or revise");
    expect(planText()).toContain("You approved this plan.");
    expect($("article[data-role='assistant'] .plan-card strong").textContent).toBe("Approved plan (round 1)");
    expect(cardTitles()).toEqual(["Write the script", "Cut the clips"]);
    await vi.waitFor(() => expect(planCard().querySelector("[data-tag]")?.textContent).toBe("done"), { timeout: 5000 });

    // Opened again: the stored plan is the approved one.
    const sid = fake.sessions[0]!.id;
    stop();
    window.history.replaceState(null, "", `/#s=${sid}`);
    const again = new FakeBackend({ settings: { language: "en" } });
    again.sessions = fake.sessions;
    again.messages = fake.messages;
    await start({}, again);
    await vi.waitFor(() => expect(cardTitles()).toEqual(["Write the script", "Cut the clips"]), { timeout: 5000 });
    expect(planText()).toContain("You approved this plan.");
    expect(planCard().querySelector("[data-tag]")?.textContent).toBe("done");
  }, 30000);

  it("reads in Korean after switching, lines written in English included", async () => {
    await approveEdited();
    await vi.waitFor(() => expect(planCard().querySelector("[data-tag]")?.textContent).toBe("done"), { timeout: 5000 });
    // As Settings does once the language is saved (the e2e spec switches through Settings).
    setLang("ko");
    flushSync();
    await vi.waitFor(() => expect(document.documentElement.lang).toBe("ko"), { timeout: 5000 });
    await vi.waitFor(() => expect(planText()).toContain("이 계획을 승인했습니다."), { timeout: 5000 });
    expect($("article[data-role='assistant'] .plan-card strong").textContent).toBe("승인한 계획 (1번째)");
    expect(planCard().querySelector("[data-tag]")?.textContent).toBe("완료");
    expect($$("article .user-text").at(-1)!.textContent).toContain("계획을 고쳐서 승인했습니다");
  }, 30000);

  it("shows a waiting plan's question in the language chosen now", async () => {
    await start({ ...complex });
    await send("Make a YouTube Shorts video");
    await vi.waitFor(() => expect(document.querySelector("dialog.plan")).not.toBeNull());
    click("dialog.plan button.hide");
    setLang("ko");
    flushSync();
    expect(planText()).toContain("계획을 세웠어요 — 승인하거나");
    expect(planText()).not.toContain("Here is a plan");
  }, 30000);
});
