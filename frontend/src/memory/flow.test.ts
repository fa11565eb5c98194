import { afterEach, describe, expect, it, vi } from "vitest";
import { $, $$, cleanup, click, fill, key, send, start } from "../testing/ui";
import { checkMemory } from "./store.svelte";

afterEach(cleanup);

async function openMemory() {
  const ctx = await start();
  ctx.fake.memories.push(
    { id: "m1", text: "Prefers free tools", kind: "preference", origin: "reflection", created_at: "2026-11-01T00:00:00Z", updated_at: "2026-11-01T00:00:00Z" },
    { id: "m2", text: "카페를 운영함", kind: "fact", origin: "edited", created_at: "2026-11-02T00:00:00Z", updated_at: "2026-11-02T00:00:00Z" },
  );
  click($$(".views button")[1]!);
  await vi.waitFor(() => expect($$(".item")).toHaveLength(2));
  return ctx;
}

describe("memory screen", () => {
  it("lists memories newest first with kind and date", async () => {
    await openMemory();
    expect($$(".item .text").map((e) => e.textContent)).toEqual(["카페를 운영함", "Prefers free tools"]);
    expect($$(".item .kind").map((e) => e.textContent)).toEqual(["Fact", "Preference"]);
    expect($(".item .meta").textContent).toMatch(/2026/);
  });

  it("edits a memory; an empty text cannot be saved", async () => {
    const { fake } = await openMemory();
    click("li[data-memory='m1'] button.edit");
    const box = $("#mem-edit-m1");
    await vi.waitFor(() => expect(document.activeElement).toBe(box));
    fill(box, "  ");
    expect(($("li[data-memory='m1'] button.save") as HTMLButtonElement).disabled).toBe(true);
    fill(box, "Prefers free and open-source tools");
    // (Changing the kind is covered by the browser spec: happy-dom's
    // select has no :checked, which Svelte's bind:value reads.)
    key(box, "Enter");
    await vi.waitFor(() => expect($("li[data-memory='m1'] .text").textContent).toBe("Prefers free and open-source tools"));
    expect(fake.memories.find((m) => m.id === "m1")).toMatchObject({ text: "Prefers free and open-source tools", kind: "preference" });
  });

  it("deletes one after confirming, and forgets everything after confirming", async () => {
    const { fake } = await openMemory();
    click("li[data-memory='m2'] button.delete");
    click("li[data-memory='m2'] button.confirm-delete");
    await vi.waitFor(() => expect($$(".item")).toHaveLength(1));
    expect(fake.memories.map((m) => m.id)).toEqual(["m1"]);
    click("button.forget-all");
    expect($(".confirm").textContent).toContain("The one memory will be deleted");
    expect(fake.memories).toHaveLength(1);
    click("button.confirm-forget");
    await vi.waitFor(() => expect($(".mem").textContent).toContain("remembers nothing"));
    expect(fake.memories).toHaveLength(0);
    // With nothing to forget the button keeps its place (steady.spec: the
    // box under it stays put) but is not seen, read or reached with Tab.
    expect(($("button.forget-all") as HTMLElement).style.visibility).toBe("hidden");
  });

  it("opens each question on Cancel, answers it so on Escape, and keeps the focus on the screen", async () => {
    const { fake } = await openMemory();
    click("li[data-memory='m2'] button.delete");
    await vi.waitFor(() => expect(document.activeElement).toBe($("li[data-memory='m2'] button.keep")));
    key(document.activeElement!, "Escape");
    await vi.waitFor(() => expect(document.activeElement).toBe($("li[data-memory='m2'] button.delete")));
    expect($$("button.confirm-delete")).toHaveLength(0);

    click("button.forget-all");
    await vi.waitFor(() => expect(document.activeElement).toBe($(".mem .confirm button.keep")));
    key(document.activeElement!, "Escape");
    await vi.waitFor(() => expect(document.activeElement).toBe($("button.forget-all")));
    expect($$(".mem .confirm")).toHaveLength(0);
    expect(fake.memories).toHaveLength(2);

    // An edit ended by Escape or saved gives the focus back to its Edit button.
    click("li[data-memory='m1'] button.edit");
    await vi.waitFor(() => expect(document.activeElement).toBe($("#mem-edit-m1")));
    key($("#mem-edit-m1"), "Escape");
    await vi.waitFor(() => expect(document.activeElement).toBe($("li[data-memory='m1'] button.edit")));
    click("li[data-memory='m1'] button.edit");
    await vi.waitFor(() => expect(document.activeElement).toBe($("#mem-edit-m1")));
    fill($("#mem-edit-m1"), "Prefers free software");
    key($("#mem-edit-m1"), "Enter");
    await vi.waitFor(() => expect(document.activeElement).toBe($("li[data-memory='m1'] button.edit")));
  });

  it("adds a memory", async () => {
    const { fake } = await openMemory();
    fill("#mem-new", "Lives in Busan");
    $("form.add").dispatchEvent(new Event("submit", { cancelable: true }));
    await vi.waitFor(() => expect($$(".item")).toHaveLength(3));
    expect(fake.memories.at(-1)).toMatchObject({ text: "Lives in Busan", kind: "preference" });
  });

  it("says where each memory came from", async () => {
    await openMemory();
    expect($$(".item .origin").map((e) => e.textContent)).toEqual(["Written or edited by you", "Learned from what you wrote"]);
  });

  it("shows a memory written during a turn at once, from the event", async () => {
    const { fake } = await openMemory();
    const now = new Date().toISOString();
    fake.memories.push({ id: "m3", text: "I edit on a Mac", kind: "fact", origin: "said", session_id: "s-9", created_at: now, updated_at: now });
    fake.emit("memory.changed", { count: 3 });
    await vi.waitFor(() => expect($$(".item")).toHaveLength(3));
    expect($("li[data-memory='m3'] .origin").textContent).toBe("You asked to remember this");
  });

  it("remembers what the person asks in the chat and confirms it", async () => {
    const { fake } = await start();
    await send("remember that I prefer free tools");
    await vi.waitFor(() => expect($$("article[data-role='assistant']").at(-1)!.getAttribute("data-status")).toBe("complete"), { timeout: 5000 });
    expect($$("article[data-role='assistant']").at(-1)!.textContent).toContain("I'll remember: “I prefer free tools”");
    expect(fake.memories).toMatchObject([{ text: "I prefer free tools", origin: "said" }]);
    click($$(".views button")[1]!);
    await vi.waitFor(() => expect($$(".item .text").map((e) => e.textContent)).toEqual(["I prefer free tools"]));
    expect($(".item .origin").textContent).toBe("You asked to remember this");
  });

  it.each([
    ["", "empty"],
    ["   ", "empty"],
    ["ok", "ok"],
    ["x".repeat(501), "too_long"],
  ])("checkMemory(%j) = %s", (text, want) => {
    expect(checkMemory(text)).toBe(want);
  });
});
