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
