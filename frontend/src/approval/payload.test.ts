// What the approval events carry, through the whole App on the FakeBackend.
// The backend (backend/chat announceAwaiting) sends chat.approval with the
// plan, or chat.tool_approval with the tool call, just before
// chat.turn_finished, whose result carries them again. The window opens the
// question from the approval event itself: these tests hold back
// turn_finished, so they fail when the event's plan or call is not used
// (or not sent by the fake, which then no longer behaves as the backend).
import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync } from "svelte";
import type { FakeBackend } from "../testing/fakeBackend";
import { $, $$, cleanup, send, start } from "../testing/ui";

afterEach(cleanup);

/**
 * holdFinished keeps back every chat.turn_finished the fake sends and
 * returns what releases them (and says how many it held); the other
 * events pass at once.
 */
function holdFinished(fake: FakeBackend): () => number {
  const emit = fake.emit.bind(fake);
  const held: unknown[] = [];
  fake.emit = (event: string, payload: unknown) => {
    if (event === "chat.turn_finished") held.push(payload);
    else emit(event, payload);
  };
  return () => {
    fake.emit = emit;
    for (const p of held) emit("chat.turn_finished", p);
    return held.length;
  };
}

const lastReply = () => $$("article[data-role='assistant']").at(-1)!;
const titles = () => $$("dialog.plan li[data-step] input.title").map((i) => (i as HTMLInputElement).value);

describe("the approval events' payload", () => {
  it("the plan dialog shows the plan chat.approval carries before the turn has finished", async () => {
    const { fake } = await start({ complex: () => true });
    const release = holdFinished(fake);
    await send("Make a YouTube Shorts video");
    await vi.waitFor(() => expect(document.querySelector("dialog.plan")).not.toBeNull(), { timeout: 5000 });
    expect($("dialog.plan .round").textContent).toBe("Round 1 of planning");
    expect(titles()).toEqual(["Write the script", "Edit the video", "Make a thumbnail"]);
    expect(lastReply().dataset.status).toBe("awaiting_approval");

    // The end of the turn, carrying the same plan, leaves the dialog as it was.
    expect(release()).toBe(1);
    flushSync();
    expect(lastReply().dataset.status).toBe("awaiting_approval");
    expect(titles()).toEqual(["Write the script", "Edit the video", "Make a thumbnail"]);
  }, 15000);

  it("the tool approval dialog shows the call chat.tool_approval carries before the turn has finished", async () => {
    const { fake } = await start({ toolCall: () => true });
    const release = holdFinished(fake);
    await send("Summarise my notes");
    await vi.waitFor(() => expect(document.querySelector("dialog.tool-approval")).not.toBeNull(), { timeout: 5000 });
    const d = $("dialog.tool-approval");
    expect(d.querySelector(".tool")!.textContent).toBe("read_file");
    expect(d.querySelector("pre[data-arg='path']")!.textContent).toBe('"notes/secrets.txt"');
    expect(lastReply().dataset.status).toBe("awaiting_approval");

    expect(release()).toBe(1);
    flushSync();
    expect(lastReply().dataset.status).toBe("awaiting_approval");
    expect($("dialog.tool-approval .tool").textContent).toBe("read_file");
  }, 15000);
});
