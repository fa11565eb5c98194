// The plan approval flow through the whole App on the FakeBackend:
// editing, keyboard reorder, validation, Escape-to-cancel with a
// confirmation, re-plan, "decide later", and a pending plan restored on
// reopening the session.
import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync } from "svelte";
import { FakeBackend } from "../testing/fakeBackend";
import { $, $$, cleanup, click, fill, key, send, start, stop } from "../testing/ui";

afterEach(cleanup);

const complex = { complex: () => true };

async function openPlan(opts = {}) {
  const ctx = await start({ ...complex, ...opts });
  await send("Make a YouTube Shorts video");
  await vi.waitFor(() => expect(document.querySelector("dialog.plan")).not.toBeNull());
  return ctx;
}

const titles = () => $$("dialog.plan li[data-step] input.title").map((i) => (i as HTMLInputElement).value);

describe("plan approval dialog", () => {
  it("shows the round and the steps, and approves an edited, reordered list", async () => {
    const { fake } = await openPlan();
    expect($("dialog.plan .round").textContent).toBe("Round 1 of planning");
    expect(titles()).toEqual(["Write the script", "Edit the video", "Make a thumbnail"]);
    expect(($("button.send") as HTMLButtonElement).disabled).toBe(true);

    fill("dialog.plan li[data-step='1'] input.title", "Edit the video with subtitles");
    click("dialog.plan button.add");
    fill("dialog.plan li[data-step='3'] input.title", "Upload");
    // Keyboard reorder: the handle of step 4 moves up once, then Alt+↑ from its title.
    key($("dialog.plan li[data-step='3'] .handle"), "ArrowUp");
    key($("dialog.plan li[data-step='2'] input.title"), "ArrowUp", { altKey: true });
    expect(titles()).toEqual(["Write the script", "Upload", "Edit the video with subtitles", "Make a thumbnail"]);
    expect($("dialog.plan [aria-live='assertive']").textContent).toContain("step 2 of 4");
    key($("dialog.plan li[data-step='0'] .handle"), "End");
    expect(titles()[3]).toBe("Write the script");
    click("dialog.plan li[data-step='2'] button.remove");
    expect(titles()).toEqual(["Upload", "Edit the video with subtitles", "Write the script"]);

    click("dialog.plan button.approve");
    await vi.waitFor(() => expect(fake.decisions).toHaveLength(1));
    expect(fake.decisions[0]).toEqual({
      action: "approve",
      version: expect.stringMatching(/^p-t-/),
      sub_tasks: [
        { id: "", title: "Upload", detail: "" },
        { id: "s2", title: "Edit the video with subtitles", detail: "Cut vertical clips and add subtitles" },
        { id: "s1", title: "Write the script", detail: "A 30-second script introducing the café" },
      ],
    });
    await vi.waitFor(() => expect(document.querySelector("dialog.plan")).toBeNull());
    await vi.waitFor(() => expect($$("article[data-status='complete'] .card")).toHaveLength(3));
  });

  it("reorders by drag and drop", async () => {
    await openPlan();
    const handle = $("dialog.plan li[data-step='2'] .handle");
    const target = $("dialog.plan li[data-step='0']");
    const dt = { setData: () => {}, effectAllowed: "" } as unknown as DataTransfer;
    const ev = (type: string) => Object.assign(new Event(type, { bubbles: true, cancelable: true }), { dataTransfer: dt });
    handle.dispatchEvent(ev("dragstart"));
    flushSync();
    target.dispatchEvent(ev("dragover"));
    flushSync();
    expect(target.classList.contains("over")).toBe(true);
    target.dispatchEvent(ev("drop"));
    flushSync();
    expect(titles()).toEqual(["Make a thumbnail", "Write the script", "Edit the video"]);
  });

  it("keeps Tab inside the dialog", async () => {
    await openPlan();
    const dialog = $("dialog.plan");
    const approve = $("dialog.plan button.approve");
    approve.focus();
    key(approve, "Tab");
    expect(document.activeElement).toBe($("dialog.plan button.hide"));
    key(document.activeElement!, "Tab", { shiftKey: true });
    expect(document.activeElement).toBe(approve);
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it("approves the plan as proposed without a list; the sidebar stops saying it waits at once, not when the guide is done", async () => {
    const { fake } = await openPlan({ tokenDelayMs: 60_000 });
    await vi.waitFor(() => expect(document.querySelector("nav li [data-pending]")).not.toBeNull(), { timeout: 5000 });
    click("dialog.plan button.approve");
    await vi.waitFor(() => expect(fake.decisions).toEqual([{ action: "approve", version: expect.stringMatching(/^p-t-/) }]));
    await vi.waitFor(() => expect(document.querySelector("nav li [data-pending]")).toBeNull(), { timeout: 5000 });
    expect(document.querySelector("article[data-role='assistant'][data-status='streaming']")).not.toBeNull();
  });

  it("refuses an empty title and points at it", async () => {
    const { fake } = await openPlan();
    fill("dialog.plan li[data-step='0'] input.title", "  ");
    click("dialog.plan button.approve");
    expect($("dialog.plan .problems").textContent).toContain("Step 1 needs a title.");
    expect(document.activeElement).toBe($("dialog.plan li[data-step='0'] input.title"));
    expect(fake.decisions).toEqual([]);
  });

  it("Escape asks first; only the confirmation cancels", async () => {
    const { fake } = await openPlan();
    const dialog = $("dialog.plan");
    const esc = () => {
      dialog.dispatchEvent(new Event("cancel", { cancelable: true }));
      flushSync();
    };
    esc();
    expect(document.querySelector("dialog.plan .confirm")).not.toBeNull();
    expect(fake.decisions).toEqual([]);
    esc();
    expect(document.querySelector("dialog.plan .confirm")).toBeNull();
    expect(titles()).toHaveLength(3);
    esc();
    click("dialog.plan button.confirm-cancel");
    await vi.waitFor(() => expect(fake.decisions).toEqual([{ action: "cancel", version: expect.stringMatching(/^p-t-/) }]));
    await vi.waitFor(() => expect($$("article[data-role='assistant']").at(-1)!.dataset.status).toBe("complete"));
    expect($$("article[data-role='assistant']").at(-1)!.textContent).toContain("Plan cancelled");
  });

  it("brings the line that says feedback is needed into view, not only its box", async () => {
    await openPlan();
    const shown: Element[] = [];
    const spy = vi.spyOn(Element.prototype, "scrollIntoView").mockImplementation(function (this: Element) {
      shown.push(this);
    });
    try {
      click("dialog.plan button.replan");
      await vi.waitFor(() => expect(shown).toContain($("#plan-feedback-error")));
    } finally {
      spy.mockRestore();
    }
  });

  it("needs feedback to re-plan, then shows round 2", async () => {
    const { fake } = await openPlan();
    click("dialog.plan button.replan");
    expect($("#plan-feedback-error").textContent).toContain("Write what should change");
    expect(document.activeElement?.id).toBe("plan-feedback");
    expect(fake.decisions).toEqual([]);
    fill("#plan-feedback", "무료 도구만 써 줘");
    click("dialog.plan button.replan");
    await vi.waitFor(() => expect(fake.decisions).toEqual([{ action: "revise", feedback: "무료 도구만 써 줘", version: expect.stringMatching(/^p-t-/) }]));
    await vi.waitFor(() => expect($("dialog.plan .round").textContent).toBe("Round 2 of planning"));
    expect(titles()[0]).toBe("Write the script (free tools)");
  });

  it("Ctrl+Enter in a feedback box with words re-plans with them; elsewhere, or with the box empty, it approves", async () => {
    const cases: Array<{ where: string; feedback: string; want: object }> = [
      { where: "#plan-feedback", feedback: "Use only free tools", want: { action: "revise", feedback: "Use only free tools" } },
      { where: "#plan-feedback", feedback: "  ", want: { action: "approve" } },
      { where: "dialog.plan li[data-step='0'] input.title", feedback: "", want: { action: "approve" } },
    ];
    for (const c of cases) {
      const { fake } = await openPlan();
      fill("#plan-feedback", c.feedback);
      key($(c.where), "Enter", { ctrlKey: true });
      await vi.waitFor(() => expect(fake.decisions).toEqual([expect.objectContaining(c.want)]));
      cleanup();
    }
  });

  it("gives the focus back to the message box once the plan is approved, cancelled or put aside", async () => {
    const cases: Array<{ name: string; decide: () => void }> = [
      { name: "approve", decide: () => click("dialog.plan button.approve") },
      {
        name: "cancel",
        decide: () => {
          click("dialog.plan button.cancel-plan");
          click("dialog.plan button.confirm-cancel");
        },
      },
      { name: "later", decide: () => click("dialog.plan button.hide") },
    ];
    for (const c of cases) {
      await start(complex);
      $("#composer-input").focus();
      await send("Make a YouTube Shorts video");
      await vi.waitFor(() => expect(document.activeElement?.closest("dialog.plan")).not.toBeNull());
      c.decide();
      await vi.waitFor(() => expect(document.querySelector("dialog.plan")).toBeNull());
      await vi.waitFor(() => expect(document.activeElement?.id, c.name).toBe("composer-input"));
      cleanup();
    }
  });

  it("keeps edits when put aside, and a refused decision keeps the dialog", async () => {
    const { fake } = await openPlan();
    fill("dialog.plan li[data-step='0'] input.title", "내 대본");
    click("dialog.plan button.hide");
    await vi.waitFor(() => expect(document.querySelector("dialog.plan")).toBeNull());
    click(".pending button");
    await vi.waitFor(() => expect(document.querySelector("dialog.plan")).not.toBeNull());
    expect(titles()[0]).toBe("내 대본");

    fake["ChatService.Decide"] = () => {
      throw new Error('{"code":"busy","message":"still saving","hint":"try again in a moment"}');
    };
    click("dialog.plan button.approve");
    await vi.waitFor(() => expect(document.querySelector("dialog.plan [role=alert]")).not.toBeNull());
    // The window words a known code itself, in its language.
    expect($("dialog.plan [role=alert]").textContent).toContain("Wait for the reply to finish, or press Stop.");
    expect(titles()[0]).toBe("내 대본");
  });

  it("shows the pending plan again when the session is reopened", async () => {
    const { fake } = await openPlan();
    const sid = fake.sessions[0]!.id;
    stop();
    window.history.replaceState(null, "", `/#s=${sid}`);
    const again = new FakeBackend({ settings: { language: "en" }, ...complex });
    again.sessions = fake.sessions;
    again.messages = fake.messages;
    await start({}, again);
    await vi.waitFor(() => expect(document.querySelector("dialog.plan")).not.toBeNull());
    expect(titles()).toHaveLength(3);
    expect($("nav li [data-pending]").textContent).toBe("waiting for you");
  });

  it("a plan offered again after a stop waits in the conversation under one line saying what was done, not in the dialog", async () => {
    const { fake } = await openPlan();
    const sid = fake.sessions[0]!.id;
    stop();
    // As the agent offers a plan the person stopped after its first step.
    const waiting = fake.messages.get(sid)!.at(-1)!;
    const done = "“Write the script”", left = "“Edit the video”, “Make a thumbnail”";
    waiting.result = { ...waiting.result!, plan: { ...waiting.result!.plan!, again: "stopped" }, text_key: "plan_stopped", text_args: { done, left } };
    window.history.replaceState(null, "", `/#s=${sid}`);
    const again = new FakeBackend({ settings: { language: "en" }, ...complex });
    again.sessions = fake.sessions;
    again.messages = fake.messages;
    await start({}, again);
    await vi.waitFor(() => expect($("article:has(.plan-card) .bubble").textContent).toContain(`Tools found (above) for: ${done}. Not done: ${left}, and the guide.`), { timeout: 5000 });
    expect(document.querySelector("dialog.plan")).toBeNull();
    click("article .plan-card button.review");
    await vi.waitFor(() => expect(document.querySelector("dialog.plan")).not.toBeNull(), { timeout: 5000 });
    expect(titles()).toHaveLength(3);
    expect(document.querySelector("dialog.plan [role=status]")).toBeNull();
  });
});
