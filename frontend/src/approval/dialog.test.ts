// The dialog alone, for what the fake's built-in read_file call does not
// show: a server's tool (MCP, later) with its own description, a
// read-only tool that asks before every call, arguments that are not an
// object, and a call offered again after a restart.
import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import type { ToolApproval } from "../api/gotypes.gen";
import ToolApprovalDialog from "./ToolApprovalDialog.svelte";
import { setLang } from "../i18n/i18n.svelte";
import en from "../i18n/en.json";
import ko from "../i18n/ko.json";

let app: ReturnType<typeof mount> | null = null;
afterEach(() => {
  if (app) unmount(app);
  app = null;
  document.body.innerHTML = "";
  setLang("en");
});

function show(call: ToolApproval) {
  const decided: string[] = [];
  const target = document.createElement("div");
  document.body.appendChild(target);
  app = mount(ToolApprovalDialog, { target, props: { call, ondecide: (a: string) => decided.push(a), onhide: () => decided.push("hidden") } });
  flushSync();
  return { decided, $: (sel: string) => document.querySelector<HTMLElement>(sel) };
}

describe("the tool approval dialog", () => {
  it("shows a server's tool as the server describes it, and why it asks", () => {
    const { $ } = show({ id: "c1", tool: "write_file", server: "filesystem", description: "Create or overwrite a file.", arguments: '{"path":"/tmp/a","content":"x"}', reason: "always_ask" });
    expect($(".server")!.textContent).toBe("filesystem");
    expect($(".description")!.textContent).toBe("Create or overwrite a file.");
    expect($(".reason")!.textContent).toBe("This tool asks before every call.");
    expect($(".badge")).toBeNull();
  });

  it("marks a read-only tool; a call asked again has no notice of its own (the conversation's line says why)", () => {
    const { $ } = show({ id: "c2", tool: "list_dir", server: "filesystem", description: "List a folder.", arguments: "{}", reason: "always_ask", read_only: true, again: "interrupted" });
    expect($(".badge")!.textContent).toBe("says it only reads");
    expect($(".again")).toBeNull();
    expect($("[role=status]")).toBeNull();
    expect($(".args .none")!.textContent).toBe("No arguments.");
  });

  it("shows arguments that are not an object as they came", () => {
    const { $ } = show({ id: "c3", tool: "odd", server: "x", description: "", arguments: "not json \u202E", reason: "always_ask" });
    expect($(".args pre.raw")!.textContent).toBe("not json \\u202E");
    expect($(".description")!.textContent).toBe("—");
  });

  it("decides only by its buttons: Escape hides, always needs a second click", async () => {
    const { decided, $ } = show({ id: "c4", tool: "read_file", description: "", arguments: '{"path":"a"}', reason: "untrusted_context" });
    $("button.always")!.click();
    flushSync();
    expect(decided).toEqual([]);
    // Escape first leaves the "always" confirmation, then hides.
    $("dialog")!.dispatchEvent(new Event("cancel", { cancelable: true }));
    flushSync();
    expect($("button.confirm-always")).toBeNull();
    $("dialog")!.dispatchEvent(new Event("cancel", { cancelable: true }));
    flushSync();
    await vi.waitFor(() => expect(decided).toEqual(["hidden"]));
    $("button.run-once")!.click();
    $("button.deny")!.click();
    expect(decided).toEqual(["hidden", "run_once", "deny"]);
  });

  it("describes a built-in tool for the person, in the UI's language, by what it reads or reaches; its exact name stays", () => {
    setLang("ko");
    const { $ } = show({ id: "c5", tool: "search_wikipedia", description: "Look a topic up in Wikipedia (an offline copy, or online if allowed)", arguments: '{"query":"서울"}', reason: "untrusted_context" });
    expect($(".description")!.textContent).toBe(ko["approval.desc.search_wikipedia"]);
    expect($(".description")!.textContent).toContain("위키백과");
    expect($(".description")!.textContent).not.toContain("Look a topic up");
    expect($(".name")!.textContent).toBe("위키백과 검색");
    expect($(".name")!.title).toBe("search_wikipedia");
    expect($(".tool")!.textContent).toBe("search_wikipedia");
    expect($(".server")!.textContent).toBe("Wayfinder 기본 도구");
  });

  // Every tool the window names as built in (trace.tool.*) has a
  // description for a person in both languages, and the dialog shows it.
  it.each(Object.keys(en).filter((k) => k.startsWith("trace.tool.")).map((k) => k.slice("trace.tool.".length)))("describes %s in English and Korean", (tool) => {
    for (const [lang, catalog] of [["en", en], ["ko", ko]] as const) {
      setLang(lang);
      const { $ } = show({ id: "c6", tool, description: "MODEL TEXT", arguments: "{}", reason: "untrusted_context" });
      const want = (catalog as Record<string, string>)[`approval.desc.${tool}`];
      expect(want, `${lang} approval.desc.${tool}`).toBeTruthy();
      expect($(".description")!.textContent).toBe(want);
      unmount(app!);
      app = null;
      document.body.innerHTML = "";
    }
  });

  it("shows an MCP tool's own description as text, never as HTML, even when it has a built-in tool's name", () => {
    setLang("ko");
    const evil = `<img src=x onerror="window.__xss=1"><script>window.__xss=2</script><b>bold</b>`;
    const { $ } = show({ id: "c7", tool: "read_file", server: "files", description: evil, arguments: "{}", reason: "always_ask" });
    expect($(".description")!.textContent).toBe(evil);
    expect($(".description img, .description script, .description b")).toBeNull();
    expect($(".name")).toBeNull();
    expect($(".tool")!.textContent).toBe("read_file");
    expect((window as unknown as { __xss?: number }).__xss).toBeUndefined();
  });
});
