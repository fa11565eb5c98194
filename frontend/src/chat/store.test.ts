import { describe, expect, it } from "vitest";
import { chatApi } from "../api/chat";
import { FakeBackend } from "../testing/fakeBackend";
import { ChatStore } from "./store.svelte";

const sync = (fn: () => void) => fn();

async function until(cond: () => boolean, ms = 2000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe("ChatStore", () => {
  it("sends, streams the reply in, and clears the draft only after the ack", async () => {
    const fake = new FakeBackend({ reply: () => "Hello **there**, this is a longer streamed answer." });
    let ended = 0;
    const chat = new ChatStore(chatApi(fake), () => ended++, sync);
    chat.listen(fake);
    chat.draft = "hi";
    expect(await chat.send()).toBe(true);
    expect(chat.draft).toBe("");
    expect(chat.currentID).toBe("s-1");
    expect(chat.messages[0]).toMatchObject({ role: "user", content: "hi" });
    await until(() => ended === 1);
    expect(chat.messages[1]).toMatchObject({
      role: "assistant",
      status: "complete",
      content: "Hello **there**, this is a longer streamed answer.",
    });
    expect(fake.calls.find((c) => c.method === "Send")?.args).toEqual(["", "hi", {}]);
  });

  it("sends the first message into the conversation that attaching files is making", async () => {
    const fake = new FakeBackend();
    const chat = new ChatStore(chatApi(fake), () => {}, sync);
    const made = chat.conversation(); // a file attached to the new chat
    chat.draft = "what do these files say?";
    expect(await chat.send()).toBe(true);
    expect(await made).toBe("s-1");
    expect(fake.calls.filter((c) => c.method === "Create")).toHaveLength(1);
    expect(fake.calls.find((c) => c.method === "Send")?.args[0]).toBe("s-1");
    expect(chat.currentID).toBe("s-1");
  });

  it("keeps the draft and shows the error when Send is refused", async () => {
    const fake = new FakeBackend({ reachable: false });
    const chat = new ChatStore(chatApi(fake), () => {}, sync);
    chat.draft = "my long careful question";
    expect(await chat.send()).toBe(false);
    expect(chat.draft).toBe("my long careful question");
    expect(chat.sendError).toMatchObject({ code: "ollama_unreachable", hint: "ollama serve" });
  });

  it("does not send empty, whitespace-only or over-long text", async () => {
    const fake = new FakeBackend();
    const chat = new ChatStore(chatApi(fake), () => {}, sync);
    for (const text of ["", "  \n ", "x".repeat(100_001)]) {
      chat.draft = text;
      expect(await chat.send()).toBe(false);
      expect(chat.draft).toBe(text);
    }
    expect(fake.calls.filter((c) => c.method === "Send")).toHaveLength(0);
  });

  it("stops a streaming reply and keeps what was written", async () => {
    const fake = new FakeBackend({ reply: () => "word ".repeat(200), tokenDelayMs: 2 });
    let ended = 0;
    const chat = new ChatStore(chatApi(fake), () => ended++, sync);
    chat.listen(fake);
    await chat.send("go");
    await until(() => (chat.streaming?.content.length ?? 0) > 0);
    await chat.stop();
    await until(() => ended === 1);
    const reply = chat.messages[1]!;
    expect(reply.status).toBe("interrupted");
    expect(reply.content.length).toBeGreaterThan(0);
    expect(reply.content.length).toBeLessThan(1000);
  });

  it("reopens a stored session with its history", async () => {
    const fake = new FakeBackend();
    const a = new ChatStore(chatApi(fake), () => {}, sync);
    a.listen(fake);
    let ended = false;
    fake.on("chat.turn_finished", () => (ended = true));
    await a.send("remember me");
    await until(() => ended);
    const b = new ChatStore(chatApi(fake), () => {}, sync); // a "reloaded" window
    await b.open("s-1");
    expect(b.messages.map((m) => [m.role, m.status])).toEqual([["user", "complete"], ["assistant", "complete"]]);
    expect(b.messages[0]!.content).toBe("remember me");
  });
});
