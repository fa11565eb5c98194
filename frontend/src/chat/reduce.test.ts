import { describe, expect, it } from "vitest";
import type { Message, MessageStatus, TokenBatch } from "../api/gotypes.gen";
import {
  applyAck,
  applyFailed,
  applyFinished,
  applyLoaded,
  applyTokens,
  applyTurnStarted,
  applyUpdated,
  streamingMessage,
  TokenCoalescer,
  type Threads,
} from "./reduce";

const T = "2026-11-21T01:00:00Z";
const user: Message = { id: "u1", session_id: "s1", role: "user", content: "hello", status: "complete", created_at: T };
const ack = { session_id: "s1", turn_id: "t1", user_message: user, assistant_message_id: "a1" };
const tok = (text: string, message_id = "a1", session_id = "s1"): TokenBatch => ({ session_id, turn_id: "t1", message_id, text });

function final(content: string, status: MessageStatus = "complete"): Message {
  return { id: "a1", session_id: "s1", role: "assistant", content, status, created_at: T };
}

describe("chat reducer", () => {
  it("takes the final accounting that arrives after the turn", () => {
    const th: Threads = {};
    applyAck(th, ack);
    const result = { response: "hi", session_id: "s1", tools_used: [], sources: [], llm_calls: 1, prompt_tokens: 3, completion_tokens: 4, execution_ms: 5 };
    applyFinished(th, { session_id: "s1", turn_id: "t1", message: { ...final("hi"), result }, result });
    applyUpdated(th, { session_id: "s1", message: { ...final("hi"), result: { ...result, llm_calls: 3, prompt_tokens: 90 } } });
    expect(th.s1!.messages[1]!.result).toMatchObject({ llm_calls: 3, prompt_tokens: 90 });
    // A session this window never loaded stays unloaded.
    applyUpdated(th, { session_id: "s2", message: { ...final("x"), session_id: "s2" } });
    expect(th.s2).toBeUndefined();
  });

  it("streams tokens into the placeholder and finishes with the stored message", () => {
    const th: Threads = {};
    applyAck(th, ack);
    applyTurnStarted(th, ack); // the event may also arrive: no duplicates
    expect(th.s1!.messages.map((m) => m.id)).toEqual(["u1", "a1"]);
    expect(streamingMessage(th.s1)?.id).toBe("a1");
    applyTokens(th, tok("Hel"));
    applyTokens(th, tok("lo, "));
    applyTokens(th, tok("세계"));
    expect(th.s1!.messages[1]!.content).toBe("Hello, 세계");
    applyFinished(th, { session_id: "s1", turn_id: "t1", message: final("Hello, 세계!"), result: { response: "", session_id: "s1", tools_used: [], sources: [], llm_calls: 1, prompt_tokens: 3, completion_tokens: 4, execution_ms: 5 } });
    expect(th.s1!.messages[1]).toMatchObject({ content: "Hello, 세계!", status: "complete", result: { llm_calls: 1 } });
    expect(streamingMessage(th.s1)).toBeUndefined();
    applyTokens(th, tok(" late")); // a batch after the end changes nothing
    expect(th.s1!.messages[1]!.content).toBe("Hello, 세계!");
  });

  it("accepts tokens that arrive before the ack or TurnStarted", () => {
    const th: Threads = {};
    applyTokens(th, tok("early "));
    applyAck(th, ack);
    applyTokens(th, tok("late"));
    expect(th.s1!.messages.filter((m) => m.role === "assistant")).toHaveLength(1);
    expect(th.s1!.messages.find((m) => m.id === "a1")!.content).toBe("early late");
  });

  it("keeps the partial reply and the person's message when a turn fails", () => {
    const th: Threads = {};
    applyAck(th, ack);
    applyTokens(th, tok("Part of an ans"));
    applyFailed(th, {
      session_id: "s1",
      turn_id: "t1",
      message: final("", "error"),
      error: { code: "stream_dropped", message: "connection lost", hint: "ollama serve" },
    });
    const [u, a] = th.s1!.messages;
    expect(u).toEqual(user);
    expect(a).toMatchObject({ status: "error", content: "Part of an ans", error: { code: "stream_dropped" } });
  });

  it("keeps threads of different sessions apart", () => {
    const th: Threads = {};
    applyAck(th, ack);
    applyTokens(th, tok("other", "b1", "s2"));
    expect(th.s1!.messages).toHaveLength(2);
    expect(th.s2!.messages[0]).toMatchObject({ id: "b1", content: "other" });
  });

  it("merges a reload mid-stream with batches that came first", () => {
    const th: Threads = {};
    applyTokens(th, tok("Hello wor"));
    applyLoaded(th, "s1", [user, final("Hello", "streaming")]);
    expect(th.s1!.loaded).toBe(true);
    expect(th.s1!.messages.map((m) => [m.id, m.content])).toEqual([["u1", "hello"], ["a1", "Hello wor"]]);
    applyTokens(th, tok("ld"));
    expect(th.s1!.messages[1]!.content).toBe("Hello world");
  });

  it("prefers a finished live message over a stale streaming one from the store", () => {
    const th: Threads = {};
    applyAck(th, ack);
    applyFinished(th, { session_id: "s1", turn_id: "t1", message: final("done"), result: { response: "done", session_id: "s1", tools_used: [], sources: [], llm_calls: 1, prompt_tokens: 1, completion_tokens: 1, execution_ms: 1 } });
    applyLoaded(th, "s1", [user, final("do", "streaming")]);
    expect(th.s1!.messages[1]).toMatchObject({ content: "done", status: "complete" });
  });
});

describe("TokenCoalescer", () => {
  it("merges batches within one frame into one update per message", () => {
    const flushed: TokenBatch[][] = [];
    const frames: Array<() => void> = [];
    const c = new TokenCoalescer((b) => flushed.push(b), (fn) => frames.push(fn));
    c.push(tok("a"));
    c.push(tok("b"));
    c.push(tok("x", "b1", "s2"));
    c.push(tok("c"));
    expect(frames).toHaveLength(1);
    expect(flushed).toHaveLength(0);
    frames[0]!();
    expect(flushed).toEqual([[tok("abc"), tok("x", "b1", "s2")]]);
    c.push(tok("d"));
    expect(frames).toHaveLength(2);
    c.flush(); // explicit flush before a final message
    expect(flushed.at(-1)).toEqual([tok("d")]);
    frames[1]!(); // the scheduled frame finds nothing left
    expect(flushed).toHaveLength(2);
  });

  it("does not mutate the caller's batch", () => {
    const first = tok("a");
    const c = new TokenCoalescer(() => {}, () => {});
    c.push(first);
    c.push(tok("b"));
    expect(first.text).toBe("a");
  });
});
