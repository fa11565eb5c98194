// A reply's Details list the turn's steps in the person's language, as the
// live trace beside the chat does: the backend's English sentence of a
// coded step ("Route: simple (a question)") is for logs, not for the window.
import { afterEach, describe, expect, it } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import type { Message, TraceEvent } from "../api/gotypes.gen";
import { setLang } from "../i18n/i18n.svelte";
import MessageItem from "./MessageItem.svelte";
import { applyTrace, newTrace } from "../trace/reduce";

let c: ReturnType<typeof mount> | undefined;
afterEach(() => {
  if (c) unmount(c);
  c = undefined;
  document.body.innerHTML = "";
  setLang("en");
});

const reply: Message = {
  id: "a1",
  session_id: "s",
  role: "assistant",
  content: "4",
  status: "complete",
  created_at: "2026-11-27T10:00:00Z",
  result: { response: "4", session_id: "s", tools_used: [], sources: [], llm_calls: 1, prompt_tokens: 10, completion_tokens: 2, execution_ms: 1200 },
};

const events: Partial<TraceEvent>[] = [
  { kind: "planning", node: "router", text: "Route: simple (question)", code: "routed", args: { route: "simple", reason: "question" } },
  { kind: "planning", node: "recommend", text: "Finding a tool for step 2: Edit the video", code: "tool_finding", args: { number: "2", step: "Edit the video" } },
  { kind: "tool_selected", node: "answer_tools", tool: "calculator", text: '{"expression":"2+2"}' },
];

/** steps opens the reply's Details and reads its list of steps. */
function steps(): string[] {
  const trace = newTrace("t1");
  for (const e of events) applyTrace(trace, { session_id: "s", turn_id: "t1", kind: "planning", node: "", ...e } as TraceEvent);
  const target = document.createElement("div");
  document.body.appendChild(target);
  c = mount(MessageItem, { target, props: { message: reply, trace } });
  flushSync();
  return [...target.querySelectorAll("details.details ol.steps li")].map((li) => li.textContent ?? "");
}

describe("a reply's Details, its steps", () => {
  it("are worded from their codes in English", () => {
    const got = steps();
    expect(got[0]).toContain("Route: answer directly (a question)");
    expect(got[1]).toContain("Finding a tool for step 2: Edit the video");
    // A tool call: the tool and its arguments named in words, not the model's JSON.
    expect(got[2]).toBe("Tool · Calculator — expression: 2+2");
  });

  it("name the tools used and the time in the person's language", () => {
    reply.result!.tools_used = ["retrieve_docs", "files__read_text_file"];
    try {
      setLang("ko");
      steps();
      const dd = [...document.querySelectorAll("details.details dd")].map((d) => d.textContent);
      expect(dd).toContain("1.2초");
      expect(dd).toContain("문서 검색, files__read_text_file");
      c && unmount(c);
      c = undefined;
      document.body.innerHTML = "";
      setLang("en");
      steps();
      expect([...document.querySelectorAll("details.details dd")].map((d) => d.textContent)).toEqual(expect.arrayContaining(["1.2 s", "Document search, files__read_text_file"]));
    } finally {
      reply.result!.tools_used = [];
    }
  });

  it("are worded in Korean, with no English sentence of the backend", () => {
    setLang("ko");
    const got = steps();
    expect(got[0]).toContain("처리 방식: 바로 답변 (질문)");
    expect(got[1]).toContain("2단계에 맞는 도구 찾기: Edit the video");
    expect(got[2]).toBe("도구 · 계산기 — 식: 2+2");
    expect(got.join("\n")).not.toMatch(/Route:|Finding a tool|calculator|expression/);
  });
});
