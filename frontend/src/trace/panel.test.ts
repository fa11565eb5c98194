// The trace panel's steps as the person sees them.
import { afterEach, describe, expect, it } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import type { TraceCode } from "../api/gotypes.gen";
import { setLang } from "../i18n/i18n.svelte";
import TracePanel from "./TracePanel.svelte";
import { applyTrace, newTrace } from "./reduce";

let c: ReturnType<typeof mount> | undefined;
afterEach(() => {
  if (c) unmount(c);
  c = undefined;
  document.body.innerHTML = "";
  setLang("en");
});

function panel(events: { code: TraceCode; args: Record<string, string> }[]) {
  const trace = newTrace("t1");
  for (const e of events) applyTrace(trace, { session_id: "s", turn_id: "t1", kind: "tool_selected", node: "answer", text: "English", code: e.code, args: e.args });
  const target = document.createElement("div");
  document.body.appendChild(target);
  c = mount(TracePanel, { target, props: { trace, workflow: null, onclose: () => {} } });
  flushSync();
  return [...target.querySelectorAll("[data-testid='trace-steps'] li")].map((li) => ({
    text: li.querySelector(".text")?.textContent ?? "",
    cause: li.querySelector(".cause")?.textContent ?? null,
  }));
}

describe("an MCP server that did not start, in the trace", () => {
  const error = 'start MCP server files: run npx: exec: "npx": executable file not found in $PATH';
  const mistakes = 'server "web": url "ftp://h" must be an http:// or https:// address';
  const events: { code: TraceCode; args: Record<string, string> }[] = [
    { code: "mcp_starting", args: { server: "files" } },
    { code: "mcp_failed", args: { server: "files", error, reason: "command_missing", command: "npx" } },
    { code: "mcp_invalid", args: { server: "web", error: mistakes } },
  ];

  it("says why in words first, and the raw cause apart, muted, under it", () => {
    expect(panel(events)).toEqual([
      { text: "Starting MCP server files", cause: null },
      { text: "MCP server files did not start (program not found: npx); going on without its tools", cause: error },
      { text: "MCP server web not started (its entry in mcp.json has mistakes; see Settings › MCP servers); going on without its tools", cause: mistakes },
    ]);
  });

  it("keeps the raw cause out of the Korean sentence", () => {
    setLang("ko");
    const [, failed, invalid] = panel(events);
    expect(failed).toEqual({ text: "MCP 서버 files 시작 실패(실행할 프로그램이 없음: npx) — 이 서버의 도구 없이 계속합니다", cause: error });
    expect(invalid!.text).not.toContain("ftp://");
    expect(invalid!.cause).toBe(mistakes);
  });
});

describe("a tool call and its result, in the trace", () => {
  type Ev = { kind: "tool_selected" | "tool_result"; tool: string; text: string; code?: TraceCode; args?: Record<string, string>; sources?: number };
  // What the backend sends for a turn that used the built-in tools
  // (backend/agent resultEvent): English text for logs, a code to word.
  const events: Ev[] = [
    { kind: "tool_selected", tool: "retrieve_docs", text: "연차 규정" },
    { kind: "tool_result", tool: "retrieve_docs", text: "Found: 연차 규정.pdf", code: "found_in", args: { titles: "연차 규정.pdf" }, sources: 2 },
    { kind: "tool_selected", tool: "read_memory", text: '{"query":"선호하는 편집 도구","k":5}' },
    { kind: "tool_result", tool: "read_memory", text: "Found 1 memory", code: "memories_found", args: { count: "1" } },
    { kind: "tool_result", tool: "web_search", text: "Nothing matched “vrew 가격”", code: "no_matches", args: { query: "vrew 가격" } },
    { kind: "tool_result", tool: "read_file", text: "Read /home/a/plan.md", code: "file_read", args: { path: "/home/a/plan.md" } },
    { kind: "tool_selected", tool: "get_time", text: "{}" },
    { kind: "tool_result", tool: "get_time", text: "The time: 2026-11-28T14:05:00+09:00 (Asia/Seoul)", code: "time_told", args: { time: "2026-11-28T14:05:00+09:00", zone: "Asia/Seoul" } },
    { kind: "tool_result", tool: "search_wikipedia", text: "Did not work; the model is told why", code: "tool_failed", args: { error: "no Wikipedia is set up" } },
    { kind: "tool_selected", tool: "read_file", text: '{"path":"plan.md"}' },
    // "path" is a file for read_file only: an MCP tool's may be a folder.
    { kind: "tool_selected", tool: "files__list_directory", text: '{"path":"/home/a"}' },
    // "language" is the Wikipedia edition for search_wikipedia only: an
    // MCP tool's may be a program's, and keeps its own name.
    { kind: "tool_selected", tool: "search_wikipedia", text: '{"query":"세종","language":"ko"}' },
    { kind: "tool_selected", tool: "code__run", text: '{"language":"python"}' },
    { kind: "tool_result", tool: "calculator", text: "56088" },
  ];

  function steps() {
    const trace = newTrace("t1");
    for (const e of events) {
      const sources = Array.from({ length: e.sources ?? 0 }, (_, i) => ({ id: `d${i}`, title: "연차 규정.pdf", source: "연차 규정.pdf", snippet: "", score: 1 }));
      applyTrace(trace, { session_id: "s", turn_id: "t1", node: "tools", ...e, sources });
    }
    const target = document.createElement("div");
    document.body.appendChild(target);
    c = mount(TracePanel, { target, props: { trace, workflow: null, onclose: () => {} } });
    flushSync();
    return [...target.querySelectorAll("[data-testid='trace-steps'] li")].map((li) =>
      [...li.querySelectorAll(".kind, .tool, .text, .cause")].map((e) => e.textContent).join(" | "),
    );
  }

  it("words every line in Korean: tool names, arguments and results", () => {
    setLang("ko");
    expect(steps()).toEqual([
      "도구 | 문서 검색 | 연차 규정",
      "결과 | 문서 검색 | 찾은 항목: 연차 규정.pdf | 출처 2개",
      "도구 | 기억 찾기 | 검색어: 선호하는 편집 도구\n최대 개수: 5",
      "결과 | 기억 찾기 | 기억 1개를 찾음",
      "결과 | 웹 검색 | “vrew 가격”에 맞는 내용이 없음",
      "결과 | 파일 읽기 | 파일을 읽음: /home/a/plan.md",
      "도구 | 시계 | 인자 없음",
      "결과 | 시계 | 현재 시각: 2026년 11월 28일 14:05 (Asia/Seoul)",
      "결과 | 위키백과 검색 | 실패함 — 모델에게 이유를 알림 | no Wikipedia is set up",
      "도구 | 파일 읽기 | 파일: plan.md",
      "도구 | files__list_directory | 경로: /home/a",
      "도구 | 위키백과 검색 | 검색어: 세종\n위키백과 언어: ko",
      "도구 | code__run | language: python",
      "결과 | 계산기 | 56088",
    ]);
  });

  it("and in English", () => {
    expect(steps()).toEqual([
      "Tool | Document search | 연차 규정",
      "Result | Document search | Found: 연차 규정.pdf | 2 sources",
      "Tool | Memory search | search for: 선호하는 편집 도구\nat most: 5",
      "Result | Memory search | Found 1 memory",
      "Result | Web search | Nothing matched “vrew 가격”",
      "Result | File reader | Read /home/a/plan.md",
      "Tool | Clock | no arguments",
      "Result | Clock | The time: 28 November 2026, 14:05 (Asia/Seoul)",
      "Result | Wikipedia search | Did not work; the model is told why | no Wikipedia is set up",
      "Tool | File reader | file: plan.md",
      "Tool | files__list_directory | path: /home/a",
      "Tool | Wikipedia search | search for: 세종\nedition: ko",
      "Tool | code__run | language: python",
      "Result | Calculator | 56088",
    ]);
  });
});
