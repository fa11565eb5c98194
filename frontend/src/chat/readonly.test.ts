// Read-only mode: with Ollama unreachable (or the chat model missing) the
// conversations, the knowledge base, memory and settings stay usable; only
// sending is held, with the reason and the fix beside the message box.
import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync } from "svelte";
import { FakeBackend } from "../testing/fakeBackend";
import { $, cleanup, click, fill, key, send, start } from "../testing/ui";
import { POLL_MS } from "../onboarding/store.svelte";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const awayForReply = {
  en: "Wayfinder couldn’t reach Ollama for this reply. How to start it is below; once it answers, Try again appears here.",
  ko: "이 답을 쓰는 데 필요한 Ollama에 연결할 수 없었습니다. 실행하는 방법은 아래에 있고, Ollama가 응답하면 여기에 ‘다시 시도’가 나타납니다.",
};

/** withConversation is a fake with one stored conversation of two messages. */
function withConversation(opts: ConstructorParameters<typeof FakeBackend>[0] = {}): FakeBackend {
  const fake = new FakeBackend({ settings: { language: "en" }, ...opts });
  fake.storeConversation({ title: "Leave policy", question: "How many days of leave do I get?", answer: "You get **15 days** a year." });
  return fake;
}

describe("read-only mode", () => {
  it("shows an old conversation with Ollama down; only sending waits, with the reason and the fix beside the box", async () => {
    const fake = withConversation({ reachable: false });
    await start({}, fake);
    click("nav li button.open");
    await vi.waitFor(() => expect(document.querySelectorAll("article[data-role]")).toHaveLength(2));
    expect($("article[data-role='assistant'] strong").textContent).toBe("15 days");
    expect(document.querySelector("section.onboarding")).toBeNull();

    const held = $("#composer-held");
    expect(held.dataset.problem).toBe("unreachable");
    expect(held.textContent).toContain("Sending is paused");
    expect(held.textContent).toContain("ollama serve");
    // The box stays, keeps what is typed, and says why Send is off.
    fill("#composer-input", "And sick days?");
    const send = $("button.send") as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    expect($("#composer-input").getAttribute("aria-describedby")).toBe("composer-held");
    key($("#composer-input"), "Enter");
    expect(fake.calls.filter((c) => c.method === "Send")).toHaveLength(0);
    expect(($("#composer-input") as HTMLTextAreaElement).value).toBe("And sick days?");
    // Copy and regenerate still read; regenerate waits too.
    expect(document.querySelector("button.copy-msg")).not.toBeNull();
    expect(document.querySelector("button.regenerate")).toBeNull();

    // Knowledge and memory open as usual.
    click(".views button:nth-child(1)");
    expect(document.querySelector("#kb-title")).not.toBeNull();
    click(".views button:nth-child(2)");
    await vi.waitFor(() => expect(document.querySelector("section.mem")).not.toBeNull());
  });

  // A turn that failed because Ollama did not answer holds sending at once,
  // where the screen said ready until a check came back: a check of a host
  // that does not answer takes its whole timeout (here it never answers).
  it.each([
    ["en", "Sending is paused: Wayfinder can’t reach Ollama."],
    ["ko", "Ollama에 연결할 수 없어 보내기를 잠시 멈췄습니다."],
  ] as const)("holds sending as soon as a turn finds Ollama down, before a check answers (%s)", async (language, said) => {
    const unreachable = { code: "ollama_unreachable" as const, message: "ollama is not reachable", hint: "ollama serve" };
    const fake = new FakeBackend({ settings: { language }, failWith: unreachable });
    await start({}, fake);
    await vi.waitFor(() => expect(fake.calls.some((c) => c.method === "Status")).toBe(true));
    expect(document.querySelector("#composer-held")).toBeNull();
    let checks = 0;
    (fake as unknown as Record<string, () => Promise<never>>)["SettingsService.Status"] = () => (checks++, new Promise<never>(() => {}));
    await send("hello");
    await vi.waitFor(() => expect(document.querySelector("article[data-role='assistant'][data-status='error']")).not.toBeNull());
    await vi.waitFor(() => expect(document.querySelector("#composer-held")).not.toBeNull(), { timeout: 500 });
    expect($("#composer-held").dataset.problem).toBe("unreachable");
    expect($("#composer-held").textContent).toContain(said);
    expect(($("button.send") as HTMLButtonElement).disabled).toBe(true);
    expect(checks).toBe(1);
    // One message says Ollama is away, with what to do: the banner by the
    // box. The reply says only that Ollama was away for it and that Try again
    // comes back (a red card said "cannot reach Ollama, start it" at once).
    const reply = $("article[data-role='assistant'][data-status='error']");
    expect(reply.querySelector("[role=alert]")).toBeNull();
    expect(reply.querySelector(".away")!.textContent).toBe(awayForReply[language]);
    expect(document.querySelectorAll("[role=alert]")).toHaveLength(0);
  });

  // A reply that broke off (or stalled) while Ollama still took a
  // connection (the backend asked: had nothing answered, the turn would
  // say ollama_unreachable, as above) holds nothing, but the status is
  // checked at once: while it says ready nothing else checks it.
  it.each(["stream_dropped", "timeout"] as const)("checks the status at once when a reply breaks off with %s, without holding sending", async (code) => {
    const fake = new FakeBackend({ settings: { language: "en" }, failWith: { code, message: "broke off" } });
    await start({}, fake);
    await vi.waitFor(() => expect(fake.calls.some((c) => c.method === "Status")).toBe(true));
    const statuses = () => fake.calls.filter((c) => c.method === "Status").length;
    const before = statuses();
    await send("hello");
    await vi.waitFor(() => expect(document.querySelector("article[data-role='assistant'][data-status='error']")).not.toBeNull());
    await vi.waitFor(() => expect(statuses()).toBe(before + 1), { timeout: 500 });
    expect(document.querySelector("#composer-held")).toBeNull();
    fill("#composer-input", "again");
    expect(($("button.send") as HTMLButtonElement).disabled).toBe(false);
  });

  it("releases sending by itself once Ollama answers, keeping the draft", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fake = withConversation({ reachable: false });
    await start({}, fake);
    click("nav li button.open");
    await vi.waitFor(() => expect(document.querySelector("#composer-held")).not.toBeNull());
    fill("#composer-input", "And sick days?");
    fake.status.reachable = true;
    await vi.advanceTimersByTimeAsync(POLL_MS + 10);
    flushSync();
    expect(document.querySelector("#composer-held")).toBeNull();
    key($("#composer-input"), "Enter");
    await vi.waitFor(() => expect(fake.calls.filter((c) => c.method === "Send")).toHaveLength(1));
    expect(fake.calls.find((c) => c.method === "Send")!.args.slice(0, 2)).toEqual(["old", "And sick days?"]);
  });

  it("guides a first start in a new chat, with the message box still there", async () => {
    await start({ reachable: false });
    expect($("section.onboarding").dataset.problem).toBe("unreachable");
    expect($("section.onboarding").textContent).toContain("ollama serve");
    expect(document.querySelector("#composer-input")).not.toBeNull();
    expect(($("button.send") as HTMLButtonElement).disabled).toBe(true);
  });

  it("holds sending while the chat model is missing and offers to download it", async () => {
    const fake = withConversation({ modelInstalled: false });
    await start({}, fake);
    click("nav li button.open");
    await vi.waitFor(() => expect(document.querySelector("#composer-held")).not.toBeNull());
    expect($("#composer-held").dataset.problem).toBe("model_missing");
    expect($("#composer-held").textContent).toContain("llama3.2:3b");
    click("#composer-held button.primary");
    await vi.waitFor(() => expect(document.querySelector("#composer-held")).toBeNull(), { timeout: 3000 });
    expect(fake.calls.some((c) => c.method === "Pull" && c.args[0] === "llama3.2:3b")).toBe(true);
  });
});

describe("a download beside the message box", () => {
  it("says the stage and the share done with a space on each side of the dot", async () => {
    const fake = withConversation({ modelInstalled: false, pullStepMs: 60_000 });
    await start({}, fake);
    click("nav li button.open");
    await vi.waitFor(() => expect(document.querySelector("#composer-held button.pull")).not.toBeNull(), { timeout: 5000 });
    click("#composer-held button.pull");
    await vi.waitFor(() => expect($("#composer-held .muted").textContent).toMatch(/\S · 20%$/), { timeout: 5000 });
  });
});

describe("settings with Ollama down or a model named without its tag", () => {
  it("does not call an installed model missing because Ollama lists it as name:latest", async () => {
    await start({ settings: { language: "en", embed_model: "bge-m3" } });
    click("button[aria-label='Settings']");
    await vi.waitFor(() => expect($("#set-embed").textContent).toContain("bge-m3:latest"));
    const embed = $("#set-embed") as HTMLSelectElement;
    const texts = [...embed.options].map((o) => o.textContent ?? "");
    expect(texts.some((x) => x.includes("not installed"))).toBe(false);
    expect(embed.selectedOptions[0]?.textContent).toContain("bge-m3");
    expect($("#set-embed").parentElement!.querySelector(".badge.good")?.textContent).toBe("embedding");
  });

  it("says it cannot tell what is installed while Ollama is unreachable", async () => {
    await start({ reachable: false, settings: { language: "en", chat_model: "qwen3:4b" } });
    click("button[aria-label='Settings']");
    await vi.waitFor(() => expect(($("#set-chat") as HTMLSelectElement).options.length).toBeGreaterThan(0));
    await vi.waitFor(() => expect($("#set-chat").textContent).toContain("can’t check"));
    expect($("#set-chat").textContent).not.toContain("not installed");
  });
});
