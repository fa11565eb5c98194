import { afterEach, describe, expect, it } from "vitest";
import type { Message, PlanApproval } from "../api/gotypes.gen";
import { setLang } from "../i18n/i18n.svelte";
import { planSummary, planTag, shownText } from "./lines";

afterEach(() => setLang("en"));

const plan: PlanApproval = { version: "v1", round: 1, task: "video", sub_tasks: [{ id: "s1", title: "Script", detail: "" }] };

function reply(content: string, extra: Partial<Message> = {}, result: Partial<Message["result"] & object> = {}): Message {
  return {
    id: "a1",
    session_id: "s",
    role: "assistant",
    content,
    status: "complete",
    created_at: "2026-11-26T00:00:00Z",
    result: { response: content, session_id: "s", tools_used: [], sources: [], llm_calls: 0, prompt_tokens: 0, completion_tokens: 0, execution_ms: 0, ...result },
    ...extra,
  };
}

describe("shownText", () => {
  it.each([
    ["a plan waiting, by key, in Korean", reply("Here is a plan — approve, edit or revise it.", { status: "awaiting_approval" }, { plan, text_key: "plan_intro" }), true, "계획을 세웠어요 — 승인하거나, 단계를 고치거나, 다시 세우도록 의견을 주세요."],
    ["an approved plan", reply("Here is a plan — approve, edit or revise it.", {}, { plan: { ...plan, decided: "approve" }, text_key: "plan_intro" }), false, "이 계획을 승인했습니다."],
    ["a cancelled plan", reply("계획을 세웠어요", {}, { plan: { ...plan, decided: "cancel" } }), false, "이 계획을 취소했습니다."],
    ["a plan stored before decisions were kept", reply("Here is a plan — approve, edit or revise it.", { status: "awaiting_approval" }, { plan }), false, "여기서 계획을 제안했습니다."],
    ["a tool call's question", reply("I would like to use read_file. Please decide whether it may run.", { status: "awaiting_approval" }, { tool_call: { id: "c", tool: "read_file", description: "", arguments: "{}", reason: "always_ask" }, text_key: "tool_ask", text_args: { tool: "read_file" } }), true, "파일 읽기 도구를 사용하려고 해요. 실행할지 정해 주세요."],
    ["a line stored without a key, recognised by its words", reply("Okay, I cancelled the plan. Tell me if there is anything else I can do."), false, "알겠어요, 계획을 취소했어요. 다른 도움이 필요하면 말씀해 주세요."],
    ["a tool call's question stored without a key, its tool recognised", reply("I would like to use web_search. Please decide whether it may run.", { status: "awaiting_approval" }, { tool_call: { id: "c", tool: "web_search", description: "", arguments: "{}", reason: "always_ask" } }), true, "웹 검색 도구를 사용하려고 해요. 실행할지 정해 주세요."],
    ["a remembered thing stored without a key, its words recognised", reply("Got it, I'll remember: “I like (green) tea.”\n\nYou can change or delete it any time in Memory."), false, "기억해 둘게요: “I like (green) tea.”\n\n메모리 화면에서 언제든 고치거나 지울 수 있어요."],
    ["a remembered thing, with its words", reply("Got it, I'll remember: “I like tea”\n\nYou can change or delete it any time in Memory.", {}, { text_key: "remembered", text_args: { what: "I like tea" } }), false, "기억해 둘게요: “I like tea”\n\n메모리 화면에서 언제든 고치거나 지울 수 있어요."],
    ["a plan stopped after some steps, with what was done and not", reply("You stopped…", { status: "awaiting_approval" }, { plan: { ...plan, again: "stopped" }, text_key: "plan_stopped", text_args: { done: "“Script”", left: "“Edit”, “Thumbnail”" } }), true, "계획 작업을 중지하셨어요. 도구를 찾은 단계(위에 있어요): “Script”. 하지 못한 단계: “Edit”, “Thumbnail”. 안내서도 아직 쓰지 않았어요. 승인한 계획 그대로 여기 있어요 — 다시 승인하면 찾은 도구는 그대로 두고 남은 단계부터 이어서 진행해요. 제목이나 설명을 고친 단계는 도구를 다시 찾아요."],
    ["a tool call the person stopped, not Wayfinder closing", reply("You stopped…", { status: "awaiting_approval" }, { tool_call: { id: "c", tool: "slow__wait", description: "", arguments: "{}", reason: "always_ask", again: "stopped" }, text_key: "tool_stopped", text_args: { tool: "slow__wait" } }), true, "slow__wait 도구 호출이 끝나기 전에 중지하셨어요. 일부는 이미 실행됐을 수 있어요. 다시 실행하거나 거부해 주세요."],
    ["the model's words, as written", reply("Hello there", {}, { text_key: "" }), false, "Hello there"],
    ["an unknown key keeps the words", reply("Hi", {}, { text_key: "no_such_line" }), false, "Hi"],
    ["a reply offered again keeps what it wrote before", reply("partial guide\n\nThe work on the plan you approved stopped before it finished. Here it is, with your edits — approve it again to go on.", { status: "awaiting_approval" }, { plan, text_key: "plan_again", response: "The work on the plan you approved stopped before it finished. Here it is, with your edits — approve it again to go on." }), true, "partial guide\n\n승인한 계획의 작업이 끝나기 전에 멈췄어요. 수정한 내용 그대로 여기 있어요 — 다시 승인하면 이어서 진행해요."],
  ])("%s", (_name, m, pending, want) => {
    setLang("ko");
    expect(shownText(m, pending)).toBe(want);
  });

  it("leaves a reply being written alone", () => {
    setLang("ko");
    const m = reply("Okay, I cancelled the plan. Tell me if there is anything else I can do.", { status: "streaming" });
    expect(shownText(m, false)).toBe(m.content);
  });
});

describe("planTag and planSummary", () => {
  const approved = reply("x", {}, { plan: { ...plan, decided: "approve" } });
  it.each([
    ["waiting", reply("x", { status: "awaiting_approval" }, { plan }), true, undefined, "plan.waiting", "plan.summary"],
    ["approved, the guide being written", approved, false, reply("", { status: "streaming" }), "plan.running", "plan.summaryApproved"],
    ["approved, done", approved, false, reply("guide"), "plan.done", "plan.summaryApproved"],
    ["approved, the work failed", approved, false, reply("", { status: "error" }), "plan.stoppedTag", "plan.summaryApproved"],
    ["approved, stopped and offered again", approved, false, reply("", { status: "awaiting_approval" }, { plan: { ...plan, again: "stopped" } }), "plan.stoppedTag", "plan.summaryApproved"],
    ["approved, a step's tool call waits", approved, false, reply("", { status: "awaiting_approval" }, { tool_call: { id: "c", tool: "read_file", description: "", arguments: "{}", reason: "always_ask" } }), "plan.running", "plan.summaryApproved"],
    ["cancelled", reply("x", {}, { plan: { ...plan, decided: "cancel" } }), false, reply("ok"), "plan.cancelledTag", "plan.summaryClosed"],
    ["revised", reply("x", {}, { plan: { ...plan, decided: "revise" } }), false, reply("ok"), "plan.revisedTag", "plan.summaryClosed"],
    ["no longer waiting, decision unknown", reply("x", { status: "awaiting_approval" }, { plan }), false, reply("ok"), undefined, "plan.summaryClosed"],
  ])("%s", (_name, m, pending, after, tag, summary) => {
    expect(planTag(m, pending, after)).toBe(tag);
    expect(planSummary(m, pending)).toBe(summary);
  });
});
