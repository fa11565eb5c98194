import { afterEach, describe, expect, it, vi } from "vitest";
import type { Recommendation, TraceEvent } from "../api/gotypes.gen";
import { setLang } from "../i18n/i18n.svelte";
import { applyProgress, elapsed, newProgress, progressLines } from "./progress";
import { FakeBackend } from "../testing/fakeBackend";
import { $, $$, cleanup, click, send, start } from "../testing/ui";

const ev = (e: Partial<TraceEvent>): TraceEvent => ({ session_id: "s", turn_id: "t", kind: "planning", node: "", ...e });
const card = (id: string, tool: string): Recommendation => ({ subtask_id: id, tool, why: "", url: "", pricing: "", alternatives: [], sources: [] });
const finding = (id: string, n: number, total: number, step: string) => ev({ code: "tool_finding", args: { id, number: String(n), total: String(total), step } });
const done = (id: string, n: number, total: number, tool: string) =>
  ev({ kind: "evaluation_result", code: "step_recommend", args: { id, number: String(n), total: String(total), tool }, recommendation: card(id, tool) });

describe("progress", () => {
  afterEach(() => setLang("en"));

  it("says the phase, then each step with its number, and counts the steps done", () => {
    const p = newProgress(0);
    expect(progressLines(p, 0).map((l) => l.text)).toEqual(["Thinking…"]);
    applyProgress(p, ev({ code: "routing" }), 1000);
    expect(progressLines(p, 0)).toEqual([{ text: "Deciding how to handle your message…", since: 1000 }]);
    applyProgress(p, ev({ code: "plan_approved", args: { count: "4" } }), 2000);
    applyProgress(p, finding("s2", 2, 4, "Edit the video"), 3000);
    expect(progressLines(p, 0)).toEqual([{ text: "Step 2 of 4: finding a tool for “Edit the video”…", since: 3000 }]);
    applyProgress(p, ev({ kind: "evaluation_result", code: "step_missing", args: { id: "s2", number: "2", total: "4", step: "Edit the video", missing: "a free editor" } }), 4000);
    expect(progressLines(p, 0)[0]!.text).toBe("Step 2 of 4: still looking for a free editor…");
    applyProgress(p, done("s2", 2, 4, "Vrew"), 5000);
    applyProgress(p, finding("s3", 3, 4, "Make a thumbnail"), 5000);
    expect(progressLines(p, 0).map((l) => l.text)).toEqual(["Step 3 of 4: finding a tool for “Make a thumbnail”…", "1 of 4 steps done"]);
    expect(p.recommendations.map((r) => r.tool)).toEqual(["Vrew"]);
    applyProgress(p, ev({ kind: "retry", code: "model_retry", args: { error: "timeout", attempt: "2" } }), 6000);
    expect(progressLines(p, 0).at(-1)!.text).toBe("The model call failed (The model took too long to answer); trying again…");
    setLang("ko");
    expect(progressLines(p, 0).at(-1)!.text).toBe("모델 호출이 실패해 다시 시도하는 중… (모델의 응답이 너무 오래 걸렸습니다)");
    setLang("en");
    applyProgress(p, ev({ kind: "generating", code: "guide_writing" }), 7000);
    expect(progressLines(p, 0)).toEqual([{ text: "Writing the guide…", since: 7000 }]);
    setLang("ko");
    expect(progressLines(p, 0)[0]!.text).toBe("가이드를 쓰는 중…");
  });

  it("keeps several steps in flight at once, each with its own clock, in plan order", () => {
    const p = newProgress(0);
    applyProgress(p, finding("s3", 3, 3, "Thumbnail"), 100);
    applyProgress(p, finding("s1", 1, 3, "Script"), 200);
    applyProgress(p, finding("s2", 2, 3, "Edit"), 300);
    applyProgress(p, done("s3", 3, 3, "Canva"), 400);
    applyProgress(p, done("s1", 1, 3, "ChatGPT"), 500);
    expect(progressLines(p, 0)).toEqual([
      { text: "Step 2 of 3: finding a tool for “Edit”…", since: 300 },
      { text: "2 of 3 steps done", since: 0 },
    ]);
    // Cards come in the order the steps finished; each once.
    applyProgress(p, done("s1", 1, 3, "ChatGPT"), 600);
    expect(p.recommendations.map((r) => r.subtask_id)).toEqual(["s3", "s1"]);
  });

  it("says what a tool the answer uses does (an MCP tool by its name), and not the scout's searches", () => {
    const p = newProgress(0);
    applyProgress(p, ev({ kind: "node_started", node: "answer" }), 10);
    expect(progressLines(p, 0)[0]!.text).toBe("Writing the answer…");
    applyProgress(p, ev({ kind: "tool_selected", node: "answer_tools", tool: "calculator", text: '{"expression":"1+1"}' }), 20);
    expect(progressLines(p, 0)[0]!.text).toBe("Calculating…");
    applyProgress(p, ev({ kind: "tool_selected", node: "answer_tools", tool: "retrieve_docs", text: '{"query":"leave"}' }), 22);
    expect(progressLines(p, 0)[0]!.text).toBe("Searching your documents…");
    // An MCP server's tool is named as it is.
    applyProgress(p, ev({ kind: "tool_selected", node: "answer_tools", tool: "files__read_text_file", text: "{}" }), 25);
    expect(progressLines(p, 0)[0]!.text).toBe("Using files__read_text_file…");
    // A built-in tool without a sentence of its own is named as the trace names it.
    applyProgress(p, ev({ kind: "tool_selected", node: "answer_tools", tool: "search_catalog", text: '{"query":"video"}' }), 27);
    expect(progressLines(p, 0)[0]!.text).toBe("Using Tool catalog search…");
    setLang("ko");
    expect(progressLines(p, 0)[0]!.text).toBe("도구 목록 검색 사용 중…");
    setLang("en");
    applyProgress(p, finding("s1", 1, 1, "Script"), 30);
    applyProgress(p, ev({ kind: "tool_selected", node: "recommend_tools", tool: "search_catalog" }), 40);
    expect(progressLines(p, 0)[0]!.text).toBe("Step 1 of 1: finding a tool for “Script”…");
  });

  it("says which MCP server starts while the turn waits for it, and one that did not start", () => {
    const p = newProgress(0);
    applyProgress(p, ev({ kind: "node_started", node: "answer" }), 10);
    applyProgress(p, ev({ kind: "tool_selected", node: "answer", code: "mcp_starting", args: { server: "files" } }), 20);
    applyProgress(p, ev({ kind: "tool_selected", node: "answer", code: "mcp_starting", args: { server: "web" } }), 30);
    expect(progressLines(p, 0)).toEqual([
      { text: "Writing the answer…", since: 10 },
      { text: "Starting MCP server files…", since: 20 },
      { text: "Starting MCP server web…", since: 30 },
    ]);
    applyProgress(p, ev({ kind: "tool_selected", node: "answer", code: "mcp_started", args: { server: "files" } }), 40);
    const error = "start MCP server web: no answer to the MCP handshake in time: context deadline exceeded";
    applyProgress(p, ev({ kind: "tool_selected", node: "answer", code: "mcp_failed", args: { server: "web", error, reason: "timeout", seconds: "30" } }), 50);
    expect(progressLines(p, 0).slice(1)).toEqual([
      { text: "MCP server web did not start (no answer within 30 s); going on without its tools", detail: error, since: 50 },
    ]);
    setLang("ko");
    expect(progressLines(p, 0)[1]!.text).toBe("MCP 서버 web 시작 실패(30초 안에 응답 없음) — 이 서버의 도구 없이 계속합니다");
    applyProgress(p, ev({ kind: "tool_selected", node: "answer", code: "mcp_starting", args: { server: "files" } }), 60);
    expect(progressLines(p, 0).at(-1)!.text).toBe("MCP 서버 files 시작하는 중…");
  });

  it("says an MCP server whose entry in mcp.json has mistakes was not started, pointing to Settings", () => {
    const p = newProgress(0);
    applyProgress(p, ev({ kind: "node_started", node: "answer" }), 10);
    const error = 'server "web": url "ftp://h" must be an http:// or https:// address';
    applyProgress(p, ev({ kind: "tool_selected", node: "answer", code: "mcp_invalid", args: { server: "web", error } }), 20);
    expect(progressLines(p, 0).slice(1)).toEqual([
      { text: "MCP server web not started (its entry in mcp.json has mistakes; see Settings › MCP servers); going on without its tools", detail: error, since: 20 },
    ]);
    setLang("ko");
    expect(progressLines(p, 0)[1]!.text).toBe("MCP 서버 web 시작 안 함(mcp.json의 항목에 잘못된 곳이 있음 — 설정 › MCP 서버에서 확인) — 이 서버의 도구 없이 계속합니다");
  });

  it("says once that mcp.json could not be read, where it is not JSON, and the servers kept from before the edit", () => {
    const error = "not valid JSON at line 3, column 7: invalid character '}' after object key";
    const unreadable = (args: Record<string, string>) => {
      const p = newProgress(0);
      applyProgress(p, ev({ kind: "node_started", node: "answer" }), 10);
      applyProgress(p, ev({ kind: "tool_selected", node: "answer", code: "mcp_unreadable", args }), 20);
      return progressLines(p, 0).slice(1);
    };
    const syntax = { case: "mcp_syntax", line: "3", column: "7", servers: "", error };
    expect(unreadable(syntax)).toEqual([
      { text: "MCP servers could not be read (mcp.json is not valid JSON at line 3, column 7; see Settings › MCP servers); going on without their tools", detail: error, since: 20 },
    ]);
    expect(unreadable({ ...syntax, servers: "files, web" })[0]!.text).toBe(
      "mcp.json could not be read again (it is not valid JSON at line 3, column 7; see Settings › MCP servers); the MCP servers as set up before the edit keep running: files, web",
    );
    setLang("ko");
    expect(unreadable(syntax)[0]!.text).toBe("MCP 서버 설정을 읽지 못함(mcp.json의 3번째 줄 7번째 글자에서 JSON 형식이 잘못됨 — 설정 › MCP 서버에서 확인) — MCP 서버의 도구 없이 계속합니다");
    expect(unreadable({ case: "mcp_too_big", servers: "files", error: "too big" })[0]!.text).toBe(
      "mcp.json을 다시 읽지 못함(잘못된 곳이 있음 — 설정 › MCP 서버에서 확인) — 고치기 전 설정대로 MCP 서버를 계속 실행합니다: files",
    );
    expect(unreadable({ case: "mcp_too_big", error: "too big" })[0]).toEqual({
      text: "MCP 서버 설정을 읽지 못함(mcp.json에 잘못된 곳이 있음 — 설정 › MCP 서버에서 확인) — MCP 서버의 도구 없이 계속합니다",
      detail: "too big",
      since: 20,
    });
  });

  it("never puts the backend's English error inside a Korean line", () => {
    setLang("ko");
    const failed = (args: Record<string, string>) => {
      const p = newProgress(0);
      applyProgress(p, ev({ kind: "tool_selected", node: "answer", code: "mcp_starting", args: { server: "files" } }), 10);
      applyProgress(p, ev({ kind: "tool_selected", node: "answer", code: "mcp_failed", args: { server: "files", ...args } }), 20);
      return progressLines(p, 0).at(-1)!;
    };
    const missing = failed({ error: 'run npx: exec: "npx": executable file not found in $PATH', reason: "command_missing", command: "npx" });
    expect(missing.text).toBe("MCP 서버 files 시작 실패(실행할 프로그램이 없음: npx) — 이 서버의 도구 없이 계속합니다");
    expect(missing.detail).toContain("executable file not found");
    // A reason this build does not know, none at all (an older backend), or one missing its particular.
    for (const args of [{ error: "boom", reason: "something_new" }, { error: "boom" }, { error: "boom", reason: "exited" }] as Record<string, string>[]) {
      const line = failed(args);
      expect(line.text).toBe("MCP 서버 files 시작 실패(오류 — 설정 › MCP 서버에서 확인) — 이 서버의 도구 없이 계속합니다");
      expect(line.detail).toBe("boom");
    }
  });

  it("writes the time as m:ss", () => {
    expect(elapsed(0, 999)).toBe("0:00");
    expect(elapsed(0, 12_500)).toBe("0:12");
    expect(elapsed(0, 125_000)).toBe("2:05");
  });
});

describe("progress in the reply", () => {
  afterEach(cleanup);

  it("shows the phase while planning, then the steps, the cards one by one, and the guide under them", async () => {
    const fake = new FakeBackend({ settings: { language: "en" }, complex: () => true, stepDelayMs: 150, tokenDelayMs: 30 });
    await start({}, fake);
    await send("Make a YouTube Shorts video about my café");
    await vi.waitFor(() => expect(document.querySelector("article[data-status='streaming'] [role=status][data-phase='planning']")).not.toBeNull());
    expect($("article[data-status='streaming'] .progress").textContent).toContain("Making a plan: splitting the task into steps…");
    await vi.waitFor(() => expect(document.querySelector("dialog.plan[open]")).not.toBeNull(), { timeout: 3000 });
    click("dialog.plan button.approve");

    // Step 1 runs: its line, no card yet.
    await vi.waitFor(() => expect($("article[data-status='streaming'] .progress").textContent).toContain("Step 1 of 3: finding a tool for “Write the script”…"));
    expect(document.querySelectorAll("article[data-status='streaming'] .card")).toHaveLength(0);
    // A card appears as each step finishes, before the turn ends.
    await vi.waitFor(() => expect(document.querySelectorAll("article[data-status='streaming'] .card")).toHaveLength(1), { timeout: 3000 });
    expect($("article[data-status='streaming'] .progress").textContent).toMatch(/Step 2 of 3: finding a tool for “Edit the video”…|1 of 3 steps done/);
    await vi.waitFor(() => expect(document.querySelectorAll("article[data-status='streaming'] .card")).toHaveLength(2), { timeout: 3000 });
    // The guide streams under the cards.
    await vi.waitFor(() => expect(document.querySelector("article[data-status='streaming'] .bubble .md")).not.toBeNull(), { timeout: 3000 });
    const live = $("article[data-status='streaming']");
    expect(live.querySelector(".progress")!.textContent).toContain("Writing the guide…");
    expect(live.querySelectorAll(".card")).toHaveLength(3);
    const order = [...live.children].map((c) => c.className.split(" ")[0]);
    expect(order.indexOf("recs")).toBeLessThan(order.indexOf("bubble"));
    // Done: no progress line; the stored cards stay above the guide.
    await vi.waitFor(() => expect(document.querySelector("article[data-role='assistant'][data-status='complete'] .card")).not.toBeNull(), { timeout: 5000 });
    const final = $$("article[data-role='assistant']").at(-1)!;
    expect(final.querySelector(".progress")).toBeNull();
    expect(final.querySelectorAll(".card")).toHaveLength(3);
  });

  it("the trace of a failed turn says it failed, not that it finished", async () => {
    await start({ failWith: { code: "stream_dropped", message: "connection lost" }, reply: () => "A partial answer that is cut off half way" });
    await send("hello");
    await vi.waitFor(() => expect(document.querySelector("article[data-status='error']")).not.toBeNull());
    const state = $("#trace-panel .state").textContent ?? "";
    expect(state).toContain("Stopped by an error");
    expect(state).not.toContain("Finished.");
    expect($("#trace-panel").dataset.outcome).toBe("failed");
  });

  it("opens the trace from its button even before anything ran, at the first press", async () => {
    await start();
    expect(document.querySelector("#trace-panel")).toBeNull();
    // Not pressed while there is no panel; one press shows it.
    expect($("button.trace-toggle").getAttribute("aria-pressed")).toBe("false");
    click("button.trace-toggle");
    expect($("button.trace-toggle").getAttribute("aria-pressed")).toBe("true");
    expect($("#trace-panel .state").textContent).toContain("Steps appear here while Wayfinder works.");
    click("#trace-panel header button");
    expect(document.querySelector("#trace-panel")).toBeNull();
  });
});
