import { afterEach, describe, expect, it } from "vitest";
import type { TraceCode } from "../api/gotypes.gen";
import { setLang } from "../i18n/i18n.svelte";
import { stepCause, stepPlace, stepText } from "./labels";

describe("stepText", () => {
  afterEach(() => setLang("en"));

  it("says a coded step in the UI's language, filling its blanks", () => {
    const step = { text: "Finding a tool for step 2: 영상 편집", code: "tool_finding" as TraceCode, args: { number: "2", step: "영상 편집" } };
    setLang("ko");
    expect(stepText(step)).toBe("2단계에 맞는 도구 찾기: 영상 편집");
    setLang("en");
    expect(stepText(step)).toBe("Finding a tool for step 2: 영상 편집");
  });

  it("words routes and the router's reasons, and keeps the model's own words", () => {
    setLang("ko");
    expect(stepText({ text: "", code: "routed", args: { route: "simple", reason: "short follow-up" } })).toBe("처리 방식: 바로 답변 (짧은 후속 질문)");
    setLang("en");
    expect(stepText({ text: "", code: "routed", args: { route: "end", reason: "out of scope: weather" } })).toBe("Route: stop here (out of scope: weather)");
  });

  it.each([
    ["en", "complex", "task words", "Route: plan first (the model's reply was unreadable; the message reads as a task)"],
    ["ko", "complex", "task words", "처리 방식: 계획부터 (모델의 응답을 읽을 수 없어 작업 요청으로 판단)"],
    ["en", "simple", "safe default", "Route: answer directly (the model's reply was unreadable)"],
    ["ko", "simple", "safe default", "처리 방식: 바로 답변 (모델의 응답을 읽을 수 없음)"],
    ["en", "complex", "unexplained task", "Route: plan first (the model gave no reason for its route; the message reads as a task)"],
    ["ko", "complex", "unexplained task", "처리 방식: 계획부터 (모델이 처리 방식의 이유를 대지 않았고 작업 요청으로 보임)"],
    ["en", "simple", "unexplained", "Route: answer directly (the model gave no reason for its route)"],
    ["ko", "simple", "unexplained", "처리 방식: 바로 답변 (모델이 처리 방식의 이유를 대지 않음)"],
  ] as const)("words the route taken when the router's reply was unreadable or unexplained (%s, %s)", (lang, route, reason, want) => {
    setLang(lang);
    expect(stepText({ text: "", code: "routed", args: { route, reason } })).toBe(want);
  });

  it("says a search that found nothing in the person's language, not the model's English", () => {
    const step = { text: 'No documents matched "영업시간". Try other words, or answer from general knowledge and say so.', code: "no_matches" as TraceCode, args: { query: "영업시간" } };
    setLang("ko");
    expect(stepText(step)).toBe("“영업시간”에 맞는 내용이 없음");
    setLang("en");
    expect(stepText(step)).toBe("Nothing matched “영업시간”");
  });

  it("shows free text as sent, and the backend's English for a code it does not know", () => {
    setLang("ko");
    expect(stepText({ text: '{"expression":"123*456"}' })).toBe('{"expression":"123*456"}');
    expect(stepText({ text: "Something new", code: "not_yet_known" as TraceCode, args: {} })).toBe("Something new");
  });

  it("says why an MCP server did not start from its parts, not the backend's English error", () => {
    const step = { text: "MCP server files did not start (start MCP server files: run npx: exec: ...)", code: "mcp_failed" as TraceCode, args: { server: "files", error: "start MCP server files: run npx: exec: ...", reason: "command_missing", command: "npx" } };
    setLang("ko");
    expect(stepText(step)).toBe("MCP 서버 files 시작 실패(실행할 프로그램이 없음: npx) — 이 서버의 도구 없이 계속합니다");
    expect(stepText({ ...step, args: { server: "files", error: "boom" } })).toBe("MCP 서버 files 시작 실패(오류 — 설정 › MCP 서버에서 확인) — 이 서버의 도구 없이 계속합니다");
    setLang("en");
    expect(stepText(step)).toBe("MCP server files did not start (program not found: npx); going on without its tools");
  });

  it("says an MCP server was not started for the mistakes of its entry, pointing to Settings", () => {
    const step = { text: "MCP server web not started (…)", code: "mcp_invalid" as TraceCode, args: { server: "web", error: 'server "web": url "ftp://h" must be an http:// or https:// address' } };
    setLang("ko");
    expect(stepText(step)).toBe("MCP 서버 web 시작 안 함(mcp.json의 항목에 잘못된 곳이 있음 — 설정 › MCP 서버에서 확인) — 이 서버의 도구 없이 계속합니다");
    setLang("en");
    expect(stepText(step)).toBe("MCP server web not started (its entry in mcp.json has mistakes; see Settings › MCP servers); going on without its tools");
  });

  it("says mcp.json could not be read in the form its args call for, the English mistake as the cause", () => {
    const error = "not valid JSON at line 3, column 7: invalid character";
    const step = (args: Record<string, string>) => ({ text: "MCP servers could not be read (…)", code: "mcp_unreadable" as TraceCode, args: { error, ...args } });
    setLang("ko");
    expect(stepText(step({ case: "mcp_syntax", line: "3", column: "7", servers: "" }))).toBe(
      "MCP 서버 설정을 읽지 못함(mcp.json의 3번째 줄 7번째 글자에서 JSON 형식이 잘못됨 — 설정 › MCP 서버에서 확인) — MCP 서버의 도구 없이 계속합니다",
    );
    expect(stepText(step({ case: "mcp_syntax", line: "3", column: "7", servers: "files" }))).toBe(
      "mcp.json을 다시 읽지 못함(3번째 줄 7번째 글자에서 JSON 형식이 잘못됨 — 설정 › MCP 서버에서 확인) — 고치기 전 설정대로 MCP 서버를 계속 실행합니다: files",
    );
    setLang("en");
    expect(stepText(step({ case: "mcp_not_object", servers: "" }))).toBe(
      "MCP servers could not be read (mcp.json has a mistake; see Settings › MCP servers); going on without their tools",
    );
    expect(stepText(step({ case: "mcp_too_big", servers: "files, web" }))).toBe(
      "mcp.json could not be read again (it has a mistake; see Settings › MCP servers); the MCP servers as set up before the edit keep running: files, web",
    );
    expect(stepCause(step({ case: "mcp_syntax" }))).toBe(error);
  });
});

describe("stepPlace", () => {
  afterEach(() => setLang("en"));

  it("names the node only where it adds to the kind of step", () => {
    for (const lang of ["en", "ko"] as const) {
      setLang(lang);
      // A tool chosen or answered at a tools node, a check at the checker: the kind says it all.
      expect(stepPlace({ kind: "tool_selected", node: "tools" })).toBe("");
      expect(stepPlace({ kind: "tool_result", node: "recommend_tools" })).toBe("");
      expect(stepPlace({ kind: "evaluation_result", node: "evaluate" })).toBe("");
    }
    setLang("ko");
    expect(stepPlace({ kind: "planning", node: "recommend" })).toBe("추천");
    expect(stepPlace({ kind: "sources", node: "tools" })).toBe("도구");
    // A kind and a node that read the same in Korean only.
    expect(stepPlace({ kind: "node_started", node: "start" })).toBe("");
    setLang("en");
    expect(stepPlace({ kind: "generating", node: "guide" })).toBe("Guide");
    expect(stepPlace({ kind: "node_started", node: "start" })).toBe("Start");
  });
});

describe("stepText of a failed model call", () => {
  afterEach(() => setLang("en"));

  it.each([
    ["en", "model_retry", { error: "stream_dropped", attempt: "2" }, "The model call failed (the reply was cut off); attempt 2"],
    ["ko", "model_retry", { error: "stream_dropped", attempt: "2" }, "모델 호출 실패(응답이 중간에 끊김), 2번째 시도"],
    ["en", "model_retry", { error: "something_new", attempt: "3" }, "The model call failed (an error); attempt 3"],
    ["ko", "model_retry", { error: "something_new", attempt: "3" }, "모델 호출 실패(오류), 3번째 시도"],
    ["en", "model_fallback", { model: "qwen3", fallback: "llama3.2", reason: "timeout" }, "qwen3 failed (it took too long to answer); continuing with llama3.2"],
    ["ko", "model_fallback", { model: "qwen3", fallback: "llama3.2", reason: "timeout" }, "qwen3 모델 실패(응답이 너무 오래 걸림): llama3.2 모델로 계속함"],
  ] as const)("words the cause, never the raw code (%s, %s, %o)", (lang, code, args, want) => {
    setLang(lang);
    const text = stepText({ text: "", code: code as TraceCode, args: { ...args } });
    expect(text).toBe(want);
    expect(text).not.toMatch(/[a-z]+_[a-z]+/);
  });
});
