// Save and resend (EditLast) replaces the last message and its answer in
// the window as the backend does, whichever comes first: the turn's
// announcement (chat.turn_started, sent while the call is still open) or
// the call's answer. Before, with the announcement first, the old message
// and answer stayed on screen above the new ones until the conversation
// was opened again.
import { describe, expect, it } from "vitest";
import type { Message, SendAck } from "../api/gotypes.gen";
import { applyRerun, applyTurnStarted, type Threads } from "./reduce";

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const msg = (id: string, role: "user" | "assistant", content: string, s: number): Message => ({ id, session_id: "s", role, content, status: "complete", created_at: at(s) });

function conversation(): Threads {
  return { s: { messages: [msg("u1", "user", "first", 0), msg("a1", "assistant", "one", 1), msg("u2", "user", "helo", 2), msg("a2", "assistant", "hi", 3)], loaded: true } };
}

const edited: SendAck = { session_id: "s", turn_id: "t", user_message: msg("u3", "user", "hello again", 4), assistant_message_id: "a3" };
const regenerated: SendAck = { session_id: "s", turn_id: "t", user_message: msg("u2", "user", "helo", 2), assistant_message_id: "a3" };

describe("a rerun in the window", () => {
  it.each([
    ["the announcement first", true],
    ["the answer first", false],
  ])("an edit replaces the last message and its answer (%s)", (_, announcedFirst) => {
    const threads = conversation();
    if (announcedFirst) applyTurnStarted(threads, edited);
    applyRerun(threads, edited, "u2");
    if (!announcedFirst) applyTurnStarted(threads, edited);
    expect(threads.s!.messages.map((m) => m.id)).toEqual(["u1", "a1", "u3", "a3"]);
    expect(threads.s!.messages[2]!.content).toBe("hello again");
  });

  it.each([
    ["the announcement first", true],
    ["the answer first", false],
  ])("a regenerated answer keeps the earlier one as a variant (%s)", (_, announcedFirst) => {
    const threads = conversation();
    if (announcedFirst) applyTurnStarted(threads, regenerated);
    applyRerun(threads, regenerated);
    if (!announcedFirst) applyTurnStarted(threads, regenerated);
    const msgs = threads.s!.messages;
    expect(msgs.map((m) => m.id)).toEqual(["u1", "a1", "u2", "a3"]);
    expect(msgs[3]!.variants?.map((m) => m.id)).toEqual(["a2"]);
  });
});
