// Regenerate keeps the earlier answers as variants: ‹ n/m › under the
// reply, the newest shown after regenerating, each one shown on request
// (and kept by the backend), still there after opening the conversation
// again.
import { afterEach, describe, expect, it, vi } from "vitest";
import { $, $$, cleanup, click, send, start } from "../testing/ui";
import { applyAck, variantsInOrder, type Threads } from "./reduce";
import type { Message } from "../api/gotypes.gen";

afterEach(cleanup);

const lastReply = () => $$("article[data-role='assistant']").at(-1)!;

describe("answer variants", () => {
  it("keeps every answer, shows the newest, and moves between them", async () => {
    let n = 0;
    const { fake } = await start({ reply: () => `answer ${++n}` });
    await send("hello");
    await vi.waitFor(() => expect(document.querySelector("button.regenerate")).not.toBeNull());
    expect(document.querySelector(".variants")).toBeNull();
    for (const want of ["answer 2", "answer 3"]) {
      click("button.regenerate");
      await vi.waitFor(() => expect(lastReply().querySelector(".md")?.textContent).toContain(want));
      await vi.waitFor(() => expect(document.querySelector("button.regenerate")).not.toBeNull());
    }
    expect($$("article")).toHaveLength(2);
    expect($(".variants .count").textContent).toBe("3/3");
    expect(($(".variants .next-variant") as HTMLButtonElement).disabled).toBe(true);

    click(".variants .prev-variant");
    await vi.waitFor(() => expect($(".variants .count").textContent).toBe("2/3"));
    expect(lastReply().querySelector(".md")!.textContent).toContain("answer 2");
    click(".variants .prev-variant");
    await vi.waitFor(() => expect($(".variants .count").textContent).toBe("1/3"));
    expect(lastReply().querySelector(".md")!.textContent).toContain("answer 1");
    expect(fake.calls.filter((c) => c.method === "ShowVariant")).toHaveLength(2);

    // Opened again (as after a reload), the choice and the variants are there.
    click("button.new");
    click("nav li button.open");
    await vi.waitFor(() => expect(document.querySelector(".variants .count")?.textContent).toBe("1/3"));
    expect(lastReply().querySelector(".md")!.textContent).toContain("answer 1");

    // Regenerating again shows the newest answer, the fourth.
    click("button.regenerate");
    await vi.waitFor(() => expect(document.querySelector(".variants .count")?.textContent).toBe("4/4"));
    await vi.waitFor(() => expect(lastReply().querySelector(".md")?.textContent).toContain("answer 4"));
  });

  // The switcher appears after the first Regenerate; in front of the row it
  // pushed Copy and Export sideways and put another button under the pointer
  // that pressed Regenerate.
  it.each(["en", "ko"] as const)("keeps the answer's buttons in their places when the switcher appears (%s)", async (language) => {
    let n = 0;
    await start({ reply: () => `answer ${++n}`, settings: { language } });
    await send("hello");
    await vi.waitFor(() => expect(document.querySelector("button.regenerate")).not.toBeNull());
    const row = () => [...lastReply().querySelectorAll(".actions > *")].map((el) => el.className.replace(/\s*svelte-\S+/g, ""));
    const before = row();
    expect(before).toEqual(["ghost copy-msg", "ghost export", "ghost regenerate"]);
    click("button.regenerate");
    await vi.waitFor(() => expect(document.querySelector(".variants .count")?.textContent).toBe("2/2"));
    await vi.waitFor(() => expect(document.querySelector("button.regenerate")).not.toBeNull());
    expect(row()).toEqual([...before, "variants"]);
  });

  it("a turn started in another window moves the old answer under the new one", () => {
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
    const user: Message = { id: "u", session_id: "s", role: "user", content: "q", status: "complete", created_at: at(0) };
    const old: Message = { id: "a2", session_id: "s", role: "assistant", content: "second", status: "complete", created_at: at(2), variants: [{ id: "a1", session_id: "s", role: "assistant", content: "first", status: "complete", created_at: at(1) }] };
    const threads: Threads = { s: { messages: [user, old], loaded: true } };
    applyAck(threads, { session_id: "s", turn_id: "t", user_message: user, assistant_message_id: "a3" });
    const msgs = threads.s!.messages;
    expect(msgs.map((m) => m.id)).toEqual(["u", "a3"]);
    expect(msgs[1]!.variants!.map((m) => m.content)).toEqual(["first", "second"]);
    msgs[1]!.created_at = at(3);
    const v = variantsInOrder(msgs[1]!);
    expect(v.at).toBe(2);
    expect(v.all.map((m) => m.id)).toEqual(["a1", "a2", "a3"]);
  });
});
