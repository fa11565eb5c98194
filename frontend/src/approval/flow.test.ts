// The tool approval flow through the whole App on the FakeBackend: the
// dialog shows the call in full, run once / always (confirmed, kept,
// listed and revocable in Settings) / deny, "decide later", the details
// of the message, Korean, and decisions refused because what they
// answered no longer waits (a tool call or a plan that changed).
import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync } from "svelte";
import { FAKE_CALL_NOTE } from "../testing/fakeBackend";
import { $, $$, cleanup, click, send, start } from "../testing/ui";
import { setLang } from "../i18n/i18n.svelte";

afterEach(cleanup);

const tooly = { toolCall: (text: string) => text.includes("notes") };

async function openCall(opts = {}) {
  const ctx = await start({ ...tooly, ...opts });
  await send("Summarise my notes");
  await vi.waitFor(() => expect(document.querySelector("dialog.tool-approval")).not.toBeNull());
  return ctx;
}

const lastReply = () => $$("article[data-role='assistant']").at(-1)!;

describe("tool approval dialog", () => {
  it("shows the tool, its description, why it asks and every argument, long ones folded", async () => {
    await openCall();
    const d = $("dialog.tool-approval");
    expect(d.querySelector(".tool")!.textContent).toBe("read_file");
    expect(d.querySelector(".server")!.textContent).toBe("Wayfinder (built in)");
    expect(d.querySelector(".description")!.textContent).toBe("Reads a text file from a folder you let Wayfinder read.");
    expect(d.querySelector(".reason")!.textContent).toContain("text from documents, tool results or the web");
    expect(d.querySelector("pre[data-arg='path']")!.textContent).toBe('"notes/secrets.txt"');
    const note = () => d.querySelector("pre[data-arg='note']")!.textContent!;
    expect(note().endsWith("…")).toBe(true);
    const fold = $("dialog.tool-approval button.fold");
    expect(fold.textContent).toContain(`Show all (${JSON.stringify(FAKE_CALL_NOTE).length.toLocaleString("en-US")} characters)`);
    expect(fold.getAttribute("aria-expanded")).toBe("false");
    click(fold);
    expect(note()).toBe(JSON.stringify(FAKE_CALL_NOTE));
    expect(fold.getAttribute("aria-expanded")).toBe("true");
    // The arguments, not a button, have the focus: Enter runs nothing.
    await vi.waitFor(() => expect(document.activeElement).toBe($("dialog.tool-approval .args")));
    expect(($("button.send") as HTMLButtonElement).disabled).toBe(true);
  });

  it("runs once: the decision names the call, the answer follows and the details show the call", async () => {
    const { fake } = await openCall();
    click("dialog.tool-approval button.run-once");
    await vi.waitFor(() => expect(fake.decisions).toHaveLength(1));
    expect(fake.decisions[0]).toEqual({ action: "run_once", version: expect.stringMatching(/^c-t-/) });
    await vi.waitFor(() => expect(document.querySelector("dialog.tool-approval")).toBeNull());
    await vi.waitFor(() => expect(lastReply().dataset.status).toBe("complete"));
    expect(lastReply().textContent).toContain("leave policy");
    const decision = $$("article[data-role='user'] .user-text").at(-1)!;
    expect(decision.textContent).toBe("▶ Allowed the tool call once.");
    const call = lastReply().querySelector(".details .calls li")!;
    expect(call.getAttribute("data-decision")).toBe("run_once");
    expect(call.textContent).toContain("you allowed it once");
    expect(call.textContent).toContain("notes/secrets.txt");
    expect(fake.grants).toEqual([]);
  });

  it("asks for a second click before always, keeps it in Settings, and a revoke asks again", async () => {
    const { fake } = await openCall();
    click("dialog.tool-approval button.always");
    expect(fake.decisions).toEqual([]);
    expect($("dialog.tool-approval .always-help").textContent).toContain("read_file will run without asking from now on");
    click("dialog.tool-approval button.confirm-always");
    await vi.waitFor(() => expect(fake.decisions.map((d) => d.action)).toEqual(["always"]));
    await vi.waitFor(() => expect(lastReply().dataset.status).toBe("complete"));

    // The next call of the tool runs without asking.
    const replies = $$("article[data-role='assistant']").length;
    await send("Summarise my notes again");
    await vi.waitFor(() => expect($$("article[data-role='assistant']")).toHaveLength(replies + 1));
    await vi.waitFor(() => expect(lastReply().dataset.status).toBe("complete"));
    expect(document.querySelector("dialog.tool-approval")).toBeNull();
    expect(lastReply().querySelector(".calls li")!.getAttribute("data-decision")).toBe("granted");

    // Settings lists it; revoking makes it ask again.
    click("button[aria-label='Settings']");
    await vi.waitFor(() => expect(document.querySelector(".grants li[data-tool='read_file']")).not.toBeNull());
    click(".grants button.revoke");
    await vi.waitFor(() => expect(document.querySelector(".grants li")).toBeNull());
    expect($(".grants .none").textContent).toContain("every tool call that needs approval asks you first");
    expect(fake.grants).toEqual([]);
    click("dialog[open] footer button[type='button']");
    await send("Summarise my notes once more");
    await vi.waitFor(() => expect(document.querySelector("dialog.tool-approval")).not.toBeNull());
  });

  it("denies: the turn goes on without the call", async () => {
    const { fake } = await openCall();
    click("dialog.tool-approval button.deny");
    await vi.waitFor(() => expect(fake.decisions.map((d) => d.action)).toEqual(["deny"]));
    await vi.waitFor(() => expect(lastReply().dataset.status).toBe("complete"));
    expect(lastReply().textContent).toContain("I could not read the file");
    expect(lastReply().querySelector(".calls li")!.textContent).toContain("you denied it");
  });

  it("Escape puts it aside without deciding; Review brings it back", async () => {
    const { fake } = await openCall();
    $("dialog.tool-approval").dispatchEvent(new Event("cancel", { cancelable: true }));
    flushSync();
    await vi.waitFor(() => expect(document.querySelector("dialog.tool-approval")).toBeNull());
    expect(fake.decisions).toEqual([]);
    expect($(".tool-pending").textContent).toContain("A tool call is waiting for your decision.");
    expect(lastReply().querySelector(".tool-card")!.textContent).toContain("Wants to run File reader");
    click(".tool-pending button");
    await vi.waitFor(() => expect(document.querySelector("dialog.tool-approval")).not.toBeNull());
  });

  it("gives the focus back to the message box once the call is decided or put aside", async () => {
    const cases: Array<{ name: string; decide: () => void }> = [
      { name: "run once", decide: () => click("dialog.tool-approval button.run-once") },
      { name: "deny", decide: () => click("dialog.tool-approval button.deny") },
      {
        name: "Escape",
        decide: () => {
          $("dialog.tool-approval").dispatchEvent(new Event("cancel", { cancelable: true }));
          flushSync();
        },
      },
    ];
    for (const c of cases) {
      await start(tooly);
      $("#composer-input").focus();
      await send("Summarise my notes");
      await vi.waitFor(() => expect(document.activeElement?.closest("dialog.tool-approval")).not.toBeNull());
      c.decide();
      await vi.waitFor(() => expect(document.querySelector("dialog.tool-approval")).toBeNull());
      await vi.waitFor(() => expect(document.activeElement?.id, c.name).toBe("composer-input"));
      cleanup();
    }
  });

  it("speaks Korean", async () => {
    await start({ ...tooly, settings: { language: "ko" } });
    setLang("ko");
    await send("notes 요약해 줘");
    await vi.waitFor(() => expect(document.querySelector("dialog.tool-approval")).not.toBeNull());
    expect($("#tool-title").textContent).toBe("이 도구 호출을 허용할까요?");
    expect($("dialog.tool-approval button.run-once").textContent).toBe("이번만 실행");
    expect($("dialog.tool-approval button.fold").textContent).toContain("전체 보기");
    expect($("dialog.tool-approval .server").textContent).toBe("Wayfinder 기본 도구");
  });

  it("a decision for a call that no longer waits is refused and the current call is shown", async () => {
    const { fake } = await openCall();
    const sid = fake.sessions[0]!.id;
    // Another window decided, and the turn asked about another call.
    const waiting = fake.messages.get(sid)!.at(-1)!;
    waiting.result!.tool_call = { ...waiting.result!.tool_call!, id: "c-other", arguments: '{"path":"notes/other.md"}' };
    click("dialog.tool-approval button.run-once");
    await vi.waitFor(() => expect(document.querySelector("dialog.tool-approval[data-call='c-other']")).not.toBeNull());
    expect($("dialog.tool-approval [role=alert]").textContent).toContain("The tool call changed; here is what waits now.");
    expect($("dialog.tool-approval pre[data-arg='path']").textContent).toBe('"notes/other.md"');
    expect(fake.decisions).toEqual([]);
  });
});

describe("plan decisions carry the plan's version", () => {
  it("a decision for a plan that changed is refused and the current plan is shown", async () => {
    const { fake } = await start({ complex: () => true });
    await send("Make a YouTube Shorts video");
    await vi.waitFor(() => expect(document.querySelector("dialog.plan")).not.toBeNull());
    const sid = fake.sessions[0]!.id;
    const waiting = fake.messages.get(sid)!.at(-1)!;
    const plan = waiting.result!.plan!;
    waiting.result!.plan = { ...plan, version: "p-other", round: 2, sub_tasks: [{ id: "s1", title: "Film the café", detail: "" }] };
    click("dialog.plan button.approve");
    await vi.waitFor(() => expect($("dialog.plan .round").textContent).toBe("Round 2 of planning"));
    expect($("dialog.plan [role=alert]").textContent).toContain("The plan changed; here is the current one.");
    expect(fake.decisions).toEqual([]);
    // Approving what is shown now applies.
    click("dialog.plan button.approve");
    await vi.waitFor(() => expect(fake.decisions).toEqual([expect.objectContaining({ action: "approve", version: "p-other" })]));
  });

  it("a plan offered again after its work stopped waits in the conversation, under the line that says so", async () => {
    const { fake } = await start({ complex: () => true });
    await send("Make a YouTube Shorts video");
    await vi.waitFor(() => expect(document.querySelector("dialog.plan")).not.toBeNull());
    const sid = fake.sessions[0]!.id;
    const waiting = fake.messages.get(sid)!.at(-1)!;
    waiting.result = { ...waiting.result!, plan: { ...waiting.result!.plan!, again: "interrupted" }, text_key: "plan_again" };
    // Reload, as after a restart.
    click(`nav li button.open`);
    await vi.waitFor(() => expect($("article:has(.plan-card) .bubble").textContent).toContain("with your edits"), { timeout: 5000 });
    expect(document.querySelector("dialog.plan")).toBeNull();
    // Review opens it, without a notice repeating the line.
    click("article .plan-card button.review");
    await vi.waitFor(() => expect(document.querySelector("dialog.plan")).not.toBeNull(), { timeout: 5000 });
    expect(document.querySelector("dialog.plan .again")).toBeNull();
  });
});

describe("a message while a tool call waits that this window did not see", () => {
  // `wayfinder ask` (or another window) left a tool call waiting: sending
  // is refused with the tool call named — not a plan — and what to do, in
  // the person's language, and the call is shown to decide on.
  async function refused(language: "en" | "ko") {
    const { fake } = await start({ settings: { language } });
    if (language === "ko") setLang("ko");
    await send("hello");
    await vi.waitFor(() => expect(lastReply().dataset.status).toBe("complete"));
    const sid = fake.sessions[0]!.id;
    const last = fake.messages.get(sid)!.at(-1)!;
    last.status = "awaiting_approval";
    last.result = { ...last.result!, tool_call: { id: "c-cli", tool: "read_file", description: "Reads a file.", arguments: '{"path":"notes/a.md"}', reason: "untrusted_context" } };
    fake.sessions[0]!.pending_approval = true;
    await send("and another thing");
    await vi.waitFor(() => expect(document.querySelector(".banner.error")).not.toBeNull());
    const banner = $(".banner.error");
    await vi.waitFor(() => expect(document.querySelector("dialog.tool-approval")).not.toBeNull(), { timeout: 5000 });
    return banner.textContent!;
  }

  it("says a tool call waits, in English", async () => {
    const text = await refused("en");
    expect(text).toContain("A tool call in this conversation is waiting for your approval.");
    expect(text).toContain("Run it once, always allow the tool, or deny it first; then send your message.");
    expect(text).not.toContain("plan");
  });

  it("says a tool call waits, in Korean, with no English left", async () => {
    const text = await refused("ko");
    expect(text).toContain("이 대화에서 도구 호출이 승인을 기다리고 있습니다.");
    expect(text).toContain("먼저 한 번 실행하거나, 이 도구를 항상 허용하거나, 거부하세요.");
    expect(text).not.toMatch(/[A-Za-z]{4,}/);
  });
});
