import { describe, expect, it } from "vitest";
import type { ApprovalRequired, Message, ToolApproval } from "../api/gotypes.gen";
import { applyAck, applyApproval, applyFinished, applyLoaded, applyRerun, applyToolApproval, lastTurn, pendingApproval, pendingToolCall, settleApproval, type Threads } from "./reduce";

const T = "2026-11-21T01:00:00Z";
const msg = (id: string, role: Message["role"], content: string, status: Message["status"] = "complete"): Message => ({
  id, session_id: "s1", role, content, status, created_at: T,
});
const plan = { version: "v1", round: 1, task: "쇼츠", sub_tasks: [{ id: "s1", title: "대본", detail: "" }] };
const approvalEv: ApprovalRequired = { session_id: "s1", turn_id: "t1", message_id: "a1", approval: plan };

describe("plan approval in the chat reducer", () => {
  it("marks the reply as waiting whether the event comes before or after the final message", () => {
    for (const order of ["approval-first", "finished-first"]) {
      const th: Threads = {};
      applyAck(th, { session_id: "s1", turn_id: "t1", user_message: msg("u1", "user", "쇼츠"), assistant_message_id: "a1" });
      const finished = { session_id: "s1", turn_id: "t1", message: { ...msg("a1", "assistant", "Here is a plan", "awaiting_approval"), result: null }, result: { response: "", session_id: "s1", tools_used: [], sources: [], llm_calls: 2, prompt_tokens: 1, completion_tokens: 1, execution_ms: 5, plan } };
      if (order === "approval-first") {
        applyApproval(th, approvalEv);
        applyFinished(th, finished);
      } else {
        applyFinished(th, finished);
        applyApproval(th, approvalEv);
      }
      const p = pendingApproval(th.s1);
      expect(p?.plan, order).toEqual(plan);
      expect(p?.message.id).toBe("a1");
      settleApproval(th, "s1", "a1");
      expect(pendingApproval(th.s1), order).toBeUndefined();
    }
  });

  it("takes the plan or the tool call from the approval event alone, before the final message", () => {
    const th: Threads = {};
    applyAck(th, { session_id: "s1", turn_id: "t1", user_message: msg("u1", "user", "쇼츠"), assistant_message_id: "a1" });
    applyApproval(th, approvalEv);
    expect(pendingApproval(th.s1)?.plan).toEqual(plan);
    expect(th.s1!.messages.at(-1)!.status).toBe("awaiting_approval");

    const call: ToolApproval = { id: "c1", tool: "read_file", description: "", arguments: '{"path":"메모.txt"}', reason: "untrusted_context" };
    applyToolApproval(th, { session_id: "s1", turn_id: "t1", message_id: "a1", tool_call: call });
    expect(pendingToolCall(th.s1)?.call).toEqual(call);
    expect(pendingApproval(th.s1)).toBeUndefined();
  });

  it("restores a pending plan from stored history (reopening a session)", () => {
    const th: Threads = {};
    applyLoaded(th, "s1", [msg("u1", "user", "쇼츠"), { ...msg("a1", "assistant", "plan", "awaiting_approval"), result: { response: "", session_id: "s1", tools_used: [], sources: [], llm_calls: 1, prompt_tokens: 0, completion_tokens: 0, execution_ms: 0, plan } }]);
    expect(pendingApproval(th.s1)?.plan.round).toBe(1);
  });

  it("only the newest reply can be waiting", () => {
    const th: Threads = {};
    applyLoaded(th, "s1", [
      { ...msg("a0", "assistant", "old", "awaiting_approval"), result: { response: "", session_id: "s1", tools_used: [], sources: [], llm_calls: 1, prompt_tokens: 0, completion_tokens: 0, execution_ms: 0, plan } },
      msg("u1", "user", "✓"),
      msg("a1", "assistant", "guide"),
    ]);
    expect(pendingApproval(th.s1)).toBeUndefined();
  });

  it("a rerun replaces the last person message and its reply", () => {
    const th: Threads = {};
    applyLoaded(th, "s1", [msg("u0", "user", "hi"), msg("a0", "assistant", "hello"), msg("u1", "user", "typo"), msg("a1", "assistant", "answer")]);
    expect(lastTurn(th.s1)).toEqual({ user: th.s1!.messages[2], reply: th.s1!.messages[3] });
    applyRerun(th, { session_id: "s1", turn_id: "t2", user_message: msg("u2", "user", "fixed"), assistant_message_id: "a2" });
    expect(th.s1!.messages.map((m) => `${m.id}:${m.content}:${m.status}`)).toEqual(["u0:hi:complete", "a0:hello:complete", "u2:fixed:complete", "a2::streaming"]);
  });
});
