// The files a reply's tool calls returned (an MCP tool's pictures): a
// picture the backend gives is shown as a thumbnail; one it refuses, and
// any other file, is named with where it is, in the UI's language.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Message } from "../api/gotypes.gen";
import { setLang } from "../i18n/i18n.svelte";
import { FakeBackend } from "../testing/fakeBackend";
import { $, $$, cleanup, click, start } from "../testing/ui";

afterEach(() => {
  cleanup();
  setLang("en");
});

const T = "2026-11-26T22:00:00Z";
const PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const dir = "/home/you/.local/share/wayfinder/mcp-attachments/s1/";

function seeded(): FakeBackend {
  const fake = new FakeBackend({ settings: { language: "en" } });
  fake.sessions.push({ id: "s1", title: "그림", created_at: T, updated_at: T, message_count: 2, pending_approval: false, model: "" });
  const file = (name: string, kind: string, mime: string, size: number) => ({ name, kind, mime, size, path: dir + name, server: "every" });
  const reply: Message = {
    id: "a1", session_id: "s1", role: "assistant", content: "작은 그림을 가져왔습니다.", status: "complete", created_at: T,
    result: {
      response: "", session_id: "s1", tools_used: ["every__get-tiny-image"], sources: [], llm_calls: 2, prompt_tokens: 1, completion_tokens: 1, execution_ms: 5,
      tool_calls: [
        { id: "c1", tool: "every__get-tiny-image", server: "every", arguments: "{}", result: "[image image/png …]", decision: "run_once",
          attachments: [file("aaaaaaaaaaaaaaaaaaaaaaaa.png", "image", "image/png", 95), file("bbbbbbbbbbbbbbbbbbbbbbbb.png", "image", "image/png", 2048)] },
        { id: "c2", tool: "every__get-tiny-image", server: "every", arguments: "{}", result: "", decision: "run_once",
          attachments: [file("aaaaaaaaaaaaaaaaaaaaaaaa.png", "image", "image/png", 95), file("cccccccccccccccccccccccc.wav", "audio", "audio/wav", 3 << 20)] },
      ],
    },
  };
  fake.messages.set("s1", [{ id: "u1", session_id: "s1", role: "user", content: "작은 그림을 보여 줘", status: "complete", created_at: T }, reply]);
  fake.images.set("s1/aaaaaaaaaaaaaaaaaaaaaaaa.png", PNG);
  return fake;
}

describe("files from the tools", () => {
  it("shows a picture the backend gives, and names the others with where they are", async () => {
    const { fake } = await start({}, seeded());
    click("nav li button.open");
    await vi.waitFor(() => expect(document.querySelector(".tool-files img.thumb")).not.toBeNull(), { timeout: 5000 });
    const files = $$(".tool-files li.file");
    expect(files.map((f) => f.dataset.name)).toEqual(["aaaaaaaaaaaaaaaaaaaaaaaa.png", "bbbbbbbbbbbbbbbbbbbbbbbb.png", "cccccccccccccccccccccccc.wav"]);
    const img = $(".tool-files img.thumb") as HTMLImageElement;
    expect(img.getAttribute("src")).toBe(PNG);
    expect(img.alt).toBe("Picture from every__get-tiny-image");
    expect(files[0]!.querySelector(".where")).toBeNull();
    // Refused by the backend: not shown, named with its path.
    await vi.waitFor(() => expect(files[1]!.querySelector(".where")?.textContent).toBe(`Not shown here; the file is at ${dir}bbbbbbbbbbbbbbbbbbbbbbbb.png`), { timeout: 5000 });
    expect(files[1]!.querySelector("img")).toBeNull();
    expect(files[1]!.textContent).toContain("2 KB");
    // Not a picture: never asked for, named with its path.
    expect(files[2]!.textContent).toContain("audio/wav · 3 MB");
    expect(files[2]!.querySelector(".where")?.textContent).toContain(`${dir}cccccccccccccccccccccccc.wav`);
    const asked = fake.calls.filter((c) => c.method === "Attachment").map((c) => c.args);
    expect(asked).toEqual([["s1", "aaaaaaaaaaaaaaaaaaaaaaaa.png"], ["s1", "bbbbbbbbbbbbbbbbbbbbbbbb.png"]]);
  });

  it("says it in Korean", async () => {
    await start({}, seeded());
    setLang("ko");
    click("nav li button.open");
    await vi.waitFor(() => expect(document.querySelector(".tool-files li.file[data-kind='audio'] .where")).not.toBeNull(), { timeout: 5000 });
    expect($(".tool-files .sub").textContent).toBe("도구가 보낸 파일");
    expect($(".tool-files li.file[data-kind='audio'] .where").textContent).toBe(`여기에는 표시하지 않습니다. 파일 위치: ${dir}cccccccccccccccccccccccc.wav`);
    await vi.waitFor(() => expect(($(".tool-files img.thumb") as HTMLImageElement).alt).toBe("every__get-tiny-image에서 받은 그림"), { timeout: 5000 });
  });
});

describe("the tool calls under Details", () => {
  it("says a call failed after its decision, a space on each side of the dot", async () => {
    const fake = seeded();
    fake.messages.get("s1")![1]!.result!.tool_calls![1]!.error = true;
    await start({}, fake);
    click("nav li button.open");
    await vi.waitFor(() => expect($$(".details .calls li")).toHaveLength(2), { timeout: 5000 });
    expect($$(".details .calls li")[1]!.textContent!.trim()).toMatch(/^every \/ every__get-tiny-image · \S[^·]* · failed/);
  });

  it("words a result the trace words, in the UI's language, with what the model read folded under it", async () => {
    const fake = seeded();
    const english = "No documents matched \"출장비\". Try other words, or answer from general knowledge and say so.";
    fake.messages.get("s1")![1]!.result!.tool_calls!.unshift({
      id: "c0", tool: "retrieve_docs", arguments: '{"query":"출장비"}', result: english, decision: "auto", code: "no_matches", args: { query: "출장비" },
    });
    await start({}, fake);
    click("nav li button.open");
    await vi.waitFor(() => expect($$(".details .calls li")).toHaveLength(3), { timeout: 5000 });
    const [worded, plain] = $$(".details .calls li");
    expect(worded!.querySelector(".said")?.textContent).toBe("Nothing matched “출장비”");
    const raw = worded!.querySelector("details.raw") as HTMLDetailsElement;
    expect(raw.open).toBe(false);
    expect(raw.querySelector("summary")?.textContent).toBe("What the model read");
    expect(raw.querySelector("pre.result")?.textContent).toBe(english);
    // A result no line words (an MCP tool's) is shown as it came, not folded.
    expect(plain!.querySelector(".said")).toBeNull();
    expect(plain!.querySelector("details.raw")).toBeNull();
    expect(plain!.querySelector("pre.result")?.textContent).toBe("[image image/png …]");
    setLang("ko");
    await vi.waitFor(() => expect(worded!.querySelector(".said")?.textContent).toBe("“출장비”에 맞는 내용이 없음"));
    expect(raw.querySelector("summary")?.textContent).toBe("모델이 읽은 내용");
  });
});
